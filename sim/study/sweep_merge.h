/* sweep_merge.h - the results folders of one experiment's shards (job
 * array tasks, or sweeps on several machines) joined into one, with its
 * summary and plots. */
#ifndef SIM_SWEEP_MERGE_H
#define SIM_SWEEP_MERGE_H

#include <stdbool.h>

#include "engine/error.h"

/* The folders to join, and where to. */
struct sweep_merge_options {
	const char *const *dirs;	/* the shards' results folders, of one experiment */
	int ndirs;
	const char *out;		/* the merged folder */
	const char *format;		/* the plots: "png" or "svg" */
	bool no_plot;
};

/* What a merge found. */
struct sweep_merged {
	int runs;	/* the experiment's runs */
	int have;	/* of them, found in some folder */
	int failed;	/* of those, runs that broke an invariant */
};

/* Write O->out's runs.jsonl (every run found, once, in run order), its
 * record, summary and plots (plots only once every run is there); 0, or -1
 * with ERR (a folder not of a sweep, or of another experiment). */
int sweep_merge(const struct sweep_merge_options *o, struct sweep_merged *m, struct sim_err *err);

#endif
