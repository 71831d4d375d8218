/* workqueue.h - delayed work on a CPU (schedule_delayed_work_on): at time t
 * a timer marks the work pending on that CPU and wakes it if idle; the CPU
 * runs it in its own context at its next scheduling point (schedule(), a
 * preemption point, or its idle loop), as the CPU's events thread would,
 * charging the work's cycles to that CPU. */
#ifndef SIM_WORKQUEUE_H
#define SIM_WORKQUEUE_H

#include <stdbool.h>
#include <stdint.h>

struct kernel;
struct task;
struct sim_event;

struct delayed_work {
	void (*fn)(struct delayed_work *w, struct task *cur);
	void *arg;
	struct kernel *k;
	int cpu;
	bool queued;			/* a timer is armed or the work is pending */
	struct sim_event *timer;
	struct delayed_work *next;	/* on the CPU's pending list */
};

/* Queue w to run on `cpu` at time t (nothing if already queued). */
void schedule_delayed_work_on(struct kernel *k, int cpu, struct delayed_work *w, uint64_t t);

/* Cancel a queued work (before the run ends). */
void cancel_delayed_work(struct delayed_work *w);

/* Run the works pending on the CPU `cur` runs on (scheduler hooks). While
 * one runs, k->works_running counts it: a check of the allocator's books
 * mid-run waits until none is in flight (a work may yield half-way). */
void run_pending_work(struct task *cur);

/* Per-CPU housekeeping, as SLAB's cache_reap and SLQB's trim worker run:
 * every `interval` cycles on each CPU that has used the subsystem. The
 * first use arms the CPU's timer (start_cpu_timer()); a round re-arms it
 * while the CPU was used meanwhile or `fn` made progress, so a finished
 * workload lets the simulation end. fn returns whether it did any work. */
struct housekeeping;
typedef bool (*housekeeping_fn)(struct housekeeping *h, struct task *cur);

struct housekeeping_cpu {
	struct delayed_work work;
	struct housekeeping *h;
	uint64_t activity;		/* uses since the last round */
};

struct housekeeping {
	struct kernel *k;
	housekeeping_fn fn;
	void *arg;
	uint64_t interval;
	int ncpus;
	struct housekeeping_cpu *cpu;	/* [ncpus] */
};

/* 0, or -1 if out of memory. */
int housekeeping_init(struct housekeeping *h, struct kernel *k, int ncpus, uint64_t interval,
		      housekeeping_fn fn, void *arg);
/* The subsystem was used on `cpu` at time t: arm its timer if it is not. */
void housekeeping_touch(struct housekeeping *h, int cpu, uint64_t t);
void housekeeping_destroy(struct housekeeping *h);

#endif
