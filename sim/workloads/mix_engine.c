/* mix_engine.c - the tasks of a cache mix. Each task is pinned; between two
 * allocations it runs other code for an exponential time (a Poisson process
 * of rate sum(rates)), picks a cache with probability rate_i / sum, and keeps
 * the object for a lifetime drawn from the cache's distribution. Its own
 * objects wait in a private min-heap by due time; an object freed elsewhere
 * is added to the target task's inbox (an llist_add on the target's queue
 * head) and freed there when due. Before each allocation a task takes its
 * inbox (llist_del_all) and frees whatever is due. At the end of the
 * duration every task frees all it holds; a hand-off to a task that has
 * finished stays with the sender. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "kernel/slab.h"
#include "engine/oom.h"
#include "mix.h"
#include "kernel/slab_policy.h"

#define MIX_MAX_CYCLES 1e18	/* lifetimes past this are "never" (freed at the end) */

/* Room for one more object: the arrays only grow, doubling. */
static void objs_reserve(struct mix_objs *q)
{
	if (q->n < q->cap)
		return;
	int cap = q->cap ? 2 * q->cap : 64;
	struct mix_obj *v = realloc(q->v, (size_t)cap * sizeof(*v));
	if (!v)
		host_oom(__func__);
	q->v = v;
	q->cap = cap;
}

/* Push onto a min-heap by due time. */
static void heap_push(struct mix_objs *h, struct mix_obj o)
{
	objs_reserve(h);
	int i = h->n++;
	while (i > 0) {
		int p = (i - 1) / 2;
		if (h->v[p].due <= o.due)
			break;
		h->v[i] = h->v[p];
		i = p;
	}
	h->v[i] = o;
}

/* Pop the earliest-due object of a non-empty heap. */
static struct mix_obj heap_pop(struct mix_objs *h)
{
	struct mix_obj top = h->v[0], last = h->v[--h->n];
	int i = 0;
	for (;;) {
		int l = 2 * i + 1, m;
		if (l >= h->n)
			break;
		m = l + 1 < h->n && h->v[l + 1].due < h->v[l].due ? l + 1 : l;
		if (h->v[m].due >= last.due)
			break;
		h->v[i] = h->v[m];
		i = m;
	}
	if (h->n)
		h->v[i] = last;
	return top;
}

/* The subsystem frees an object on this CPU: kmem_cache_free or kfree. */
static void free_obj(struct mix *mx, struct sim_cpu *cpu, const struct mix_obj *o)
{
	struct mix_cache *mc = &mx->cache[o->cache];
	if (mc->kc)
		kmem_cache_free(mx->k, cpu, mc->kc, o->obj);
	else
		kfree(mx->k, cpu, o->obj);
	mc->frees[o->how]++;
	mx->live--;
}

/* llist_del_all() of the task's inbox: one xchg on its head, then the
 * objects join the private heap. The inbox is shared, so look at it only
 * in time order. */
static void take_inbox(struct mix *mx, struct mix_task *me, struct sim_cpu *cpu)
{
	cpu_sync(cpu);
	if (!me->inbox.n)
		return;
	int prev = sym_enter(cpu, mx->sym_llist_del);
	hw_atomic(mx->k->hw, cpu, &me->inbox_line);
	sym_exit(cpu, prev);
	for (int i = 0; i < me->inbox.n; i++)	/* and what came while it waited */
		heap_push(&me->pending, me->inbox.v[i]);
	me->inbox.n = 0;
}

/* Free every object whose time has come (all of them if `all`). */
static void free_due(struct mix *mx, struct mix_task *me, struct sim_cpu *cpu, bool all)
{
	while (me->pending.n && (all || me->pending.v[0].due <= cpu->clock)) {
		struct mix_obj o = heap_pop(&me->pending);
		free_obj(mx, cpu, &o);
	}
}

/* A task on another CPU of this node (near) or on another node (far),
 * uniformly with the run's generator; -1 if there is none. by_node keeps
 * each node's tasks by CPU, so this CPU's tasks are one run to skip. */
static int pick_target(struct mix *mx, const struct mix_task *me, bool far)
{
	gsl_rng *r = mx->k->eng->rng;
	int n = me->node;
	if (!far) {
		int avail = mx->node_count[n] - mx->cpu_count[me->cpu];
		if (avail <= 0)
			return -1;
		int x = (int)gsl_rng_uniform_int(r, (unsigned long)avail);
		if (x >= mx->cpu_start[me->cpu] - mx->node_start[n])
			x += mx->cpu_count[me->cpu];
		return mx->by_node[mx->node_start[n] + x];
	}
	int avail = mx->ntasks - mx->node_count[n];
	if (avail <= 0)
		return -1;
	int x = (int)gsl_rng_uniform_int(r, (unsigned long)avail);
	for (int m = 0; m < mx->k->m->nodes; m++) {
		if (m == n)
			continue;
		if (x < mx->node_count[m])
			return mx->by_node[mx->node_start[m] + x];
		x -= mx->node_count[m];
	}
	return -1;
}

/* Hand an object to a task elsewhere: llist_add() onto its inbox, a locked
 * cmpxchg on the target's queue head. No target, or one that has stopped:
 * the sender keeps it and frees it itself. */
static void hand_off(struct mix *mx, struct mix_task *me, struct sim_cpu *cpu,
		     struct mix_obj o, bool far)
{
	int target = pick_target(mx, me, far);
	if (target >= 0) {
		struct mix_task *to = &mx->task[target];
		cpu_sync(cpu);
		if (!to->done) {
			objs_reserve(&to->inbox);
			to->inbox.v[to->inbox.n++] = o;
			int prev = sym_enter(cpu, mx->sym_llist_add);
			hw_atomic(mx->k->hw, cpu, &to->inbox_line);
			sym_exit(cpu, prev);
			return;
		}
	}
	o.how = MIX_UNAVAILABLE;
	heap_push(&me->pending, o);
}

/* One allocation: pick the cache, allocate, initialise the first line,
 * draw the lifetime and who frees it. */
static void alloc_one(struct mix *mx, struct mix_task *me, struct sim_cpu *cpu)
{
	struct kernel *k = mx->k;
	gsl_rng *r = k->eng->rng;
	double u = gsl_rng_uniform(r);
	int i = 0;
	while (i < mx->ncaches - 1 && u >= mx->cache[i].cum)
		i++;
	struct mix_cache *mc = &mx->cache[i];
	const struct mix_cache_spec *cs = mc->spec;
	/* a task's system call: GFP_KERNEL */
	kaddr_t obj = mc->kc ? kmem_cache_alloc(k, cpu, mc->kc, GFP_KERNEL)
			     : __kmalloc(k, cpu, cs->size, GFP_KERNEL);
	if (!obj) {
		mx->alloc_failures++;
		return;
	}
	int prev = sym_enter(cpu, mx->sym_user);
	slab_obj_touch(k, cpu, obj, 1, true);
	sym_exit(cpu, prev);
	mc->allocs++;
	mx->live++;
	double life = mix_lifetime_us(&cs->life, r) * mx->cycles_per_us;
	uint64_t due = cpu->clock + (uint64_t)(life < MIX_MAX_CYCLES ? life : MIX_MAX_CYCLES);
	struct mix_obj o = { .due = due, .obj = obj, .cache = (uint16_t)i, .how = MIX_LOCAL };
	double w = gsl_rng_uniform(r);
	if (w < cs->remote_cpu) {
		o.how = MIX_REMOTE_CPU;
		hand_off(mx, me, cpu, o, false);
	} else if (w < cs->remote_cpu + cs->remote_node) {
		o.how = MIX_REMOTE_NODE;
		hand_off(mx, me, cpu, o, true);
	} else {
		heap_push(&me->pending, o);
	}
}

/* The end: stop taking hand-offs, free everything held; the last task to
 * finish closes the measured window. */
static void finish(struct mix *mx, struct mix_task *me, struct sim_cpu *cpu)
{
	cpu_sync(cpu);
	me->done = true;
	take_inbox(mx, me, cpu);
	free_due(mx, me, cpu, true);
	cpu_sync(cpu);
	if (++mx->finished == mx->ntasks)
		kernel_mark(mx->k, false);
}

/* A task: other code, then (before the duration is over) its due frees and
 * one allocation, again and again. */
static void mix_task_fn(struct task *t, void *arg)
{
	struct mix_task *me = arg;
	struct mix *mx = me->mx;
	struct sim_cpu *cpu = task_cpu(t);	/* pinned: it never changes */
	gsl_rng *r = t->k->eng->rng;
	for (;;) {
		int prev = sym_enter(cpu, mx->sym_user);
		cpu_charge(cpu, (uint64_t)gsl_ran_exponential(r, mx->think_mean));
		sym_exit(cpu, prev);
		sched_preempt_point(t);
		if (cpu->clock >= mx->end)
			break;
		take_inbox(mx, me, cpu);
		free_due(mx, me, cpu, false);
		alloc_one(mx, me, cpu);
	}
	finish(mx, me, cpu);
}

/* Task i runs on CPU order[i % ncpus]: the CPUs taken round-robin over the
 * nodes, each node's in numbering order, so that fewer tasks than CPUs
 * still reach every node. by_node then lists the tasks by node and CPU. */
static int place_tasks(struct mix *mx)
{
	const struct machine *m = mx->k->m;
	int ncpus = m->ncpus, nodes = m->nodes, n = mx->ntasks;
	int *order = malloc((size_t)ncpus * sizeof(int));
	int *pos = malloc((size_t)ncpus * sizeof(int));
	int *next = calloc((size_t)nodes, sizeof(int));
	mx->by_node = malloc((size_t)n * sizeof(int));
	mx->node_start = calloc((size_t)nodes, sizeof(int));
	mx->node_count = calloc((size_t)nodes, sizeof(int));
	mx->cpu_start = calloc((size_t)ncpus, sizeof(int));
	mx->cpu_count = calloc((size_t)ncpus, sizeof(int));
	if (!order || !pos || !next || !mx->by_node || !mx->node_start || !mx->node_count ||
	    !mx->cpu_start || !mx->cpu_count) {
		free(order);
		free(pos);
		free(next);
		return -1;
	}
	for (int placed = 0; placed < ncpus;)
		for (int nd = 0; nd < nodes; nd++) {
			while (next[nd] < ncpus && m->topo[next[nd]].node != nd)
				next[nd]++;
			if (next[nd] < ncpus) {
				pos[next[nd]] = placed;
				order[placed++] = next[nd]++;
			}
		}
	for (int i = 0; i < n; i++) {
		struct mix_task *me = &mx->task[i];
		me->idx = i;
		me->cpu = order[i % ncpus];
		me->node = m->topo[me->cpu].node;
		mx->cpu_count[me->cpu]++;
		mx->node_count[me->node]++;
	}
	int at = 0;
	for (int nd = 0; nd < nodes; nd++) {
		mx->node_start[nd] = at;
		for (int c = 0; c < ncpus; c++) {
			if (m->topo[c].node != nd)
				continue;
			mx->cpu_start[c] = at;
			for (int i = pos[c]; i < n; i += ncpus)
				mx->by_node[at++] = i;
		}
	}
	free(order);
	free(pos);
	free(next);
	return 0;
}

/* kmem_cache_create() of the mix's caches, or the kernel's cache of that
 * name if it has one (its object size must match). */
static int setup_caches(struct mix *mx, const char *who, struct sim_err *err)
{
	struct kernel *k = mx->k;
	double total = 0, cum = 0;
	for (int i = 0; i < mx->spec.ncaches; i++)
		total += mx->spec.cache[i].rate;
	mx->ncaches = mx->spec.ncaches;
	for (int i = 0; i < mx->ncaches; i++) {
		struct mix_cache *mc = &mx->cache[i];
		const struct mix_cache_spec *cs = &mx->spec.cache[i];
		mc->spec = cs;
		cum += cs->rate;
		mc->cum = cum / total;
		if (cs->kmalloc)
			continue;
		for (int j = 0; j < k->ncaches && !mc->kc; j++)
			if (!strcmp(k->caches[j]->name, cs->name))
				mc->kc = k->caches[j];
		if (mc->kc && mc->kc->object_size != cs->size)
			return sim_fail(err, "%s: caches[%d].size: the kernel's cache '%s' has "
					"objects of %u bytes, not %u", who, i, cs->name,
					mc->kc->object_size, cs->size);
		if (!mc->kc) {
			mc->kc = kmem_cache_create(k, cs->name, cs->size, 0, cs->flags, err);
			if (!mc->kc)
				return -1;
			mc->created = true;
		}
	}
	mx->think_mean = 1e6 / total * mx->cycles_per_us;
	return 0;
}

/* The mix's state, its caches, and one pinned task per slot of the placement. */
int mix_start(struct kernel *k, const struct mix_spec *spec, const char *who, int tasks,
	      double duration_ms, const struct mix_names *names, void **state,
	      struct sim_err *err)
{
	struct mix *mx = calloc(1, sizeof(*mx));
	if (!mx)
		return sim_fail(err, "out of memory");
	mx->k = k;
	mx->spec = *spec;
	mx->names = names;
	mx->ntasks = tasks > 0 ? tasks : spec->tasks > 0 ? spec->tasks : k->m->ncpus;
	mx->duration_ms = duration_ms;
	mx->cycles_per_us = k->m->ghz * 1e3;
	mx->end = (uint64_t)(duration_ms * 1e3 * mx->cycles_per_us);
	mx->task = calloc((size_t)mx->ntasks, sizeof(*mx->task));
	if (!mx->task || place_tasks(mx) < 0) {
		mix_destroy(mx);
		return sim_fail(err, "out of memory for %d %s tasks", mx->ntasks, names->workload);
	}
	if (setup_caches(mx, who, err) < 0) {
		mix_destroy(mx);
		return -1;
	}
	struct profile *p = &k->eng->prof;
	mx->sym_user = profile_sym(p, names->user_sym, SYM_USER);
	mx->sym_llist_add = profile_sym(p, "llist_add", SYM_KERNEL);
	mx->sym_llist_del = profile_sym(p, "llist_del_all", SYM_KERNEL);
	if (mx->sym_user < 0 || mx->sym_llist_add < 0 || mx->sym_llist_del < 0) {
		mix_destroy(mx);
		return sim_fail(err, "%s: the profile's symbol table is full", names->workload);
	}
	for (int i = 0; i < mx->ntasks; i++) {
		struct mix_task *me = &mx->task[i];
		me->mx = mx;
		hw_line_init(k->hw, &me->inbox_line, me->node);
		task_create_pinned(&k->sched, NULL, mix_task_fn, me, names->workload, NULL, me->cpu);
	}
	*state = mx;
	return 0;
}
