/* slab_blocks.c - building blocks of a slab allocator design (layout and
 * what each models: slab_blocks.h). */
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

int sb_cache_init(struct sb_cache *sc, struct kernel *k, struct kmem_cache *kc,
		  const char *policy, unsigned int size, unsigned int order, unsigned int keep,
		  const struct sb_costs *cost, struct sim_err *err)
{
	unsigned long objects = (PAGE_SIZE << order) / size;
	if (!objects)
		return sim_fail(err, "%s: cache %s: %u-byte objects do not fit a slab of order %u",
				policy, kc->name, size, order);
	memset(sc, 0, sizeof(*sc));
	sc->k = k;
	sc->hw = k->hw;
	sc->kc = kc;
	sc->policy = policy;
	sc->order = order;
	sc->objects = objects > OBJ_NIL - 1 ? OBJ_NIL - 1 : (unsigned int)objects;
	sc->keep = keep;
	sc->nodes = k->m->nodes;
	sc->cost = *cost;
	sc->node = calloc((size_t)sc->nodes, sizeof(*sc->node));
	if (!sc->node)
		return sim_fail(err, "%s: out of memory creating cache %s", policy, kc->name);
	kc->size = size;
	snprintf(sc->lock_name, sizeof(sc->lock_name), "&n->list_lock [%s]", kc->name);
	hw_lock_class_init(sc->hw, &sc->lock_class, sc->lock_name, sc->hw->sym_spin_lock);
	for (int nid = 0; nid < sc->nodes; nid++) {
		struct sb_node *n = &sc->node[nid];
		hw_line_init(sc->hw, &n->line, nid);
		hw_lock_init(&n->list_lock, k->lock_kind, &n->line, &sc->lock_class);
		INIT_LIST_HEAD(&n->partial);
		INIT_LIST_HEAD(&n->full);
	}
	return 0;
}

void sb_cache_destroy(struct sb_cache *sc)
{
	free(sc->node);
	free(sc->all);
	free(sc->held);
	memset(sc, 0, sizeof(*sc));
}

/* Host memory ran out: say for which policy, and abort. */
static void out_of_memory(const struct sb_cache *sc)
{
	fprintf(stderr, "slabsim: %s: out of host memory\n", sc->policy);
	abort();
}

/* allocate_slab() and init_object(): pages of the node, then each free
 * pointer written in order (a prefetched stream of the objects' lines). */
struct page *sb_new_slab(struct sb_cache *sc, struct sim_cpu *cpu, int nid)
{
	int psym = sym_enter(cpu, sc->cost.sym_grow);
	struct page *page = alloc_pages_node(&sc->k->pa, cpu, nid, sc->order);
	if (!page) {
		sym_exit(cpu, psym);
		return NULL;
	}
	page->slab = sc->kc;
	page->flags |= PG_slab;
	page->order = (int8_t)sc->order;
	account_slab_pages(&sc->k->pa, page->nid, 1l << sc->order);
	slab_page_prepare(sc->k, page, sc->objects);
	cpu_charge(cpu, sc->cost.grow + sc->objects * sc->cost.init_object);
	slab_objs_stream(sc->hw, cpu, page, sc->objects);
	for (unsigned int i = 0; i < sc->objects; i++)
		page->obj[i].next = i + 1 < sc->objects ? (uint16_t)(i + 1) : OBJ_NIL;
	page->freelist = 0;
	page->inuse = 0;
	hw_write(sc->hw, cpu, &page->line);
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
	sym_exit(cpu, psym);
	return page;
}

/* discard_slab(): out of the registry, back to the page allocator. */
void sb_free_slab(struct sb_cache *sc, struct sim_cpu *cpu, struct page *page)
{
	int i = page->slab_idx;
	sc->all[i] = sc->all[--sc->nall];
	sc->all[i]->slab_idx = i;
	cpu_charge(cpu, sc->cost.destroy);
	page->flags &= ~PG_slab;
	page->slab = NULL;
	page->slab_idx = -1;
	account_slab_pages(&sc->k->pa, page->nid, -(1l << sc->order));
	__free_pages(&sc->k->pa, cpu, page, sc->order);
	sc->slabs_freed++;
}

/* slab_get_obj(): read the object's free pointer, unlink it. */
kaddr_t sb_take_obj(struct sb_cache *sc, struct sim_cpu *cpu, struct page *page)
{
	struct sb_node *n = &sc->node[page->nid];
	unsigned int idx = page->freelist;
	slab_obj_access(sc->hw, cpu, page, idx, 1, false);
	page->freelist = page->obj[idx].next;
	if (page->inuse++ == 0)
		n->nr_free--;
	if (page->inuse == sc->objects) {	/* now full */
		list_move(&page->lru, &n->full);
		n->nr_partial--;
		n->nr_full++;
	}
	cpu_charge(cpu, sc->cost.take);
	return slab_obj_addr(sc->kc, page, idx);
}

/* slab_put_obj(): write the object's free pointer, relink the slab. */
struct page *sb_put_obj(struct sb_cache *sc, struct sim_cpu *cpu, struct page *page,
			kaddr_t obj)
{
	struct sb_node *n = &sc->node[page->nid];
	unsigned int idx = slab_obj_index(sc->kc, page, obj);
	slab_obj_access(sc->hw, cpu, page, idx, 1, true);
	page->obj[idx].next = page->freelist;
	page->freelist = (uint16_t)idx;
	hw_write(sc->hw, cpu, &page->line);
	cpu_charge(cpu, sc->cost.put);
	if (page->inuse-- == sc->objects) {	/* was full */
		list_move(&page->lru, &n->partial);
		n->nr_full--;
		n->nr_partial++;
	}
	if (page->inuse)
		return NULL;
	if (n->nr_free < sc->keep) {
		n->nr_free++;
		return NULL;
	}
	list_del(&page->lru);
	n->nr_partial--;
	return page;
}

unsigned int sb_get_objects(struct sb_cache *sc, struct sim_cpu *cpu, int nid, kaddr_t *out,
			    unsigned int want)
{
	struct sb_node *n = &sc->node[nid];
	unsigned int got = 0;
	hw_spin_lock(sc->hw, cpu, &n->list_lock);
	hw_read(sc->hw, cpu, &n->line);
	while (got < want) {
		if (list_empty(&n->partial)) {	/* grow without the lock, as cache_grow */
			hw_spin_unlock(sc->hw, cpu, &n->list_lock);
			struct page *page = sb_new_slab(sc, cpu, nid);
			hw_spin_lock(sc->hw, cpu, &n->list_lock);
			if (!page)
				break;
			list_add(&page->lru, &n->partial);
			n->nr_partial++;
			n->nr_free++;
		}
		struct page *page = list_first_entry(&n->partial, struct page, lru);
		while (got < want && page->freelist != OBJ_NIL)
			out[got++] = sb_take_obj(sc, cpu, page);
	}
	hw_write(sc->hw, cpu, &n->line);
	hw_spin_unlock(sc->hw, cpu, &n->list_lock);
	return got;
}

void sb_put_objects(struct sb_cache *sc, struct sim_cpu *cpu, const kaddr_t *objs,
		    unsigned int nr)
{
	struct page *empty[16];
	unsigned int nempty = 0;
	struct sb_node *locked = NULL;
	for (unsigned int i = 0; i < nr; i++) {
		struct page *page = virt_to_head_page(&sc->k->pa, objs[i]);
		struct sb_node *n = &sc->node[page->nid];
		if (n != locked) {
			if (locked)
				hw_spin_unlock(sc->hw, cpu, &locked->list_lock);
			hw_spin_lock(sc->hw, cpu, &n->list_lock);
			hw_write(sc->hw, cpu, &n->line);
			locked = n;
		}
		struct page *e = sb_put_obj(sc, cpu, page, objs[i]);
		if (e)
			empty[nempty++] = e;
		if (nempty == ARRAY_SIZE(empty) || i + 1 == nr) {
			hw_spin_unlock(sc->hw, cpu, &locked->list_lock);
			locked = NULL;
			for (unsigned int j = 0; j < nempty; j++)
				sb_free_slab(sc, cpu, empty[j]);
			nempty = 0;
		}
	}
}

int sb_check_begin(struct sb_cache *sc, struct sim_err *err)
{
	free(sc->held);
	sc->held = calloc((size_t)sc->nall + 1, sizeof(*sc->held));
	return sc->held ? 0 : sim_fail(err, "%s: out of host memory for the check", sc->policy);
}

int sb_check_held(struct sb_cache *sc, kaddr_t obj, const char *where, struct sim_err *err)
{
	struct page *page = virt_to_head_page(&sc->k->pa, obj);
	const char *name = sc->kc->name;
	if (!page || !(page->flags & PG_slab) || page->slab != sc->kc)
		return sim_fail(err, "%s %s: %s holds %#llx, which is not an object of this cache",
				sc->policy, name, where, (unsigned long long)obj);
	if (page->slab_idx < 0 || page->slab_idx >= sc->nall || sc->all[page->slab_idx] != page)
		return sim_fail(err, "%s %s: %s holds an object of slab pfn %llu, which is not in "
				"the cache's registry", sc->policy, name, where,
				(unsigned long long)page->pfn);
	if (page->obj[slab_obj_index(sc->kc, page, obj)].live)
		return sim_fail(err, "%s %s: %s holds %#llx, an object in use", sc->policy, name,
				where, (unsigned long long)obj);
	sc->held[page->slab_idx]++;
	return 0;
}

int sb_check_array(struct sb_cache *sc, const struct sb_array *a, const char *where,
		   struct sim_err *err)
{
	for (unsigned int i = 0; i < a->avail; i++)
		if (sb_check_held(sc, a->obj[i], where, err) < 0)
			return -1;
	return 0;
}

/* One node's list: each slab of this node, filled as the list says. */
static int check_list(const struct sb_cache *sc, int nid, const struct list_head *head,
		      bool full, unsigned long *count, unsigned long *empty, struct sim_err *err)
{
	const char *list = full ? "full" : "partial", *name = sc->kc->name;
	const struct page *page;
	list_for_each_entry(page, head, lru) {
		if (++*count > (unsigned long)sc->nall)
			return sim_fail(err, "%s %s: node %d's %s list holds more slabs than the "
					"cache's %d (a slab on two lists, or a loop)", sc->policy, name,
					nid, list, sc->nall);
		if (page->nid != nid)
			return sim_fail(err, "%s %s: slab pfn %llu of node %d is on node %d's %s "
					"list", sc->policy, name, (unsigned long long)page->pfn,
					page->nid, nid, list);
		if (page->slab_idx < 0 || page->slab_idx >= sc->nall || sc->all[page->slab_idx] != page)
			return sim_fail(err, "%s %s: slab pfn %llu on node %d's %s list is not in the "
					"registry", sc->policy, name, (unsigned long long)page->pfn, nid,
					list);
		if (full && page->inuse != sc->objects)
			return sim_fail(err, "%s %s: slab pfn %llu is on node %d's full list with %u "
					"of %u objects in use", sc->policy, name,
					(unsigned long long)page->pfn, nid, page->inuse, sc->objects);
		if (!full && page->inuse >= sc->objects)
			return sim_fail(err, "%s %s: slab pfn %llu is on node %d's partial list but "
					"full (%u of %u objects in use)", sc->policy, name,
					(unsigned long long)page->pfn, nid, page->inuse, sc->objects);
		*empty += page->inuse == 0;
	}
	return 0;
}

int sb_check_end(struct sb_cache *sc, const char *held_where, struct sim_err *err)
{
	const char *name = sc->kc->name;
	long listed = 0;
	for (int nid = 0; nid < sc->nodes; nid++) {
		const struct sb_node *n = &sc->node[nid];
		unsigned long partial = 0, full = 0, empty = 0;
		if (check_list(sc, nid, &n->partial, false, &partial, &empty, err) < 0 ||
		    check_list(sc, nid, &n->full, true, &full, &empty, err) < 0)
			return -1;
		if (partial != n->nr_partial)
			return sim_fail(err, "%s %s: node %d's partial list holds %lu slabs, its "
					"nr_partial says %lu", sc->policy, name, nid, partial,
					n->nr_partial);
		if (full != n->nr_full)
			return sim_fail(err, "%s %s: node %d's full list holds %lu slabs, its nr_full "
					"says %lu", sc->policy, name, nid, full, n->nr_full);
		if (empty != n->nr_free)
			return sim_fail(err, "%s %s: node %d's partial list holds %lu empty slabs, its "
					"nr_free says %lu", sc->policy, name, nid, empty, n->nr_free);
		listed += (long)(partial + full);
	}
	if (listed != sc->nall)
		return sim_fail(err, "%s %s: %ld slabs are on the lists but the registry holds %d "
				"(a slab lost, or freed while listed)", sc->policy, name, listed,
				sc->nall);
	if (!sc->held && sb_check_begin(sc, err) < 0)
		return -1;
	return slab_check_pages(sc->kc, sc->all, sc->nall, sc->held, sc->policy, held_where, err);
}

void sb_cache_info(const struct sb_cache *sc, struct cache_info *out)
{
	out->order = sc->order;
	out->objs_per_slab = sc->objects;
	out->slabs = (uint64_t)sc->nall;
	out->slabs_peak = sc->slabs_peak;
	out->objects = (uint64_t)sc->nall * sc->objects;
	out->active = sc->kc->live;
	out->partial = 0;
	for (int nid = 0; nid < sc->nodes; nid++)
		out->partial += sc->node[nid].nr_partial;
	if (out->nstats + 2 <= SLAB_MAX_STATS) {
		out->stats[out->nstats++] = (struct slab_stat){ "SLAB_NEW", sc->slabs_new };
		out->stats[out->nstats++] = (struct slab_stat){ "SLAB_FREE", sc->slabs_freed };
	}
}
