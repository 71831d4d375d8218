/* sched_task.c - a task's life: creation (fork placement), exit, wait for
 * children; and the scheduler's set-up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_internal.h"
#include "engine/array_size.h"
#include "engine/oom.h"

/* --- task life --- */

/* Where a task's fiber starts: finish the switch to it (not for the idle tasks), run its
 * function, then do_exit(). */
static void task_entry(void *arg)
{
	struct task *t = arg;
	if (t->fn != idle_loop)	/* the idle tasks start the CPUs: no switch to finish */
		finish_task_switch(&t->k->sched, t);
	t->fn(t, t->arg);
	do_exit(t);
}

/* A new task: its struct and fiber, a pid, a place in the list of all tasks (the host exits
 * when out of memory). */
static struct task *task_alloc(struct sched *s, task_fn fn, void *arg, const char *comm)
{
	struct task *t = calloc(1, sizeof(*t));
	if (!t || fiber_create(&t->fiber, task_entry, t, s->stack_size) < 0) {
		fprintf(stderr, "slabsim: out of memory creating task %s\n", comm);
		exit(1);
	}
	if (s->nall == s->all_cap) {
		s->all_cap = s->all_cap ? 2 * s->all_cap : 256;
		s->all = realloc(s->all, (size_t)s->all_cap * sizeof(*s->all));
		if (!s->all)
			host_oom(__func__);
	}
	s->all[s->nall++] = t;
	t->k = s->k;
	t->pid = s->next_pid++;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->fn = fn;
	t->arg = arg;
	t->heap_idx = -1;
	t->pinned = -1;
	t->saved_sym = s->k->sym_user;
	INIT_LIST_HEAD(&t->wait_entry);
	hw_line_init(s->k->hw, &t->line, 0);
	hw_line_init(s->k->hw, &t->own_ids.pid, 0);
	hw_line_init(s->k->hw, &t->own_ids.cred, 0);
	t->ids = &t->own_ids;
	s->nr_tasks++;
	return t;
}

/* The idlest CPU for a new task (sched_balance_self with SD_BALANCE_FORK).
 * The kernel compares decaying load averages, so a CPU that just took a
 * child looks busier for a while; equal run queues are therefore taken in
 * turn, starting after the last CPU chosen. */
static int find_idlest_cpu(struct sched *s)
{
	int start = (s->last_fork_cpu + 1) % s->ncpus;
	int best = start, least = s->rq[start].nr_running;
	for (int i = 1; i < s->ncpus; i++) {
		int c = (start + i) % s->ncpus;
		if (s->rq[c].nr_running < least) {
			least = s->rq[c].nr_running;
			best = c;
		}
	}
	s->last_fork_cpu = best;
	return best;
}

/* do_fork() + wake_up_new_task(): queue a new task on the idlest CPU (or cpu_hint if pinned)
 * with START_DEBIT; with no creator (boot), on cpu_hint at min_vruntime, at no cost. */
static struct task *do_task_create(struct sched *s, struct task *creator, task_fn fn,
				   void *arg, const char *comm, struct mm_struct *share_mm,
				   int cpu_hint, bool pin)
{
	struct hw *hw = s->k->hw;
	struct task *t = task_alloc(s, fn, arg, comm);
	if (pin)
		t->pinned = cpu_hint;
	if (share_mm) {
		t->mm = share_mm;
		if (creator)
			t->ids = creator->ids;
	} else {
		t->own_mm.id = s->next_mm++;
		t->mm = &t->own_mm;
	}
	t->parent = creator;
	if (!creator) {
		struct rq *rq = &s->rq[cpu_hint];
		t->cpu = cpu_hint;
		t->vruntime = rq->min_vruntime;
		t->on_rq = true;
		heap_push(rq, t);
		rq->nr_running++;
		return t;
	}
	struct sim_cpu *cpu = task_cpu(creator);
	int psym = sym_enter(cpu, s->sym_fork);
	cpu_charge(cpu, share_mm ? s->cost_fork_thread : s->cost_fork_process);
	hw_write(hw, cpu, &creator->line);
	creator->live_children++;
	int target = pin ? cpu_hint : find_idlest_cpu(s);
	struct rq *rq = &s->rq[target];
	hw_spin_lock(hw, cpu, &rq->lock);
	t->cpu = target;
	t->vruntime = rq->min_vruntime + sched_slice(s, rq);	/* START_DEBIT */
	t->on_rq = true;
	sched_info_queued(t, cpu->clock, false);
	heap_push(rq, t);
	rq->nr_running++;
	check_preempt(s, rq, t, cpu->clock);
	if (rq->curr != rq->idle)
		kick_idle_cpus(s, cpu->clock);
	hw_spin_unlock(hw, cpu, &rq->lock);
	sym_exit(cpu, psym);
	return t;
}

struct task *task_create(struct sched *s, struct task *creator, task_fn fn, void *arg,
			 const char *comm, struct mm_struct *share_mm, int cpu)
{
	return do_task_create(s, creator, fn, arg, comm, share_mm, cpu, false);
}

struct task *task_create_pinned(struct sched *s, struct task *creator, task_fn fn, void *arg,
				const char *comm, struct mm_struct *share_mm, int cpu)
{
	return do_task_create(s, creator, fn, arg, comm, share_mm, cpu, true);
}

void do_exit(struct task *t)
{
	struct sched *s = &t->k->sched;
	struct hw *hw = t->k->hw;
	struct sim_cpu *cpu = task_cpu(t);
	sym_enter(cpu, s->sym_exit);
	cpu_charge(cpu, s->cost_exit);
	t->state = TASK_DEAD;
	s->nr_exited++;
	struct task *parent = t->parent;
	if (parent) {
		hw_write(hw, cpu, &parent->line);
		parent->live_children--;
		if (parent->live_children == 0 && parent->reaping)
			try_to_wake_up(t, parent, false);
	}
	cpu = task_cpu(t);
	s->rq[cpu->id].dead = t;
	schedule(t);
	fprintf(stderr, "slabsim: internal error: a dead task ran again\n");
	abort();
}

void wait_for_children(struct task *t)
{
	struct hw *hw = t->k->hw;
	for (;;) {
		struct sim_cpu *cpu = task_cpu(t);
		hw_write(hw, cpu, &t->line);
		t->state = TASK_INTERRUPTIBLE;
		t->reaping = true;
		if (t->live_children == 0)
			break;
		schedule(t);
	}
	t->state = TASK_RUNNING;
	t->reaping = false;
}

int sched_init(struct sched *s, struct kernel *k, struct sim_err *err)
{
	memset(s, 0, sizeof(*s));
	s->k = k;
	s->ncpus = k->m->ncpus;
	s->next_pid = 1;
	s->stack_size = 64 * 1024;
	s->rq = calloc((size_t)s->ncpus, sizeof(*s->rq));
	if (!s->rq)
		return sim_fail(err, "out of memory for run queues");
	/* sched_init_granularity(): tunables scale with 1 + ilog2(ncpus) */
	int factor = 1;
	for (int n = s->ncpus; n > 1; n >>= 1)
		factor++;
	double cyc_per_ns = k->m->ghz;
	s->latency = (uint64_t)(param_double(&k->params, "sched_latency_ns") * factor * cyc_per_ns);
	s->min_granularity = (uint64_t)(param_double(&k->params, "sched_min_granularity_ns") *
					factor * cyc_per_ns);
	s->wakeup_granularity = (uint64_t)(param_double(&k->params, "sched_wakeup_granularity_ns") *
					   factor * cyc_per_ns);
	s->migration_cost = (uint64_t)(param_double(&k->params, "sched_migration_cost_ns") * cyc_per_ns);
	s->balance_interval = (uint64_t)(param_double(&k->params, "sched_balance_interval_us") *
					 1000 * cyc_per_ns);
	s->wake_affine = param_bool(&k->params, "wake_affine");
	s->affine_by_overlap = kernel_has_2625rc7_sched(k->era, k->rc);
	/* load_balance_start_fair(): first_fair() to 2.6.25, cfs_rq->tasks from 2.6.26 */
	s->balance_leftmost = k->era <= 20625;
	const struct cost_ref costs[] = {
		{ "schedule", &s->cost_schedule }, { "context_switch", &s->cost_switch },
		{ "switch_mm", &s->cost_switch_mm }, { "try_to_wake_up", &s->cost_wake },
		{ "fork_process", &s->cost_fork_process }, { "fork_thread", &s->cost_fork_thread },
		{ "exit", &s->cost_exit }, { "load_balance", &s->cost_balance },
		{ "idle_exit", &s->cost_idle_exit },
		{ "switch_cold_lines", &s->switch_cold_lines },
	};
	if (machine_costs(k->m, costs, ARRAY_SIZE(costs), err) < 0)
		return -1;
	struct profile *pr = &k->eng->prof;
	s->sym_schedule = profile_sym(pr, "schedule", SYM_KERNEL);
	s->sym_switch = profile_sym(pr, "__switch_to", SYM_KERNEL);
	s->sym_wake = profile_sym(pr, "try_to_wake_up", SYM_KERNEL);
	s->sym_balance = profile_sym(pr, "load_balance", SYM_KERNEL);
	s->sym_fork = profile_sym(pr, "do_fork", SYM_KERNEL);
	s->sym_exit = profile_sym(pr, "do_exit", SYM_KERNEL);
	hw_lock_class_init(k->hw, &s->rq_lock_class, "&rq->lock", k->hw->sym_spin_lock);
	for (int c = 0; c < s->ncpus; c++) {
		struct rq *rq = &s->rq[c];
		rq->cpu = c;
		rq->nr_movable_all = &s->nr_movable;
		hw_line_init(k->hw, &rq->line, k->m->topo[c].node);
		hw_lock_init(&rq->lock, k->lock_kind, &rq->line, &s->rq_lock_class);
		rq->next_balance = s->balance_interval;
		char comm[32];
		snprintf(comm, sizeof(comm), "swapper/%d", c);
		struct task *idle = task_alloc(s, idle_loop, s, comm);
		s->nr_tasks--;
		idle->cpu = c;
		idle->on_cpu = true;
		idle->saved_sym = k->eng->sym_idle;
		rq->idle = idle;
		rq->curr = idle;
		eng_start_cpu(k->eng, &k->eng->cpus[c], &idle->fiber, 0);
	}
	return 0;
}

void sched_destroy(struct sched *s)
{
	for (int i = 0; i < s->nall; i++) {
		fiber_destroy(&s->all[i]->fiber);
		free(s->all[i]);
	}
	free(s->all);
	for (int c = 0; c < s->ncpus; c++)
		free(s->rq[c].heap);
	free(s->rq);
	memset(s, 0, sizeof(*s));
}
