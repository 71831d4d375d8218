/* sched.c - CFS-like per-CPU scheduling of simulated tasks (2.6.24-26):
 * schedule() and the context switch, preemption at the return to user
 * space, and wake-ups with their placement. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_internal.h"
#include "workqueue.h"

/* update_avg(): avg += (sample - avg) / 8 */
static void update_avg(uint64_t *avg, uint64_t sample)
{
	int64_t diff = (int64_t)sample - (int64_t)*avg;
	*avg = (uint64_t)((int64_t)*avg + diff / 8);
}

/* --- switching --- */

/* sched_info_arrive(): a task switched in after waiting in a run queue adds
 * its wait to run_delay (schedstats; counted, never charged). */
static void sched_info_arrive(struct sched *s, struct task *t, uint64_t now)
{
	uint64_t delay = now > t->last_queued ? now - t->last_queued : 0;
	s->run_delay += delay;
	s->pcount++;
	if (t->woken) {
		s->wake_delay += delay;
		s->wake_pcount++;
		t->woken = false;
	}
}

/* finish_task_switch(): in the task switched to, release the run queue's
 * lock held across the switch, and free the stack of a task that exited. */
void finish_task_switch(struct sched *s, struct task *t)
{
	struct rq *rq = &s->rq[t->cpu];
	struct task *dead = rq->dead;
	if (dead && dead != t) {
		rq->dead = NULL;
		fiber_destroy(&dead->fiber);
	}
	hw_spin_unlock(s->k->hw, task_cpu(t), &rq->lock);
}

/* context_switch(): switch_mm if the address space changes, then switch_to.
 * Called with rq->lock held: as in the kernel, no wake-up can see `prev`
 * half switched out; the task switched to releases the lock. */
void context_switch(struct sched *s, struct rq *rq, struct sim_cpu *cpu,
			   struct task *prev, struct task *next)
{
	int psym = sym_enter(cpu, s->sym_switch);
	cpu_charge(cpu, s->cost_switch);
	static struct mm_struct *const no_mm = NULL;
	struct mm_struct *last = prev->mm ? prev->mm : no_mm;
	if (next->mm && last && next->mm != last)
		cpu_charge(cpu, s->cost_switch_mm);
	if (next != rq->idle)	/* its stack, thread_info, mm: cold */
		hw_mem_lines(s->k->hw, cpu, (int)s->switch_cold_lines, s->k->m->topo[cpu->id].node);
	prev->saved_sym = psym;
	prev->on_cpu = false;
	next->on_cpu = true;
	next->cpu = cpu->id;
	next->exec_start = cpu->clock;
	if (next != rq->idle)
		sched_info_arrive(s, next, cpu->clock);
	rq->curr = next;
	rq->slice_end = cpu->clock + sched_slice(s, rq);
	rq->nr_switches++;
	s->context_switches++;
	cpu->sym = next->saved_sym;
	cpu_switch_fiber(cpu, &next->fiber);
	/* back in prev, perhaps on another CPU */
	finish_task_switch(s, prev);
}

void schedule(struct task *prev)
{
	struct sched *s = &prev->k->sched;
	struct hw *hw = prev->k->hw;
	struct sim_cpu *cpu = task_cpu(prev);
	struct rq *rq = &s->rq[cpu->id];
	if (rq->work_pending)	/* the events thread runs first */
		run_pending_work(prev);
	int psym = sym_enter(cpu, s->sym_schedule);
	cpu_charge(cpu, s->cost_schedule);
	hw_spin_lock(hw, cpu, &rq->lock);
	update_curr(rq, cpu->clock);
	rq->need_resched = false;
	if (prev != rq->idle) {
		if (prev->state != TASK_RUNNING) {	/* deactivate_task(): it sleeps */
			rq->nr_running--;
			if (prev->last_wakeup) {
				update_avg(&prev->avg_overlap, prev->sum_exec - prev->last_wakeup);
				prev->last_wakeup = 0;
			}
			prev->nvcsw++;
		} else {				/* preempted: back in the queue */
			prev->on_rq = true;
			sched_info_queued(prev, cpu->clock, false);
			heap_push(rq, prev);
			prev->nivcsw++;
		}
	}
	struct task *next = heap_pop(rq);
	if (next)
		next->on_rq = false;
	else
		next = rq->idle;
	if (next == prev) {
		rq->slice_end = cpu->clock + sched_slice(s, rq);
		prev->exec_start = cpu->clock;
		hw_spin_unlock(hw, cpu, &rq->lock);
		sym_exit(cpu, psym);
		return;
	}
	hw_read(hw, cpu, &next->line);	/* its task_struct, last written by its waker */
	context_switch(s, rq, cpu, prev, next);
	sym_exit(task_cpu(prev), psym);
}

void sched_preempt_point(struct task *t)
{
	struct sched *s = &t->k->sched;
	struct sim_cpu *cpu = task_cpu(t);
	struct rq *rq = &s->rq[cpu->id];
	if (rq->work_pending)
		run_pending_work(t);
	if (cpu->clock >= rq->next_balance)
		load_balance(s, cpu, false);
	if (rq->need_resched || (cpu->clock >= rq->slice_end && rq->nheap > 0 && !t->rt))
		schedule(t);
}

/* --- wake-up --- */

/* select_task_rq_fair() of 2.6.25, with run-queue lengths for loads:
 * wake-affine pulls a sync wakee to the waker's CPU when both run briefly
 * after waking others (avg_overlap; before 2.6.25-rc7, when the wakee is
 * cache-cold: task_hot() false, it last ran migration_cost ago or more), or
 * when that keeps the load balanced (imbalance_pct); passive balancing
 * (SD_WAKE_BALANCE) takes it there when the waker's CPU is not busier.
 * Else it stays where it last ran. The kernel's "idle enough" test on
 * tl_per_task is approximated by the last. */
static int select_task_rq(struct sched *s, struct task *waker, struct task *p, bool sync)
{
	int prev = p->cpu, this = waker->cpu;
	if (p->pinned >= 0)
		return p->pinned;
	if (prev == this || !s->wake_affine)
		return prev;
	long load = s->rq[prev].nr_running;
	long this_load = s->rq[this].nr_running - (sync ? 1 : 0);
	if (this_load < 0)
		this_load = 0;
	if (!s->affine_by_overlap) {
		/* task_hot(): a signed delta, the waker's clock may trail */
		int64_t idle = (int64_t)(task_cpu(waker)->clock - p->exec_start);
		if (sync && idle >= (int64_t)s->migration_cost)
			return this;
	} else if (sync && waker->avg_overlap < s->migration_cost &&
		   p->avg_overlap < s->migration_cost) {
		return this;
	}
	if (100 * (this_load + 1) <= WAKE_IMBALANCE_PCT * load)
		return this;
	if (WAKE_IMBALANCE_PCT * this_load <= 100 * load)
		return this;
	return prev;
}

/* Queue a sleeper on rq (locked): sleeper credit of one latency period. */
static void enqueue_sleeper(struct sched *s, struct rq *rq, struct task *p)
{
	uint64_t floor = rq->min_vruntime > s->latency ? rq->min_vruntime - s->latency : 0;
	if (p->vruntime < floor)
		p->vruntime = floor;
	p->on_rq = true;
	heap_push(rq, p);
	rq->nr_running++;
	if (rq->curr != rq->idle)
		kick_idle_cpus(s, s->k->eng->running ? s->k->eng->running->clock : s->k->eng->now);
}

/* check_preempt_wakeup(): the wakee preempts if it is owed more than the
 * wake-up granularity. An idle CPU is kicked awake. */
void check_preempt(struct sched *s, struct rq *rq, struct task *p, uint64_t now)
{
	if (rq->curr == rq->idle) {
		wake_idle_cpu(s, rq->cpu, now);
		return;
	}
	update_curr(rq, now);
	if (rq->curr->rt)	/* SCHED_FIFO-like: runs until it blocks */
		return;
	if (p->rt || p->vruntime + s->wakeup_granularity < rq->curr->vruntime)
		rq->need_resched = true;
}

bool try_to_wake_up(struct task *waker, struct task *p, bool sync)
{
	struct sched *s = &p->k->sched;
	struct hw *hw = p->k->hw;
	struct sim_cpu *cpu = task_cpu(waker);
	int psym = sym_enter(cpu, s->sym_wake);
	cpu_charge(cpu, s->cost_wake);
	struct rq *prq;
	for (;;) {	/* task_rq_lock(): p may move while we wait for the lock */
		prq = &s->rq[p->cpu];
		hw_spin_lock(hw, cpu, &prq->lock);
		if (prq->cpu == p->cpu)
			break;
		hw_spin_unlock(hw, cpu, &prq->lock);
	}
	hw_write(hw, cpu, &p->line);
	bool woke = false;
	if (p->state != TASK_RUNNING && p->state != TASK_DEAD) {
		woke = true;
		p->state = TASK_RUNNING;
		waker->last_wakeup = waker->sum_exec + (cpu->clock - waker->exec_start);
		s->wakeups++;
		if (sync)	/* schedstat se.nr_wakeups_sync */
			s->wakeups_sync++;
		if (!p->on_cpu && !p->on_rq) {	/* it really sleeps: queue it */
			int target = select_task_rq(s, waker, p, sync);
			struct rq *trq = &s->rq[target];
			if (target != p->cpu) {	/* set_task_cpu() */
				uint64_t rel = p->vruntime - prq->min_vruntime;
				hw_spin_unlock(hw, cpu, &prq->lock);
				hw_spin_lock(hw, cpu, &trq->lock);
				p->vruntime = rel + trq->min_vruntime;
				p->cpu = target;
				s->migrations++;
				s->wakeups_migrate++;	/* se.nr_wakeups_migrate */
				prq = trq;
			}
			sched_info_queued(p, cpu->clock, true);
			enqueue_sleeper(s, trq, p);
			check_preempt(s, trq, p, cpu->clock);
		}
	}
	hw_spin_unlock(hw, cpu, &prq->lock);
	sym_exit(cpu, psym);
	return woke;
}
