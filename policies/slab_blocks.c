/* slab_blocks.c - building blocks of a slab allocator design: a cache's
 * set-up and list owners, its costs, slabs from the page allocator and
 * back, and the registry (layout and what each models: slab_blocks.h). */
#include "slab_blocks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/array_size.h"

unsigned int sb_slot_size(const struct kmem_cache *kc)
{
	unsigned int align = kc->align < sizeof(void *) ? (unsigned int)sizeof(void *) : kc->align;
	if ((kc->flags & SLAB_HWCACHE_ALIGN) && align < 64)	/* the caller wants its own lines */
		align = 64;
	return (kc->object_size + align - 1) / align * align;
}

unsigned int sb_kmalloc_max_8k(void *state)
{
	(void)state;
	return PAGE_SIZE << 1;
}

int sb_costs_lookup(struct kernel *k, struct sb_costs *c, struct sim_err *err)
{
	const struct cost_ref costs[] = {	/* SLAB's paths do this work */
		{ "slab.grow", &c->grow },	{ "slab.init_per_object", &c->init_object },
		{ "slab.destroy", &c->destroy },	{ "slab.per_object", &c->take },
		{ "slab.free_block", &c->put },	{ "slab.alloc_hit", &c->alloc },
		{ "slab.free_hit", &c->free },	{ "slab.refill", &c->refill },
		{ "slab.flush", &c->flush },
	};
	if (machine_costs(k->m, costs, ARRAY_SIZE(costs), err) < 0)
		return -1;
	c->sym_grow = profile_sym(&k->eng->prof, "sb_new_slab", SYM_SLAB);
	return 0;
}

unsigned int sb_order(unsigned int size, unsigned int min_objects, unsigned int max_order)
{
	for (unsigned int order = 0; order <= max_order; order++) {
		unsigned long slab = PAGE_SIZE << order, objects = slab / size;
		if (objects >= min_objects && (slab - objects * size) * 8 <= slab)
			return order;
	}
	return max_order;
}

/* Host memory ran out: say for which policy, and abort. */
static void out_of_memory(const struct sb_cache *sc)
{
	fprintf(stderr, "slabsim: %s: out of host memory\n", sc->policy);
	abort();
}

int sb_cache_setup(struct sb_cache *sc, struct kernel *k, struct kmem_cache *kc,
		   const struct sb_params *p, struct sim_err *err)
{
	unsigned long objects = p->objects ? p->objects : (PAGE_SIZE << p->order) / p->size;
	if (!objects)
		return sim_fail(err, "%s: cache %s: %u-byte objects do not fit a slab of order %u",
				p->policy, kc->name, p->size, p->order);
	static const char *const list_name[3] = { "partial", "full", "free" };
	*sc = (struct sb_cache){ .k = k, .hw = k->hw, .kc = kc, .policy = p->policy,
				 .order = p->order, .keep = p->keep, .flags = p->flags,
				 .bin_shift = p->bin_shift, .page_fields = p->page_fields,
				 .nodes = p->owners ? p->owners : k->m->nodes };
	sc->objects = objects > OBJ_NIL - 1 ? OBJ_NIL - 1 : (unsigned int)objects;
	for (int l = 0; l < 3; l++)
		sc->list_name[l] = p->list_name[l] ? p->list_name[l] : list_name[l];
	if (p->cost)
		sc->cost = *p->cost;
	else
		sc->cost.sym_grow = -1;
	sc->node = calloc((size_t)sc->nodes, sizeof(*sc->node));
	if (!sc->node || (!(p->flags & SB_OWN_NODES) &&
			  !(sc->own = calloc((size_t)sc->nodes, sizeof(*sc->own)))))
		return sim_fail(err, "%s: out of memory creating cache %s", p->policy, kc->name);
	kc->size = p->size;
	snprintf(sc->lock_name, sizeof(sc->lock_name), p->lock_name ? p->lock_name :
		 "&n->list_lock [%s]", kc->name);
	hw_lock_class_init(sc->hw, &sc->lock_class, sc->lock_name, sc->hw->sym_spin_lock);
	for (int i = 0; sc->own && i < sc->nodes; i++) {	/* per node, or the policy's count */
		char name[24];
		snprintf(name, sizeof(name), p->owners == 1 ? "the cache" : p->owners ? "list %d"
			 : "node %d", i);
		sb_node_init(sc, i, &sc->own[i], p->owners ? -1 : i, name);
	}
	return 0;
}

int sb_cache_init(struct sb_cache *sc, struct kernel *k, struct kmem_cache *kc,
		  const char *policy, unsigned int size, unsigned int order, unsigned int keep,
		  const struct sb_costs *cost, struct sim_err *err)
{
	const struct sb_params p = { .policy = policy, .size = size, .order = order, .keep = keep,
				     .flags = SB_FULL_LIST | SB_COUNT_EMPTY, .cost = cost };
	return sb_cache_setup(sc, k, kc, &p, err);
}

void sb_cache_destroy(struct sb_cache *sc)
{
	for (int i = 0; sc->node && i < sc->nodes; i++)
		if (sc->node[i])
			free(sc->node[i]->bins);
	free(sc->node);
	free(sc->own);
	free(sc->all);
	free(sc->held);
	memset(sc, 0, sizeof(*sc));
}

void sb_node_init(struct sb_cache *sc, int i, struct sb_node *n, int nid, const char *name)
{
	hw_line_init(sc->hw, &n->line, nid < 0 ? 0 : nid);
	hw_lock_init(&n->list_lock, sc->k->lock_kind, &n->line, &sc->lock_class);
	INIT_LIST_HEAD(&n->partial);
	INIT_LIST_HEAD(&n->full);
	INIT_LIST_HEAD(&n->free);
	n->bins = NULL;
	n->top = -1;
	if (sc->flags & SB_BINS) {
		if (!(n->bins = malloc((sc->objects + 1) * sizeof(*n->bins))))
			out_of_memory(sc);
		for (unsigned int b = 0; b <= sc->objects; b++)
			INIT_LIST_HEAD(&n->bins[b]);
	}
	n->nr_partial = n->nr_full = n->nr_free = 0;
	n->nr_slabs = 0;
	n->nid = nid;
	snprintf(n->name, sizeof(n->name), "%s", name);
	sc->node[i] = n;
}

struct page *sb_slab_alloc(struct sb_cache *sc, struct sim_cpu *cpu, int nid, unsigned int order,
			   unsigned int objects)
{
	struct page *page = alloc_pages_node(&sc->k->pa, cpu, nid, order);
	if (!page)
		return NULL;
	page->slab = sc->kc;
	page->flags |= PG_slab;
	page->order = (int8_t)order;
	page->sb_list = SB_NONE;
	account_slab_pages(&sc->k->pa, page->nid, 1l << order);
	slab_page_prepare(sc->k, page, objects);
	return page;
}

void sb_slab_chain(struct page *page)
{
	for (unsigned int i = 0; i < page->objects; i++)
		page->obj[i].next = i + 1 < page->objects ? (uint16_t)(i + 1) : OBJ_NIL;
	page->freelist = 0;
	page->inuse = 0;
}

void sb_slab_release(struct sb_cache *sc, struct sim_cpu *cpu, struct page *page)
{
	unsigned int order = (unsigned int)page->order;
	page->flags &= ~PG_slab;
	page->slab = NULL;
	account_slab_pages(&sc->k->pa, page->nid, -(1l << order));
	__free_pages(&sc->k->pa, cpu, page, order);
}

void sb_slab_register(struct sb_cache *sc, struct page *page)
{
	if (sc->nall == sc->all_cap) {
		sc->all_cap = sc->all_cap ? 2 * sc->all_cap : 64;
		sc->all = realloc(sc->all, (size_t)sc->all_cap * sizeof(*sc->all));
		if (!sc->all)
			out_of_memory(sc);
	}
	page->slab_idx = sc->nall;
	sc->all[sc->nall++] = page;
	if ((uint64_t)sc->nall > sc->slabs_peak)
		sc->slabs_peak = (uint64_t)sc->nall;
	sc->slabs_new++;
}

void sb_slab_unregister(struct sb_cache *sc, struct page *page)
{
	int i = page->slab_idx;
	sc->all[i] = sc->all[--sc->nall];
	sc->all[i]->slab_idx = i;
	page->slab_idx = -1;
	sc->slabs_freed++;
}

/* allocate_slab() and init_object(): pages of the node, then each free
 * pointer written in order (a prefetched stream of the objects' lines). */
struct page *sb_new_slab(struct sb_cache *sc, struct sim_cpu *cpu, int nid)
{
	int psym = sc->cost.sym_grow >= 0 ? sym_enter(cpu, sc->cost.sym_grow) : cpu->sym;
	struct page *page = sb_slab_alloc(sc, cpu, nid, sc->order, sc->objects);
	if (!page) {
		sym_exit(cpu, psym);
		return NULL;
	}
	cpu_charge(cpu, sc->cost.grow + sc->objects * sc->cost.init_object);
	slab_objs_stream(sc->hw, cpu, page, sc->objects);
	sb_slab_chain(page);
	if (sc->page_fields)
		page_access(&sc->k->pa, cpu, page, sc->page_fields, true);
	else
		hw_write(sc->hw, cpu, &page->line);
	sb_slab_register(sc, page);
	sym_exit(cpu, psym);
	return page;
}

/* discard_slab(): out of the registry, back to the page allocator. */
void sb_free_slab(struct sb_cache *sc, struct sim_cpu *cpu, struct page *page)
{
	sb_slab_unregister(sc, page);
	cpu_charge(cpu, sc->cost.destroy);
	sb_slab_release(sc, cpu, page);
}
