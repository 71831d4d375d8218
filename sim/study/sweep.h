/* sweep.h - running an experiment's runs and keeping their results.
 *
 * A results folder holds experiment.json (the file as given), sweep.json
 * (its digest and the command line's overrides), runs.jsonl (one finished
 * run's JSON per line, appended whole as each finishes, with a "sweep"
 * member naming its run), summary.json, summary.csv and the plots. */
#ifndef SIM_SWEEP_H
#define SIM_SWEEP_H

#include <signal.h>
#include <stdbool.h>

#include <cjson/cJSON.h>

#include "run/experiment.h"

/* Called (in the process that writes the results) as each run finishes:
 * its JSON line, or NULL and why if the run crashed. */
typedef void (*sweep_done_fn)(void *ctx, int run, const char *line, const char *why);

/* Simulate run RUN of E here and return its JSON line (malloc'ed, no
 * newline); *failed says whether an invariant failed. NULL: bad input. */
char *sweep_run_one(const struct experiment *e, int run, bool *failed, struct sim_err *err);

/* Run TODO[0..n) in up to JOBS forked worker processes; results pass through
 * files in TMPDIR; a worker still running after TIMEOUT seconds (0: no
 * limit) is stopped and its run counted as failed. Returns the number of
 * runs that crashed or timed out. */
int sweep_local(const struct experiment *e, const int *todo, int n, int jobs, int timeout,
		const char *tmpdir, sweep_done_fn done, void *ctx);

/* Ctrl-C (SIGINT) or SIGTERM during sweep_local: it starts no more runs,
 * stops those going (they are not failures: --resume does them) and
 * returns; the signal is then in sweep_interrupted. */
extern volatile sig_atomic_t sweep_interrupted;
void sweep_catch_interrupts(void);

/* MPI: the number of ranks (1 without MPI or without mpirun), this rank. */
int sweep_mpi_init(int *argc, char ***argv, int *rank);
void sweep_mpi_finish(void);
/* Rank 0's decision to go on (or not), broadcast to every rank. */
bool sweep_mpi_agree(bool go);
/* Rank 0 hands out TODO to ranks 1..K-1 and collects their lines. */
int sweep_mpi_coordinate(const struct experiment *e, const int *todo, int n,
			 sweep_done_fn done, void *ctx);
/* Ranks 1..K-1: run what rank 0 hands out until it says stop. */
int sweep_mpi_work(const struct experiment *e);

/* The runs of DIR/runs.jsonl: runs[i] gets run i's JSON (or stays NULL),
 * pruned to what a summary reads when `prune`. A torn last line (a writer
 * killed mid-line) is cut off the file when `repair`; a line of another
 * experiment is an error. Returns how many. */
int runs_load(const char *path, const struct experiment *e, cJSON **runs, bool repair,
	      bool prune, struct sim_err *err);

/* Append one line (and its newline) with a single write. */
int runs_append(int fd, const char *line, struct sim_err *err);

/* Write summary.json, summary.csv and (unless no_plot) the plots of DIR
 * from its runs. Returns 0, or -1 with a message. */
int sweep_finish(const char *dir, const struct experiment *e, cJSON **runs, bool no_plot,
		 const char *format, struct sim_err *err);

/* mkdir -p DIR. */
int sweep_make_dirs(const char *dir, struct sim_err *err);

/* DIR/sweep.json and DIR/experiment.json: what a results folder came from. */
int sweep_write_meta(const char *dir, const struct experiment *e, const char *shard,
		     struct sim_err *err);
/* Load DIR's experiment as it was run (its file and overrides), expanded. */
int sweep_load_dir(const char *dir, struct experiment *e, struct sim_err *err);

#endif
