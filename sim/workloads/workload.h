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
	cJSON *extra;		/* workload-specific JSON fields (owned by the caller) */
	struct steady_outcome sample;	/* sample=: what was simulated, what extrapolated */
};

struct workload {
	const char *name;
	const char *description;
	const char *usage;		/* the command line it accepts */
	const struct param_def *params;	/* ends with { NULL } */
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
	 * after the result line; with `compare`, published figures beside them. */
	void (*print)(void *state, FILE *out, bool compare);
	/* What `--compare` compares with, or NULL if the workload has nothing. */
	const char *compare;
	void (*destroy)(void *state);
};

extern const struct workload *const workloads[];
const struct workload *workload_find(const char *name);

#endif
