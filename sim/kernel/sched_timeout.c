/* sched_timeout.c - schedule_timeout(): sleep until a time, woken by a timer
 * that expires on the sleeper's CPU (the hrtimer's interrupt runs there, in
 * whatever task that CPU is running, or its idle loop). */
#include "kernel.h"
#include "workqueue.h"

/* The timer's expiry: wake the sleeper from the CPU's current context. */
static void timeout_expired(struct delayed_work *w, struct task *cur)
{
	try_to_wake_up(cur, w->arg, false);
}

void schedule_timeout_until(struct task *t, uint64_t when)
{
	if (when <= task_cpu(t)->clock)
		return;
	struct delayed_work w = { .fn = timeout_expired, .arg = t };
	t->state = TASK_INTERRUPTIBLE;
	schedule_delayed_work_on(t->k, t->cpu, &w, when);
	schedule(t);
	cancel_delayed_work(&w);	/* woken early: the timer must not outlive w */
}
