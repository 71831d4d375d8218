/* run_timeline.c - rows of a run over simulated time (run_timeline.h). */
#include "run_timeline.h"

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
	uint64_t total = 0;
	const char *unit;
	if (r->wl->progress && r->wstate)
		r->wl->progress(r->wstate, &row->done, &total, &unit);
	for (int i = 0; i < k->ncaches; i++)
		row->live += k->caches[i]->live;
	row->slab_pages = k->pa.slab_pages;
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

/* Append the run's counts now. */
static void add_row(struct run *r)
{
	struct run_timeline *tl = &r->timeline;
	if (tl->nrows == tl->cap) {
		tl->cap = tl->cap ? 2 * tl->cap : 256;
		tl->rows = xrealloc(tl->rows, tl->cap * sizeof(*tl->rows));
	}
	take_row(r, &tl->rows[tl->nrows++]);
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
	memset(tl, 0, sizeof(*tl));
}
