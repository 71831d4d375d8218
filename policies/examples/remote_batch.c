/* remote_batch.c - a design on the building blocks (policies/slab_blocks.h):
 * per-CPU object stacks, but a free of another CPU's object goes to a
 * per-CPU batch for that object's node, handed back to the node's slabs
 * under one list_lock acquisition when it holds `remote_batch` objects.
 *
 * What the model changes against the template: the producer-consumer
 * traffic of hackbench (a sender's CPU allocates, a receiver's frees)
 * takes the node's list_lock once per `remote_batch` remote frees instead
 * of once per flushed stack; a slab's owner is the CPU that last refilled
 * from it (page->priv, the policy's own field). Batches still partly full
 * are drained every `remote_drain_ms` by each CPU's housekeeping, as SLAB's
 * cache_reap drains alien caches.
 *
 *     make policy SRC=policies/examples/remote_batch.c
 *     ./slabsim run -m nehalem-ex -p ./policies/examples/remote_batch.so -w 'hackbench 10 process 100' */
#include <stdio.h>
#include <stdlib.h>

#include "kernel/sched.h"
#include "policy.h"

enum rb_stat { ALLOC_HIT, ALLOC_REFILL, FREE_LOCAL, FREE_REMOTE, REMOTE_FLUSH, REMOTE_DRAIN,
	       NR_RB_STATS };
static const char *const rb_stat_name[NR_RB_STATS] = {
	"ALLOC_HIT", "ALLOC_REFILL", "FREE_LOCAL", "FREE_REMOTE", "REMOTE_FLUSH", "REMOTE_DRAIN",
};

struct rb_cache {
	struct sb_cache sc;
	struct sb_array *stack;		/* [ncpus]: each CPU's own objects */
	struct sb_array *remote;	/* [ncpus * nodes]: others' objects, by node */
	struct sb_stats stats;
};

struct rb {
	struct kernel *k;
	int ncpus, nodes;
	unsigned int limit, batch, remote;
	struct sb_costs cost;
	uint32_t cost_push;		/* its own entry, remote_batch.remote_push */
	int sym_refill, sym_flush, sym_remote, sym_drain;
	struct housekeeping drain;
	struct rb_cache **caches;
	int ncaches;
};

static const struct param_def rb_params[] = {
	{ "remote_limit", PT_INT, "64", 2, 4096, NULL, "free objects a CPU keeps per cache" },
	{ "remote_refill", PT_INT, "16", 1, 4096, NULL, "objects a refill or a flush moves" },
	{ "remote_batch", PT_INT, "32", 1, 4096, NULL, "remote frees handed back at once" },
	{ "remote_drain_ms", PT_INT, "2000", 1, 100000, NULL, "how often batches are drained" },
	{ NULL },
};

/* A cost entry of its own, used where the machine's table has none. */
static const struct cost_def rb_costs[] = {
	{ "remote_batch.remote_push", 6, "est: the owner compared and the node's batch indexed, "
	  "loads of lines already in the L1 (a few cycles each)" },
	{ NULL },
};

/* kmem_cache_alloc: pop the CPU's stack; a refill makes this CPU the owner
 * of the slabs it took objects from. */
static kaddr_t rb_alloc(void *state, struct kmem_cache *kc, struct sim_cpu *cpu, int node)
{
	struct rb *t = state;
	struct rb_cache *s = kc->priv;
	struct sb_array *stack = &s->stack[cpu->id];
	int here = t->k->m->topo[cpu->id].node;
	cpu_charge(cpu, t->cost.alloc);
	if (node >= 0 && node != here) {	/* kmalloc_node() elsewhere */
		kaddr_t obj = 0;
		sb_get_objects(&s->sc, cpu, node, &obj, 1);
		return obj;
	}
	bool refilled;
	kaddr_t obj = sb_array_alloc(&s->sc, cpu, stack, here, t->batch, t->sym_refill, &refilled);
	for (unsigned int i = 0; refilled && i < stack->avail; i++)	/* this CPU owns them now */
		virt_to_head_page(&t->k->pa, stack->obj[i])->priv = (void *)(intptr_t)(cpu->id + 1);
	if (refilled && obj)
		virt_to_head_page(&t->k->pa, obj)->priv = (void *)(intptr_t)(cpu->id + 1);
	sb_stat(&s->stats, cpu, refilled ? ALLOC_REFILL : ALLOC_HIT);
	return obj;
}

/* kmem_cache_free: this CPU's object onto its stack; another's into the
 * batch of its node, handed back whole when full. */
static void rb_free(void *state, struct kmem_cache *kc, struct sim_cpu *cpu, kaddr_t obj)
{
	struct rb *t = state;
	struct rb_cache *s = kc->priv;
	struct sb_array *stack = &s->stack[cpu->id];
	cpu_charge(cpu, t->cost.free);
	struct page *page = virt_to_head_page(&t->k->pa, obj);
	if ((intptr_t)page->priv != cpu->id + 1) {
		struct sb_array *b = &s->remote[cpu->id * t->nodes + page->nid];
		cpu_charge(cpu, t->cost_push);
		sb_array_touch(t->k->hw, cpu, b);	/* as SLAB's alien array */
		sb_array_push(b, obj);
		sb_stat(&s->stats, cpu, FREE_REMOTE);
		if (sb_array_full(b)) {
			int psym = sym_enter(cpu, t->sym_remote);
			cpu_charge(cpu, t->cost.flush);
			sb_array_flush(&s->sc, cpu, b, b->avail);	/* one node: one lock */
			sb_stat(&s->stats, cpu, REMOTE_FLUSH);
			sym_exit(cpu, psym);
		}
		housekeeping_touch(&t->drain, cpu->id, cpu->clock);
		return;
	}
	sb_array_free(&s->sc, cpu, stack, obj, t->batch, t->sym_flush);
	sb_stat(&s->stats, cpu, FREE_LOCAL);
}

/* Each CPU's housekeeping: hand back its batches still partly full. */
static bool rb_drain(struct housekeeping *h, struct task *cur)
{
	struct rb *t = h->arg;
	struct sim_cpu *cpu = task_cpu(cur);
	bool progress = false;
	int psym = sym_enter(cpu, t->sym_drain);
	for (int i = 0; i < t->ncaches; i++)
		for (int nid = 0; nid < t->nodes; nid++) {
			struct sb_array *b = &t->caches[i]->remote[cpu->id * t->nodes + nid];
			if (sb_array_empty(b))
				continue;
			sb_array_flush(&t->caches[i]->sc, cpu, b, b->avail);
			sb_stat(&t->caches[i]->stats, cpu, REMOTE_DRAIN);
			progress = true;
		}
	sym_exit(cpu, psym);
	return progress;
}

/* kmem_cache_create: pointer-aligned slots, the smallest order up to 3 holding 8 objects,
 * 2 empty slabs kept per node; a stack per CPU and a batch per CPU and node. */
static struct kmem_cache *rb_cache_create(void *state, struct kmem_cache *kc, struct sim_err *err)
{
	struct rb *t = state;
	unsigned int size = sb_slot_size(kc);
	struct rb_cache **all = realloc(t->caches, (size_t)(t->ncaches + 1) * sizeof(*all));
	if (all)
		t->caches = all;
	struct rb_cache *s = all ? calloc(1, sizeof(*s)) : NULL;
	if (s)
		t->caches[t->ncaches++] = s;	/* destroy frees it from here on */
	if (!s || !(s->stack = sb_arrays_create(t->k, t->ncpus, t->limit)) ||
	    !(s->remote = sb_arrays_create(t->k, t->ncpus * t->nodes, t->remote)) ||
	    sb_stats_init(&s->stats, rb_stat_name, NR_RB_STATS, t->ncpus) < 0)
		return sim_fail(err, "remote_batch: out of memory creating %s", kc->name), NULL;
	if (sb_cache_init(&s->sc, t->k, kc, "remote_batch", size, sb_order(size, 8, 3), 2,
			  &t->cost, err) < 0)
		return NULL;
	kc->priv = s;
	return kc;
}

/* slabinfo: the blocks' counts and statistics (no tunables). */
static void rb_cache_info(void *state, struct kmem_cache *kc, struct cache_info *out)
{
	(void)state;
	struct rb_cache *s = kc->priv;
	*out = (struct cache_info){ 0 };
	sb_stats_info(&s->stats, out);
	sb_cache_info(&s->sc, out);
}

/* The blocks' check: every object on a stack or in a batch is held. */
static int rb_check(void *state, struct kmem_cache *kc, struct sim_err *err)
{
	struct rb *t = state;
	struct rb_cache *s = kc->priv;
	char where[48];
	if (sb_check_begin(&s->sc, err) < 0)
		return -1;
	for (int c = 0; c < t->ncpus; c++)
		for (int a = -1; a < t->nodes; a++)
			if (snprintf(where, sizeof(where), a < 0 ? "CPU %d's stack" : "CPU %d's batch "
				     "for node %d", c, a) < 0 ||
			    sb_check_array(&s->sc, a < 0 ? &s->stack[c] : &s->remote[c * t->nodes + a],
					   where, err) < 0)
				return -1;
	return sb_check_end(&s->sc, "stacks and batches", err);
}

/* The policy's state: the parameters, SLAB's costs and its own remote_push entry, the drain
 * housekeeping on each CPU, and the symbols its paths are charged to. */
static int rb_create(struct kernel *k, const struct param_set *ps, void **state,
		     struct sim_err *err)
{
	struct rb *t = calloc(1, sizeof(*t));
	if (!t)
		return sim_fail(err, "out of memory");
	*state = t;	/* destroy frees it, whatever create returns */
	*t = (struct rb){ .k = k, .ncpus = k->m->ncpus, .nodes = k->m->nodes,
			  .limit = (unsigned int)param_int(ps, "remote_limit"),
			  .batch = (unsigned int)param_int(ps, "remote_refill"),
			  .remote = (unsigned int)param_int(ps, "remote_batch") };
	if (t->batch > t->limit)
		return sim_fail(err, "remote_refill=%u is above remote_limit=%u", t->batch, t->limit);
	uint64_t interval = (uint64_t)(param_int(ps, "remote_drain_ms") * k->m->ghz * 1e6);
	const struct cost_ref own = { "remote_batch.remote_push", &t->cost_push };
	if (sb_costs_lookup(k, &t->cost, err) < 0 || machine_costs(k->m, &own, 1, err) < 0 ||
	    housekeeping_init(&t->drain, k, t->ncpus, interval, rb_drain, t) < 0)
		return -1;
	struct profile *p = &k->eng->prof;
	t->sym_refill = profile_sym(p, "rb_refill", SYM_SLAB);
	t->sym_flush = profile_sym(p, "rb_flush", SYM_SLAB);
	t->sym_remote = profile_sym(p, "rb_remote_flush", SYM_SLAB);
	t->sym_drain = profile_sym(p, "rb_drain", SYM_SLAB);
	return 0;
}

/* Every cache's stacks, batches, blocks and statistics, the drain housekeeping, then the
 * state. */
static void rb_destroy(void *state)
{
	struct rb *t = state;
	for (int i = 0; i < t->ncaches; i++) {
		struct rb_cache *s = t->caches[i];
		sb_arrays_destroy(s->stack, t->ncpus);
		sb_arrays_destroy(s->remote, t->ncpus * t->nodes);
		sb_cache_destroy(&s->sc);
		sb_stats_destroy(&s->stats);
		free(s);
	}
	housekeeping_destroy(&t->drain);
	free(t->caches);
	free(t);
}

const struct slab_policy slabsim_policy = {
	SLAB_POLICY_HEADER,
	.name = "remote_batch",
	.description = "per-CPU stacks; frees of another CPU's objects in per-node batches, "
		       "handed back under one lock (policies/examples/remote_batch.c)",
	.params = rb_params,
	.create = rb_create, .destroy = rb_destroy,
	.cache_create = rb_cache_create, .kmalloc_max = sb_kmalloc_max_8k,
	.kmalloc_prefix = "kmalloc-", .kmalloc_min_shift = 3, .kmalloc_odd = KMALLOC_96 | KMALLOC_192,
	.alloc = rb_alloc, .free = rb_free,
	.cache_info = rb_cache_info, .check = rb_check,
	.costs = rb_costs,
};
