/* template.c - a complete slab allocator written against slabsim's policy
 * API, to copy when trying a design of your own (policies/README.md walks
 * through it). It is deliberately simple, and it works:
 *
 *  - each CPU keeps a stack of free objects per cache (`limit` of them); an
 *    allocation pops it, a free of an object of this CPU's node pushes it;
 *  - an empty stack is refilled with `batch` objects from the node's slabs,
 *    under the node's list_lock; a full one gives the oldest `batch` back;
 *  - each node keeps its slabs on a partial and a full list, and at most
 *    `keep` empty slabs, giving the rest back to the page allocator;
 *  - an object of another node is freed straight to its slab, under that
 *    node's lock.
 *
 * Build and run it out of tree:
 *
 *     make policy SRC=policies/examples/template.c     # -> policies/examples/template.so
 *     ./slabsim run -m tigerton -p ./policies/examples/template.so -w 'hackbench 10 process 100'
 *
 * It includes only the policy API's headers (make install puts them in
 * $(PREFIX)/include/slabsim) and charges its instruction costs from the
 * core's cost table: SLAB's entries, since its paths do SLAB's work. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/list.h"
#include "engine/array_size.h"
#include "kernel/slab.h"
#include "policy.h"

/* Statistics, as a kernel would name them. */
enum tpl_stat { ALLOC_HIT, ALLOC_REFILL, ALLOC_OTHER_NODE, FREE_HIT, FREE_FLUSH,
		FREE_OTHER_NODE, SLAB_NEW, SLAB_FREE, NR_TPL_STATS };

static const char *const tpl_stat_name[NR_TPL_STATS] = {
	"ALLOC_HIT", "ALLOC_REFILL", "ALLOC_OTHER_NODE", "FREE_HIT", "FREE_FLUSH",
	"FREE_OTHER_NODE", "SLAB_NEW", "SLAB_FREE",
};

/* A CPU's stack of free objects: private to the CPU, so no lock. */
struct tpl_cpu {
	kaddr_t *stack;
	unsigned int avail;
	uint64_t stat[NR_TPL_STATS];
};

/* A node's slabs: shared by its CPUs, under list_lock. */
struct tpl_node {
	struct hw_line line;		/* list_lock and the list heads share a line */
	struct hw_lock list_lock;
	struct list_head partial, full;	/* partial holds the empty slabs too */
	unsigned long nr_partial, nr_full, nr_empty;
};

struct tpl_cache {
	struct kmem_cache *kc;
	unsigned int order, objects, limit, batch, keep;
	struct tpl_cpu *cpu;		/* [ncpus] */
	struct tpl_node *node;		/* [nodes] */
	struct hw_lock_class lock_class;
	char lock_name[64];
	struct page **all;		/* every slab, for the invariant check */
	int nall, all_cap;
	uint64_t slabs_peak;
};

struct tpl {
	struct kernel *k;
	struct hw *hw;
	int ncpus, nodes;
	unsigned int limit, batch, keep, max_order;
	uint32_t cost_alloc, cost_free, cost_refill, cost_per_object, cost_flush,
		cost_free_block, cost_grow, cost_init_object, cost_destroy;
	int sym_refill, sym_flush, sym_grow, sym_free_other;
	struct tpl_cache **caches;
	int ncaches, caches_cap;
};

static const struct param_def tpl_params[] = {
	{ "template_limit", PT_INT, "64", 2, 4096, NULL,
	  "free objects a CPU keeps per cache" },
	{ "template_batch", PT_INT, "16", 1, 4096, NULL,
	  "objects moved between a CPU and the node's slabs at once (at most limit)" },
	{ "template_keep", PT_INT, "2", 0, 1000, NULL, "empty slabs a node keeps per cache" },
	{ "template_max_order", PT_INT, "3", 0, 10, NULL, "largest slab order" },
	{ NULL },
};

static inline int cpu_node(const struct tpl *t, const struct sim_cpu *cpu)
{
	return t->k->m->topo[cpu->id].node;
}

static void out_of_memory(void)
{
	fprintf(stderr, "slabsim: template policy: out of host memory\n");
	abort();
}

/* --- slabs --- */

/* A new slab of the cache on `nid`: every object on its free chain. */
static struct page *tpl_new_slab(struct tpl *t, struct sim_cpu *cpu, struct tpl_cache *s,
				 int nid)
{
	int psym = sym_enter(cpu, t->sym_grow);
	struct page *page = alloc_pages_node(&t->k->pa, cpu, nid, s->order);
	if (!page) {
		sym_exit(cpu, psym);
		return NULL;
	}
	page->slab = s->kc;
	page->flags |= PG_slab;
	page->order = (int8_t)s->order;
	account_slab_pages(&t->k->pa, page->nid, 1l << s->order);
	slab_page_prepare(t->k, page, s->objects);
	cpu_charge(cpu, t->cost_grow + s->objects * t->cost_init_object);
	slab_objs_stream(t->hw, cpu, page, s->objects);	/* writing each free pointer */
	for (unsigned int i = 0; i < s->objects; i++)
		page->obj[i].next = i + 1 < s->objects ? (uint16_t)(i + 1) : OBJ_NIL;
	page->freelist = 0;
	page->inuse = 0;
	hw_write(t->hw, cpu, &page->line);
	if (s->nall == s->all_cap) {
		s->all_cap = s->all_cap ? 2 * s->all_cap : 64;
		s->all = realloc(s->all, (size_t)s->all_cap * sizeof(*s->all));
		if (!s->all)
			out_of_memory();
	}
	page->priv = (void *)(intptr_t)s->nall;	/* its index in s->all */
	s->all[s->nall++] = page;
	if ((uint64_t)s->nall > s->slabs_peak)
		s->slabs_peak = (uint64_t)s->nall;
	sym_exit(cpu, psym);
	return page;
}

/* Give an empty slab back to the page allocator (caller holds no lock). */
static void tpl_free_slab(struct tpl *t, struct sim_cpu *cpu, struct tpl_cache *s,
			  struct page *page)
{
	int i = (int)(intptr_t)page->priv;
	s->all[i] = s->all[--s->nall];
	s->all[i]->priv = (void *)(intptr_t)i;
	cpu_charge(cpu, t->cost_destroy);
	page->flags &= ~PG_slab;
	page->slab = NULL;
	page->priv = NULL;
	account_slab_pages(&t->k->pa, page->nid, -(1l << s->order));
	__free_pages(&t->k->pa, cpu, page, s->order);
}

/* Take one object off a slab's free chain (caller holds the node's lock). */
static kaddr_t slab_get_obj(struct tpl *t, struct sim_cpu *cpu, struct tpl_cache *s,
			    struct tpl_node *n, struct page *page)
{
	unsigned int idx = page->freelist;
	slab_obj_access(t->hw, cpu, page, idx, 1, false);	/* read its free pointer */
	page->freelist = page->obj[idx].next;
	if (page->inuse++ == 0)
		n->nr_empty--;
	if (page->inuse == s->objects) {	/* now full */
		list_del(&page->lru);
		list_add(&page->lru, &n->full);
		n->nr_partial--;
		n->nr_full++;
	}
	cpu_charge(cpu, t->cost_per_object);
	return slab_obj_addr(s->kc, page, idx);
}

/* Put an object back on its slab's chain (caller holds the node's lock);
 * returns the slab if it became empty and the node keeps enough. */
static struct page *slab_put_obj(struct tpl *t, struct sim_cpu *cpu, struct tpl_cache *s,
				 struct tpl_node *n, struct page *page, kaddr_t obj)
{
	unsigned int idx = slab_obj_index(s->kc, page, obj);
	slab_obj_access(t->hw, cpu, page, idx, 1, true);	/* write its free pointer */
	page->obj[idx].next = page->freelist;
	page->freelist = (uint16_t)idx;
	hw_write(t->hw, cpu, &page->line);
	cpu_charge(cpu, t->cost_free_block);
	if (page->inuse-- == s->objects) {	/* was full */
		list_del(&page->lru);
		list_add(&page->lru, &n->partial);
		n->nr_full--;
		n->nr_partial++;
	}
	if (page->inuse)
		return NULL;
	if (n->nr_empty < s->keep) {
		n->nr_empty++;
		return NULL;
	}
	list_del(&page->lru);
	n->nr_partial--;
	return page;	/* freed once the lock is dropped */
}

/* --- the paths --- */

/* Up to `want` objects from node nid's slabs into out[] (a new slab if
 * none has a free object); returns how many. */
static unsigned int tpl_get_objects(struct tpl *t, struct sim_cpu *cpu, struct tpl_cache *s,
				    int nid, kaddr_t *out, unsigned int want)
{
	struct tpl_node *n = &s->node[nid];
	unsigned int got = 0;
	hw_spin_lock(t->hw, cpu, &n->list_lock);
	hw_read(t->hw, cpu, &n->line);
	while (got < want) {
		if (list_empty(&n->partial)) {
			hw_spin_unlock(t->hw, cpu, &n->list_lock);
			struct page *page = tpl_new_slab(t, cpu, s, nid);
			hw_spin_lock(t->hw, cpu, &n->list_lock);
			if (!page)
				break;
			list_add(&page->lru, &n->partial);
			n->nr_partial++;
			n->nr_empty++;
			s->cpu[cpu->id].stat[SLAB_NEW]++;
		}
		struct page *page = list_first_entry(&n->partial, struct page, lru);
		while (got < want && page->freelist != OBJ_NIL)
			out[got++] = slab_get_obj(t, cpu, s, n, page);
	}
	hw_write(t->hw, cpu, &n->line);
	hw_spin_unlock(t->hw, cpu, &n->list_lock);
	return got;
}

/* Objects back to their slabs, each under its node's lock; the empty slabs
 * the node does not keep go back to the page allocator once it is dropped. */
static void tpl_put_objects(struct tpl *t, struct sim_cpu *cpu, struct tpl_cache *s,
			    const kaddr_t *objs, unsigned int nr)
{
	struct page *empty[16];
	unsigned int nempty = 0;
	struct tpl_node *locked = NULL;
	for (unsigned int i = 0; i < nr; i++) {
		struct page *page = virt_to_head_page(&t->k->pa, objs[i]);
		struct tpl_node *n = &s->node[page->nid];
		if (n != locked) {
			if (locked)
				hw_spin_unlock(t->hw, cpu, &locked->list_lock);
			hw_spin_lock(t->hw, cpu, &n->list_lock);
			hw_write(t->hw, cpu, &n->line);
			locked = n;
		}
		struct page *e = slab_put_obj(t, cpu, s, n, page, objs[i]);
		if (e)
			empty[nempty++] = e;
		if (nempty == 16 || i + 1 == nr) {
			hw_spin_unlock(t->hw, cpu, &locked->list_lock);
			locked = NULL;
			for (unsigned int j = 0; j < nempty; j++) {
				tpl_free_slab(t, cpu, s, empty[j]);
				s->cpu[cpu->id].stat[SLAB_FREE]++;
			}
			nempty = 0;
		}
	}
}

static kaddr_t tpl_alloc(void *state, struct kmem_cache *kc, struct sim_cpu *cpu, int node)
{
	struct tpl *t = state;
	struct tpl_cache *s = kc->priv;
	struct tpl_cpu *c = &s->cpu[cpu->id];
	cpu_charge(cpu, t->cost_alloc);
	if (node >= 0 && node != cpu_node(t, cpu)) {	/* kmalloc_node() elsewhere */
		kaddr_t obj = 0;
		c->stat[ALLOC_OTHER_NODE]++;
		tpl_get_objects(t, cpu, s, node, &obj, 1);
		return obj;
	}
	if (!c->avail) {
		int psym = sym_enter(cpu, t->sym_refill);
		cpu_charge(cpu, t->cost_refill);
		c->avail = tpl_get_objects(t, cpu, s, cpu_node(t, cpu), c->stack, s->batch);
		c->stat[ALLOC_REFILL]++;
		sym_exit(cpu, psym);
		if (!c->avail)
			return 0;
	} else {
		c->stat[ALLOC_HIT]++;
	}
	return c->stack[--c->avail];
}

static void tpl_free(void *state, struct kmem_cache *kc, struct sim_cpu *cpu, kaddr_t obj)
{
	struct tpl *t = state;
	struct tpl_cache *s = kc->priv;
	struct tpl_cpu *c = &s->cpu[cpu->id];
	cpu_charge(cpu, t->cost_free);
	struct page *page = virt_to_head_page(&t->k->pa, obj);
	if (page->nid != cpu_node(t, cpu)) {
		int psym = sym_enter(cpu, t->sym_free_other);
		tpl_put_objects(t, cpu, s, &obj, 1);
		c->stat[FREE_OTHER_NODE]++;
		sym_exit(cpu, psym);
		return;
	}
	if (c->avail == s->limit) {	/* give the oldest batch back */
		int psym = sym_enter(cpu, t->sym_flush);
		cpu_charge(cpu, t->cost_flush);
		tpl_put_objects(t, cpu, s, c->stack, s->batch);
		memmove(c->stack, c->stack + s->batch, (c->avail - s->batch) * sizeof(kaddr_t));
		c->avail -= s->batch;
		c->stat[FREE_FLUSH]++;
		sym_exit(cpu, psym);
	} else {
		c->stat[FREE_HIT]++;
	}
	c->stack[c->avail++] = obj;
}

/* --- caches --- */

/* The slab order: the smallest that holds 8 objects with at most 1/8 of
 * the slab wasted, up to the maximum order. */
static unsigned int tpl_order(const struct tpl *t, unsigned int size)
{
	for (unsigned int order = 0; order <= t->max_order; order++) {
		unsigned long slab = PAGE_SIZE << order, objects = slab / size;
		if (objects >= 8 && (slab - objects * size) * 8 <= slab)
			return order;
	}
	return t->max_order;
}

static struct kmem_cache *tpl_cache_create(void *state, struct kmem_cache *kc,
					   struct sim_err *err)
{
	struct tpl *t = state;
	unsigned int align = kc->align < sizeof(void *) ? sizeof(void *) : kc->align;
	if ((kc->flags & SLAB_HWCACHE_ALIGN) && align < 64)	/* the caller wants its own lines */
		align = 64;
	unsigned int size = (kc->object_size + align - 1) / align * align;
	unsigned int order = tpl_order(t, size);
	unsigned long objects = (PAGE_SIZE << order) / size;
	if (!objects)
		return sim_fail(err, "template: cache %s: %u-byte objects do not fit a slab of "
				"order %u (template_max_order)", kc->name, size, order), NULL;
	struct tpl_cache *s = calloc(1, sizeof(*s));
	if (!s)
		return sim_fail(err, "out of memory creating cache %s", kc->name), NULL;
	kc->size = size;
	kc->priv = s;
	s->kc = kc;
	s->order = order;
	s->objects = objects > OBJ_NIL - 1 ? OBJ_NIL - 1 : (unsigned int)objects;
	s->limit = t->limit;
	s->batch = t->batch;
	s->keep = t->keep;
	s->cpu = calloc((size_t)t->ncpus, sizeof(*s->cpu));
	s->node = calloc((size_t)t->nodes, sizeof(*s->node));
	if (!s->cpu || !s->node)
		out_of_memory();
	for (int c = 0; c < t->ncpus; c++)
		if (!(s->cpu[c].stack = malloc(s->limit * sizeof(kaddr_t))))
			out_of_memory();
	snprintf(s->lock_name, sizeof(s->lock_name), "&n->list_lock [%s]", kc->name);
	hw_lock_class_init(t->hw, &s->lock_class, s->lock_name, t->hw->sym_spin_lock);
	for (int nid = 0; nid < t->nodes; nid++) {
		struct tpl_node *n = &s->node[nid];
		hw_line_init(t->hw, &n->line, nid);
		hw_lock_init(&n->list_lock, t->k->lock_kind, &n->line, &s->lock_class);
		INIT_LIST_HEAD(&n->partial);
		INIT_LIST_HEAD(&n->full);
	}
	if (t->ncaches == t->caches_cap) {
		t->caches_cap = t->caches_cap ? 2 * t->caches_cap : 32;
		t->caches = realloc(t->caches, (size_t)t->caches_cap * sizeof(*t->caches));
		if (!t->caches)
			out_of_memory();
	}
	t->caches[t->ncaches++] = s;
	return kc;
}

static unsigned int tpl_kmalloc_max(void *state)
{
	(void)state;
	return PAGE_SIZE << 1;	/* kmalloc-8192; beyond, the page allocator */
}

/* What slabinfo, `show policy` and the JSON show of a cache. */
static void tpl_cache_info(void *state, struct kmem_cache *kc, struct cache_info *out)
{
	struct tpl *t = state;
	struct tpl_cache *s = kc->priv;
	memset(out, 0, sizeof(*out));
	out->order = s->order;
	out->objs_per_slab = s->objects;
	out->slabs = (uint64_t)s->nall;
	out->slabs_peak = s->slabs_peak;
	out->objects = (uint64_t)s->nall * s->objects;
	out->active = kc->live;
	for (int nid = 0; nid < t->nodes; nid++)
		out->partial += s->node[nid].nr_partial;
	out->nstats = NR_TPL_STATS;
	for (int i = 0; i < NR_TPL_STATS; i++) {
		out->stats[i].name = tpl_stat_name[i];
		for (int c = 0; c < t->ncpus; c++)
			out->stats[i].value += s->cpu[c].stat[i];
	}
	out->ntunables = 3;
	out->tunables[0] = (struct slab_stat){ "limit", s->limit };
	out->tunables[1] = (struct slab_stat){ "batch", s->batch };
	out->tunables[2] = (struct slab_stat){ "keep", s->keep };
}

/* The invariants: the lists hold the slabs their counters say, each where
 * its fill puts it; every slab is on one list; every object is live, on
 * its slab's free chain, or on exactly one CPU stack (slab_check_pages). */
static int tpl_check(void *state, struct kmem_cache *kc, struct sim_err *err)
{
	struct tpl *t = state;
	struct tpl_cache *s = kc->priv;
	uint32_t *waiting = calloc((size_t)s->nall + 1, sizeof(*waiting));
	if (!waiting)
		out_of_memory();
	long listed = 0;
	int rc = 0;
	for (int nid = 0; nid < t->nodes && rc == 0; nid++) {
		struct tpl_node *n = &s->node[nid];
		unsigned long partial = 0, full = 0, empty = 0;
		struct page *page;
		list_for_each_entry(page, &n->partial, lru) {
			if (page->nid != nid || page->inuse >= s->objects || ++partial > (unsigned long)s->nall)
				rc = sim_fail(err, "template %s: slab pfn %llu is on node %d's partial "
					      "list with %u of %u objects in use", kc->name,
					      (unsigned long long)page->pfn, nid, page->inuse, s->objects);
			if (rc)
				break;
			empty += page->inuse == 0;
		}
		list_for_each_entry(page, &n->full, lru) {
			if (rc)
				break;
			if (page->nid != nid || page->inuse != s->objects || ++full > (unsigned long)s->nall)
				rc = sim_fail(err, "template %s: slab pfn %llu is on node %d's full "
					      "list with %u of %u objects in use", kc->name,
					      (unsigned long long)page->pfn, nid, page->inuse, s->objects);
		}
		if (rc == 0 && (partial != n->nr_partial || full != n->nr_full || empty != n->nr_empty))
			rc = sim_fail(err, "template %s: node %d lists %lu partial, %lu full and %lu "
				      "empty slabs, its counters %lu, %lu and %lu", kc->name, nid,
				      partial, full, empty, n->nr_partial, n->nr_full, n->nr_empty);
		listed += (long)(partial + full);
	}
	if (rc == 0 && listed != s->nall)
		rc = sim_fail(err, "template %s: %ld slabs on the lists but %d exist", kc->name,
			      listed, s->nall);
	for (int c = 0; c < t->ncpus && rc == 0; c++)
		for (unsigned int i = 0; i < s->cpu[c].avail && rc == 0; i++) {
			kaddr_t obj = s->cpu[c].stack[i];
			struct page *page = virt_to_head_page(&t->k->pa, obj);
			if (!page || page->slab != kc || !(page->flags & PG_slab))
				rc = sim_fail(err, "template %s: CPU %d's stack holds %#llx, not an "
					      "object of this cache", kc->name, c,
					      (unsigned long long)obj);
			else if (page->obj[slab_obj_index(kc, page, obj)].live)
				rc = sim_fail(err, "template %s: CPU %d's stack holds a live object",
					      kc->name, c);
			else
				waiting[(int)(intptr_t)page->priv]++;
		}
	if (rc == 0)
		rc = slab_check_pages(kc, s->all, s->nall, waiting, "template", "CPU stacks", err);
	free(waiting);
	return rc;
}

static int tpl_create(struct kernel *k, const struct param_set *ps, void **state,
		      struct sim_err *err)
{
	if (param_int(ps, "template_batch") > param_int(ps, "template_limit"))
		return sim_fail(err, "template_batch=%lld is above template_limit=%lld",
				param_int(ps, "template_batch"), param_int(ps, "template_limit"));
	struct tpl *t = calloc(1, sizeof(*t));
	if (!t)
		return sim_fail(err, "out of memory");
	t->k = k;
	t->hw = k->hw;
	t->ncpus = k->m->ncpus;
	t->nodes = k->m->nodes;
	t->limit = (unsigned int)param_int(ps, "template_limit");
	t->batch = (unsigned int)param_int(ps, "template_batch");
	t->keep = (unsigned int)param_int(ps, "template_keep");
	t->max_order = (unsigned int)param_int(ps, "template_max_order");
	const struct cost_ref costs[] = {	/* SLAB's paths do the same work */
		{ "slab.alloc_hit", &t->cost_alloc },	{ "slab.free_hit", &t->cost_free },
		{ "slab.refill", &t->cost_refill },	{ "slab.per_object", &t->cost_per_object },
		{ "slab.flush", &t->cost_flush },	{ "slab.free_block", &t->cost_free_block },
		{ "slab.grow", &t->cost_grow },	{ "slab.init_per_object", &t->cost_init_object },
		{ "slab.destroy", &t->cost_destroy },
	};
	if (machine_costs(k->m, costs, ARRAY_SIZE(costs), err) < 0) {
		free(t);
		return -1;
	}
	struct profile *p = &k->eng->prof;
	t->sym_refill = profile_sym(p, "tpl_refill", SYM_SLAB);
	t->sym_flush = profile_sym(p, "tpl_flush", SYM_SLAB);
	t->sym_grow = profile_sym(p, "tpl_new_slab", SYM_SLAB);
	t->sym_free_other = profile_sym(p, "tpl_free_other_node", SYM_SLAB);
	*state = t;
	return 0;
}

static void tpl_destroy(void *state)
{
	struct tpl *t = state;
	for (int i = 0; i < t->ncaches; i++) {
		struct tpl_cache *s = t->caches[i];
		for (int c = 0; c < t->ncpus; c++)
			free(s->cpu[c].stack);
		free(s->cpu);
		free(s->node);
		free(s->all);
		free(s);
	}
	free(t->caches);
	free(t);
}

const struct slab_policy slabsim_policy = {
	SLAB_POLICY_HEADER,
	.name = "template",
	.description = "the policy API's template: per-CPU stacks of free objects, per-node "
		       "slab lists under list_lock (policies/examples/template.c)",
	.params = tpl_params,
	.create = tpl_create,
	.destroy = tpl_destroy,
	.cache_create = tpl_cache_create,
	.kmalloc_max = tpl_kmalloc_max,
	.kmalloc_prefix = "kmalloc-",
	.kmalloc_min_shift = 3,
	.kmalloc_odd = KMALLOC_96 | KMALLOC_192,
	.alloc = tpl_alloc,
	.free = tpl_free,
	.cache_info = tpl_cache_info,
	.check = tpl_check,
};
