/* slqb_geometry.c - SLQB's parameters, the shape of each cache
 * (calculate_sizes: order up to 1 with at most 1/4 waste, else the
 * smallest order that fits; freebatch and hiwater by object size), and the
 * per-CPU trim worker that runs every 3 s as delayed work. */
#include <stdlib.h>
#include <string.h>

#include "kernel/workqueue.h"
#include "slqb.h"
#include "kernel/bitops.h"

const struct param_def slqb_param_defs[] = {
	{ "slqb_min_order", PT_INT, "0", 0, 10, NULL, "smallest page order of a slab" },
	{ "slqb_min_objects", PT_INT, "1", 1, 4096, NULL, "objects a slab should hold at least" },
	{ "slqb_freebatch", PT_INT, "0", 0, 65535, NULL,
	  "objects flushed at once, every cache (0: max(4*PAGE_SIZE/size, min(256, "
	  "64*PAGE_SIZE/size)))" },
	{ "slqb_hiwater", PT_INT, "0", 0, 1 << 20, NULL,
	  "LIFO length that triggers a flush (0: 4 * freebatch)" },
	{ NULL },
};

#define ALIGN(x, a) (((x) + (a) - 1) & ~((a) - 1))
#define CACHE_LINE 64u

/* slab_order(): from the order the size needs, the first with at most
 * 1/frac waste (frac 0: any) and min_objects objects. */
static int slab_order(const struct slqb *q, unsigned int size, int max_order, int frac)
{
	int order = fls(size - 1) <= PAGE_SHIFT ? 0 : fls(size - 1) - PAGE_SHIFT;
	if (order < q->min_order)
		order = q->min_order;
	for (; order <= max_order; order++) {
		unsigned long slab_size = PAGE_SIZE << order;
		unsigned long objects = slab_size / size;
		if (!objects || (order < MAX_ORDER && objects < (unsigned long)q->min_objects))
			continue;
		if ((slab_size - objects * size) * (unsigned long)frac <= slab_size)
			break;
	}
	return order;
}

int slqb_calculate_geometry(struct slqb *q, struct slqb_cache *s, struct sim_err *err)
{
	struct kmem_cache *kc = s->kc;
	unsigned int align = kc->align;
	if (kc->flags & SLAB_HWCACHE_ALIGN) {	/* calculate_alignment() */
		unsigned int ralign = CACHE_LINE;
		while (kc->object_size <= ralign / 2)
			ralign /= 2;
		if (ralign > align)
			align = ralign;
	}
	if (align < sizeof(void *))
		align = sizeof(void *);
	align = ALIGN(align, (unsigned int)sizeof(void *));
	unsigned int size = ALIGN(ALIGN(kc->object_size, (unsigned int)sizeof(void *)), align);
	int order = slab_order(q, size, 1, 4);	/* calculate_order() */
	if (order > 1)
		order = slab_order(q, size, MAX_ORDER - 1, 0);
	if (order >= MAX_ORDER)
		return sim_fail(err, "cache %s: no slab order fits objects of %u bytes", kc->name,
				size);
	kc->size = size;
	s->order = order;
	s->objects = (unsigned int)((PAGE_SIZE << order) / size);
	if (s->objects > OBJ_NIL - 1)
		s->objects = OBJ_NIL - 1;
	unsigned long fb = 64 * PAGE_SIZE / size;
	if (fb > 256)
		fb = 256;
	if (4 * PAGE_SIZE / size > fb)
		fb = 4 * PAGE_SIZE / size;
	s->freebatch = q->tune_freebatch ? q->tune_freebatch : fb ? (int)fb : 1;
	s->hiwater = q->tune_hiwater ? q->tune_hiwater : s->freebatch << 2;
	if (s->hiwater < s->freebatch)
		return sim_fail(err, "slqb_hiwater=%d is below freebatch %d (cache %s)", s->hiwater,
				s->freebatch, kc->name);
	s->numa = q->nodes > 1;	/* SLAB_NUMA when num_possible_nodes() > 1 */
	s->colour_off = CACHE_LINE;
	s->colour_range = (unsigned int)((PAGE_SIZE << order) - (unsigned long)s->objects * size);
	return 0;
}

/* --- cache_trim_worker --- */

/* Every cache: the node list's queues (under its list_lock), then this
 * CPU's: claim remote frees, flush one batch, flush rlist. */
static bool cache_trim_worker(struct housekeeping *h, struct task *cur)
{
	struct slqb *q = h->arg;
	struct sim_cpu *cpu = task_cpu(cur);
	int node = q->k->m->topo[cpu->id].node;
	int psym = sym_enter(cpu, q->sym_trim);
	bool progress = false;
	for (int i = 0; i < q->ncaches; i++) {
		struct slqb_cache *s = q->caches[i];
		cpu_charge(cpu, q->cost_trim);
		if (q->nodes > 1) {
			struct kmem_cache_node *n = &s->node_slab[node];
			hw_spin_lock(q->hw, cpu, &n->list_lock);
			progress |= n->list.freelist.nr || n->list.remote_free.list.nr;
			slqb_claim_remote_free_list(q, cpu, s, &n->list);
			slqb_flush_free_list(q, cpu, s, &n->list);
			hw_spin_unlock(q->hw, cpu, &n->list_lock);
		}
		struct kmem_cache_cpu *c = &s->cpu_slab[cpu->id];
		progress |= c->list.freelist.nr || c->list.remote_free.list.nr || c->rlist.nr;
		slqb_claim_remote_free_list(q, cpu, s, &c->list);	/* kmem_cache_trim_percpu */
		slqb_flush_free_list(q, cpu, s, &c->list);
		slqb_flush_remote_free_cache(q, cpu, s, c);
	}
	sym_exit(cpu, psym);
	return progress;
}

int slqb_trim_init(struct slqb *q, struct sim_err *err)
{
	if (housekeeping_init(&q->trim, q->k, q->ncpus,
			      (uint64_t)(SLQB_TRIM_S * q->k->m->ghz * 1e9), cache_trim_worker, q) < 0)
		return sim_fail(err, "out of memory");
	return 0;
}
