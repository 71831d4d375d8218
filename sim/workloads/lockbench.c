/* lockbench.c - the lock microbenchmark of Boyd-Wickizer et al. ("Non-
 * scalable locks are dangerous"; docs/calibration.md C4): `cpus` tasks, one
 * pinned to each CPU, each loops: think `think` cycles in user space, take
 * one spinlock of the kernel's kind (spinlock=byte|ticket|queued), hold it
 * `hold` cycles, release it. It measures acquisitions per second over the
 * window [warmup, warmup + duration) of simulated time, the mean wait from the request (before
 * its atomic, which may itself queue for the line) to holding the lock, and
 * the mean hand-off: from a release with waiters to the moment the
 * next holder has the lock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "workload.h"

static const struct param_def lockbench_params[] = {
	{ "cpus", PT_INT, "0", 0, 4096, NULL, "tasks, one per CPU (0: every CPU)" },
	{ "think", PT_INT, "1000", 0, 1000000000, NULL, "mean cycles between a release and the next request" },
	{ "think_dist", PT_ENUM, "exp", 0, 0, "exp|fixed", "think time: exponential or fixed" },
	{ "hold", PT_INT, "400", 0, 1000000000, NULL, "mean cycles the lock is held" },
	{ "hold_dist", PT_ENUM, "fixed", 0, 0, "exp|fixed", "hold time: exponential or fixed" },
	{ "place", PT_ENUM, "packed", 0, 0, "packed|spread",
	  "CPUs in numbering order (fill a socket first) or round-robin over sockets" },
	{ "duration_us", PT_INT, "2000", 1, 1000000000, NULL, "measured window (simulated us)" },
	{ "warmup_us", PT_INT, "100", 0, 1000000000, NULL, "time before the window" },
	{ NULL },
};

struct lockbench {
	struct kernel *k;
	int ncpus;
	int *cpu_of;			/* task i runs on CPU cpu_of[i] */
	double think, hold;
	bool think_exp, hold_exp;
	uint64_t warm, end;		/* the window, in cycles */
	struct hw_line line;		/* the line the lock word lives in */
	struct hw_lock lock;
	struct hw_lock_class cls;
	int sym_think, sym_hold;
	int holders, max_holders;	/* CPUs in the critical section: must stay <= 1 */
	uint64_t last_release;		/* no acquisition may come before it */
	uint64_t overlaps;		/* ... in simulated time */
	uint64_t released_at;		/* the last release that handed the lock over */
	bool handed;
	uint64_t acquisitions, wait_total, handoffs, handoff_total;
	int exited;
};

/* A think or hold time of mean `mean` cycles: exponential if `exp`, else the mean itself. */
static uint64_t draw(struct kernel *k, double mean, bool exp)
{
	return (uint64_t)(exp ? gsl_ran_exponential(k->eng->rng, mean) : mean);
}

/* One CPU's loop: think, lock, hold, unlock, until the window has passed. */
static void lb_task(struct task *t, void *arg)
{
	struct lockbench *lb = arg;
	struct kernel *k = t->k;
	struct sim_cpu *cpu = task_cpu(t);	/* pinned: it never changes */
	for (;;) {
		int prev = sym_enter(cpu, lb->sym_think);
		cpu_charge(cpu, draw(k, lb->think, lb->think_exp));
		sym_exit(cpu, prev);
		if (cpu->clock >= lb->end)
			break;
		uint64_t asked = cpu->clock;
		hw_spin_lock(k->hw, cpu, &lb->lock);
		uint64_t got = cpu->clock;
		if (++lb->holders > lb->max_holders)
			lb->max_holders = lb->holders;
		lb->overlaps += got < lb->last_release;
		bool counted = got >= lb->warm && got < lb->end;
		if (counted) {
			lb->acquisitions++;
			lb->wait_total += got - asked;
		}
		if (lb->handed) {	/* this CPU was the waiter it went to */
			lb->handed = false;
			if (counted) {
				lb->handoffs++;
				lb->handoff_total += got - lb->released_at;
			}
		}
		prev = sym_enter(cpu, lb->sym_hold);
		cpu_charge(cpu, draw(k, lb->hold, lb->hold_exp));
		sym_exit(cpu, prev);
		lb->holders--;
		uint64_t release = cpu->clock;
		lb->last_release = release;
		hw_spin_unlock(k->hw, cpu, &lb->lock);
		if (hw_lock_held(&lb->lock)) {	/* handed straight to a waiter */
			lb->handed = true;
			lb->released_at = release;
		}
	}
	lb->exited++;
}

/* The measured window's edges, in simulated time: a timer at each marks it,
 * so no CPU's progress (a starved one's) moves it. */
static void lb_window_edge(struct sim_event *ev)
{
	struct lockbench *lb = ev->arg;
	kernel_mark(lb->k, ev->data == 0);
}

/* Task i's CPU: packed takes CPUs in order; spread deals them out over the
 * sockets in turn, then over the CPUs of each socket. */
static void place_cpus(struct lockbench *lb, const struct machine *m, bool spread)
{
	if (!spread) {
		for (int i = 0; i < lb->ncpus; i++)
			lb->cpu_of[i] = i;
		return;
	}
	int nsock = m->nsockets;
	for (int i = 0; i < lb->ncpus; i++) {
		int sock = i % nsock, idx = i / nsock;
		lb->cpu_of[i] = -1;
		for (int c = 0, seen = 0; c < m->ncpus; c++)
			if (m->topo[c].socket == sock && seen++ == idx) {
				lb->cpu_of[i] = c;
				break;
			}
	}
}

/* The window in cycles, the lock of the kernel's kind, and one pinned task per CPU. */
static int lb_start(struct kernel *k, const struct param_set *ps, void **state,
		    struct sim_err *err)
{
	const struct machine *m = k->m;
	int n = (int)param_int(ps, "cpus");
	if (n == 0)
		n = m->ncpus;
	if (n > m->ncpus)
		return sim_fail(err, "lockbench: cpus=%d but %s has %d CPUs", n, m->name, m->ncpus);
	struct lockbench *lb = calloc(1, sizeof(*lb));
	if (!lb || !(lb->cpu_of = calloc((size_t)n, sizeof(int)))) {
		free(lb);
		return sim_fail(err, "out of memory");
	}
	lb->k = k;
	lb->ncpus = n;
	lb->think = (double)param_int(ps, "think");
	lb->hold = (double)param_int(ps, "hold");
	lb->think_exp = !strcmp(param_str(ps, "think_dist"), "exp");
	lb->hold_exp = !strcmp(param_str(ps, "hold_dist"), "exp");
	double cycles_per_us = m->ghz * 1e3;
	lb->warm = (uint64_t)((double)param_int(ps, "warmup_us") * cycles_per_us);
	lb->end = lb->warm + (uint64_t)((double)param_int(ps, "duration_us") * cycles_per_us);
	place_cpus(lb, m, !strcmp(param_str(ps, "place"), "spread"));
	lb->sym_think = profile_sym(&k->eng->prof, "[user] lockbench think", SYM_USER);
	lb->sym_hold = profile_sym(&k->eng->prof, "lockbench_critical_section", SYM_KERNEL);
	hw_line_init(k->hw, &lb->line, m->topo[lb->cpu_of[0]].node);
	hw_lock_class_init(k->hw, &lb->cls, "lockbench lock", k->hw->sym_spin_lock);
	hw_lock_init(&lb->lock, k->lock_kind, &lb->line, &lb->cls);
	for (int i = 0; i < n; i++)
		task_create_pinned(&k->sched, NULL, lb_task, lb, "lockbench", NULL, lb->cpu_of[i]);
	eng_timer_at(k->eng, lb->warm, lb_window_edge, lb, 0);
	eng_timer_at(k->eng, lb->end, lb_window_edge, lb, 1);
	*state = lb;
	return 0;
}

/* lockbench takes only NAME=VALUE parameters. */
static int lb_parse(struct param_set *ps, int argc, char **argv, struct sim_err *err)
{
	if (argc > 1)
		return sim_fail(err, "lockbench: unexpected argument '%s' (its parameters are "
				"NAME=VALUE: cpus think think_dist hold hold_dist place duration_us "
				"warmup_us)", argv[1]);
	return 0;
}

/* The measured window, in seconds. */
static double window_seconds(const struct lockbench *lb)
{
	return (double)(lb->end - lb->warm) / (lb->k->m->ghz * 1e9);
}

/* Acquisitions per second over the window, the mean wait and the mean hand-off in cycles. */
static void lb_result(void *state, struct workload_result *r)
{
	struct lockbench *lb = state;
	r->finished = lb->exited == lb->ncpus;
	r->sim_seconds = window_seconds(lb);
	double aps = (double)lb->acquisitions / r->sim_seconds;
	double wait = lb->acquisitions ? (double)lb->wait_total / (double)lb->acquisitions : 0;
	double hand = lb->handoffs ? (double)lb->handoff_total / (double)lb->handoffs : 0;
	snprintf(r->line, sizeof(r->line),
		 "lockbench %s, %d CPUs: %.4g acquisitions/s, wait %.0f cycles, hand-off %.0f cycles",
		 hw_lock_kind_name[lb->k->lock_kind], lb->ncpus, aps, wait, hand);
	r->extra = cJSON_CreateObject();
	cJSON_AddStringToObject(r->extra, "spinlock", hw_lock_kind_name[lb->k->lock_kind]);
	cJSON_AddNumberToObject(r->extra, "cpus", lb->ncpus);
	cJSON_AddNumberToObject(r->extra, "acquisitions", (double)lb->acquisitions);
	cJSON_AddNumberToObject(r->extra, "acquisitions_per_second", aps);
	cJSON_AddNumberToObject(r->extra, "mean_wait_cycles", wait);
	cJSON_AddNumberToObject(r->extra, "mean_handoff_cycles", hand);
	cJSON_AddNumberToObject(r->extra, "handoffs", (double)lb->handoffs);
	cJSON *cpus = cJSON_AddArrayToObject(r->extra, "cpu_list");
	for (int i = 0; i < lb->ncpus; i++)
		cJSON_AddItemToArray(cpus, cJSON_CreateNumber(lb->cpu_of[i]));
}

/* Mutual exclusion held (one holder at a time, none before the previous release), no CPU is
 * left in the critical section, and the window counted an acquisition. */
static int lb_check(void *state, struct sim_err *err)
{
	struct lockbench *lb = state;
	if (lb->max_holders > 1)
		return sim_fail(err, "lockbench: %d CPUs held the lock at once", lb->max_holders);
	if (lb->overlaps)
		return sim_fail(err, "lockbench: %llu acquisitions came before the previous "
				"release in simulated time", (unsigned long long)lb->overlaps);
	if (lb->holders != 0)
		return sim_fail(err, "lockbench: %d CPUs still in the critical section", lb->holders);
	if (lb->acquisitions == 0)
		return sim_fail(err, "lockbench: no acquisition in the measured window");
	return 0;
}

/* Free the CPU list and the state. */
static void lb_destroy(void *state)
{
	struct lockbench *lb = state;
	free(lb->cpu_of);
	free(lb);
}

const struct workload lockbench_workload = {
	.name = "lockbench",
	.description = "one spinlock, N pinned CPUs: think, lock, hold, unlock "
		       "(throughput, wait and hand-off of byte/ticket/queued locks)",
	.usage = "lockbench [cpus=N] [think=A] [think_dist=exp|fixed] [hold=S] "
		 "[hold_dist=exp|fixed] [place=packed|spread] [duration_us=T] [warmup_us=T]",
	.params = lockbench_params,
	.parse_cmdline = lb_parse,
	.start = lb_start,
	.result = lb_result,
	.check = lb_check,
	.allocates_nothing = true,
	.destroy = lb_destroy,
};
