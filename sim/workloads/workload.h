/* workload.h - what a workload provides: a parameter table, its own command
 * line as users type it (`hackbench 100 process 2000`), and a start function
 * that creates the simulated tasks. It never knows which policy runs. */
#ifndef SIM_WORKLOAD_H
#define SIM_WORKLOAD_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>

#include "engine/params.h"
#include "engine/steady.h"
#include "kernel/kernel.h"

struct workload_result {
	bool finished;		/* the workload ran to its end */
	double sim_seconds;	/* the time it measures itself */
	char line[128];		/* its own report line, e.g. "Time: 17.512" */
	char stopped[320];	/* why it stopped early, as the program would exit on an
				 * error (hackbench's barf()); "" if it did not */
	cJSON *extra;		/* workload-specific JSON fields (owned by the caller) */
	struct steady_outcome sample;	/* sample=: what was simulated, what extrapolated */
};

/* Published figures a workload prints beside its own lines (--compare),
 * found by the workload's own row keys. The layer above picks them (by the
 * run's policy), so a workload never learns which design ran. */
struct wl_published {
	const char *label;	/* shown beside each figure, e.g. "C2 slub" */
	/* The figures of row (`test`, `size`): alloc and free (a test of
	 * pairs: the pair in *alloc); false if there are none. */
	bool (*row)(const struct wl_published *p, int test, int size, double *alloc,
		    double *free_);
	int column;		/* which of its columns `row` reads */
};

struct workload {
	const char *name;
	const char *description;
	const char *usage;		/* the command line it accepts */
	const struct param_def *params;	/* ends with { NULL } */
	bool allocates_nothing;		/* no slab allocation: any policy will do (run's -p
					 * may be left out) */
	/* argv[1..argc-1] of -w 'name args...' into ps (as user values). */
	int (*parse_cmdline)(struct param_set *ps, int argc, char **argv, struct sim_err *err);
	int (*start)(struct kernel *k, const struct param_set *ps, void **state,
		     struct sim_err *err);
	void (*result)(void *state, struct workload_result *r);
	/* Its own invariants (every message delivered ...). */
	int (*check)(void *state, struct sim_err *err);
	/* Optional: its result as a gnuplot data file and a script drawing
	 * `path` (PNG) from `path`.dat; the report layer writes both beside the
	 * plot and runs gnuplot (a workload never runs it). */
	void (*plot)(void *state, FILE *dat, FILE *gp, const char *path);
	/* Optional: its own output lines (a kernel module's printk), printed
	 * after the result line; with `published` (--compare, else NULL), the
	 * published figures beside them. */
	void (*print)(void *state, FILE *out, const struct wl_published *published);
	/* What `--compare` compares with, or NULL if the workload has nothing. */
	const char *compare;
	/* Optional: units of work done so far and in the whole run, and what a
	 * unit is ("messages"), for progress on a terminal. */
	void (*progress)(const void *state, uint64_t *done, uint64_t *total, const char **unit);
	void (*destroy)(void *state);
};

extern const struct workload *const workloads[];
const struct workload *workload_find(const char *name);

#endif
