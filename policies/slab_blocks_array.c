/* slab_blocks_array.c - the blocks' arrays of free objects (SLAB's
 * array_cache: per CPU, shared, alien; a design's stack or batch), each
 * with the cache line of its header and hot end, and the per-CPU
 * statistics (layout and what each models: slab_blocks.h). */
#include "slab_blocks.h"

#include <stdlib.h>
#include <string.h>

int sb_array_init(struct sb_array *a, struct hw *hw, int node, unsigned int limit)
{
	a->obj = malloc((size_t)(limit ? limit : 1) * sizeof(*a->obj));
	a->avail = 0;
	a->limit = limit;
	hw_line_init(hw, &a->line, node);
	a->addr = 0;
	a->page = NULL;
	a->header = 0;
	a->next = NULL;
	return a->obj ? 0 : -1;
}

void sb_array_in_object(struct sb_array *a, const struct page_alloc *pa, kaddr_t addr,
			unsigned int header)
{
	a->addr = addr;
	a->page = virt_to_head_page(pa, addr);
	a->header = header;
}

void sb_array_destroy(struct sb_array *a)
{
	free(a->obj);
	a->obj = NULL;
	a->avail = a->limit = 0;
}

struct sb_array *sb_arrays_create(struct kernel *k, int n, unsigned int limit)
{
	struct sb_array *a = calloc((size_t)n, sizeof(*a));
	int ncpus = k->m->ncpus;
	for (int i = 0; a && i < n; i++)	/* array i belongs to CPU i * ncpus / n */
		if (sb_array_init(&a[i], k->hw, k->m->topo[(long)i * ncpus / n].node, limit) < 0) {
			sb_arrays_destroy(a, i);
			return NULL;
		}
	return a;
}

void sb_arrays_destroy(struct sb_array *a, int n)
{
	for (int i = 0; a && i < n; i++)
		sb_array_destroy(&a[i]);
	free(a);
}

/* ac = cpu_cache_get(): the array's header line, written by every use. */
void sb_array_touch(struct hw *hw, struct sim_cpu *cpu, struct sb_array *a)
{
	hw_write(hw, cpu, &a->line);
}

/* A magazine's mag_round[slot] or a sheaf's objects[slot]: the one line of
 * the object that word is on (its header's for slot -1). */
void sb_array_slot_touch(struct hw *hw, struct sim_cpu *cpu, struct sb_array *a, int slot,
			 bool write)
{
	if (!a->addr) {
		(write ? hw_write : hw_read)(hw, cpu, &a->line);
		return;
	}
	kaddr_t w = a->addr + (slot < 0 ? 0 : a->header + (kaddr_t)slot * sizeof(kaddr_t));
	uint64_t off = w - page_address(a->page);
	hw_obj_access(hw, cpu, &a->page->cl[off >> 6], w >> 6, 1, write, a->page->nid);
}

kaddr_t sb_array_get(struct hw *hw, struct sim_cpu *cpu, struct sb_array *a)
{
	sb_array_touch(hw, cpu, a);
	return sb_array_empty(a) ? 0 : sb_array_pop(a);
}

bool sb_array_put(struct hw *hw, struct sim_cpu *cpu, struct sb_array *a, kaddr_t obj)
{
	sb_array_touch(hw, cpu, a);
	if (sb_array_full(a))
		return false;
	sb_array_push(a, obj);
	return true;
}

void sb_array_append(struct sb_array *a, const kaddr_t *objs, unsigned int n)
{
	memcpy(a->obj + a->avail, objs, n * sizeof(*objs));
	a->avail += n;
}

void sb_array_drop_oldest(struct sb_array *a, unsigned int n)
{
	a->avail -= n;
	memmove(a->obj, a->obj + n, a->avail * sizeof(*a->obj));
}

unsigned int sb_array_transfer(struct sb_array *to, struct sb_array *from, unsigned int max)
{
	unsigned int nr = from->avail < max ? from->avail : max;
	if (nr > to->limit - to->avail)
		nr = to->limit - to->avail;
	from->avail -= nr;
	sb_array_append(to, from->obj + from->avail, nr);
	return nr;
}

unsigned int sb_array_refill(struct sb_cache *sc, struct sim_cpu *cpu, struct sb_array *a,
			     int nid, unsigned int n)
{
	if (n > a->limit - a->avail)
		n = a->limit - a->avail;
	unsigned int got = sb_get_objects(sc, cpu, nid, a->obj + a->avail, n);
	a->avail += got;
	return got;
}

void sb_array_flush(struct sb_cache *sc, struct sim_cpu *cpu, struct sb_array *a,
		    unsigned int n)
{
	if (n > a->avail)
		n = a->avail;
	sb_put_objects(sc, cpu, a->obj, n);
	sb_array_drop_oldest(a, n);
}

kaddr_t sb_array_alloc(struct sb_cache *sc, struct sim_cpu *cpu, struct sb_array *a, int nid,
		       unsigned int n, int sym, bool *refilled)
{
	kaddr_t obj = sb_array_get(sc->hw, cpu, a);
	*refilled = !obj;
	if (obj)
		return obj;
	int psym = sym_enter(cpu, sym);
	cpu_charge(cpu, sc->cost.refill);
	sb_array_refill(sc, cpu, a, nid, n);
	sym_exit(cpu, psym);
	return sb_array_empty(a) ? 0 : sb_array_pop(a);
}

bool sb_array_free(struct sb_cache *sc, struct sim_cpu *cpu, struct sb_array *a, kaddr_t obj,
		   unsigned int n, int sym)
{
	if (sb_array_put(sc->hw, cpu, a, obj))
		return false;
	int psym = sym_enter(cpu, sym);
	cpu_charge(cpu, sc->cost.flush);
	sb_array_flush(sc, cpu, a, n);
	sym_exit(cpu, psym);
	sb_array_push(a, obj);
	return true;
}

int sb_stats_init(struct sb_stats *st, const char *const *name, int n, int ncpus)
{
	st->name = name;
	st->n = n;
	st->ncpus = ncpus;
	st->v = calloc((size_t)n * (size_t)ncpus, sizeof(*st->v));
	return st->v ? 0 : -1;
}

void sb_stats_destroy(struct sb_stats *st)
{
	free(st->v);
	st->v = NULL;
}

void sb_stats_info(const struct sb_stats *st, struct cache_info *out)
{
	for (int i = 0; i < st->n && out->nstats < SLAB_MAX_STATS; i++) {
		struct slab_stat *s = &out->stats[out->nstats++];
		s->name = st->name[i];
		s->value = 0;
		for (int c = 0; c < st->ncpus; c++)
			s->value += st->v[(size_t)c * (size_t)st->n + (size_t)i];
	}
}
