/* slab.c - SLAB of 2.6.24-2.6.26 (mm/slab.c): objects come and go through a
 * per-CPU LIFO array (ac->a.obj[]); an empty array is refilled with up to
 * `batchcount` objects under the node's list_lock, first from the node's
 * shared array, then from partial and free slabs (cache_alloc_refill); a
 * full one gives `batchcount` objects back, to the shared array or to their
 * slabs (cache_flusharray, free_block). On NUMA machines an object of
 * another node goes to an alien array for that node, drained into the
 * owner's lists when full (cache_free_alien). Empty slabs beyond free_limit
 * go back to the page allocator; cache_reap trims the rest every few
 * seconds (slab_reap.c).
 *
 * On the blocks (slab_blocks.h): kmem_list3's lists are an sb_node with a
 * free list (SLAB's names and lock class), each array_cache an sb_array
 * with its line, the slabs registered, grown and released by the blocks'
 * pieces. Its refill and free_block are its own, not sb_get_objects and
 * sb_put_obj: they write struct slab's line and the bufctl array in it,
 * not the objects' and struct page's lines the blocks' paths touch. */
#include <stdio.h>
#include <stdlib.h>

#include "kernel/slab.h"
#include "engine/array_size.h"
#include "engine/oom.h"
#include "slab.h"

const char *const slab_stat_name[NR_SLAB_STAT_ITEMS] = {
	"listallocs", "maxobjs", "grown", "reaped", "error", "maxfreeable", "nodeallocs",
	"remotefrees", "alienoverflow", "allochit", "allocmiss", "freehit", "freemiss",
};

/* numa_node_id(): the running CPU's node. */
static inline int numa_node_id(const struct slab_state *sb, const struct sim_cpu *cpu)
{
	return sb->k->m->topo[cpu->id].node;
}

/* page_get_slab(): a slab page's descriptor, struct slab. */
static inline struct slab *page_slab(const struct page *page)
{
	return page->priv;	/* page->lru.prev of the kernel: page_get_slab() */
}

/* virt_to_slab(): the object's struct page, then its descriptor. */
static struct page *virt_to_slab(struct slab_state *sb, struct sim_cpu *cpu, kaddr_t objp)
{
	struct page *page = virt_to_head_page(&sb->k->pa, objp);
	page_access(&sb->k->pa, cpu, page, PF_FLAGS | PF_LRU, false);	/* lru.prev: the slab */
	return page;
}

/* --- the descriptor pool (host memory for struct slab, reused) --- */

/* A struct slab from the pool of freed ones, else a new one (host memory). */
static struct slab *desc_get(struct slab_state *sb)
{
	struct slab *d = sb->desc_pool;
	if (d) {
		sb->desc_pool = d->next_free;
	} else {
		d = calloc(1, sizeof(*d));
		if (!d)
			host_oom(__func__);
	}
	return d;
}

/* A struct slab back to the pool, for reuse. */
static void desc_put(struct slab_state *sb, struct slab *d)
{
	d->next_free = sb->desc_pool;
	sb->desc_pool = d;
}

/* --- objects in a slab: slab_get_obj / slab_put_obj --- */

/* slab_get_obj(): the first free object off the slab's bufctl chain (caller holds
 * list_lock). */
static kaddr_t slab_get_obj(struct slab_state *sb, struct sim_cpu *cpu, struct slab_cache *cp,
			    struct page *page)
{
	unsigned int idx = sb_chain_pop(page);	/* slab_bufctl(slabp)[slabp->free] */
	cpu_charge(cpu, sb->cost_per_object);
	return slab_obj_addr(cp->kc, page, idx);
}

/* slab_put_obj(): an object back at the head of its slab's bufctl chain (caller holds
 * list_lock). */
static void slab_put_obj(struct slab_state *sb, struct sim_cpu *cpu, struct slab_cache *cp,
			 struct page *page, kaddr_t objp)
{
	sb_chain_push(page, slab_obj_index(cp->kc, page, objp));
	cpu_charge(cpu, sb->cost_per_object);
}

/* A slab moves to the head of the node's list its fill calls for: its
 * descriptor and the list head (or neighbour) lines are written. */
static void slab_list_move(struct slab_state *sb, struct sim_cpu *cpu, struct slab_cache *cp,
			   struct kmem_list3 *l3, struct page *page)
{
	hw_write(sb->hw, cpu, &page_slab(page)->line);
	hw_write(sb->hw, cpu, &l3->n.line);
	sb_list_del(&cp->sc, &l3->n, page);
	sb_list_add(&cp->sc, &l3->n, page, page->freelist == OBJ_NIL ? SB_FULL : SB_PARTIAL, false);
}

/* --- growing and shrinking --- */

/* kmem_getpages() + alloc_slabmgmt() + cache_init_objs(): a slab of `num`
 * free objects on `nodeid`, its descriptor on the slab or in slabp_cache. */
static struct page *kmem_getpages(struct slab_state *sb, struct sim_cpu *cpu,
				  struct slab_cache *cp, int nodeid)
{
	struct page *page = sb_slab_alloc(&cp->sc, cpu, nodeid, (unsigned int)cp->gfporder, cp->num);
	if (!page)
		return NULL;
	struct slab *d = desc_get(sb);
	hw_line_init(sb->hw, &d->line, page->nid);
	d->mgmt = 0;
	page->priv = d;
	if (cp->off_slab) {
		d->mgmt = kmem_cache_alloc(sb->k, cpu, cp->slabp_cache,	/* alloc_slabmgmt */
					   slab_alloc_gfp(sb->k, cpu));
		if (!d->mgmt) {
			page->priv = NULL;
			desc_put(sb, d);
			sb_slab_release(&cp->sc, cpu, page);
			return NULL;
		}
	}
	sb_slab_chain(page);	/* cache_init_objs(): bufctl[i] = i + 1 (no constructor) */
	cpu_charge(cpu, sb->cost_grow + cp->num * sb->cost_init_per_object);
	hw_write(sb->hw, cpu, &d->line);
	page_access(&sb->k->pa, cpu, page, PF_FLAGS | PF_LRU, true);	/* slab_map_pages() */
	sb_slab_register(&cp->sc, page);
	return page;
}

/* cache_grow(): colour under the list lock, pages, then the new slab on
 * slabs_free under the list lock. */
static int cache_grow(struct slab_state *sb, struct sim_cpu *cpu, struct slab_cache *cp,
		      int nodeid)
{
	struct kmem_list3 *l3 = &cp->nodelists[nodeid];
	int psym = sym_enter(cpu, sb->sym_grow);
	hw_spin_lock(sb->hw, cpu, &l3->n.list_lock);
	hw_write(sb->hw, cpu, &l3->n.line);
	if (++l3->colour_next >= cp->colour)
		l3->colour_next = 0;
	hw_spin_unlock(sb->hw, cpu, &l3->n.list_lock);
	struct page *page = kmem_getpages(sb, cpu, cp, nodeid);
	if (!page) {
		sym_exit(cpu, psym);
		return 0;
	}
	hw_spin_lock(sb->hw, cpu, &l3->n.list_lock);
	hw_write(sb->hw, cpu, &l3->n.line);
	sb_list_add(&cp->sc, &l3->n, page, SB_FREE, true);
	cp->stat[SLAB_GROWN]++;
	l3->free_objects += cp->num;
	hw_spin_unlock(sb->hw, cpu, &l3->n.list_lock);
	sym_exit(cpu, psym);
	return 1;
}

void slab_destroy(struct slab_state *sb, struct sim_cpu *cpu, struct slab_cache *cp,
		  struct page *page)
{
	int psym = sym_enter(cpu, sb->sym_destroy);
	cpu_charge(cpu, sb->cost_destroy);
	struct slab *d = page_slab(page);
	sb_slab_unregister(&cp->sc, page);
	kaddr_t mgmt = d->mgmt;
	page->priv = NULL;
	desc_put(sb, d);
	sb_slab_release(&cp->sc, cpu, page);	/* kmem_freepages */
	if (mgmt)
		kmem_cache_free(sb->k, cpu, cp->slabp_cache, mgmt);
	sym_exit(cpu, psym);
}

/* free_block(): objects back to their slabs (caller holds node's list_lock);
 * an empty slab is destroyed if the node has more free objects than
 * free_limit, else it joins slabs_free; a partial one goes to the tail. */
void slab_free_block(struct slab_state *sb, struct sim_cpu *cpu, struct slab_cache *cp,
		     kaddr_t *objpp, int nr, int node)
{
	struct kmem_list3 *l3 = &cp->nodelists[node];
	int psym = sym_enter(cpu, sb->sym_free_block);
	for (int i = 0; i < nr; i++) {
		struct page *page = virt_to_slab(sb, cpu, objpp[i]);
		cpu_charge(cpu, sb->cost_free_block);
		hw_write(sb->hw, cpu, &page_slab(page)->line);
		sb_list_del(&cp->sc, &l3->n, page);
		slab_put_obj(sb, cpu, cp, page, objpp[i]);
		cp->active--;
		l3->free_objects++;
		if (page->inuse == 0) {
			if (l3->free_objects > l3->free_limit) {
				l3->free_objects -= cp->num;
				slab_destroy(sb, cpu, cp, page);
			} else {
				sb_list_add(&cp->sc, &l3->n, page, SB_FREE, false);
			}
		} else {
			sb_list_add(&cp->sc, &l3->n, page, SB_PARTIAL, true);
		}
	}
	hw_write(sb->hw, cpu, &l3->n.line);
	sym_exit(cpu, psym);
}

int slab_transfer_objects(struct array_cache *to, struct array_cache *from, unsigned int max)
{
	unsigned int nr = sb_array_transfer(&to->a, &from->a, max);
	if (nr)
		to->touched = true;
	return (int)nr;
}

/* --- allocation --- */

/* The slab a refill takes from: the first partial one, else (the free
 * list touched) the first free one; NULL if none. Caller holds list_lock. */
static struct page *first_slab(struct slab_cache *cp, struct kmem_list3 *l3)
{
	struct page *page = sb_list_first(&cp->sc, &l3->n, SB_PARTIAL);
	if (page)
		return page;
	l3->free_touched = true;
	return sb_list_first(&cp->sc, &l3->n, SB_FREE);
}

/* cache_alloc_refill(): the CPU's array is empty. */
static kaddr_t cache_alloc_refill(struct slab_state *sb, struct sim_cpu *cpu,
				  struct slab_cache *cp, struct array_cache *ac)
{
	int node = numa_node_id(sb, cpu);
	struct kmem_list3 *l3 = &cp->nodelists[node];
	int psym = sym_enter(cpu, sb->sym_alloc_refill);
	for (;;) {
		int batchcount = (int)ac->batchcount;
		if (!ac->touched && batchcount > BATCHREFILL_LIMIT)
			batchcount = BATCHREFILL_LIMIT;	/* little recent use: a partial refill */
		cpu_charge(cpu, sb->cost_refill);
		hw_spin_lock(sb->hw, cpu, &l3->n.list_lock);
		hw_write(sb->hw, cpu, &l3->n.line);
		if (l3->shared) {
			hw_write(sb->hw, cpu, &l3->shared->a.line);
			if (slab_transfer_objects(ac, l3->shared, (unsigned int)batchcount)) {
				hw_spin_unlock(sb->hw, cpu, &l3->n.list_lock);
				break;	/* alloc_done */
			}
		}
		while (batchcount > 0) {
			struct page *page = first_slab(cp, l3);
			if (!page)
				break;	/* must_grow */
			hw_write(sb->hw, cpu, &page_slab(page)->line);
			while (page->inuse < cp->num && batchcount--) {
				cp->stat[SLAB_LISTALLOCS]++;
				cp->active++;
				if ((uint64_t)cp->active > cp->stat[SLAB_MAXOBJS])
					cp->stat[SLAB_MAXOBJS] = (uint64_t)cp->active;
				sb_array_push(&ac->a, slab_get_obj(sb, cpu, cp, page));
			}
			slab_list_move(sb, cpu, cp, l3, page);
		}
		l3->free_objects -= ac->a.avail;
		hw_spin_unlock(sb->hw, cpu, &l3->n.list_lock);
		if (ac->a.avail)
			break;
		if (!cache_grow(sb, cpu, cp, node) && ac->a.avail == 0) {
			sym_exit(cpu, psym);
			return 0;
		}
		if (ac->a.avail)	/* refilled meanwhile */
			break;
	}
	ac->touched = true;
	sym_exit(cpu, psym);
	return sb_array_pop(&ac->a);
}

/* ____cache_alloc_node(): straight from a node's lists (another node's
 * object asked for by kmalloc_node / kmem_cache_alloc_node). */
static kaddr_t cache_alloc_node(struct slab_state *sb, struct sim_cpu *cpu,
				struct slab_cache *cp, int nodeid)
{
	struct kmem_list3 *l3 = &cp->nodelists[nodeid];
	int psym = sym_enter(cpu, sb->sym_alloc_refill);
	for (;;) {
		cpu_charge(cpu, sb->cost_refill);
		hw_spin_lock(sb->hw, cpu, &l3->n.list_lock);
		hw_write(sb->hw, cpu, &l3->n.line);
		struct page *page = first_slab(cp, l3);
		if (page) {
			hw_write(sb->hw, cpu, &page_slab(page)->line);
			cp->stat[SLAB_NODEALLOCS]++;
			cp->stat[SLAB_LISTALLOCS]++;
			cp->active++;
			kaddr_t obj = slab_get_obj(sb, cpu, cp, page);
			l3->free_objects--;
			slab_list_move(sb, cpu, cp, l3, page);
			hw_spin_unlock(sb->hw, cpu, &l3->n.list_lock);
			sym_exit(cpu, psym);
			return obj;
		}
		hw_spin_unlock(sb->hw, cpu, &l3->n.list_lock);
		if (!cache_grow(sb, cpu, cp, nodeid)) {
			sym_exit(cpu, psym);
			return 0;
		}
	}
}

/* __cache_alloc(): pop the CPU's array (ALLOCHIT), else refill (ALLOCMISS). */
static kaddr_t slab_alloc(void *state, struct kmem_cache *kc, struct sim_cpu *cpu, int node)
{
	struct slab_state *sb = state;
	struct slab_cache *cp = kc->priv;
	int psym = sym_enter(cpu, sb->sym_kmem_cache_alloc);
	cpu_charge(cpu, sb->cost_alloc_hit);
	housekeeping_touch(&sb->reap, cpu->id, cpu->clock);
	kaddr_t obj;
	if (node >= 0 && node != numa_node_id(sb, cpu)) {
		obj = cache_alloc_node(sb, cpu, cp, node);
	} else {
		struct array_cache *ac = cp->array[cpu->id];
		obj = sb_array_get(sb->hw, cpu, &ac->a);
		if (obj) {
			cp->stat[SLAB_ALLOCHIT]++;
			ac->touched = true;
		} else {
			cp->stat[SLAB_ALLOCMISS]++;
			obj = cache_alloc_refill(sb, cpu, cp, ac);
		}
	}
	sym_exit(cpu, psym);
	return obj;
}

/* --- freeing --- */

/* cache_flusharray(): the CPU's array is full; batchcount objects go to the
 * shared array if it has room, else back to their slabs. */
static void cache_flusharray(struct slab_state *sb, struct sim_cpu *cpu, struct slab_cache *cp,
			     struct array_cache *ac)
{
	int node = numa_node_id(sb, cpu);
	struct kmem_list3 *l3 = &cp->nodelists[node];
	int psym = sym_enter(cpu, sb->sym_flusharray);
	unsigned int batchcount = ac->batchcount;
	cpu_charge(cpu, sb->cost_flush);
	hw_spin_lock(sb->hw, cpu, &l3->n.list_lock);
	hw_write(sb->hw, cpu, &l3->n.line);
	bool done = false;
	if (l3->shared) {
		struct sb_array *shared = &l3->shared->a;
		hw_write(sb->hw, cpu, &shared->line);
		unsigned int max = shared->limit - shared->avail;
		if (max) {
			if (batchcount > max)
				batchcount = max;
			sb_array_append(shared, ac->a.obj, batchcount);
			done = true;
		}
	}
	if (!done)
		slab_free_block(sb, cpu, cp, ac->a.obj, (int)batchcount, node);
	hw_spin_unlock(sb->hw, cpu, &l3->n.list_lock);
	sb_array_drop_oldest(&ac->a, batchcount);
	sym_exit(cpu, psym);
}

/* __drain_alien_cache(): an alien array's objects go home, into the owner
 * node's shared array first, the rest to their slabs. */
void slab_drain_alien(struct slab_state *sb, struct sim_cpu *cpu, struct slab_cache *cp,
		      struct array_cache *ac, int node)
{
	if (!ac->a.avail)
		return;
	struct kmem_list3 *rl3 = &cp->nodelists[node];
	int psym = sym_enter(cpu, sb->sym_drain_alien);
	hw_spin_lock(sb->hw, cpu, &rl3->n.list_lock);
	hw_write(sb->hw, cpu, &rl3->n.line);
	if (rl3->shared) {
		hw_write(sb->hw, cpu, &rl3->shared->a.line);
		slab_transfer_objects(rl3->shared, ac, ac->a.limit);
	}
	slab_free_block(sb, cpu, cp, ac->a.obj, (int)ac->a.avail, node);
	ac->a.avail = 0;
	hw_spin_unlock(sb->hw, cpu, &rl3->n.list_lock);
	sym_exit(cpu, psym);
}

/* cache_free_alien(): an object of another node goes to this node's alien
 * array for its node (draining it first if full). Returns false for a local
 * object. */
static bool cache_free_alien(struct slab_state *sb, struct sim_cpu *cpu, struct slab_cache *cp,
			     kaddr_t objp)
{
	struct page *page = virt_to_slab(sb, cpu, objp);
	int nodeid = page->nid, node = numa_node_id(sb, cpu);
	if (nodeid == node)
		return false;
	int psym = sym_enter(cpu, sb->sym_free_alien);
	cpu_charge(cpu, sb->cost_alien);
	struct kmem_list3 *l3 = &cp->nodelists[node];
	cp->stat[SLAB_REMOTEFREES]++;
	if (l3->alien && l3->alien[nodeid]) {
		struct array_cache *alien = l3->alien[nodeid];
		hw_spin_lock(sb->hw, cpu, &alien->lock);
		if (sb_array_full(&alien->a)) {
			cp->stat[SLAB_ALIENOVERFLOW]++;
			slab_drain_alien(sb, cpu, cp, alien, nodeid);
		}
		sb_array_push(&alien->a, objp);
		hw_spin_unlock(sb->hw, cpu, &alien->lock);
	} else {
		struct kmem_list3 *rl3 = &cp->nodelists[nodeid];
		hw_spin_lock(sb->hw, cpu, &rl3->n.list_lock);
		slab_free_block(sb, cpu, cp, &objp, 1, nodeid);
		hw_spin_unlock(sb->hw, cpu, &rl3->n.list_lock);
	}
	sym_exit(cpu, psym);
	return true;
}

/* __cache_free(): push on the CPU's array (FREEHIT), flushing a full one
 * first (FREEMISS); objects of other nodes take the alien path. */
static void slab_free(void *state, struct kmem_cache *kc, struct sim_cpu *cpu, kaddr_t objp)
{
	struct slab_state *sb = state;
	struct slab_cache *cp = kc->priv;
	int psym = sym_enter(cpu, sb->sym_kmem_cache_free);
	cpu_charge(cpu, sb->cost_free_hit);
	housekeeping_touch(&sb->reap, cpu->id, cpu->clock);
	if (sb->nodes > 1 && cache_free_alien(sb, cpu, cp, objp)) {
		sym_exit(cpu, psym);
		return;
	}
	struct array_cache *ac = cp->array[cpu->id];
	if (sb_array_put(sb->hw, cpu, &ac->a, objp)) {
		cp->stat[SLAB_FREEHIT]++;
	} else {
		cp->stat[SLAB_FREEMISS]++;
		cache_flusharray(sb, cpu, cp, ac);
		sb_array_push(&ac->a, objp);
	}
	sym_exit(cpu, psym);
}

/* --- caches --- */

/* alloc_arraycache(): an array_cache of `limit` entries on `node`; its lock is set up
 * only with a class (the alien arrays'). */
static struct array_cache *alloc_arraycache(struct slab_state *sb, int node, unsigned int limit,
					    unsigned int batchcount, struct hw_lock_class *cls)
{
	struct array_cache *ac = calloc(1, sizeof(*ac));
	if (!ac || sb_array_init(&ac->a, sb->hw, node, limit) < 0) {
		free(ac);
		return NULL;
	}
	ac->batchcount = batchcount;
	if (cls)
		hw_lock_init(&ac->lock, sb->k->lock_kind, &ac->a.line, cls);
	return ac;
}

/* An array_cache and its entries freed (NULL: nothing). */
static void free_arraycache(struct array_cache *ac)
{
	if (ac)
		sb_array_destroy(&ac->a);
	free(ac);
}

/* alloc_kmemlist() and the per-CPU arrays of do_tune_cpucache(). */
static int setup_arrays(struct slab_state *sb, struct slab_cache *cp, struct sim_err *err)
{
	const struct machine *m = sb->k->m;
	cp->array = calloc((size_t)sb->ncpus, sizeof(*cp->array));
	cp->nodelists = calloc((size_t)sb->nodes, sizeof(*cp->nodelists));
	if (!cp->array || !cp->nodelists)
		return sim_fail(err, "out of memory creating cache %s", cp->kc->name);
	for (int c = 0; c < sb->ncpus; c++)
		if (!(cp->array[c] = alloc_arraycache(sb, m->topo[c].node, cp->limit,
						      cp->batchcount, NULL)))
			return sim_fail(err, "out of memory creating cache %s", cp->kc->name);
	for (int node = 0; node < sb->nodes; node++) {
		struct kmem_list3 *l3 = &cp->nodelists[node];
		char name[24];
		snprintf(name, sizeof(name), "node %d", node);
		sb_node_init(&cp->sc, node, &l3->n, node, name);
		int cpus_on_node = 0;
		for (int c = 0; c < sb->ncpus; c++)
			cpus_on_node += m->topo[c].node == node;
		l3->free_limit = (unsigned long)(1 + cpus_on_node) * cp->batchcount + cp->num;
		l3->next_reap = sb->reap_list3 + ((uintptr_t)cp->kc->id * 7919u) % sb->reap_list3;
		if (cp->shared && !(l3->shared = alloc_arraycache(sb, node,
								 cp->shared * cp->batchcount,
								 0xbaadf00d, NULL)))
			return sim_fail(err, "out of memory creating cache %s", cp->kc->name);
		if (sb->use_alien_caches && sb->nodes > 1) {
			unsigned int limit = cp->limit > 1 ? SLAB_ALIEN_LIMIT : cp->limit;
			l3->alien = calloc((size_t)sb->nodes, sizeof(*l3->alien));
			if (!l3->alien)
				return sim_fail(err, "out of memory creating cache %s", cp->kc->name);
			for (int i = 0; i < sb->nodes; i++)
				if (i != node && !(l3->alien[i] = alloc_arraycache(
						sb, node, limit, 0xbaadf00d, &cp->alien_lock_class)))
					return sim_fail(err, "out of memory creating cache %s",
							cp->kc->name);
		}
	}
	return 0;
}

/* kmem_cache_create(): the geometry, the tunables (enable_cpucache), lock classes, then
 * the per-CPU, shared and alien arrays and node lists (setup_arrays); no merging. */
static struct kmem_cache *slab_cache_create(void *state, struct kmem_cache *kc,
					    struct sim_err *err)
{
	struct slab_state *sb = state;
	struct slab_cache *cp = calloc(1, sizeof(*cp));
	if (!cp)
		return sim_fail(err, "out of memory creating cache %s", kc->name), NULL;
	cp->kc = kc;
	if (slab_calculate_geometry(sb, cp, err) < 0) {
		free(cp);
		return NULL;
	}
	kc->priv = cp;
	slab_enable_cpucache(sb, cp);
	const struct sb_params p = {
		.policy = "slab", .size = kc->size, .order = (unsigned int)cp->gfporder,
		.objects = cp->num, .flags = SB_FULL_LIST | SB_FREE_LIST | SB_OWN_NODES,
		.lock_name = "&l3->list_lock [%s]",
		.list_name = { "slabs_partial", "slabs_full", "slabs_free" },
	};
	if (sb_cache_setup(&cp->sc, sb->k, kc, &p, err) < 0)
		return NULL;
	snprintf(cp->alien_lock_name, sizeof(cp->alien_lock_name), "&ac->lock [%s alien]",
		 kc->name);
	hw_lock_class_init(sb->hw, &cp->alien_lock_class, cp->alien_lock_name,
			   sb->hw->sym_spin_lock);
	if (setup_arrays(sb, cp, err) < 0)
		return NULL;
	if (sb->ncaches == sb->caches_cap) {
		sb->caches_cap = sb->caches_cap ? 2 * sb->caches_cap : 32;
		sb->caches = xrealloc(sb->caches, (size_t)sb->caches_cap * sizeof(*sb->caches));
	}
	sb->caches[sb->ncaches++] = cp;
	return kc;
}

/* The largest kmalloc cache: PAGE_SIZE << KMALLOC_MAX_ORDER_SLAB (4 MB). */
static unsigned int slab_kmalloc_max(void *state)
{
	(void)state;
	return PAGE_SIZE << KMALLOC_MAX_ORDER_SLAB;
}

/* The policy's state: parameters and slab_tunables checked, costs, kernel-named symbols
 * and the cache_reap worker. */
static int slab_create(struct kernel *k, const struct param_set *ps, void **state,
		       struct sim_err *err)
{
	struct slab_state *sb = calloc(1, sizeof(*sb));
	if (!sb)
		return sim_fail(err, "out of memory");
	sb->k = k;
	sb->hw = k->hw;
	sb->ncpus = k->m->ncpus;
	sb->nodes = k->m->nodes;
	sb->use_alien_caches = param_bool(ps, "slab_alien_caches");
	sb->tune_limit = (int)param_int(ps, "slab_limit");
	sb->tune_batchcount = (int)param_int(ps, "slab_batchcount");
	sb->tune_shared = (int)param_int(ps, "slab_shared");
	sb->break_gfp_order = 1;	/* BREAK_GFP_ORDER_HI: more than 32 MB of memory */
	sb->reap_list3 = (uint64_t)(REAPTIMEOUT_LIST3_S * k->m->ghz * 1e9);
	snprintf(sb->tunables, sizeof(sb->tunables), "%s", param_str(ps, "slab_tunables"));
	if (sb->tune_batchcount > sb->tune_limit && sb->tune_limit) {
		sim_fail(err, "slab_batchcount=%d is above slab_limit=%d", sb->tune_batchcount,
			 sb->tune_limit);
		free(sb);
		return -1;
	}
	if (slab_parse_tunables(sb, err) < 0) {
		free(sb);
		return -1;
	}
	const struct cost_ref costs[] = {
		{ "slab.alloc_hit", &sb->cost_alloc_hit },
		{ "slab.free_hit", &sb->cost_free_hit },
		{ "slab.refill", &sb->cost_refill },
		{ "slab.per_object", &sb->cost_per_object },
		{ "slab.flush", &sb->cost_flush },
		{ "slab.free_block", &sb->cost_free_block },
		{ "slab.grow", &sb->cost_grow },
		{ "slab.init_per_object", &sb->cost_init_per_object },
		{ "slab.destroy", &sb->cost_destroy },
		{ "slab.alien", &sb->cost_alien },
		{ "slab.reap", &sb->cost_reap },
	};
	if (machine_costs(k->m, costs, ARRAY_SIZE(costs), err) < 0) {
		free(sb);
		return -1;
	}
	struct profile *p = &k->eng->prof;
	sb->sym_kmem_cache_alloc = profile_sym(p, "____cache_alloc", SYM_SLAB);
	sb->sym_kmem_cache_free = profile_sym(p, "__cache_free", SYM_SLAB);
	sb->sym_alloc_refill = profile_sym(p, "cache_alloc_refill", SYM_SLAB);
	sb->sym_flusharray = profile_sym(p, "cache_flusharray", SYM_SLAB);
	sb->sym_free_block = profile_sym(p, "free_block", SYM_SLAB);
	sb->sym_grow = profile_sym(p, "cache_grow", SYM_SLAB);
	sb->sym_destroy = profile_sym(p, "slab_destroy", SYM_SLAB);
	sb->sym_free_alien = profile_sym(p, "cache_free_alien", SYM_SLAB);
	sb->sym_drain_alien = profile_sym(p, "__drain_alien_cache", SYM_SLAB);
	sb->sym_reap = profile_sym(p, "cache_reap", SYM_SLAB);
	if (slab_reap_init(sb, err) < 0) {
		free(sb);
		return -1;
	}
	*state = sb;
	return 0;
}

/* Every cache's arrays, node lists and descriptors, the descriptor pool, the reap worker,
 * then the state. */
static void slab_destroy_state(void *state)
{
	struct slab_state *sb = state;
	for (int i = 0; i < sb->ncaches; i++) {
		struct slab_cache *cp = sb->caches[i];
		for (int c = 0; cp->array && c < sb->ncpus; c++)
			free_arraycache(cp->array[c]);
		for (int n = 0; cp->nodelists && n < sb->nodes; n++) {
			struct kmem_list3 *l3 = &cp->nodelists[n];
			free_arraycache(l3->shared);
			for (int j = 0; l3->alien && j < sb->nodes; j++)
				free_arraycache(l3->alien[j]);
			free(l3->alien);
		}
		for (int j = 0; j < cp->sc.nall; j++)
			desc_put(sb, page_slab(cp->sc.all[j]));
		sb_cache_destroy(&cp->sc);
		free(cp->array);
		free(cp->nodelists);
		free(cp);
	}
	while (sb->desc_pool) {
		struct slab *d = sb->desc_pool;
		sb->desc_pool = d->next_free;
		free(d);
	}
	slab_reap_destroy(sb);
	free(sb->caches);
	free(sb);
}

/* Every cache exists (the workload's too): the caches slab_tunables names must. */
static int slab_init_done(void *state, struct sim_err *err)
{
	return slab_check_tunables(state, err);
}

const struct slab_policy slab_policy = {
	SLAB_POLICY_HEADER,
	.name = "slab",
	.description = "SLAB (mm/slab.c), as in Linux 2.6.24-2.6.26: per-CPU arrays, shared "
		       "and alien arrays, slab lists under the node's list_lock",
	.params = slab_param_defs,
	.presets = slab_presets,
	.create = slab_create,
	.destroy = slab_destroy_state,
	.cache_create = slab_cache_create,
	.init_done = slab_init_done,
	.kmalloc_max = slab_kmalloc_max,
	/* 2.6.2x named them size-N; later kernels kmalloc-N, as here, so that
	 * reports line up across policies */
	.kmalloc_prefix = "kmalloc-",
	.kmalloc_min_shift = 5,
	.kmalloc_odd = 0,	/* x86-64: L1_CACHE_BYTES is 64 */
	.alloc = slab_alloc,
	.free = slab_free,
	.cache_info = slab_cache_info,
	.check = slab_check,
};
