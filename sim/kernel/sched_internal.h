/* sched_internal.h - what the scheduler's files share: the run queue's
 * CFS bookkeeping (sched_rq.c), switching (sched.c), balancing and the idle
 * loop (sched_idle.c), tasks' lives (sched_task.c). */
#ifndef SIM_SCHED_INTERNAL_H
#define SIM_SCHED_INTERNAL_H

#include "kernel.h"

#define NICE_0_SHIFT 0		/* all tasks nice 0: vruntime = runtime */
#define WAKE_IMBALANCE_PCT 112	/* 100 + (imbalance_pct 125 - 100) / 2 */

/* sched_rq.c: the run queue as a min-heap by vruntime, CFS accounting */
void heap_push(struct rq *rq, struct task *t);
void heap_remove(struct rq *rq, struct task *t);
struct task *heap_pop(struct rq *rq);
void update_curr(struct rq *rq, uint64_t now);
uint64_t sched_slice(const struct sched *s, const struct rq *rq);

/* sched_info_queued(): the task joins a run queue at `now` to wait for a
 * CPU (schedstats' last_queued); `woken`: a wake-up put it there. */
static inline void sched_info_queued(struct task *t, uint64_t now, bool woken)
{
	t->last_queued = now;
	t->woken = woken;
}

/* sched.c */
void finish_task_switch(struct sched *s, struct task *t);
void context_switch(struct sched *s, struct rq *rq, struct sim_cpu *cpu,
		    struct task *prev, struct task *next);
void check_preempt(struct sched *s, struct rq *rq, struct task *p, uint64_t now);

/* sched_idle.c */
int load_balance(struct sched *s, struct sim_cpu *cpu, bool newidle);
void wake_idle_cpu(struct sched *s, int cpu, uint64_t t);
void kick_idle_cpus(struct sched *s, uint64_t now);
void idle_loop(struct task *idle, void *arg);

#endif
