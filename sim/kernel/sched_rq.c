/* sched_rq.c - a CPU's run queue: runnable tasks in a binary min-heap by
 * vruntime (the kernel's rb-tree), and CFS's accounting of run time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched_internal.h"
#include "engine/oom.h"

/* --- the run queue: a binary min-heap of runnable tasks by vruntime --- */

/* The queue's order: smaller vruntime first, equal ones by pid. */
static inline bool vr_before(const struct task *a, const struct task *b)
{
	return a->vruntime < b->vruntime || (a->vruntime == b->vruntime && a->pid < b->pid);
}

/* Swap heap slots i and j, keeping the tasks' heap_idx in step. */
static void heap_swap(struct rq *rq, int i, int j)
{
	struct task *t = rq->heap[i];
	rq->heap[i] = rq->heap[j];
	rq->heap[j] = t;
	rq->heap[i]->heap_idx = i;
	rq->heap[j]->heap_idx = j;
}

/* Sift slot i up while its task runs before its parent's. */
static void heap_up(struct rq *rq, int i)
{
	while (i > 0) {
		int p = (i - 1) / 2;
		if (!vr_before(rq->heap[i], rq->heap[p]))
			break;
		heap_swap(rq, i, p);
		i = p;
	}
}

/* Sift slot i down while a child's task runs before its own. */
static void heap_down(struct rq *rq, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		if (l < rq->nheap && vr_before(rq->heap[l], rq->heap[m]))
			m = l;
		if (r < rq->nheap && vr_before(rq->heap[r], rq->heap[m]))
			m = r;
		if (m == i)
			break;
		heap_swap(rq, i, m);
		i = m;
	}
}

void heap_push(struct rq *rq, struct task *t)
{
	if (rq->nheap == rq->heap_cap) {
		int cap = rq->heap_cap ? 2 * rq->heap_cap : 64;
		struct task **h = realloc(rq->heap, (size_t)cap * sizeof(*h));
		if (!h)
			host_oom(__func__);
		rq->heap = h;
		rq->heap_cap = cap;
	}
	rq->heap[rq->nheap] = t;
	t->heap_idx = rq->nheap++;
	if (t->pinned < 0) {
		rq->nr_movable++;
		(*rq->nr_movable_all)++;
	}
	heap_up(rq, t->heap_idx);
}

void heap_remove(struct rq *rq, struct task *t)
{
	int i = t->heap_idx;
	rq->nheap--;
	if (t->pinned < 0) {
		rq->nr_movable--;
		(*rq->nr_movable_all)--;
	}
	if (i != rq->nheap) {
		heap_swap(rq, i, rq->nheap);
		heap_down(rq, i);
		heap_up(rq, i);
	}
	t->heap_idx = -1;
}

struct task *heap_pop(struct rq *rq)
{
	if (!rq->nheap)
		return NULL;
	struct task *t = rq->heap[0];
	heap_remove(rq, t);
	return t;
}

/* --- CFS bookkeeping --- */

/* update_min_vruntime(): follow the smaller vruntime of the running task and the leftmost
 * queued one; min_vruntime never goes back. */
static void update_min_vruntime(struct rq *rq)
{
	uint64_t v = rq->min_vruntime;
	bool any = false;
	if (rq->curr && rq->curr != rq->idle) {
		v = rq->curr->vruntime;
		any = true;
	}
	if (rq->nheap && (!any || rq->heap[0]->vruntime < v)) {
		v = rq->heap[0]->vruntime;
		any = true;
	}
	if (any && v > rq->min_vruntime)
		rq->min_vruntime = v;
}

/* update_curr(): charge the running task's time to its vruntime. */
void update_curr(struct rq *rq, uint64_t now)
{
	struct task *c = rq->curr;
	if (!c || c == rq->idle || now <= c->exec_start)
		return;
	uint64_t delta = now - c->exec_start;
	c->sum_exec += delta;
	c->vruntime += delta >> NICE_0_SHIFT;
	c->exec_start = now;
	update_min_vruntime(rq);
}

/* sched_slice(): the task's share of the period. */
uint64_t sched_slice(const struct sched *s, const struct rq *rq)
{
	uint64_t nr = (uint64_t)(rq->nr_running > 0 ? rq->nr_running : 1);
	uint64_t period = s->latency;
	uint64_t nr_latency = s->latency / s->min_granularity;
	if (nr > nr_latency)
		period = nr * s->min_granularity;
	return period / nr;
}
