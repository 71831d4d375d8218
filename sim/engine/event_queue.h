/* event_queue.h - pending events ordered by (time, sequence).
 *
 * An adaptive calendar queue (Brown, CACM 1988): the near future is an array
 * of buckets of 2^shift cycles each, one sorted list per bucket; the number of
 * buckets follows the number of pending events and the bucket width follows
 * their spacing, so push and pop stay O(1) on average. Events come from a
 * pool allocated up front (see event_pool). */
#ifndef SIM_EVENT_QUEUE_H
#define SIM_EVENT_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sim_event;
typedef void (*sim_event_fn)(struct sim_event *ev);

struct sim_event {
	uint64_t time;
	uint64_t seq;
	struct sim_event *next;
	sim_event_fn fn;
	void *arg;
	uint64_t data;
	bool pooled;	/* came from an event_pool: freed after it fires */
};

struct event_queue {
	struct sim_event **bucket;
	uint32_t nbuckets;
	uint32_t mask;
	unsigned int shift;	/* bucket width is 1 << shift cycles */
	uint64_t vb;		/* virtual bucket (time >> shift) under the scan */
	size_t n;
	uint64_t seq;
	struct sim_event *min;	/* cached earliest event, NULL if not known */
	uint64_t work;		/* list steps and empty buckets seen ... */
	uint64_t ops;		/* ... over this many operations: adapts width */
};

int eq_init(struct event_queue *q);
void eq_destroy(struct event_queue *q);
void eq_push(struct event_queue *q, struct sim_event *e);
struct sim_event *eq_peek(struct event_queue *q);
struct sim_event *eq_pop(struct event_queue *q);
/* Remove a pending event (e.g. a cancelled timer). Returns false if absent. */
bool eq_remove(struct event_queue *q, struct sim_event *e);

/* Time of the earliest pending event, UINT64_MAX if none. */
static inline uint64_t eq_min_time(struct event_queue *q)
{
	if (q->min)
		return q->min->time;
	if (!q->n)	/* the common case in a run without timers pending */
		return UINT64_MAX;
	struct sim_event *e = eq_peek(q);
	return e ? e->time : UINT64_MAX;
}

/* A pool of events sized up front; it grows in chunks only when exhausted. */
struct event_pool {
	struct sim_event *free;
	void **chunks;
	size_t nchunks;
	size_t chunk_events;
};

int event_pool_init(struct event_pool *p, size_t events);
struct sim_event *event_pool_get(struct event_pool *p);
void event_pool_put(struct event_pool *p, struct sim_event *e);
void event_pool_destroy(struct event_pool *p);

#endif
