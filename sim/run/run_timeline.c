/* run_timeline.c - rows of a run over simulated time (run_timeline.h). */
#include "run_timeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/oom.h"
#include "run_core.h"

void run_timeline_init(struct run_timeline *tl, uint64_t every_us, double ghz)
{
	memset(tl, 0, sizeof(*tl));
	tl->every = (uint64_t)((double)every_us * ghz * 1e3);
	if (every_us && !tl->every)
		tl->every = 1;
}

/* The run's counts now, as a row at the engine's time. */
static void take_row(struct run *r, struct timeline_row *row)
{
	const struct kernel *k = &r->k;
	memset(row, 0, sizeof(*row));
	row->cycles = r->eng.now;
	uint64_t total;
	const char *unit;
	run_units(r, &row->done, &total, &unit);
	for (int i = 0; i < k->ncaches; i++)
		row->live += k->caches[i]->live;
	row->slab_pages = k->pa.slab_pages;
	for (int i = 0; k->policy && k->policy->cache_info && i < k->ncaches; i++) {
		if (k->caches[i]->alias)
			continue;	/* its slabs are its target's */
		struct cache_info ci;
		k->policy->cache_info(k->pstate, k->caches[i], &ci);
		row->partial_slabs += ci.partial;
	}
	for (int i = 0; i < r->eng.ncpus; i++) {
		const struct sim_cpu *c = &r->eng.cpus[i];
		row->busy += c->busy;
		row->in_slab += c->in_region;
		row->spin += c->spin;
	}
	for (int i = 0; i < k->sched.ncpus; i++)
		row->runnable += (uint64_t)k->sched.rq[i].nr_running;
	row->wait_wmem = (uint64_t)k->unix_waiting.wmem;
	row->wait_data = (uint64_t)k->unix_waiting.data;
	row->switches = k->sched.context_switches;
	row->wakeups = k->sched.wakeups;
	row->migrations = k->sched.migrations;
	row->exited = k->sched.nr_exited;
	row->run_delay = k->sched.run_delay;
	row->pcount = k->sched.pcount;
	row->wake_delay = k->sched.wake_delay;
	row->wake_pcount = k->sched.wake_pcount;
}

/* A class's counts at the last row (zero if it is new since, or if its
 * counts are below them: a class freed and another made in its place). */
static struct timeline_lock last_counts(const struct run_timeline *tl,
					const struct hw_lock_class *c)
{
	for (size_t i = 0; i < tl->nlocks; i++) {
		const struct timeline_lock *l = &tl->locks[i];
		if (l->cls == c && c->acquisitions >= l->acq && c->contentions >= l->con &&
		    c->wait_total >= l->wait && c->hold_total >= l->hold)
			return *l;
	}
	return (struct timeline_lock){ .cls = c };
}

/* Of the wait on class `c` since `was`, the contention point that waited
 * most, into `row` (its symbol's name and its cycles). */
static void take_lock_site(const struct run *r, const struct hw_lock_class *c,
			   const struct timeline_lock *was, struct timeline_row *row)
{
	row->lock_site[0] = '\0';
	row->lock_site_wait = 0;
	for (int i = 0; i < LOCKSTAT_POINTS && c->contention_point[i].sym >= 0; i++) {
		const struct hw_lock_point *p = &c->contention_point[i];
		uint64_t wait = p->wait >= was->site_wait[i] ? p->wait - was->site_wait[i] : p->wait;
		if (wait > row->lock_site_wait) {
			row->lock_site_wait = wait;
			snprintf(row->lock_site, sizeof(row->lock_site), "%s",
				 r->eng.prof.name[p->sym]);
		}
	}
}

/* The lock class waited on most since the last row (then the most taken,
 * then by name, as the report's lock table orders them) into `row`; every
 * class's counts kept for the next row. */
static void take_hottest_lock(struct run *r, struct timeline_row *row)
{
	struct run_timeline *tl = &r->timeline;
	const struct hw *hw = &r->hw;
	struct timeline_lock *now = xmalloc(((size_t)hw->nclasses + 1) * sizeof(*now));
	size_t n = 0;
	for (const struct hw_lock_class *c = hw->classes; c; c = c->next) {
		struct timeline_lock was = last_counts(tl, c);
		uint64_t acq = c->acquisitions - was.acq, wait = c->wait_total - was.wait;
		int better = !row->lock[0] ? acq > 0 :
			wait != row->lock_wait ? wait > row->lock_wait :
			acq != row->lock_acq ? acq > row->lock_acq : strcmp(c->name, row->lock) < 0;
		if (better) {
			snprintf(row->lock, sizeof(row->lock), "%s", c->name);
			row->lock_acq = acq;
			row->lock_con = c->contentions - was.con;
			row->lock_wait = wait;
			row->lock_hold = c->hold_total - was.hold;
			take_lock_site(r, c, &was, row);
		}
		now[n] = (struct timeline_lock){ c, c->acquisitions, c->contentions,
						 c->wait_total, c->hold_total, { 0 } };
		for (int i = 0; i < LOCKSTAT_POINTS; i++)
			now[n].site_wait[i] = c->contention_point[i].wait;
		n++;
	}
	free(tl->locks);
	tl->locks = now;
	tl->nlocks = n;
}

/* Append the run's counts now. */
static void add_row(struct run *r)
{
	struct run_timeline *tl = &r->timeline;
	if (tl->nrows == tl->cap) {
		tl->cap = tl->cap ? 2 * tl->cap : 256;
		tl->rows = xrealloc(tl->rows, tl->cap * sizeof(*tl->rows));
	}
	struct timeline_row *row = &tl->rows[tl->nrows++];
	take_row(r, row);
	take_hottest_lock(r, row);
}

void run_timeline_tick(struct run *r)
{
	struct run_timeline *tl = &r->timeline;
	if (!tl->every || r->eng.now < tl->next)
		return;
	add_row(r);
	tl->next = (r->eng.now / tl->every + 1) * tl->every;
}

void run_timeline_end(struct run *r)
{
	struct run_timeline *tl = &r->timeline;
	if (tl->every && (!tl->nrows || tl->rows[tl->nrows - 1].cycles < r->eng.now))
		add_row(r);
}

void run_timeline_free(struct run_timeline *tl)
{
	free(tl->rows);
	free(tl->locks);
	memset(tl, 0, sizeof(*tl));
}
