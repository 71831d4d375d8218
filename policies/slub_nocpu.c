/* slub_nocpu.c - SLUB of 7.0 below the sheaves: no CPU slab and no per-CPU
 * partial lists (mm/slub.c after "slab: remove cpu (partial) slabs usage").
 * A sheaf is refilled with whole freelists of partial slabs taken off the
 * node's list (get_partial_node_bulk, get_freelist_nofreeze), else from
 * other nodes' lists now and then, else from new slabs; an allocation the
 * sheaves cannot serve takes one object from a partial slab
 * (get_from_partial_node) or a new slab; frees the sheaves do not take,
 * and sheaf flushes, go to __slab_free, which puts a slab that was full on
 * its node's partial list and gives back one that became empty, both under
 * list_lock. PG_partial marks the slabs on a partial list
 * (slab_test_node_partial): a slab a refill has taken off is on none. */
#include "slub.h"

/* get_node(): the cache's kmem_cache_node of a node (the blocks' owner). */
static inline struct sb_node *get_node(struct slub_cache *s, int node)
{
	return s->sc.node[node];
}

/* numa_mem_id(): the running CPU's nearest node with memory, taken as its own node. */
static inline int numa_mem_id(const struct slub *sl, const struct sim_cpu *cpu)
{
	return sl->k->m->topo[cpu->id].node;
}

/* remove_partial(): the caller holds n->list_lock. */
static void remove_partial_locked(struct slub *sl, struct sim_cpu *cpu, struct sb_node *n,
			   struct page *page)
{
	cpu_charge(cpu, sl->cost_list);
	slub_del_partial_locked(sl, cpu, n, page);
}

/* A racy look at a node's partial count (data_race(n->nr_partial)). */
static unsigned long peek_nr_partial(struct slub *sl, struct sim_cpu *cpu,
				     struct sb_node *n)
{
	cpu_sync(cpu);
	hw_read(sl->hw, cpu, &n->line);
	return n->nr_partial;
}

/* __slab_free() of 7.0: a chain head..tail of `cnt` objects of one slab
 * back with cmpxchg_double; list_lock (taken before the cmpxchg) only when
 * the slab was full or becomes empty. */
void slub_slab_free_nocpu(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			  struct slub_cache *s, struct page *page, uint16_t head, uint16_t tail,
			  int cnt)
{
	int psym = sym_enter(cpu, sl->sym_slab_free);
	cpu_charge(cpu, sl->cost_free_slow);
	struct sb_node *n = NULL;
	struct slab_counters old, new;
	bool was_full, on_node_partial = false;
	do {
		if (n) {
			hw_spin_unlock(sl->hw, cpu, &n->list_lock);
			n = NULL;
		}
		slub_read_counters(sl, cpu, page, &old);
		was_full = old.freelist == OBJ_NIL;
		slub_set_freepointer(sl, cpu, page, tail, old.freelist);
		new = old;
		new.inuse = (uint16_t)(old.inuse - cnt);
		new.freelist = head;
		if (!new.inuse || was_full) {
			n = get_node(s, page->nid);
			hw_spin_lock(sl->hw, cpu, &n->list_lock);
			on_node_partial = page->flags & PG_partial;
		}
	} while (!slub_cmpxchg_double_slab(sl, cpu, c, page, &old, &new));
	if (!n) {
		sym_exit(cpu, psym);
		return;
	}
	if (!was_full && !on_node_partial) {	/* a refill holds it off the list */
		hw_spin_unlock(sl->hw, cpu, &n->list_lock);
		sym_exit(cpu, psym);
		return;
	}
	if (!new.inuse && n->nr_partial >= s->min_partial) {	/* slab_empty: */
		if (!was_full) {
			remove_partial_locked(sl, cpu, n, page);
			slub_stat(c, FREE_REMOVE_PARTIAL);
		}
		hw_spin_unlock(sl->hw, cpu, &n->list_lock);
		slub_stat(c, FREE_SLAB);
		slub_discard_slab(sl, cpu, s, page);
		sym_exit(cpu, psym);
		return;
	}
	if (was_full) {
		slub_add_partial_locked(sl, cpu, n, page, 1);
		slub_stat(c, FREE_ADD_PARTIAL);
	}
	hw_spin_unlock(sl->hw, cpu, &n->list_lock);
	sym_exit(cpu, psym);
}

/* get_freelist_nofreeze(): the whole freelist of a slab off every list;
 * it then looks full. */
static uint16_t get_freelist_nofreeze(struct slub *sl, struct sim_cpu *cpu,
				      struct kmem_cache_cpu *c, struct page *page)
{
	struct slab_counters old, new;
	do {
		slub_read_counters(sl, cpu, page, &old);
		new = old;
		new.freelist = OBJ_NIL;
		new.inuse = page->objects;
	} while (!slub_cmpxchg_double_slab(sl, cpu, c, page, &old, &new));
	return old.freelist;
}

/* alloc_from_new_slab(): `count` objects of a new slab, which joins the
 * partial list if objects are left. */
static unsigned int alloc_from_new_slab(struct slub *sl, struct sim_cpu *cpu, struct slub_cache *s,
					struct page *page, kaddr_t *p, unsigned int count)
{
	unsigned int allocated = 0;
	uint16_t object = page->freelist;
	while (object != OBJ_NIL && allocated < count) {
		p[allocated++] = slab_obj_addr(s->kc, page, object);
		object = slub_get_freepointer(sl, cpu, page, object);
		page->inuse++;
	}
	page->freelist = object;
	page->cmpxchg_seq++;
	hw_write(sl->hw, cpu, &page->line);
	if (object != OBJ_NIL) {
		struct sb_node *n = get_node(s, page->nid);
		hw_spin_lock(sl->hw, cpu, &n->list_lock);
		slub_add_partial_locked(sl, cpu, n, page, 0);
		hw_spin_unlock(sl->hw, cpu, &n->list_lock);
	}
	return allocated;
}

/* __refill_objects_node(): objects of node n's partial slabs, taken off the
 * list together (get_partial_node_bulk; chained here through page->next)
 * until min, without passing max. */
static unsigned int refill_objects_node(struct slub *sl, struct sim_cpu *cpu,
					struct kmem_cache_cpu *c, struct slub_cache *s,
					struct sb_node *n, kaddr_t *p, unsigned int min,
					unsigned int max)
{
	if (!peek_nr_partial(sl, cpu, n))
		return 0;
	int psym = sym_enter(cpu, sl->sym_get_partial);
	struct page *taken = NULL, **last = &taken;
	unsigned int total_free = 0, refilled = 0;
	hw_spin_lock(sl->hw, cpu, &n->list_lock);
	struct page *page, *page2;
	list_for_each_entry_safe(page, page2, &n->partial, lru) {
		cpu_charge(cpu, sl->cost_partial);
		hw_read(sl->hw, cpu, &page->line);	/* the counters, racily */
		unsigned int slab_free = page->objects - page->inuse;
		if (total_free >= min && total_free + slab_free > max)
			break;
		remove_partial_locked(sl, cpu, n, page);
		page->next = NULL;
		*last = page;
		last = &page->next;
		total_free += slab_free;
		if (total_free >= max)
			break;
	}
	hw_spin_unlock(sl->hw, cpu, &n->list_lock);
	while (taken && refilled < max) {
		page = taken;
		taken = page->next;
		uint16_t object = get_freelist_nofreeze(sl, cpu, c, page);
		while (object != OBJ_NIL && refilled < max) {
			p[refilled++] = slab_obj_addr(s->kc, page, object);
			object = slub_get_freepointer(sl, cpu, page, object);
			cpu_charge(cpu, sl->cost_per_object);
		}
		if (object != OBJ_NIL) {	/* more than needed: a detached freelist back */
			uint16_t tail = object;
			int cnt = 1;
			while (page->obj[tail].next != OBJ_NIL) {
				tail = slub_get_freepointer(sl, cpu, page, tail);
				cnt++;
			}
			slub_slab_free_nocpu(sl, cpu, c, s, page, object, tail, cnt);
		}
	}
	if (taken) {	/* untouched slabs go back, or away if empty */
		struct page *discard = NULL;
		hw_spin_lock(sl->hw, cpu, &n->list_lock);
		while (taken) {
			page = taken;
			taken = page->next;
			if (!page->inuse && n->nr_partial >= s->min_partial) {
				page->next = discard;
				discard = page;
			} else {
				slub_add_partial_locked(sl, cpu, n, page, 0);
			}
		}
		hw_spin_unlock(sl->hw, cpu, &n->list_lock);
		while (discard) {
			page = discard;
			discard = page->next;
			slub_stat(c, FREE_SLAB);
			slub_discard_slab(sl, cpu, s, page);
		}
	}
	sym_exit(cpu, psym);
	return refilled;
}

/* refill_objects(): the local node, other nodes' lists now and then
 * (remote_node_defrag_ratio, as get_any_partial), then new slabs. */
unsigned int slub_refill_objects(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
				 struct slub_cache *s, kaddr_t *p, unsigned int min,
				 unsigned int max)
{
	int local = numa_mem_id(sl, cpu), nodes = sl->k->m->nodes;
	unsigned int refilled = refill_objects_node(sl, cpu, c, s, get_node(s, local), p, min, max);
	if (refilled < min && nodes > 1 && sl->defrag_ratio &&
	    cpu->clock % 1024 <= (uint64_t)sl->defrag_ratio) {	/* __refill_objects_any */
		for (int i = 1; i < nodes && refilled < min; i++) {
			struct sb_node *n = get_node(s, (local + i) % nodes);
			if (peek_nr_partial(sl, cpu, n) <= s->min_partial)
				continue;
			refilled += refill_objects_node(sl, cpu, c, s, n, p + refilled,
							min - refilled, max - refilled);
		}
	}
	while (refilled < min) {	/* new_slab: */
		struct page *page = slub_new_slab(sl, cpu, c, s, local);
		if (!page)
			break;
		slub_stat(c, ALLOC_SLAB);
		refilled += alloc_from_new_slab(sl, cpu, s, page, p + refilled, max - refilled);
	}
	return refilled;
}

/* get_from_partial_node(): one object of the node's first partial slab. */
static kaddr_t get_from_partial_node(struct slub *sl, struct sim_cpu *cpu,
				     struct kmem_cache_cpu *c, struct slub_cache *s,
				     struct sb_node *n)
{
	if (!peek_nr_partial(sl, cpu, n))
		return 0;
	int psym = sym_enter(cpu, sl->sym_get_partial);
	kaddr_t object = 0;
	hw_spin_lock(sl->hw, cpu, &n->list_lock);
	if (!list_empty(&n->partial)) {
		struct page *page = list_first_entry(&n->partial, struct page, lru);
		struct slab_counters old, new;
		cpu_charge(cpu, sl->cost_partial);
		do {
			slub_read_counters(sl, cpu, page, &old);
			new = old;
			new.freelist = slub_get_freepointer(sl, cpu, page, old.freelist);
			new.inuse++;
		} while (!slub_cmpxchg_double_slab(sl, cpu, c, page, &old, &new));
		object = slab_obj_addr(s->kc, page, old.freelist);
		if (new.freelist == OBJ_NIL)
			remove_partial_locked(sl, cpu, n, page);
	}
	hw_spin_unlock(sl->hw, cpu, &n->list_lock);
	sym_exit(cpu, psym);
	return object;
}

/* ___slab_alloc() of 7.0: a partial slab's object (this node, or others
 * now and then when no node was asked for), else a new slab's. */
kaddr_t slub_slab_alloc_nocpu(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			      struct slub_cache *s, int node)
{
	int psym = sym_enter(cpu, sl->sym_slab_alloc);
	cpu_charge(cpu, sl->cost_alloc_slow);
	slub_stat(c, ALLOC_SLOWPATH);
	int nodes = sl->k->m->nodes, searchnode = node < 0 ? numa_mem_id(sl, cpu) : node;
	kaddr_t object = get_from_partial_node(sl, cpu, c, s, get_node(s, searchnode));
	if (!object && node < 0 && nodes > 1 && sl->defrag_ratio &&
	    cpu->clock % 1024 <= (uint64_t)sl->defrag_ratio)	/* get_from_any_partial */
		for (int i = 1; i < nodes && !object; i++) {
			struct sb_node *n = get_node(s, (searchnode + i) % nodes);
			if (peek_nr_partial(sl, cpu, n) > s->min_partial)
				object = get_from_partial_node(sl, cpu, c, s, n);
		}
	if (!object) {
		struct page *page = slub_new_slab(sl, cpu, c, s, searchnode);
		if (page) {
			slub_stat(c, ALLOC_SLAB);
			alloc_from_new_slab(sl, cpu, s, page, &object, 1);
		}
	}
	sym_exit(cpu, psym);
	return object;
}
