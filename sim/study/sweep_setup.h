/* sweep_setup.h - the steps before a sweep's runs: its experiment and its
 * results folder (sweep_experiment.c takes them in turn). */
#ifndef SIM_SWEEP_SETUP_H
#define SIM_SWEEP_SETUP_H

#include "engine/error.h"
#include "study/sweep_experiment.h"

/* Load, override and expand s->o's experiment into s->e, and name the
 * results folder (default out/NAME) and its workers' folder. */
int sweep_prepare(struct sweep *s, struct sim_err *err);

/* Make the results folder ready: refuse another experiment's, start it
 * again (force) or keep its runs (resume, loaded into s->runs), write its
 * record, and open runs.jsonl for appending (s->fd). */
int sweep_open_dir(struct sweep *s, struct sim_err *err);

#endif
