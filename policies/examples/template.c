/* template.c - a complete slab allocator written against slabsim's policy
 * API and its building blocks (policies/slab_blocks.h), to copy when trying
 * a design of your own (policies/README.md walks through it). The idea:
 *
 *  - each CPU keeps a stack of free objects per cache (`limit` of them); an
 *    allocation pops it, a free of an object of this CPU's node pushes it;
 *  - an empty stack is refilled with `batch` objects from the node's slabs,
 *    under the node's list_lock; a full one gives the oldest `batch` back;
 *  - each node keeps at most `keep` empty slabs, giving the rest back;
 *  - an object of another node is freed straight to its slab, under that
 *    node's lock.
 *
 * The slab lists, taking and putting objects, the registry of slabs and the
 * check are the blocks'; what is here is the design. Build and run it:
 *
 *     make policy SRC=policies/examples/template.c     # -> policies/examples/template.so
 *     ./slabsim run -m tigerton -p ./policies/examples/template.so -w 'hackbench 10 process 100'
 *
 * It includes only the policy API's headers (make install puts them in
 * $(PREFIX)/include/slabsim) and charges SLAB's instruction costs from the
 * core's cost table, since its paths do SLAB's work. */
#include <stdio.h>
#include <stdlib.h>

#include "policy.h"

/* Statistics, as a kernel would name them. */
enum tpl_stat { ALLOC_HIT, ALLOC_REFILL, ALLOC_OTHER_NODE, FREE_HIT, FREE_FLUSH,
		FREE_OTHER_NODE, NR_TPL_STATS };
static const char *const tpl_stat_name[NR_TPL_STATS] = {
	"ALLOC_HIT", "ALLOC_REFILL", "ALLOC_OTHER_NODE", "FREE_HIT", "FREE_FLUSH", "FREE_OTHER_NODE",
};

struct tpl_cache {
	struct sb_cache sc;		/* the slabs, lists and registry */
	unsigned int batch;
	struct sb_array *stack;		/* [ncpus]: each private to its CPU, no lock; its line */
	struct sb_stats stats;
};

struct tpl {
	struct kernel *k;
	unsigned int limit, batch, keep, max_order;
	struct sb_costs cost;
	int sym_refill, sym_flush, sym_free_other;
	struct tpl_cache **caches;
	int ncaches;
};

static const struct param_def tpl_params[] = {
	{ "template_limit", PT_INT, "64", 2, 4096, NULL, "free objects a CPU keeps per cache" },
	{ "template_batch", PT_INT, "16", 1, 4096, NULL,
	  "objects moved between a CPU and the node's slabs at once (at most limit)" },
	{ "template_keep", PT_INT, "2", 0, 1000, NULL, "empty slabs a node keeps per cache" },
	{ "template_max_order", PT_INT, "3", 0, 10, NULL, "largest slab order" },
	{ NULL },
};

/* The node of the CPU running now. */
static int cpu_node(const struct tpl *t, const struct sim_cpu *cpu)
{
	return t->k->m->topo[cpu->id].node;
}

/* kmem_cache_alloc: pop the CPU's stack, refilled in a batch when empty. */
static kaddr_t tpl_alloc(void *state, struct kmem_cache *kc, struct sim_cpu *cpu, int node)
{
	struct tpl *t = state;
	struct tpl_cache *s = kc->priv;
	cpu_charge(cpu, t->cost.alloc);
	if (node >= 0 && node != cpu_node(t, cpu)) {	/* kmalloc_node() elsewhere */
		kaddr_t obj = 0;
		sb_stat(&s->stats, cpu, ALLOC_OTHER_NODE);
		sb_get_objects(&s->sc, cpu, node, &obj, 1);
		return obj;
	}
	bool refilled;
	kaddr_t obj = sb_array_alloc(&s->sc, cpu, &s->stack[cpu->id], cpu_node(t, cpu), s->batch,
				     t->sym_refill, &refilled);
	sb_stat(&s->stats, cpu, refilled ? ALLOC_REFILL : ALLOC_HIT);
	return obj;
}

/* kmem_cache_free: push on the CPU's stack (the oldest batch back first if
 * it is full); another node's object straight to its slab. */
static void tpl_free(void *state, struct kmem_cache *kc, struct sim_cpu *cpu, kaddr_t obj)
{
	struct tpl *t = state;
	struct tpl_cache *s = kc->priv;
	cpu_charge(cpu, t->cost.free);
	if (virt_to_head_page(&t->k->pa, obj)->nid != cpu_node(t, cpu)) {
		int psym = sym_enter(cpu, t->sym_free_other);
		sb_put_objects(&s->sc, cpu, &obj, 1);
		sb_stat(&s->stats, cpu, FREE_OTHER_NODE);
		sym_exit(cpu, psym);
		return;
	}
	bool flushed = sb_array_free(&s->sc, cpu, &s->stack[cpu->id], obj, s->batch, t->sym_flush);
	sb_stat(&s->stats, cpu, flushed ? FREE_FLUSH : FREE_HIT);
}

/* kmem_cache_create: pointer-aligned slots (a line with SLAB_HWCACHE_ALIGN),
 * the smallest order holding 8 objects with little waste. */
static struct kmem_cache *tpl_cache_create(void *state, struct kmem_cache *kc,
					   struct sim_err *err)
{
	struct tpl *t = state;
	unsigned int size = sb_slot_size(kc);
	struct tpl_cache **all = realloc(t->caches, (size_t)(t->ncaches + 1) * sizeof(*all));
	if (all)
		t->caches = all;
	struct tpl_cache *s = all ? calloc(1, sizeof(*s)) : NULL;
	if (s)
		t->caches[t->ncaches++] = s;	/* destroy frees it from here on */
	int ncpus = t->k->m->ncpus;
	if (!s || !(s->stack = sb_arrays_create(t->k, ncpus, t->limit)) ||
	    sb_stats_init(&s->stats, tpl_stat_name, NR_TPL_STATS, ncpus) < 0)
		return sim_fail(err, "template: out of memory creating %s", kc->name), NULL;
	if (sb_cache_init(&s->sc, t->k, kc, "template", size, sb_order(size, 8, t->max_order),
			  t->keep, &t->cost, err) < 0)
		return NULL;
	s->batch = t->batch;
	kc->priv = s;
	return kc;
}

/* slabinfo: the blocks' counts and statistics, and the tunables limit, batch and keep. */
static void tpl_cache_info(void *state, struct kmem_cache *kc, struct cache_info *out)
{
	(void)state;
	struct tpl_cache *s = kc->priv;
	*out = (struct cache_info){ .ntunables = 3 };
	sb_stats_info(&s->stats, out);
	sb_cache_info(&s->sc, out);
	out->tunables[0] = (struct slab_stat){ "limit", s->stack[0].limit };
	out->tunables[1] = (struct slab_stat){ "batch", s->batch };
	out->tunables[2] = (struct slab_stat){ "keep", s->sc.keep };
}

/* The blocks' check, with every object on a CPU stack held. */
static int tpl_check(void *state, struct kmem_cache *kc, struct sim_err *err)
{
	struct tpl *t = state;
	struct tpl_cache *s = kc->priv;
	char where[32];
	if (sb_check_begin(&s->sc, err) < 0)
		return -1;
	for (int c = 0; c < t->k->m->ncpus; c++)
		if (snprintf(where, sizeof(where), "CPU %d's stack", c) < 0 ||
		    sb_check_array(&s->sc, &s->stack[c], where, err) < 0)
			return -1;
	return sb_check_end(&s->sc, "CPU stacks", err);
}

/* The policy's state: template_batch at most template_limit, the parameters, SLAB's costs
 * and the symbols its paths are charged to. */
static int tpl_create(struct kernel *k, const struct param_set *ps, void **state,
		      struct sim_err *err)
{
	if (param_int(ps, "template_batch") > param_int(ps, "template_limit"))
		return sim_fail(err, "template_batch=%lld is above template_limit=%lld",
				param_int(ps, "template_batch"), param_int(ps, "template_limit"));
	struct tpl *t = calloc(1, sizeof(*t));
	if (!t)
		return sim_fail(err, "out of memory");
	*state = t;	/* destroy frees it, whatever create returns */
	t->k = k;
	t->limit = (unsigned int)param_int(ps, "template_limit");
	t->batch = (unsigned int)param_int(ps, "template_batch");
	t->keep = (unsigned int)param_int(ps, "template_keep");
	t->max_order = (unsigned int)param_int(ps, "template_max_order");
	if (sb_costs_lookup(k, &t->cost, err) < 0)	/* SLAB's: its paths do this work */
		return -1;
	struct profile *p = &k->eng->prof;
	t->sym_refill = profile_sym(p, "tpl_refill", SYM_SLAB);
	t->sym_flush = profile_sym(p, "tpl_flush", SYM_SLAB);
	t->sym_free_other = profile_sym(p, "tpl_free_other_node", SYM_SLAB);
	return 0;
}

/* Every cache's stacks, blocks and statistics, then the state (also after a failed create). */
static void tpl_destroy(void *state)
{
	struct tpl *t = state;
	for (int i = 0; t && i < t->ncaches; i++) {
		struct tpl_cache *s = t->caches[i];
		sb_arrays_destroy(s->stack, t->k->m->ncpus);
		sb_cache_destroy(&s->sc);
		sb_stats_destroy(&s->stats);
		free(s);
	}
	if (t)
		free(t->caches);
	free(t);
}

const struct slab_policy slabsim_policy = {
	SLAB_POLICY_HEADER,
	.name = "template",
	.description = "the policy API's template: per-CPU stacks of free objects, per-node "
		       "slab lists under list_lock (policies/examples/template.c)",
	.params = tpl_params,
	.create = tpl_create, .destroy = tpl_destroy,
	.cache_create = tpl_cache_create, .kmalloc_max = sb_kmalloc_max_8k,
	.kmalloc_prefix = "kmalloc-", .kmalloc_min_shift = 3, .kmalloc_odd = KMALLOC_96 | KMALLOC_192,
	.alloc = tpl_alloc, .free = tpl_free,
	.cache_info = tpl_cache_info, .check = tpl_check,
};
