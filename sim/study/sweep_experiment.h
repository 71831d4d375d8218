/* sweep_experiment.h - a whole sweep of an experiment: the file loaded with
 * its overrides, the results folder made ready (or resumed), the runs left
 * run in worker processes or over MPI ranks, each appended to runs.jsonl as
 * it ends, then the summary and the plots. It prints nothing: what it has to
 * say as it goes reaches the caller through hooks, and what stopped it
 * through a struct sim_err. */
#ifndef SIM_SWEEP_EXPERIMENT_H
#define SIM_SWEEP_EXPERIMENT_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "engine/error.h"
#include "run/experiment.h"
#include "study/sweep_eta.h"

/* What to sweep, where to, and how. */
struct sweep_options {
	const char *file;		/* the experiment file */
	const char *const *assign;	/* NAME=VALUE overrides of every run */
	int nassign;
	int replicates;			/* 0: the file's */
	double ci_target;		/* 0: the file's, or with resume the folder's */
	const char *out;		/* the results folder; NULL or "": out/NAME */
	int jobs;			/* worker processes running at a time */
	int run_timeout;		/* seconds a run may take; 0: no limit */
	bool resume;			/* keep the folder's finished runs, do the rest */
	bool force;			/* start the folder again, dropping its runs */
	bool no_plot;			/* write the summary but no plots */
	const char *shard;		/* "I/N": only runs with number % shard_n == shard_i */
	int shard_i, shard_n;
	const char *format;		/* the plots: "png" or "svg" */
	int rank, nranks;		/* this MPI rank and how many (sweep_mpi_init); 0: no MPI */
};

/* A run that ended, as sweep_hooks.run_ended reports it. */
struct sweep_run_end {
	int run, replicate;		/* replicate -1: a negative run (a malformed MPI message) */
	const char *key;		/* its point's short key, "?" if unknown */
	const char *why;		/* it left no result: why; NULL if it left one */
	const char *crash_log_unwritten; /* crashed.jsonl, when its line could not be written */
	const char *broken;		/* its invariants when not "ok" ("?" if absent) */
	const char *line;		/* its result's one-line summary ("" if none) */
	int finished, total;		/* runs ended so far, of the sweep's (those resumed too) */
	double eta;			/* seconds until the rest are done */
};

struct sweep;

/* What a sweep reports as it goes, to ctx; any hook may be NULL. */
struct sweep_hooks {
	/* The runs to start with are known (s->ntodo); none has started. */
	void (*planned)(void *ctx, const struct sweep *s);
	/* A run ended, with a result or without one (r->why). */
	void (*run_ended)(void *ctx, const struct sweep *s, const struct sweep_run_end *r);
	/* SIGINT or SIGTERM stopped the runs (s->interrupted); the summary comes next. */
	void (*interrupted)(void *ctx, const struct sweep *s);
	void *ctx;
};

/* A sweep under way or ended: its experiment, its runs, how it went. */
struct sweep {
	const struct sweep_options *o;
	const struct sweep_hooks *hooks;
	struct experiment e;	/* loaded, overridden and expanded */
	cJSON **runs;		/* by run number: its JSON pruned to what a summary reads, or NULL */
	char dir[4096];		/* the results folder */
	char tmpdir[4200];	/* where worker processes leave their results */
	int ntodo;		/* runs of the round under way */
	int workers;		/* runs going at once: jobs, or the MPI ranks working */
	int done_before;	/* runs found finished in the folder (resume) */
	int done, failed;	/* runs ended in this sweep, and those of them that failed */
	int total;		/* done_before plus every run handed out so far */
	int interrupted;	/* the signal that stopped the sweep, 0 if none */
	int *todo;		/* the runs of the round under way */
	bool *tried;		/* by run number: handed out (for a CI target's rounds) */
	int fd;			/* runs.jsonl, open for appending; -1 when closed */
	double t0;		/* the host's monotonic clock when the runs started */
	bool write_failed;	/* a line could not be appended: write_err says why */
	struct sim_err write_err;
	struct sweep_eta eta;	/* the time left, from the runs ended */
};

/* How a sweep ended. */
enum sweep_end {
	SWEEP_REFUSED = -1,	/* bad input (or rank 0 found it bad): nothing ran; err says why */
	SWEEP_FINISHED,		/* the runs ended or were interrupted; the summary is written */
	SWEEP_UNSAVED,		/* a run's line could not be appended to runs.jsonl; err says why */
	SWEEP_NO_SUMMARY,	/* the summary or the plots could not be written; err says why */
};

/* Sweep O's experiment into its results folder, telling HOOKS as it goes;
 * S holds it all afterwards (free it with sweep_free whatever the end). On
 * an MPI rank other than 0 it runs what rank 0 hands out and keeps nothing. */
enum sweep_end sweep_experiment(const struct sweep_options *o, const struct sweep_hooks *hooks,
				struct sweep *s, struct sim_err *err);
void sweep_free(struct sweep *s);

/* Point p's main metric over its good runs, as a table shows it. */
struct sweep_row {
	char key[512];		/* the point's short key */
	int n;			/* good runs with the metric */
	double mean, ci95;	/* scaled to the metric's unit */
	double first, second;	/* the first two runs' values */
	bool same;		/* more than one run, all alike: no seed changed it */
};
void sweep_point_row(const struct experiment *e, cJSON *const *runs, int p, struct sweep_row *row);

#endif
