/* workqueue.c - delayed work: an engine timer hands the work to its CPU,
 * which runs it at its next scheduling point. */
#include "workqueue.h"

#include <stdlib.h>

#include "kernel.h"
#include "sched_internal.h"

/* delayed_work_timer_fn(): the delay is over: put the work on its CPU's pending list and
 * wake that CPU if it idles. */
static void work_timer_fn(struct sim_event *ev)
{
	struct delayed_work *w = ev->arg;
	struct rq *rq = &w->k->sched.rq[w->cpu];
	w->timer = NULL;
	w->next = rq->work_pending;
	rq->work_pending = w;
	wake_idle_cpu(&w->k->sched, w->cpu, ev->time);
}

void schedule_delayed_work_on(struct kernel *k, int cpu, struct delayed_work *w, uint64_t t)
{
	if (w->queued)
		return;
	w->k = k;
	w->cpu = cpu;
	w->queued = true;
	w->timer = eng_timer_at(k->eng, t, work_timer_fn, w, 0);
}

void cancel_delayed_work(struct delayed_work *w)
{
	if (!w->queued)
		return;
	if (w->timer) {
		eng_timer_cancel(w->k->eng, w->timer);
		w->timer = NULL;
	} else {	/* pending on its CPU: take it off the list */
		struct rq *rq = &w->k->sched.rq[w->cpu];
		for (struct delayed_work **p = &rq->work_pending; *p; p = &(*p)->next)
			if (*p == w) {
				*p = w->next;
				break;
			}
	}
	w->queued = false;
}

void run_pending_work(struct task *cur)
{
	struct rq *rq = &cur->k->sched.rq[cur->cpu];
	while (rq->work_pending) {
		struct delayed_work *w = rq->work_pending;
		rq->work_pending = w->next;
		w->queued = false;
		cur->k->works_running++;
		w->fn(w, cur);	/* may queue itself again */
		cur->k->works_running--;
		rq = &cur->k->sched.rq[cur->cpu];
	}
}

/* One housekeeping round on its CPU, then re-armed while there is work. */
static void housekeeping_round(struct delayed_work *w, struct task *cur)
{
	struct housekeeping_cpu *hc = w->arg;
	struct housekeeping *h = hc->h;
	bool progress = h->fn(h, cur);
	bool busy = hc->activity > 0;
	hc->activity = 0;
	if (busy || progress)
		schedule_delayed_work_on(h->k, w->cpu, w, task_cpu(cur)->clock + h->interval);
}

int housekeeping_init(struct housekeeping *h, struct kernel *k, int ncpus, uint64_t interval,
		      housekeeping_fn fn, void *arg)
{
	*h = (struct housekeeping){ .k = k, .fn = fn, .arg = arg, .interval = interval,
				    .ncpus = ncpus };
	h->cpu = calloc((size_t)ncpus, sizeof(*h->cpu));
	if (!h->cpu)
		return -1;
	for (int c = 0; c < ncpus; c++) {
		h->cpu[c].h = h;
		h->cpu[c].work.fn = housekeeping_round;
		h->cpu[c].work.arg = &h->cpu[c];
	}
	return 0;
}

void housekeeping_touch(struct housekeeping *h, int cpu, uint64_t t)
{
	struct housekeeping_cpu *hc = &h->cpu[cpu];
	hc->activity++;
	if (!hc->work.queued)
		schedule_delayed_work_on(h->k, cpu, &hc->work, t + h->interval);
}

void housekeeping_destroy(struct housekeeping *h)
{
	for (int c = 0; h->cpu && c < h->ncpus; c++)
		cancel_delayed_work(&h->cpu[c].work);
	free(h->cpu);
	h->cpu = NULL;
}
