/* slub_lockless.c - SLUB of 3.1 and 3.2 (mm/slub.c): no page bit lock. A
 * slab's freelist and counters (inuse, frozen) change together with one
 * cmpxchg_double on its struct page, retried when another CPU got there
 * first; the CPU's own freelist changes with an unlocked per-CPU cmpxchg
 * (tid). n->list_lock is taken only to move a slab between lists. 3.2 adds
 * per-CPU partial lists: a full slab that gets a free object is frozen onto
 * the freeing CPU's partial list without any lock, and get_partial_node
 * takes several slabs at once (put_cpu_partial, unfreeze_partials). */
#include "slub.h"

/* get_node(): the cache's kmem_cache_node of a node (the blocks' owner). */
static inline struct sb_node *get_node(struct slub_cache *s, int node)
{
	return s->sc.node[node];
}

/* node_match(): the CPU slab serves the request: any node (-1), or the CPU slab's node. */
static inline bool node_match(const struct kmem_cache_cpu *c, int node)
{
	return node < 0 || c->node == node;
}

/* page->freelist and page->counters: a racy read of the past. */
void slub_read_counters(struct slub *sl, struct sim_cpu *cpu, struct page *page,
			struct slab_counters *o)
{
	cpu_sync(cpu);
	hw_read(sl->hw, cpu, &page->line);
	o->freelist = page->freelist;
	o->inuse = page->inuse;
	o->frozen = page->flags & PG_frozen;
	o->seq = page->cmpxchg_seq;
}

/* cmpxchg_double_slab(): a locked cmpxchg16b on the struct page line; it
 * fails if anyone changed the pair since `o` was read. */
bool slub_cmpxchg_double_slab(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			      struct page *page, const struct slab_counters *o,
			      const struct slab_counters *n)
{
	hw_atomic(sl->hw, cpu, &page->line);
	if (page->cmpxchg_seq != o->seq) {
		slub_stat(c, CMPXCHG_DOUBLE_FAIL);
		return false;
	}
	page->cmpxchg_seq++;
	page->freelist = n->freelist;
	page->inuse = n->inuse;
	if (n->frozen)
		page->flags |= PG_frozen;
	else
		page->flags &= ~PG_frozen;
	return true;
}

/* discard_slab() of an empty slab this CPU gave up (deactivate_slab, unfreeze_partials),
 * counted as DEACTIVATE_EMPTY and FREE_SLAB. */
static void discard(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
		    struct slub_cache *s, struct page *page)
{
	slub_stat(c, DEACTIVATE_EMPTY);
	slub_discard_slab(sl, cpu, s, page);
	slub_stat(c, FREE_SLAB);
}

/* unfreeze_partials(): the CPU's partial slabs go back to their nodes'
 * lists (empty ones to the page allocator if the node has enough). */
static void unfreeze_partials(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			      struct slub_cache *s)
{
	struct sb_node *n = NULL;
	struct page *page, *discard_page = NULL;
	while ((page = c->partial)) {
		enum { M_PARTIAL, M_FREE } l = M_FREE, m;
		struct slab_counters old, new;
		c->partial = page->next;
		do {
			slub_read_counters(sl, cpu, page, &old);
			new = old;
			new.frozen = false;
			bool enough = n && (sl->unfreeze_bug ? n->nr_partial < s->min_partial
							    : n->nr_partial > s->min_partial);
			if (!new.inuse && (!n || enough)) {
				m = M_FREE;
			} else {
				struct sb_node *n2 = get_node(s, page->nid);
				m = M_PARTIAL;
				if (n != n2) {
					if (n)
						hw_spin_unlock(sl->hw, cpu, &n->list_lock);
					n = n2;
					hw_spin_lock(sl->hw, cpu, &n->list_lock);
				}
			}
			if (l != m) {
				if (l == M_PARTIAL)
					slub_del_partial_locked(sl, cpu, n, page);
				else
					slub_add_partial_locked(sl, cpu, n, page, 1);
				l = m;
			}
		} while (!slub_cmpxchg_double_slab(sl, cpu, c, page, &old, &new));
		if (m == M_FREE) {
			page->next = discard_page;
			discard_page = page;
		}
	}
	if (n)
		hw_spin_unlock(sl->hw, cpu, &n->list_lock);
	while (discard_page) {
		page = discard_page;
		discard_page = page->next;
		discard(sl, cpu, c, s, page);
	}
}

/* put_cpu_partial(): a frozen slab onto this CPU's partial list; with
 * `drain`, a full list first goes back to the nodes. Returns the objects
 * the list now offers. */
static int put_cpu_partial(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			   struct slub_cache *s, struct page *page, bool drain)
{
	struct page *oldpage = c->partial;
	int pages = 0, pobjects = 0;
	cpu_charge(cpu, sl->cost_list);
	if (oldpage) {
		pobjects = oldpage->pobjects;
		pages = oldpage->pages;
		if (drain && pobjects > s->cpu_partial) {
			unfreeze_partials(sl, cpu, c, s);
			oldpage = NULL;
			pobjects = 0;
			pages = 0;
		}
	}
	pages++;
	pobjects += page->objects - page->inuse;
	page->pages = (int16_t)pages;
	page->pobjects = (int16_t)pobjects;
	page->next = oldpage;
	c->partial = page;	/* this_cpu_cmpxchg: per-CPU, no bus lock */
	slub_stat(c, CPU_PARTIAL_FREE);
	return pobjects;
}

/* acquire_slab(): freeze a partial slab; for the CPU slab (mode) take its
 * freelist and make it look full, for the CPU's partial list leave the
 * freelist on the page. 3.2 zapped it in both cases and stored it back with
 * a plain store, losing objects another CPU freed in between (fixed in 3.6,
 * "slub: fix a memory leak in get_partial_node()"); the fixed form is
 * modelled. Caller holds n->list_lock. */
static uint16_t acquire_slab(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			     struct sb_node *n, struct page *page, bool mode)
{
	struct slab_counters old, new;
	do {
		slub_read_counters(sl, cpu, page, &old);
		new = old;
		if (mode) {
			new.inuse = page->objects;
			new.freelist = OBJ_NIL;
		}
		new.frozen = true;
	} while (!slub_cmpxchg_double_slab(sl, cpu, c, page, &old, &new));
	slub_del_partial_locked(sl, cpu, n, page);
	return old.freelist;
}

/* get_partial_node() of 3.x: the first slab becomes the CPU slab, more go
 * to the CPU's partial list until it holds over cpu_partial / 2 objects. */
static uint16_t get_partial_node(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
				 struct slub_cache *s, struct sb_node *n)
{
	cpu_sync(cpu);	/* racy check: no lock to see that there is nothing */
	hw_read(sl->hw, cpu, &n->line);
	if (!n->nr_partial)
		return OBJ_NIL;
	int psym = sym_enter(cpu, sl->sym_get_partial);
	uint16_t object = OBJ_NIL;
	hw_spin_lock(sl->hw, cpu, &n->list_lock);
	struct page *page, *page2;
	list_for_each_entry_safe(page, page2, &n->partial, lru) {
		cpu_charge(cpu, sl->cost_partial);
		uint16_t t = acquire_slab(sl, cpu, c, n, page, object == OBJ_NIL);
		int available;
		if (t == OBJ_NIL)
			break;
		if (object == OBJ_NIL) {
			c->page = page;
			c->node = page->nid;
			slub_stat(c, ALLOC_FROM_PARTIAL);
			object = t;
			available = page->objects - page->inuse;
		} else {
			available = put_cpu_partial(sl, cpu, c, s, page, false);
		}
		if (!sl->cpu_partial_on || available > s->cpu_partial / 2)
			break;
	}
	hw_spin_unlock(sl->hw, cpu, &n->list_lock);
	sym_exit(cpu, psym);
	return object;
}

/* get_partial() of 3.x: the partial list of `node` (this CPU's node if -1), then, for -1
 * only, other nodes' now and then (get_any_partial). The first free object, or OBJ_NIL. */
static uint16_t get_partial(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			    struct slub_cache *s, int node)
{
	int searchnode = node < 0 ? sl->k->m->topo[cpu->id].node : node;
	uint16_t object = get_partial_node(sl, cpu, c, s, get_node(s, searchnode));
	if (object != OBJ_NIL || node >= 0 || sl->k->m->nodes == 1 || !sl->defrag_ratio ||
	    cpu->clock % 1024 > (uint64_t)sl->defrag_ratio)
		return object;
	for (int i = 1; i < sl->k->m->nodes && object == OBJ_NIL; i++) {	/* get_any_partial */
		struct sb_node *n = get_node(s, (searchnode + i) % sl->k->m->nodes);
		cpu_sync(cpu);
		hw_read(sl->hw, cpu, &n->line);
		if (n->nr_partial > s->min_partial)
			object = get_partial_node(sl, cpu, c, s, n);
	}
	return object;
}

/* deactivate_slab() of 3.x: the CPU freelist goes back onto the still
 * frozen page one object at a time, then one cmpxchg unfreezes it onto the
 * list its state calls for (taking list_lock only for the partial list). */
static void deactivate_slab(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			    struct slub_cache *s)
{
	enum { M_NONE, M_PARTIAL, M_FULL, M_FREE } l = M_NONE, m = M_NONE;
	struct page *page = c->page;
	struct sb_node *n = get_node(s, page->nid);
	bool lock = false;
	int tail = 0;
	int psym = sym_enter(cpu, sl->sym_deactivate);
	cpu_charge(cpu, sl->cost_deactivate);
	cpu_sync(cpu);
	hw_read(sl->hw, cpu, &page->line);
	if (page->freelist != OBJ_NIL) {
		slub_stat(c, DEACTIVATE_REMOTE_FREES);
		tail = 1;
	}
	c->tid++;
	c->page = NULL;
	uint16_t freelist = c->freelist, nextfree;
	c->freelist = OBJ_NIL;
	struct slab_counters old, new;
	/* stage one: all but the last CPU-freelist object back to the page */
	while (freelist != OBJ_NIL &&
	       (nextfree = slub_get_freepointer(sl, cpu, page, freelist)) != OBJ_NIL) {
		do {
			slub_read_counters(sl, cpu, page, &old);
			slub_set_freepointer(sl, cpu, page, freelist, old.freelist);
			new = old;
			new.inuse--;
			new.freelist = freelist;
		} while (!slub_cmpxchg_double_slab(sl, cpu, c, page, &old, &new));
		cpu_charge(cpu, sl->cost_per_object);
		freelist = nextfree;
	}
	/* stage two: unfreeze onto the right list */
	do {
		slub_read_counters(sl, cpu, page, &old);
		new = old;
		if (freelist != OBJ_NIL) {
			new.inuse--;
			slub_set_freepointer(sl, cpu, page, freelist, old.freelist);
			new.freelist = freelist;
		}
		new.frozen = false;
		cpu_sync(cpu);	/* racy read of nr_partial */
		hw_read(sl->hw, cpu, &n->line);
		if (!new.inuse && n->nr_partial > s->min_partial) {
			m = M_FREE;
		} else if (new.freelist != OBJ_NIL) {
			m = M_PARTIAL;
			if (!lock) {
				lock = true;
				hw_spin_lock(sl->hw, cpu, &n->list_lock);
			}
		} else {
			m = M_FULL;
		}
		if (l != m) {
			if (l == M_PARTIAL)
				slub_del_partial_locked(sl, cpu, n, page);
			if (m == M_PARTIAL) {
				slub_add_partial_locked(sl, cpu, n, page, tail);
				slub_stat(c, tail ? DEACTIVATE_TO_TAIL : DEACTIVATE_TO_HEAD);
			} else if (m == M_FULL) {
				slub_stat(c, DEACTIVATE_FULL);
			}
		}
		l = m;
	} while (!slub_cmpxchg_double_slab(sl, cpu, c, page, &old, &new));
	if (lock)
		hw_spin_unlock(sl->hw, cpu, &n->list_lock);
	if (m == M_FREE)
		discard(sl, cpu, c, s, page);
	sym_exit(cpu, psym);
}

/* new_slab_objects(): a fresh slab, frozen, becomes the CPU slab. */
static uint16_t new_slab_objects(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
				 struct slub_cache *s, int node)
{
	struct page *page = slub_new_slab(sl, cpu, c, s, node);
	if (!page)
		return OBJ_NIL;
	if (c->page) {
		slub_stat(c, CPUSLAB_FLUSH);
		deactivate_slab(sl, cpu, c, s);
	}
	uint16_t object = page->freelist;
	page->freelist = OBJ_NIL;
	page->inuse = (uint16_t)page->objects;
	page->flags |= PG_frozen;
	page->cmpxchg_seq++;
	slub_stat(c, ALLOC_SLAB);
	c->node = page->nid;
	c->page = page;
	return object;
}

/* __slab_alloc() of 3.x: take the CPU slab's page freelist, else a CPU
 * partial slab, else node partials, else a new slab. */
static kaddr_t __slab_alloc(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			    struct slub_cache *s, int node)
{
	int psym = sym_enter(cpu, sl->sym_slab_alloc);
	cpu_charge(cpu, sl->cost_alloc_slow);
	uint16_t object = OBJ_NIL;
	if (!c->page)
		goto new_slab;
redo:
	if (!node_match(c, node)) {
		slub_stat(c, ALLOC_NODE_MISMATCH);
		deactivate_slab(sl, cpu, c, s);
		goto new_slab;
	}
	if (c->freelist != OBJ_NIL) {
		object = c->freelist;
		goto load_freelist;
	}
	slub_stat(c, ALLOC_SLOWPATH);
	{
		struct slab_counters old, new;
		do {
			slub_read_counters(sl, cpu, c->page, &old);
			new = old;
			new.inuse = c->page->objects;
			new.frozen = old.freelist != OBJ_NIL;
			new.freelist = OBJ_NIL;
		} while (!slub_cmpxchg_double_slab(sl, cpu, c, c->page, &old, &new));
		object = old.freelist;
	}
	if (object == OBJ_NIL) {	/* nothing left: the slab just leaves */
		c->page = NULL;
		slub_stat(c, DEACTIVATE_BYPASS);
		goto new_slab;
	}
	slub_stat(c, ALLOC_REFILL);
load_freelist:
	c->freelist = slub_get_freepointer(sl, cpu, c->page, object);
	c->tid++;
	sym_exit(cpu, psym);
	return slab_obj_addr(s->kc, c->page, object);
new_slab:
	if (c->partial) {
		c->page = c->partial;
		c->partial = c->page->next;
		c->node = c->page->nid;
		slub_stat(c, CPU_PARTIAL_ALLOC);
		c->freelist = OBJ_NIL;
		goto redo;
	}
	object = get_partial(sl, cpu, c, s, node);
	if (object == OBJ_NIL)
		object = new_slab_objects(sl, cpu, c, s, node);
	if (object == OBJ_NIL) {
		sym_exit(cpu, psym);
		return 0;
	}
	goto load_freelist;
}

/* slab_alloc() of 3.x: pop the CPU freelist with this_cpu_cmpxchg_double
 * on (freelist, tid); nothing can come between on one simulated CPU. */
kaddr_t slub_alloc_lockless(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			    struct slub_cache *s, int node)
{
	if (c->freelist == OBJ_NIL || !node_match(c, node))
		return __slab_alloc(sl, cpu, c, s, node);
	unsigned int idx = c->freelist;
	c->freelist = slub_get_freepointer(sl, cpu, c->page, idx);
	c->tid++;
	slub_stat(c, ALLOC_FASTPATH);
	return slab_obj_addr(s->kc, c->page, idx);
}

/* __slab_free() of 3.x: push on the page freelist with cmpxchg_double; a
 * full slab that is not frozen is frozen onto this CPU's partial list (3.2)
 * or, like one becoming empty, moved under list_lock (taken speculatively
 * before the cmpxchg). */
static void __slab_free(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			struct slub_cache *s, struct page *page, unsigned int idx)
{
	int psym = sym_enter(cpu, sl->sym_slab_free);
	cpu_charge(cpu, sl->cost_free_slow);
	slub_stat(c, FREE_SLOWPATH);
	struct sb_node *n = NULL;
	struct slab_counters old, new;
	bool was_frozen;
	do {
		slub_read_counters(sl, cpu, page, &old);
		slub_set_freepointer(sl, cpu, page, idx, old.freelist);
		new = old;
		was_frozen = old.frozen;
		new.inuse--;
		new.freelist = (uint16_t)idx;
		if ((!new.inuse || old.freelist == OBJ_NIL) && !was_frozen && !n) {
			if (sl->cpu_partial_on && old.freelist == OBJ_NIL) {
				new.frozen = true;	/* defer the list move: freeze it */
			} else {
				n = get_node(s, page->nid);
				hw_spin_lock(sl->hw, cpu, &n->list_lock);
			}
		}
	} while (!slub_cmpxchg_double_slab(sl, cpu, c, page, &old, &new));
	if (!n) {
		if (new.frozen && !was_frozen)
			put_cpu_partial(sl, cpu, c, s, page, true);
		if (was_frozen)
			slub_stat(c, FREE_FROZEN);
		sym_exit(cpu, psym);
		return;
	}
	if (was_frozen) {
		slub_stat(c, FREE_FROZEN);
	} else {
		if (!new.inuse && n->nr_partial > s->min_partial) {
			if (old.freelist != OBJ_NIL) {	/* it was on the partial list */
				slub_del_partial_locked(sl, cpu, n, page);
				slub_stat(c, FREE_REMOVE_PARTIAL);
			}
			hw_spin_unlock(sl->hw, cpu, &n->list_lock);
			slub_stat(c, FREE_SLAB);
			slub_discard_slab(sl, cpu, s, page);
			sym_exit(cpu, psym);
			return;
		}
		if (old.freelist == OBJ_NIL) {	/* it was full: now partial */
			slub_add_partial_locked(sl, cpu, n, page, 1);
			slub_stat(c, FREE_ADD_PARTIAL);
		}
	}
	hw_spin_unlock(sl->hw, cpu, &n->list_lock);
	sym_exit(cpu, psym);
}

/* slab_free() of 3.x: into the CPU freelist if the object is in the CPU
 * slab (this_cpu_cmpxchg_double), else __slab_free. */
void slub_free_lockless(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			struct slub_cache *s, struct page *page, unsigned int idx)
{
	if (page == c->page) {
		slub_set_freepointer(sl, cpu, page, idx, c->freelist);
		c->freelist = (uint16_t)idx;
		c->tid++;
		slub_stat(c, FREE_FASTPATH);
	} else {
		__slab_free(sl, cpu, c, s, page, idx);
	}
}
