/* sched.h - tasks and the scheduler: per-CPU run queues ordered by vruntime
 * (CFS of 2.6.24-26), time slices, wake-up placement (wake-affine for sync
 * wake-ups: 2.6.25's avg_overlap test, or the cold-wakee test of 2.6.24 and
 * 2.6.25-rc5), preemption at the return to user space, idle and periodic
 * load balancing, fork placement on the idlest CPU, and a context-switch
 * cost that includes switch_mm between processes.
 *
 * A task is a fiber. Code running in a task gets its CPU from task_cpu()
 * again after anything that can sleep: a task may wake up on another CPU. */
#ifndef SIM_SCHED_H
#define SIM_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "hw/spinlock.h"
#include "list.h"

enum task_state { TASK_RUNNING = 0, TASK_INTERRUPTIBLE = 1, TASK_DEAD = 2 };

struct mm_struct {
	int id;
};

/* A thread group's struct pid (task_tgid()) and struct cred, which SCM
 * credentials take references on; threads share their process's
 * (CLONE_THREAD), each process has its own. */
struct task_ids {
	struct hw_line pid;		/* struct pid: count */
	struct hw_line cred;		/* struct cred: usage */
};

struct kernel;
struct task;
struct delayed_work;
typedef void (*task_fn)(struct task *t, void *arg);

struct task {
	struct fiber fiber;
	struct kernel *k;
	int pid;
	char comm[16];
	int cpu;			/* the CPU it runs on, or last ran on */
	int pinned;			/* the only CPU it may run on, or -1 */
	bool rt;			/* SCHED_FIFO of one priority: a wake-up or a slice end
					 * never preempts it; it preempts other tasks */
	enum task_state state;
	bool on_rq;			/* runnable, waiting in a run queue */
	bool on_cpu;			/* some CPU's current task */
	int heap_idx;
	uint64_t vruntime;
	uint64_t exec_start;
	uint64_t sum_exec;
	uint64_t last_wakeup;		/* sum_exec when it last woke a task */
	uint64_t avg_overlap;		/* run time after waking someone, averaged */
	struct mm_struct *mm;
	struct mm_struct own_mm;	/* the address space of a process */
	struct task *parent;
	int live_children;
	bool reaping;			/* the parent sleeps in wait() */
	task_fn fn;
	void *arg;
	int saved_sym;			/* profile symbol while switched out */
	struct hw_line line;		/* task_struct: state, on_rq */
	struct task_ids *ids;		/* its thread group's pid and cred */
	struct task_ids own_ids;
	struct list_head wait_entry;	/* on a wait queue */
	struct wait_queue_head *waitq;
	uint64_t nvcsw, nivcsw;		/* voluntary / involuntary switches */
	uint64_t last_queued;		/* sched_info's last_queued: when it last
					 * joined a run queue to wait for a CPU */
	bool woken;			/* it waits because a wake-up queued it */
};

struct rq {
	int cpu;
	struct hw_line line;
	struct hw_lock lock;		/* rq->lock */
	struct task *curr;
	struct task *idle;		/* the idle task (swapper/N) */
	struct task **heap;		/* runnable tasks but curr, min vruntime first */
	int nheap, heap_cap;
	int nr_movable;			/* tasks in the heap not pinned here: what a
					 * balancing CPU could pull */
	int *nr_movable_all;		/* the machine's sum of nr_movable (struct sched) */
	int nr_running;			/* heap + curr (if not idle) */
	uint64_t min_vruntime;
	uint64_t slice_end;
	uint64_t next_balance;
	int balance_failed;		/* sd->nr_balance_failed: runs that found only hot tasks */
	bool need_resched;
	struct task *dead;		/* exited task whose stack is freed after the switch */
	struct sim_event *balance_timer;
	struct delayed_work *work_pending;	/* due works to run here (workqueue.c) */
	bool idle_unarmed;		/* idle with its tick stopped */
	uint64_t nr_switches;
	uint64_t migrations_in;
};

struct sched {
	struct kernel *k;
	struct rq *rq;
	int ncpus;
	int next_pid;
	int last_fork_cpu;
	int nr_idle_unarmed;
	int nr_movable;			/* queued tasks a balancer may pull: none, nothing to do */
	int next_mm;
	size_t stack_size;
	uint64_t latency, min_granularity, wakeup_granularity;	/* cycles, scaled */
	uint64_t migration_cost, balance_interval;
	bool wake_affine;
	bool affine_by_overlap;	/* 2.6.25-rc7 on: avg_overlap; before: a cold wakee */
	bool balance_leftmost;	/* to 2.6.25: balancing walks the rbtree from the left */
	struct hw_lock_class rq_lock_class;
	int sym_schedule, sym_switch, sym_wake, sym_balance, sym_fork, sym_exit;
	uint32_t cost_schedule, cost_switch, cost_switch_mm, cost_wake, cost_fork_process,
		cost_fork_thread, cost_exit, cost_balance, cost_idle_exit, switch_cold_lines;
	uint64_t nr_tasks, nr_exited, context_switches, wakeups, migrations;
	uint64_t wakeups_sync, wakeups_migrate;	/* schedstats' nr_wakeups_{sync,migrate} */
	/* schedstats' run_delay and pcount over all tasks: the cycles tasks
	 * waited in a run queue and the times they were switched in after a
	 * wait; and the same for the waits that began with a wake-up */
	uint64_t run_delay, pcount, wake_delay, wake_pcount;
	struct task **all;		/* every task created, for the end of the run */
	int nall, all_cap;
};

int sched_init(struct sched *s, struct kernel *k, struct sim_err *err);
void sched_destroy(struct sched *s);

/* Create a task running fn(t, arg). `share_mm` NULL gives it its own
 * address space (fork), else it shares that one (clone of a thread). The
 * task starts runnable on the idlest CPU (SD_BALANCE_FORK) at the creator's
 * time. `creator` may be NULL before the run starts (then on CPU `cpu`). */
struct task *task_create(struct sched *s, struct task *creator, task_fn fn, void *arg,
			 const char *comm, struct mm_struct *share_mm, int cpu);

/* The same, bound to CPU `cpu` for its whole life (sched_setaffinity to one
 * CPU, as benchmarks pin their threads). */
struct task *task_create_pinned(struct sched *s, struct task *creator, task_fn fn, void *arg,
				const char *comm, struct mm_struct *share_mm, int cpu);

/* schedule(): give up the CPU. The caller sets t->state first to sleep. */
void schedule(struct task *t);

/* schedule_timeout(): sleep until simulated time `when` (cycles); returns at
 * once if that has passed. A timer on t's CPU wakes it. */
void schedule_timeout_until(struct task *t, uint64_t when);

/* A preemption point (return to user space): reschedule if asked to. */
void sched_preempt_point(struct task *t);

/* try_to_wake_up(): make p runnable; `waker` is the current task. */
bool try_to_wake_up(struct task *waker, struct task *p, bool sync);

/* do_exit(): never returns. The parent, if reaping, is woken. */
void do_exit(struct task *t) __attribute__((noreturn));

/* wait() for every child of t to exit. */
void wait_for_children(struct task *t);

#endif
