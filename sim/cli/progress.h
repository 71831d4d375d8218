/* progress.h - `slabsim run`'s progress line on a terminal: the simulated
 * time, the workload's units done out of its total and an ETA, on stderr a
 * few times a second, erased when the run ends. */
#ifndef SIM_CLI_PROGRESS_H
#define SIM_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

#include "run/run_core.h"

struct cli_progress {
	FILE *out;		/* the terminal (stderr) */
	double printed_at;	/* wall seconds of the last line, 0: none yet */
};

/* Whether `out` is a terminal a progress line may go to. */
bool cli_progress_wanted(FILE *out);

/* A run_config progress callback; arg is a struct cli_progress. */
void cli_progress_show(const struct run_progress *p, void *arg);

#endif
