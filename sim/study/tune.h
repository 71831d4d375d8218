/* tune.h - the best value of one parameter over a range, by successive
 * halving over replicates: every value of the grid runs 2 replicates; each
 * round keeps the better half of the values, and those within the best
 * one's 95% confidence interval, and gives them twice the replicates, until
 * one value is left, the replicates reach their maximum or the budget of
 * runs is spent. The runs are a sweep's runs of the same experiment (the
 * same seeds), so `slabsim sweep DIR/experiment.json` checks the answer.
 * Messages of bad options name them as `slabsim tune` spells them. */
#ifndef SIM_TUNE_H
#define SIM_TUNE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "run/experiment.h"

#define TUNE_MAX_GRID 32
#define TUNE_MAX_REPLICATES 64

enum tune_objective {
	TUNE_TIME,	/* the simulated time */
	TUNE_MEMORY,	/* the peak slab memory */
	TUNE_PARETO,	/* every value to every replicate: time against memory */
};

/* One value of the grid and its replicates. */
struct tune_point {
	double value;
	int reps;	/* replicates run */
	double t[TUNE_MAX_REPLICATES], mem[TUNE_MAX_REPLICATES];	/* time (s), peak slab (MB) */
	bool alive;	/* still in the search */
	double mean, ci;	/* of the objective (time, or memory); ci: 95% half-width */
	double mem_mean;	/* of the peak slab memory, whatever the objective */
};

/* What the search reports as it goes, for a progress display; any may be NULL. */
struct tune_progress {
	/* the grid is built: about to run param over values[0..n) */
	void (*started)(void *ctx, const char *param, int n, double lo, double hi);
	/* run RUN (replicate REP of PARAM=VALUE) failed, and why */
	void (*run_failed)(void *ctx, int run, const char *param, double value, int rep,
			   const char *why);
	/* round ROUND ran RUNS runs; LEFT values are still in the search */
	void (*round_done)(void *ctx, int round, int runs, int left);
	void *ctx;
};

struct tune_opts {
	const char *machine, *policy, *workload;
	const char *range;		/* "PARAM=LO..HI": the parameter searched */
	const char *const *assign;	/* NAME=VALUE parameters fixed for every run */
	int nassign;
	enum tune_objective objective;
	int budget;		/* runs at most */
	int grid;		/* values in the range (2..TUNE_MAX_GRID) */
	int max_replicates;	/* of a value (2..TUNE_MAX_REPLICATES) */
	int jobs;		/* runs at a time */
	unsigned long long seed;
	const char *out;	/* the results folder; NULL: out/tune-PARAM */
	struct tune_progress progress;
};

struct tune_result {
	char param[64];
	char dir[2048];			/* experiment.json and runs.jsonl are here */
	char experiment_path[PATH_MAX];	/* DIR/experiment.json: the grid as a sweep */
	struct experiment e;
	struct tune_point p[TUNE_MAX_GRID];	/* the grid, lowest value first */
	int n;
	int runs_used, rounds;
	int failed;		/* runs that failed: then there is no best */
	const struct tune_point *best, *knee;	/* NULL when nothing ran */
};

/* Search O's range: write DIR/experiment.json, run the rounds (each run's
 * JSON line appended to DIR/runs.jsonl), rank the values. NULL after a
 * message in ERR for bad options or input; failed runs are counted in
 * ->failed. Free the result with tune_result_free. */
struct tune_result *tune_run(const struct tune_opts *o, struct sim_err *err);
void tune_result_free(struct tune_result *r);

/* R's parameter, grid (all alive, none run) and results folder from O, the
 * folder made and DIR/experiment.json written and read back into r->e; -1
 * after a message. */
int tune_setup(struct tune_result *r, const struct tune_opts *o, struct sim_err *err);

/* PARAM=LO..HI into PARAM and a grid V of up to WANT values: geometric when
 * HI/LO >= 4, whole numbers unless a bound has a fraction, repeats dropped.
 * Returns how many values, or -1 if RANGE is no such range. */
int tune_make_grid(const char *range, char *param, size_t psize, double *v, int want);

/* P's mean and 95% CI of its objective from its replicates, and its mean
 * peak slab memory. */
void tune_point_stats(struct tune_point *p, bool memory);

/* One round's cut of the alive points of P[0..n): keep the better half, and
 * from 4 replicates those within the best's 95% CI. Returns how many are left. */
int tune_halve(struct tune_point *p, int n, bool memory);

/* The point of P[0..n) with the lowest mean among those run (and alive). */
const struct tune_point *tune_best(const struct tune_point *p, int n, bool alive_only);

/* The knee: the smallest value run whose mean is within BEST's 95% CI. */
const struct tune_point *tune_knee(const struct tune_point *p, int n,
				   const struct tune_point *best);

/* Whether X is on the front of time against peak slab memory among the
 * points run of P[0..n): no other is at least as fast and as small and
 * better in one. */
bool tune_on_front(const struct tune_point *p, int n, const struct tune_point *x);

#endif
