/* slqb.c - SLQB (mm/slqb.c): each CPU keeps a LIFO of free objects of its
 * node, whatever slab they came from. Allocation pops it; an empty LIFO
 * claims objects other CPUs queued back to this CPU (remote_free), then takes
 * from this CPU's partial slabs (under its page_lock), then a new slab.
 * Freeing pushes on the freeing CPU's LIFO; above `hiwater`, `freebatch`
 * objects are flushed: back to their slab if this CPU's list owns it, else
 * gathered on rlist and spliced onto the owner's remote_free queue, which
 * the owner claims when it runs dry. Objects of another node go straight
 * to rlist. A worker trims every CPU's lists every 3 s (slqb_geometry.c).
 *
 * On the blocks (slab_blocks.h): each kmem_cache_list's slabs are an
 * sb_node of the cache's (its partial list, counters and page_lock, no
 * full list, an empty slab freed at once), slabs come and go with
 * sb_new_slab and sb_free_slab, the registry is the blocks'. The LIFOs,
 * remote_free queues and rlists are its own, not sb_arrays: unbounded
 * lists linked through the objects' first words and spliced whole. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slqb.h"
#include "engine/array_size.h"
#include "engine/oom.h"

const char *const slqb_stat_name[NR_SLQB_STAT_ITEMS] = {
	"ALLOC", "ALLOC_SLAB_FILL", "ALLOC_SLAB_NEW", "FREE", "FREE_REMOTE", "FLUSH_FREE_LIST",
	"FLUSH_FREE_LIST_OBJECTS", "FLUSH_FREE_LIST_REMOTE", "FLUSH_SLAB_PARTIAL",
	"FLUSH_SLAB_FREE", "FLUSH_RFREE_LIST", "FLUSH_RFREE_LIST_OBJECTS", "CLAIM_REMOTE_LIST",
	"CLAIM_REMOTE_LIST_OBJECTS",
};

/* --- the kmlist ring --- */

/* Double the ring (64 slots at first), unwrapped to start at 0; -1 if out of host memory. */
static int kmlist_grow(struct kmlist *l)
{
	uint32_t cap = l->cap ? 2 * l->cap : 64;
	kaddr_t *v = malloc(cap * sizeof(*v));
	if (!v)
		return -1;
	for (uint32_t i = 0; i < l->nr; i++)
		v[i] = kmlist_at(l, i);
	free(l->v);
	l->v = v;
	l->cap = cap;
	l->start = 0;
	return 0;
}

int kmlist_push_head(struct kmlist *l, kaddr_t obj)
{
	if (l->nr == l->cap && kmlist_grow(l) < 0)
		return -1;
	l->start = (l->start + l->cap - 1) % l->cap;
	l->v[l->start] = obj;
	l->nr++;
	return 0;
}

kaddr_t kmlist_pop_head(struct kmlist *l)
{
	kaddr_t obj = l->v[l->start];
	l->start = (l->start + 1) % l->cap;
	l->nr--;
	return obj;
}

int kmlist_append(struct kmlist *l, kaddr_t obj)
{
	if (l->nr == l->cap && kmlist_grow(l) < 0)
		return -1;
	l->v[(l->start + l->nr) % l->cap] = obj;
	l->nr++;
	return 0;
}

int kmlist_splice_tail(struct kmlist *dst, struct kmlist *src)
{
	while (src->nr)
		if (kmlist_append(dst, kmlist_pop_head(src)) < 0)
			return -1;
	return 0;
}

void kmlist_free(struct kmlist *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* --- objects and slabs --- */

/* get_cpu_slab(): the running CPU's kmem_cache_cpu of the cache. */
static inline struct kmem_cache_cpu *get_cpu_slab(struct slqb_cache *s, struct sim_cpu *cpu)
{
	return &s->cpu_slab[cpu->id];
}

/* numa_node_id(): the running CPU's node. */
static inline int numa_node_id(const struct slqb *q, const struct sim_cpu *cpu)
{
	return q->k->m->topo[cpu->id].node;
}

/* The kmem_cache_list that owns a slab (the kernel's page->list). */
static inline struct kmem_cache_list *page_list(const struct page *page)
{
	return page->priv;	/* page->list */
}

/* set_freepointer()/get_freepointer(): the object's first line. */
static void touch_object(struct slqb *q, struct sim_cpu *cpu, kaddr_t obj, bool write)
{
	struct page *page = virt_to_head_page(&q->k->pa, obj);
	slab_obj_access(q->hw, cpu, page, slab_obj_index(page->slab, page, obj), 1, write);
}

/* free_slab(): the slab's pages back to the page allocator (sb_free_slab;
 * its list counts are the caller's). */
static void free_slab(struct sim_cpu *cpu, struct slqb_cache *s, struct page *page)
{
	page->priv = NULL;
	sb_free_slab(&s->sc, cpu, page);
}

/* free_object_to_page(): caller holds l->page_lock. An empty slab goes back
 * to the page allocator at once; a full one that gets a free object joins
 * the partial list. Returns 1 if the slab was freed. */
static int free_object_to_page(struct slqb *q, struct sim_cpu *cpu, struct slqb_cache *s,
			       struct kmem_cache_list *l, struct page *page, kaddr_t object)
{
	unsigned int idx = slab_obj_index(s->kc, page, object);
	slab_obj_access(q->hw, cpu, page, idx, 1, true);	/* set_freepointer */
	sb_chain_push(page, idx);
	page_access(&q->k->pa, cpu, page, PF_FREELIST | PF_INUSE, true);
	cpu_charge(cpu, q->cost_flush_object);
	if (!page->inuse) {
		if (page->sb_list == SB_PARTIAL)	/* a slab of one object never is */
			sb_list_del(&s->sc, &l->slabs, page);
		l->slabs.nr_slabs--;
		hw_write(q->hw, cpu, &l->slabs.line);
		free_slab(cpu, s, page);
		l->stats[FLUSH_SLAB_FREE]++;
		return 1;
	}
	if (page->inuse + 1u == s->objects) {
		sb_list_add(&s->sc, &l->slabs, page, SB_PARTIAL, false);
		hw_write(q->hw, cpu, &l->slabs.line);
		l->stats[FLUSH_SLAB_PARTIAL]++;
	}
	return 0;
}

/* --- remote frees --- */

/* flush_remote_free_cache(): the CPU's rlist goes to its owner list: onto
 * its remote_free queue (flagging the owner once a batch is waiting), or,
 * if that queue is already long, straight back to the slabs. */
void slqb_flush_remote_free_cache(struct slqb *q, struct sim_cpu *cpu, struct slqb_cache *s,
				  struct kmem_cache_cpu *c)
{
	struct kmlist *src = &c->rlist;
	if (!src->nr)
		return;
	int psym = sym_enter(cpu, q->sym_flush_remote);
	c->list.stats[FLUSH_RFREE_LIST]++;
	c->list.stats[FLUSH_RFREE_LIST_OBJECTS] += src->nr;
	struct kmem_cache_list *dst = c->remote_cache_list;
	cpu_sync(cpu);	/* a racy look at the owner's queue length */
	hw_read(q->hw, cpu, &dst->remote_free.line);
	if (dst->remote_free.list.nr > (uint32_t)(s->hiwater >> 1)) {
		hw_spin_lock(q->hw, cpu, &dst->slabs.list_lock);
		while (src->nr) {
			kaddr_t object = kmlist_pop_head(src);
			free_object_to_page(q, cpu, s, dst, virt_to_head_page(&q->k->pa, object),
					    object);
		}
		hw_spin_unlock(q->hw, cpu, &dst->slabs.list_lock);
		sym_exit(cpu, psym);
		return;
	}
	hw_spin_lock(q->hw, cpu, &dst->remote_free.lock);
	if (dst->remote_free.list.nr)	/* link the queue's tail to our head */
		touch_object(q, cpu, kmlist_at(&dst->remote_free.list,
					       dst->remote_free.list.nr - 1), true);
	bool set = dst->remote_free.list.nr < (uint32_t)s->freebatch;
	if (kmlist_splice_tail(&dst->remote_free.list, src) < 0)
		host_oom(__func__);
	if (dst->remote_free.list.nr >= (uint32_t)s->freebatch && set) {
		dst->remote_free_check = true;
		hw_write(q->hw, cpu, &dst->slabs.line);	/* the owner's hot line */
	}
	hw_spin_unlock(q->hw, cpu, &dst->remote_free.lock);
	sym_exit(cpu, psym);
}

/* slab_free_to_remote(): queue an object for its owner list. */
static void slab_free_to_remote(struct slqb *q, struct sim_cpu *cpu, struct slqb_cache *s,
				struct page *page, kaddr_t object, struct kmem_cache_cpu *c)
{
	int psym = sym_enter(cpu, q->sym_remote);
	cpu_charge(cpu, q->cost_remote);
	if (page_list(page) != c->remote_cache_list) {
		slqb_flush_remote_free_cache(q, cpu, s, c);
		c->remote_cache_list = page_list(page);
	}
	struct kmlist *r = &c->rlist;
	if (r->nr)	/* set_freepointer(r->tail, object) */
		touch_object(q, cpu, kmlist_at(r, r->nr - 1), true);
	slab_obj_access(q->hw, cpu, page, slab_obj_index(s->kc, page, object), 1, true);
	if (kmlist_append(r, object) < 0)
		host_oom(__func__);
	if (r->nr >= (uint32_t)s->freebatch)
		slqb_flush_remote_free_cache(q, cpu, s, c);
	sym_exit(cpu, psym);
}

/* flush_free_list(): up to freebatch objects from the LIFO's head go back:
 * to their slabs under this list's page_lock, or toward their owner. */
void slqb_flush_free_list(struct slqb *q, struct sim_cpu *cpu, struct slqb_cache *s,
			  struct kmem_cache_list *l)
{
	uint32_t nr = l->freelist.nr;
	if (!nr)
		return;
	if (nr > (uint32_t)s->freebatch)
		nr = (uint32_t)s->freebatch;
	int psym = sym_enter(cpu, q->sym_flush);
	cpu_charge(cpu, q->cost_flush);
	l->stats[FLUSH_FREE_LIST]++;
	l->stats[FLUSH_FREE_LIST_OBJECTS] += nr;
	bool locked = false;
	while (nr--) {
		kaddr_t object = kmlist_pop_head(&l->freelist);
		struct page *page = virt_to_head_page(&q->k->pa, object);
		touch_object(q, cpu, object, false);	/* head = get_freepointer(object) */
		page_access(&q->k->pa, cpu, page, PF_FLAGS, false);
		if (page_list(page) != l) {
			if (locked) {
				hw_spin_unlock(q->hw, cpu, &l->slabs.list_lock);
				locked = false;
			}
			slab_free_to_remote(q, cpu, s, page, object, get_cpu_slab(s, cpu));
			l->stats[FLUSH_FREE_LIST_REMOTE]++;
		} else {
			if (!locked) {
				hw_spin_lock(q->hw, cpu, &l->slabs.list_lock);
				locked = true;
			}
			free_object_to_page(q, cpu, s, l, page, object);
		}
	}
	if (locked)
		hw_spin_unlock(q->hw, cpu, &l->slabs.list_lock);
	hw_write(q->hw, cpu, &l->slabs.line);
	sym_exit(cpu, psym);
}

/* claim_remote_free_list(): take what other CPUs queued back to us. */
void slqb_claim_remote_free_list(struct slqb *q, struct sim_cpu *cpu, struct slqb_cache *s,
				 struct kmem_cache_list *l)
{
	cpu_sync(cpu);
	hw_read(q->hw, cpu, &l->remote_free.line);
	if (!l->remote_free.list.nr)
		return;
	int psym = sym_enter(cpu, q->sym_claim);
	cpu_charge(cpu, q->cost_claim);
	hw_spin_lock(q->hw, cpu, &l->remote_free.lock);
	l->remote_free_check = false;
	struct kmlist taken = l->remote_free.list;
	memset(&l->remote_free.list, 0, sizeof(l->remote_free.list));
	hw_spin_unlock(q->hw, cpu, &l->remote_free.lock);
	if (l->freelist.nr)	/* set_freepointer(l->freelist.tail, head) */
		touch_object(q, cpu, kmlist_at(&l->freelist, l->freelist.nr - 1), true);
	l->stats[CLAIM_REMOTE_LIST]++;
	l->stats[CLAIM_REMOTE_LIST_OBJECTS] += taken.nr;
	if (kmlist_splice_tail(&l->freelist, &taken) < 0)
		host_oom(__func__);
	kmlist_free(&taken);
	hw_write(q->hw, cpu, &l->slabs.line);
	sym_exit(cpu, psym);
}

/* --- allocation --- */

/* __cache_list_get_object(): pop the LIFO, claiming remote frees if the
 * owner was flagged. */
static kaddr_t cache_list_get_object(struct slqb *q, struct sim_cpu *cpu, struct slqb_cache *s,
				     struct kmem_cache_list *l)
{
	if (l->freelist.nr) {
		kaddr_t object = kmlist_pop_head(&l->freelist);
		touch_object(q, cpu, object, false);	/* next = get_freepointer(object) */
		return object;
	}
	cpu_sync(cpu);
	if (l->remote_free_check) {
		slqb_claim_remote_free_list(q, cpu, s, l);
		if (l->freelist.nr > (uint32_t)s->hiwater)
			slqb_flush_free_list(q, cpu, s, l);
		if (l->freelist.nr) {
			kaddr_t object = kmlist_pop_head(&l->freelist);
			touch_object(q, cpu, object, false);
			return object;
		}
	}
	return 0;
}

/* __cache_list_get_page(): one object from the first partial slab
 * (caller holds l->page_lock). */
static kaddr_t cache_list_get_page_locked(struct slqb *q, struct sim_cpu *cpu,
					  struct slqb_cache *s, struct kmem_cache_list *l)
{
	struct page *page = sb_list_first(&s->sc, &l->slabs, SB_PARTIAL);
	if (!page)
		return 0;
	if (page->inuse + 1u == s->objects) {
		sb_list_del(&s->sc, &l->slabs, page);
		hw_write(q->hw, cpu, &l->slabs.line);
	}
	unsigned int idx = sb_chain_pop(page);
	slab_obj_access(q->hw, cpu, page, idx, 1, false);	/* get_freepointer */
	page_access(&q->k->pa, cpu, page, PF_FREELIST | PF_INUSE, true);
	l->stats[ALLOC_SLAB_FILL]++;
	return slab_obj_addr(s->kc, page, idx);
}

/* cache_list_get_page(): a racy look at nr_partial, then __cache_list_get_page under
 * l->page_lock. */
static kaddr_t cache_list_get_page(struct slqb *q, struct sim_cpu *cpu, struct slqb_cache *s,
				   struct kmem_cache_list *l)
{
	cpu_sync(cpu);
	if (!l->slabs.nr_partial)
		return 0;
	int psym = sym_enter(cpu, q->sym_get_page);
	cpu_charge(cpu, q->cost_get_page);
	hw_spin_lock(q->hw, cpu, &l->slabs.list_lock);
	kaddr_t object = cache_list_get_page_locked(q, cpu, s, l);
	hw_spin_unlock(q->hw, cpu, &l->slabs.list_lock);
	sym_exit(cpu, psym);
	return object;
}

/* __slab_alloc_page(): a new slab onto the partial list of this CPU's list
 * (or of its node's list if the page is from another node). */
static kaddr_t slab_alloc_page(struct slqb *q, struct sim_cpu *cpu, struct slqb_cache *s,
			       int node)
{
	int psym = sym_enter(cpu, q->sym_alloc_page);
	struct kmem_cache_cpu *c = get_cpu_slab(s, cpu);
	c->colour_next += s->colour_off;
	if (c->colour_next >= s->colour_range)
		c->colour_next = 0;
	int nid = node < 0 ? numa_node_id(q, cpu) : node;
	struct page *page = sb_new_slab(&s->sc, cpu, nid);	/* new_slab_page() */
	if (!page) {
		sym_exit(cpu, psym);
		return 0;
	}
	struct kmem_cache_list *l;
	struct kmem_cache_node *n = NULL;
	if (page->nid == numa_node_id(q, cpu)) {
		l = &c->list;
	} else {
		n = &s->node_slab[page->nid];
		l = &n->list;
		hw_spin_lock(q->hw, cpu, &n->list_lock);
	}
	page->priv = l;
	hw_spin_lock(q->hw, cpu, &l->slabs.list_lock);
	l->slabs.nr_slabs++;
	sb_list_add(&s->sc, &l->slabs, page, SB_PARTIAL, false);
	hw_write(q->hw, cpu, &l->slabs.line);
	l->stats[ALLOC]++;
	l->stats[ALLOC_SLAB_NEW]++;
	kaddr_t object = cache_list_get_page_locked(q, cpu, s, l);
	hw_spin_unlock(q->hw, cpu, &l->slabs.list_lock);
	if (n)
		hw_spin_unlock(q->hw, cpu, &n->list_lock);
	sym_exit(cpu, psym);
	return object;
}

/* __remote_slab_alloc_node(): an object of another node, from that node's
 * list under its list_lock. */
static kaddr_t remote_slab_alloc(struct slqb *q, struct sim_cpu *cpu, struct slqb_cache *s,
				 int node)
{
	struct kmem_cache_node *n = &s->node_slab[node];
	struct kmem_cache_list *l = &n->list;
	hw_spin_lock(q->hw, cpu, &n->list_lock);
	kaddr_t object = cache_list_get_object(q, cpu, s, l);
	if (!object)
		object = cache_list_get_page(q, cpu, s, l);
	if (!object) {
		hw_spin_unlock(q->hw, cpu, &n->list_lock);
		return slab_alloc_page(q, cpu, s, node);
	}
	l->stats[ALLOC]++;
	hw_spin_unlock(q->hw, cpu, &n->list_lock);
	return object;
}

/* __slab_alloc(): pop this CPU's LIFO, else take from its partial slabs, else a new slab;
 * an object of another node comes from that node's list (__remote_slab_alloc_node). */
static kaddr_t slqb_alloc(void *state, struct kmem_cache *kc, struct sim_cpu *cpu, int node)
{
	struct slqb *q = state;
	struct slqb_cache *s = kc->priv;
	cpu_charge(cpu, q->cost_alloc);
	housekeeping_touch(&q->trim, cpu->id, cpu->clock);
	if (node >= 0 && node != numa_node_id(q, cpu))
		return remote_slab_alloc(q, cpu, s, node);
	struct kmem_cache_list *l = &get_cpu_slab(s, cpu)->list;
	kaddr_t object = cache_list_get_object(q, cpu, s, l);
	if (!object) {
		int psym = sym_enter(cpu, q->sym_slab_alloc);
		object = cache_list_get_page(q, cpu, s, l);
		if (!object) {
			object = slab_alloc_page(q, cpu, s, node);
			sym_exit(cpu, psym);
			return object;	/* counted ALLOC there */
		}
		sym_exit(cpu, psym);
	}
	l->stats[ALLOC]++;
	return object;
}

/* __slab_free(): push on this CPU's LIFO (an object of this node) or queue
 * it for its owner (another node's object); flush above hiwater. */
static void slqb_free(void *state, struct kmem_cache *kc, struct sim_cpu *cpu, kaddr_t object)
{
	struct slqb *q = state;
	struct slqb_cache *s = kc->priv;
	struct kmem_cache_cpu *c = get_cpu_slab(s, cpu);
	struct kmem_cache_list *l = &c->list;
	cpu_charge(cpu, q->cost_free);
	housekeeping_touch(&q->trim, cpu->id, cpu->clock);
	l->stats[FREE]++;
	struct page *page = virt_to_head_page(&q->k->pa, object);
	if (s->numa)	/* kmem_cache_free() looks the page up only on NUMA */
		page_access(&q->k->pa, cpu, page, PF_FLAGS, false);
	if (!s->numa || page->nid == numa_node_id(q, cpu)) {
		slab_obj_access(q->hw, cpu, page, slab_obj_index(kc, page, object), 1, true);
		if (kmlist_push_head(&l->freelist, object) < 0)
			host_oom(__func__);
		if (l->freelist.nr > (uint32_t)s->hiwater)
			slqb_flush_free_list(q, cpu, s, l);
	} else {
		int psym = sym_enter(cpu, q->sym_slab_free);
		slab_free_to_remote(q, cpu, s, page, object, c);
		l->stats[FREE_REMOTE]++;
		sym_exit(cpu, psym);
	}
}

/* --- caches --- */

/* init_kmem_cache_list(): a list's lines, partial list, page_lock (owner i of the blocks'
 * cache) and remote_free.lock, on `node`. */
static void init_list(struct slqb *q, struct slqb_cache *s, int i, struct kmem_cache_list *l,
		      int node, const char *name)
{
	sb_node_init(&s->sc, i, &l->slabs, node, name);
	hw_line_init(q->hw, &l->remote_free.line, node);
	hw_lock_init(&l->remote_free.lock, q->k->lock_kind, &l->remote_free.line,
		     &s->remote_lock_class);
	l->node = node;
}

/* kmem_cache_create(): the geometry (slqb_calculate_geometry), lock classes, and a
 * kmem_cache_list per CPU and per node; SLQB merges no caches. */
static struct kmem_cache *slqb_cache_create(void *state, struct kmem_cache *kc,
					    struct sim_err *err)
{
	struct slqb *q = state;
	struct slqb_cache *s = calloc(1, sizeof(*s));
	if (!s || !(s->cpu_slab = calloc((size_t)q->ncpus, sizeof(*s->cpu_slab))) ||
	    !(s->node_slab = calloc((size_t)q->nodes, sizeof(*s->node_slab)))) {
		if (s)
			free(s->cpu_slab);
		free(s);
		return sim_fail(err, "out of memory creating cache %s", kc->name), NULL;
	}
	s->kc = kc;
	if (slqb_calculate_geometry(q, s, err) < 0) {	/* e.g. slqb_hiwater < freebatch */
		free(s->cpu_slab);
		free(s->node_slab);
		free(s);
		return NULL;
	}
	kc->priv = s;
	/* the slabs: a list owner per CPU, then per node, none with a full list */
	const struct sb_params p = {
		.policy = "slqb", .size = kc->size, .order = (unsigned int)s->order,
		.objects = s->objects, .flags = SB_OWN_NODES | SB_NO_EMPTY,
		.owners = q->ncpus + q->nodes, .page_fields = PF_FLAGS | PF_FREELIST | PF_INUSE,
		.lock_name = "&l->page_lock [%s]", .cost = &q->slab_cost,
	};
	if (sb_cache_setup(&s->sc, q->k, kc, &p, err) < 0)
		return NULL;
	snprintf(s->remote_lock_name, sizeof(s->remote_lock_name), "&l->remote_free.lock [%s]",
		 kc->name);
	snprintf(s->list_lock_name, sizeof(s->list_lock_name), "&n->list_lock [%s]", kc->name);
	hw_lock_class_init(q->hw, &s->remote_lock_class, s->remote_lock_name,
			   q->hw->sym_spin_lock);
	hw_lock_class_init(q->hw, &s->list_lock_class, s->list_lock_name, q->hw->sym_spin_lock);
	char name[24];
	for (int cpu = 0; cpu < q->ncpus; cpu++) {
		snprintf(name, sizeof(name), "CPU %d", cpu);
		init_list(q, s, cpu, &s->cpu_slab[cpu].list, q->k->m->topo[cpu].node, name);
	}
	for (int node = 0; node < q->nodes; node++) {
		struct kmem_cache_node *n = &s->node_slab[node];
		snprintf(name, sizeof(name), "node %d", node);
		init_list(q, s, q->ncpus + node, &n->list, node, name);
		hw_lock_init(&n->list_lock, q->k->lock_kind, &n->list.slabs.line, &s->list_lock_class);
	}
	if (q->ncaches == q->caches_cap) {
		q->caches_cap = q->caches_cap ? 2 * q->caches_cap : 32;
		q->caches = xrealloc(q->caches, (size_t)q->caches_cap * sizeof(*q->caches));
	}
	q->caches[q->ncaches++] = s;
	return kc;
}

/* The largest kmalloc served by a cache: PAGE_SIZE << 9. */
static unsigned int slqb_kmalloc_max(void *state)
{
	(void)state;
	return PAGE_SIZE << 9;	/* KMALLOC_SHIFT_SLQB_HIGH: PAGE_SHIFT + 9 */
}

/* The policy's state: parameters, costs, kernel-named symbols and the trim worker. */
static int slqb_create(struct kernel *k, const struct param_set *ps, void **state,
		       struct sim_err *err)
{
	struct slqb *q = calloc(1, sizeof(*q));
	if (!q)
		return sim_fail(err, "out of memory");
	q->k = k;
	q->hw = k->hw;
	q->ncpus = k->m->ncpus;
	q->nodes = k->m->nodes;
	q->min_order = (int)param_int(ps, "slqb_min_order");
	q->min_objects = (int)param_int(ps, "slqb_min_objects");
	q->tune_freebatch = (int)param_int(ps, "slqb_freebatch");
	q->tune_hiwater = (int)param_int(ps, "slqb_hiwater");
	const struct cost_ref costs[] = {
		{ "slqb.alloc", &q->cost_alloc }, { "slqb.free", &q->cost_free },
		{ "slqb.get_page", &q->cost_get_page }, { "slqb.flush", &q->cost_flush },
		{ "slqb.flush_per_object", &q->cost_flush_object },
		{ "slqb.new_page", &q->slab_cost.grow },
		{ "slqb.per_object", &q->slab_cost.init_object },
		{ "slqb.remote", &q->cost_remote }, { "slqb.claim", &q->cost_claim },
		{ "slqb.trim", &q->cost_trim },
	};
	if (machine_costs(k->m, costs, ARRAY_SIZE(costs), err) < 0) {
		free(q);
		return -1;
	}
	q->slab_cost.sym_grow = -1;	/* charged under its caller, __slab_alloc_page */
	struct profile *p = &k->eng->prof;
	q->sym_slab_alloc = profile_sym(p, "__slab_alloc", SYM_SLAB);
	q->sym_slab_free = profile_sym(p, "__slab_free", SYM_SLAB);
	q->sym_get_page = profile_sym(p, "cache_list_get_page", SYM_SLAB);
	q->sym_alloc_page = profile_sym(p, "__slab_alloc_page", SYM_SLAB);
	q->sym_flush = profile_sym(p, "flush_free_list", SYM_SLAB);
	q->sym_remote = profile_sym(p, "slab_free_to_remote", SYM_SLAB);
	q->sym_flush_remote = profile_sym(p, "flush_remote_free_cache", SYM_SLAB);
	q->sym_claim = profile_sym(p, "claim_remote_free_list", SYM_SLAB);
	q->sym_trim = profile_sym(p, "cache_trim_worker", SYM_SLAB);
	if (slqb_trim_init(q, err) < 0) {
		free(q);
		return -1;
	}
	*state = q;
	return 0;
}

/* The host memory of a list's LIFO and remote_free queue freed. */
static void free_list(struct kmem_cache_list *l)
{
	kmlist_free(&l->freelist);
	kmlist_free(&l->remote_free.list);
}

/* Every cache's lists, rlists and arrays, the trim worker, then the state. */
static void slqb_destroy(void *state)
{
	struct slqb *q = state;
	for (int i = 0; i < q->ncaches; i++) {
		struct slqb_cache *s = q->caches[i];
		for (int c = 0; c < q->ncpus; c++) {
			free_list(&s->cpu_slab[c].list);
			kmlist_free(&s->cpu_slab[c].rlist);
		}
		for (int n = 0; n < q->nodes; n++)
			free_list(&s->node_slab[n].list);
		sb_cache_destroy(&s->sc);
		free(s->cpu_slab);
		free(s->node_slab);
		free(s);
	}
	housekeeping_destroy(&q->trim);
	free(q->caches);
	free(q);
}

const struct slab_policy slqb_policy = {
	SLAB_POLICY_HEADER,
	.name = "slqb",
	.description = "SLQB (Nick Piggin, linux-next 2009): per-CPU LIFO object lists, "
		       "remote-free queues, per-CPU partial slabs",
	.params = slqb_param_defs,
	.create = slqb_create,
	.destroy = slqb_destroy,
	.cache_create = slqb_cache_create,
	.kmalloc_max = slqb_kmalloc_max,
	.kmalloc_prefix = "kmalloc-",
	.kmalloc_min_shift = 3,
	.kmalloc_odd = KMALLOC_192,	/* L1_CACHE_BYTES 64: no kmalloc-96 */
	.alloc = slqb_alloc,
	.free = slqb_free,
	.cache_info = slqb_cache_info,
	.check = slqb_check,
};
