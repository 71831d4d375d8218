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

/* Run the works pending on the CPU `cur` runs on (scheduler hooks). */
void run_pending_work(struct task *cur);

#endif
