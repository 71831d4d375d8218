/* run_timeline.h - a run over simulated time (slabsim run --timeline): the
 * workload's progress, the objects and slab pages in use, the CPUs' busy,
 * allocator and spinning shares, the runnable tasks, the tasks waiting on
 * AF_UNIX sockets, the scheduler's counts and run-queue waits and the lock
 * waited on most, a row every so many simulated milliseconds. Rows are taken where
 * the engine already looks at the run (its tick, every ENGINE_TICK CPU
 * switches), so asking for a timeline adds no event and changes no figure
 * of the run. */
#ifndef SIM_RUN_TIMELINE_H
#define SIM_RUN_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "hw/spinlock.h"

/* What the run had done by a row's time (counts since the start). */
struct timeline_row {
	uint64_t cycles;		/* the engine's time */
	uint64_t done;			/* the workload's units (messages) */
	uint64_t live;			/* slab objects allocated and not freed, all caches */
	uint64_t slab_pages;		/* pages the slab caches hold */
	uint64_t partial_slabs;		/* slabs on the caches' partial lists (slabinfo) */
	uint64_t busy, in_slab, spin;	/* CPU cycles: busy, of them in the allocator, spinning */
	uint64_t runnable;		/* tasks running or queued to run, all CPUs */
	uint64_t wait_wmem, wait_data;	/* tasks in an AF_UNIX socket's wait for room
					 * to write, for data (asleep, or woken and
					 * not yet run) */
	uint64_t switches, wakeups, migrations, exited;
	uint64_t run_delay, pcount;	/* schedstats: cycles waited in run queues, switch-ins */
	uint64_t wake_delay, wake_pcount;	/* of them, the waits a wake-up began */
	/* the lock class waited on most since the row before (lock_stat's
	 * counts over the interval): its name ("" if no lock was taken),
	 * acquisitions, contentions, cycles waited and held */
	char lock[64];
	uint64_t lock_acq, lock_con, lock_wait, lock_hold;
	/* of its wait, the call site that waited most (lock_stat's contention
	 * points): its symbol ("" if none) and its cycles */
	char lock_site[48];
	uint64_t lock_site_wait;
};

/* A lock class's lock_stat counts when the last row was taken. */
struct timeline_lock {
	const struct hw_lock_class *cls;
	uint64_t acq, con, wait, hold;
	uint64_t site_wait[LOCKSTAT_POINTS];	/* each contention point's */
};

struct run_timeline {
	uint64_t every;			/* cycles between rows; 0: no timeline */
	uint64_t next;			/* the next row is due at this time */
	struct timeline_row *rows;
	size_t nrows, cap;
	struct timeline_lock *locks;	/* every class's counts at the last row */
	size_t nlocks;
};

struct run;

/* Ask for a row every `every_us` simulated microseconds (0: none). */
void run_timeline_init(struct run_timeline *tl, uint64_t every_us, double ghz);

/* At the engine's tick: a row if one is due. */
void run_timeline_tick(struct run *r);

/* At the end of the run: its last row. */
void run_timeline_end(struct run *r);

void run_timeline_free(struct run_timeline *tl);

#endif
