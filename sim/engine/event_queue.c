/* event_queue.c - adaptive calendar queue of pending events (Brown 1988). */
#include "event_queue.h"

#include <stdlib.h>
#include <string.h>

#define EQ_MIN_BUCKETS 16u
#define EQ_ADAPT_OPS 65536u	/* operations between width checks */
#define EQ_ADAPT_WORK 4u	/* average steps per op that trigger a rewidth */
#define EQ_WIDTH_SAMPLE 256u	/* earliest events whose spacing sets the width */

/* Event order: earlier time first, then the earlier push (seq). */
static inline bool ev_before(const struct sim_event *a, const struct sim_event *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

int eq_init(struct event_queue *q)
{
	memset(q, 0, sizeof(*q));
	q->nbuckets = EQ_MIN_BUCKETS;
	q->mask = q->nbuckets - 1;
	q->shift = 6;
	q->bucket = calloc(q->nbuckets, sizeof(*q->bucket));
	return q->bucket ? 0 : -1;
}

void eq_destroy(struct event_queue *q)
{
	free(q->bucket);
	q->bucket = NULL;
}

/* Sorted insert into one bucket's list; returns the steps it took. */
static unsigned int bucket_insert(struct event_queue *q, struct sim_event *e)
{
	struct sim_event **pp = &q->bucket[(e->time >> q->shift) & q->mask];
	unsigned int steps = 0;
	while (*pp && !ev_before(e, *pp)) {
		pp = &(*pp)->next;
		steps++;
	}
	e->next = *pp;
	*pp = e;
	return steps;
}

/* Insert a new event: it has the highest sequence number so far, so it
 * goes after every event of the same time and one comparison suffices. */
static unsigned int bucket_insert_new(struct event_queue *q, struct sim_event *e)
{
	struct sim_event **pp = &q->bucket[(e->time >> q->shift) & q->mask];
	const uint64_t t = e->time;
	unsigned int steps = 0;
	while (*pp && (*pp)->time <= t) {
		pp = &(*pp)->next;
		steps++;
	}
	e->next = *pp;
	*pp = e;
	return steps;
}

/* qsort() comparison of two uint64_t, ascending. */
static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Choose a bucket width of about twice the mean spacing of the earliest
 * pending events (Brown's rule samples the front of the queue, where the pops
 * happen; the far tail would make buckets too wide). */
static unsigned int width_for(uint64_t *times, size_t n)
{
	if (n < 2)
		return 6;
	qsort(times, n, sizeof(*times), cmp_u64);
	size_t k = n < EQ_WIDTH_SAMPLE ? n : EQ_WIDTH_SAMPLE;
	uint64_t spacing = 2 * (times[k - 1] - times[0]) / (k - 1);
	unsigned int shift = 0;
	while ((1ull << shift) < spacing && shift < 40)
		shift++;
	return shift;
}

/* Rebuild with nbuckets buckets and a width fitted to the pending events. */
static void eq_rebuild(struct event_queue *q, uint32_t nbuckets)
{
	struct sim_event *all = NULL;
	uint64_t lo = UINT64_MAX;
	uint64_t *times = malloc((q->n ? q->n : 1) * sizeof(*times));
	size_t nt = 0;
	for (uint32_t i = 0; i < q->nbuckets; i++) {
		struct sim_event *e = q->bucket[i];
		while (e) {
			struct sim_event *next = e->next;
			if (e->time < lo)
				lo = e->time;
			if (times)
				times[nt++] = e->time;
			e->next = all;
			all = e;
			e = next;
		}
	}
	struct sim_event **nb = calloc(nbuckets, sizeof(*nb));
	if (!nb) {
		nb = q->bucket;	/* keep the old array: correctness over speed */
		memset(nb, 0, q->nbuckets * sizeof(*nb));
		nbuckets = q->nbuckets;
	} else {
		free(q->bucket);
	}
	q->bucket = nb;
	q->nbuckets = nbuckets;
	q->mask = nbuckets - 1;
	if (times)
		q->shift = width_for(times, nt);
	free(times);
	while (all) {
		struct sim_event *next = all->next;
		bucket_insert(q, all);
		all = next;
	}
	q->vb = q->n ? lo >> q->shift : 0;
	q->min = NULL;
	q->work = q->ops = 0;
}

/* Count an operation's list steps; every EQ_ADAPT_OPS operations, rebuild with a new width
 * if they averaged more than EQ_ADAPT_WORK steps. */
static void eq_account(struct event_queue *q, unsigned int steps)
{
	q->work += steps;
	if (++q->ops < EQ_ADAPT_OPS)
		return;
	if (q->work > (uint64_t)EQ_ADAPT_WORK * q->ops)
		eq_rebuild(q, q->nbuckets);
	q->work = q->ops = 0;
}

void eq_push(struct event_queue *q, struct sim_event *e)
{
	e->seq = q->seq++;
	q->n++;
	if (q->n > 2 * (size_t)q->nbuckets) {
		e->next = q->bucket[0];	/* park it, the rebuild re-sorts all */
		q->bucket[0] = e;
		eq_rebuild(q, q->nbuckets * 2);
		return;
	}
	unsigned int steps = bucket_insert_new(q, e);
	if ((e->time >> q->shift) < q->vb)
		q->vb = e->time >> q->shift;
	if (q->min && e->time < q->min->time)
		q->min = e;
	eq_account(q, steps);
}

struct sim_event *eq_peek(struct event_queue *q)
{
	if (q->min)
		return q->min;
	if (!q->n)
		return NULL;
	unsigned int scanned = 0;
	for (;;) {
		struct sim_event *e = q->bucket[q->vb & q->mask];
		if (e && (e->time >> q->shift) == q->vb) {
			q->min = e;
			eq_account(q, scanned);
			return e;
		}
		q->vb++;
		if (++scanned >= q->nbuckets)
			break;
	}
	/* A whole calendar year was empty: jump straight to the earliest. */
	struct sim_event *best = NULL;
	for (uint32_t i = 0; i < q->nbuckets; i++) {
		struct sim_event *e = q->bucket[i];
		if (e && (!best || ev_before(e, best)))
			best = e;
	}
	q->vb = best->time >> q->shift;
	q->min = best;
	eq_account(q, scanned);
	return best;
}

struct sim_event *eq_pop(struct event_queue *q)
{
	struct sim_event *e = eq_peek(q);
	if (!e)
		return NULL;
	q->bucket[q->vb & q->mask] = e->next;
	e->next = NULL;
	q->n--;
	q->min = NULL;
	if (q->nbuckets > EQ_MIN_BUCKETS && q->n < q->nbuckets / 4)
		eq_rebuild(q, q->nbuckets / 2);
	return e;
}

bool eq_remove(struct event_queue *q, struct sim_event *e)
{
	struct sim_event **pp = &q->bucket[(e->time >> q->shift) & q->mask];
	while (*pp && *pp != e)
		pp = &(*pp)->next;
	if (!*pp)
		return false;
	*pp = e->next;
	e->next = NULL;
	q->n--;
	if (q->min == e)
		q->min = NULL;
	return true;
}

static int event_pool_grow(struct event_pool *p);

int event_pool_init(struct event_pool *p, size_t events)
{
	memset(p, 0, sizeof(*p));
	p->chunk_events = events ? events : 1024;
	return event_pool_grow(p);
}

/* Add a chunk of chunk_events events to the pool's free list; -1 if out of memory. */
static int event_pool_grow(struct event_pool *p)
{
	struct sim_event *chunk = calloc(p->chunk_events, sizeof(*chunk));
	void **chunks = realloc(p->chunks, (p->nchunks + 1) * sizeof(*chunks));
	if (!chunk || !chunks) {
		free(chunk);
		if (chunks)
			p->chunks = chunks;
		return -1;
	}
	p->chunks = chunks;
	p->chunks[p->nchunks++] = chunk;
	for (size_t i = 0; i < p->chunk_events; i++) {
		chunk[i].next = p->free;
		p->free = &chunk[i];
	}
	return 0;
}

struct sim_event *event_pool_get(struct event_pool *p)
{
	if (!p->free && event_pool_grow(p) < 0)
		return NULL;
	struct sim_event *e = p->free;
	p->free = e->next;
	e->next = NULL;
	return e;
}

void event_pool_put(struct event_pool *p, struct sim_event *e)
{
	if (!e)
		return;
	e->next = p->free;
	p->free = e;
}

void event_pool_destroy(struct event_pool *p)
{
	for (size_t i = 0; i < p->nchunks; i++)
		free(p->chunks[i]);
	free(p->chunks);
	memset(p, 0, sizeof(*p));
}
