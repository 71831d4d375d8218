/* sweep_opts.h - `slabsim sweep`'s command line, the experiment it names,
 * and the results folder it writes (created only once everything checks). */
#ifndef SIM_SWEEP_OPTS_H
#define SIM_SWEEP_OPTS_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "run/experiment.h"

struct sweep_opts {
	const char *file;
	const char **assign;
	int nassign;
	int jobs;
	int replicates;		/* 0: the file's */
	double ci_target;	/* --ci-target; 0: the file's */
	char out[4096];
	char tmpdir[4200];
	bool resume, force, no_plot;
	const char *shard;	/* "I/N" */
	int shard_i, shard_n;
	const char *format;
	int run_timeout;	/* seconds a run may take (--run-timeout), 0: no limit */
};

/* -1: go on; 0: help printed; 2: bad usage (message printed on rank 0). */
int sweep_parse_opts(int argc, char **argv, struct sweep_opts *o, const char *help);

/* Load, override and expand the experiment; pick the default --out. */
int sweep_prepare(struct sweep_opts *o, struct experiment *e, int rank, struct sim_err *err);

/* Make the results folder ready: refuse another experiment's, start it
 * again (--force) or keep its runs (--resume, loaded into runs[]), write its
 * record, and open runs.jsonl for appending (*fd). */
int sweep_open_dir(struct sweep_opts *o, const struct experiment *e, cJSON **runs, int *fd,
		   struct sim_err *err);

#endif
