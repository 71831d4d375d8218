/* sched_idle.c - load balancing (periodic and on going idle), the idle
 * loop, and the idle CPUs' ticks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_internal.h"
#include "workqueue.h"

/* --- load balancing --- */

/* sysctl_sched_nr_migrate (kernel/sched.c, 2.6.24 on): balance_tasks()
 * looks at no more than this many tasks past the first (`loops++ >
 * sysctl_sched_nr_migrate`), since it runs with interrupts off. */
#define SCHED_NR_MIGRATE 32
#define BALANCE_VISITS (SCHED_NR_MIGRATE + 1)

/* The tasks balance_tasks() looks at, in its iterator's order, at most
 * BALANCE_VISITS. To 2.6.25 load_balance_start_fair() starts at
 * first_fair(), the leftmost (smallest vruntime, next to run), and goes
 * rb_next(): the heap is walked best-first. From 2.6.26 it walks
 * cfs_rq->tasks, where account_entity_enqueue() adds at the head: the
 * latest queued first, which the heap's tail stands for. */
static int balance_candidates(const struct sched *s, const struct rq *src,
			      struct task **out)
{
	int n = 0;
	if (!s->balance_leftmost) {
		for (int i = src->nheap - 1; i >= 0 && n < BALANCE_VISITS; i--)
			out[n++] = src->heap[i];
		return n;
	}
	/* best-first over the min-heap: a frontier of slots, smallest first */
	int frontier[BALANCE_VISITS + 1], nf = 0;
	if (src->nheap)
		frontier[nf++] = 0;
	while (nf && n < BALANCE_VISITS) {
		int best = 0;
		for (int f = 1; f < nf; f++)
			if (src->heap[frontier[f]]->vruntime < src->heap[frontier[best]]->vruntime)
				best = f;
		int i = frontier[best];
		frontier[best] = frontier[--nf];
		out[n++] = src->heap[i];
		for (int c = 2 * i + 1; c <= 2 * i + 2 && c < src->nheap; c++)
			frontier[nf++] = c;
	}
	return n;
}

/* sd->cache_nice_tries of the domains modelled (SD_CPU_INIT, SD_MC_INIT): after
 * this many failed runs can_migrate_task() takes cache-hot tasks too. */
#define CACHE_NICE_TRIES 1

/* Move up to n tasks from `src` (locked) to `dst` (locked), keeping
 * vruntime fair: balance_tasks() and pull_task(). can_migrate_task()
 * leaves a task that ran within sysctl_sched_migration_cost (task_hot())
 * unless balancing here has failed more than cache_nice_tries times. */
static int move_tasks(struct sched *s, struct rq *dst, struct rq *src, int n, uint64_t now)
{
	struct task *cand[BALANCE_VISITS];
	int nc = balance_candidates(s, src, cand);
	int moved = 0, hot = 0;
	bool aggressive = dst->balance_failed > CACHE_NICE_TRIES;
	for (int i = 0; i < nc && moved < n; i++) {
		struct task *t = cand[i];
		if (t->pinned >= 0)
			continue;
		if (!aggressive && now < t->exec_start + s->migration_cost) {
			hot++;
			continue;
		}
		heap_remove(src, t);
		src->nr_running--;
		t->vruntime = t->vruntime - src->min_vruntime + dst->min_vruntime;
		t->cpu = dst->cpu;
		heap_push(dst, t);
		dst->nr_running++;
		dst->migrations_in++;
		s->migrations++;
		moved++;
	}
	if (moved)
		dst->balance_failed = 0;
	else if (hot)
		dst->balance_failed++;
	return moved;
}

/* load_balance() over the sched domains, lowest first (SMT siblings, the
 * cache-sharing die, the socket, the node, every CPU): pull from the
 * busiest run queue of the first domain that has one clearly busier, so
 * idle CPUs look near home first and do not all pile on one queue. Reading
 * other queues' lengths is racy in the kernel too. */
int load_balance(struct sched *s, struct sim_cpu *cpu, bool newidle)
{
	struct hw *hw = s->k->hw;
	struct rq *rq = &s->rq[cpu->id];
	int psym = sym_enter(cpu, s->sym_balance);
	cpu_charge(cpu, s->cost_balance);
	rq->next_balance = cpu->clock + s->balance_interval;
	cpu_sync(cpu);	/* the scan reads other queues' lengths (racy, as in the kernel) */
	const struct machine *m = s->k->m;
	int busiest = -1, most = rq->nr_running;
	/* only queues with a task that may move count (the kernel's
	 * LBF_ALL_PINNED: a queue of pinned tasks is not pulled from). One
	 * scan finds the busiest queue at each distance (the first of the
	 * longest, in CPU order); the domains, lowest first, take the busiest
	 * within them: the nearest one unless a farther one is longer. */
	int best[NR_DIST], queued[NR_DIST] = { 0 }, cpus[NR_DIST] = { 0 };
	for (int d = 0; d < NR_DIST; d++)
		best[d] = -1;
	for (int i = 0; s->nr_movable > 0 && i < s->ncpus; i++) {
		const struct rq *q = &s->rq[i];
		int d = (int)machine_dist(m, cpu->id, i);
		queued[d] += q->nr_running;	/* the domains' loads, for the imbalance */
		cpus[d]++;
		if (q->nr_running <= most || q->nr_movable <= 0)
			continue;
		if (best[d] < 0 || q->nr_running > s->rq[best[d]].nr_running)
			best[d] = i;
	}
	int within = -1;	/* the busiest of the domain so far */
	int span_queued = queued[DIST_SAME_CORE], span_cpus = cpus[DIST_SAME_CORE];
	for (int d = DIST_SMT; d < NR_DIST && busiest < 0 && s->nr_movable > 0; d++) {
		span_queued += queued[d];
		span_cpus += cpus[d];
		int b = best[d];	/* (best[DIST_SAME_CORE]: this queue, never longer) */
		if (b >= 0 && (within < 0 || s->rq[b].nr_running > s->rq[within].nr_running ||
			       (s->rq[b].nr_running == s->rq[within].nr_running && b < within)))
			within = b;
		if (within >= 0) {
			busiest = within;
			most = s->rq[within].nr_running;
		}
		if (busiest >= 0 && most - rq->nr_running < (newidle ? 1 : 2))
			busiest = -1, most = rq->nr_running;	/* balanced here: look wider */
	}
	int moved = 0;
	/* find_busiest_group()'s imbalance, with every task of weight 1 and
	 * every CPU of power 1: what brings the busiest down to the domain's
	 * average without taking this CPU above it, and one task when that
	 * rounds to none (fix_small_imbalance()). A newly idle CPU
	 * (load_balance_newidle()) moves it as the periodic run does; only a
	 * preemptible kernel's balance_tasks() stops a newly idle run after one
	 * task, and the eras modelled are not preemptible. */
	int avg = span_cpus ? span_queued / span_cpus : 0;
	int want = most - avg < avg - rq->nr_running ? most - avg : avg - rq->nr_running;
	if (want < 1)
		want = 1;
	if (busiest >= 0 && want > 0 && most - rq->nr_running >= (newidle ? 1 : 2)) {
		struct rq *b = &s->rq[busiest];
		struct rq *first = b->cpu < rq->cpu ? b : rq;	/* double_rq_lock order */
		struct rq *second = first == b ? rq : b;
		hw_spin_lock(hw, cpu, &first->lock);
		hw_spin_lock(hw, cpu, &second->lock);
		moved = move_tasks(s, rq, b, want, cpu->clock);
		hw_spin_unlock(hw, cpu, &second->lock);
		hw_spin_unlock(hw, cpu, &first->lock);
	}
	sym_exit(cpu, psym);
	return moved;
}

/* Wake a CPU that sleeps in its idle loop; a CPU spinning on a lock is
 * suspended too, but only the lock's release may resume it. */
void wake_idle_cpu(struct sched *s, int cpu, uint64_t t)
{
	struct sim_cpu *c = &s->k->eng->cpus[cpu];
	if (c->idle_wait)
		eng_wake_cpu(c, t, -1);
}

/* The idle tick's timer (arm_idle_tick()): wake the idle CPU to look for work. */
static void balance_timer_fn(struct sim_event *ev)
{
	struct rq *rq = ev->arg;
	struct sched *s = (struct sched *)(uintptr_t)ev->data;
	rq->balance_timer = NULL;
	wake_idle_cpu(s, rq->cpu, ev->time);
}

/* An idle CPU's tick: it wakes at its next balance time to look for work. */
static void arm_idle_tick(struct sched *s, struct rq *rq, uint64_t now)
{
	if (rq->balance_timer)
		return;
	uint64_t t = rq->next_balance > now ? rq->next_balance : now;
	rq->balance_timer = eng_timer_at(s->k->eng, t, balance_timer_fn, rq,
					 (uint64_t)(uintptr_t)s);
	if (rq->idle_unarmed) {
		rq->idle_unarmed = false;
		s->nr_idle_unarmed--;
	}
}

/* A task now waits behind a running one: idle CPUs whose ticks were
 * stopped (nothing to steal when they went idle) start them again, as the
 * nohz idle balancer would. */
void kick_idle_cpus(struct sched *s, uint64_t now)
{
	if (!s->nr_idle_unarmed)
		return;
	for (int i = 0; i < s->ncpus && s->nr_idle_unarmed; i++)
		if (s->rq[i].idle_unarmed)
			arm_idle_tick(s, &s->rq[i], now);
}

/* cpu_idle(): run what is queued here; else pull work; else sleep until a
 * wake-up (or the next balance tick, while other CPUs have work queued). */
void idle_loop(struct task *idle, void *arg)
{
	struct sched *s = arg;
	struct hw *hw = s->k->hw;
	for (;;) {
		struct sim_cpu *cpu = task_cpu(idle);
		struct rq *rq = &s->rq[cpu->id];
		if (rq->work_pending)
			run_pending_work(idle);
		hw_spin_lock(hw, cpu, &rq->lock);
		struct task *next = heap_pop(rq);
		if (next) {
			next->on_rq = false;
			hw_read(hw, cpu, &next->line);
			cpu_charge(cpu, s->cost_idle_exit);
			context_switch(s, rq, cpu, idle, next);
			continue;
		}
		hw_spin_unlock(hw, cpu, &rq->lock);
		if (load_balance(s, cpu, true))
			continue;
		/* No yield from this check to cpu_suspend(): a wake-up that
		 * queued a task meanwhile is seen here, none is lost. */
		cpu_sync(cpu);
		if (rq->nheap || rq->work_pending)
			continue;
		if (s->nr_movable > 0) {	/* a task that could come here waits */
			arm_idle_tick(s, rq, cpu->clock);
		} else if (!rq->balance_timer && !rq->idle_unarmed) {
			rq->idle_unarmed = true;	/* tick stopped: nothing to steal */
			s->nr_idle_unarmed++;
		}
		cpu->sym = s->k->eng->sym_idle;
		cpu->idle_wait = true;
		cpu_suspend(cpu);
		cpu->idle_wait = false;
		if (rq->balance_timer) {
			eng_timer_cancel(s->k->eng, rq->balance_timer);
			rq->balance_timer = NULL;
		}
		if (rq->idle_unarmed) {
			rq->idle_unarmed = false;
			s->nr_idle_unarmed--;
		}
	}
}
