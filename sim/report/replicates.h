/* replicates.h - replicates where they are needed. With an experiment's
 * ci_target, a point adds seeds (replicates 0, 1, 2, ... in order) until
 * the 95% confidence interval of its main metric is within ci_target of its
 * mean, or it has `replicates` of them; without one, every point runs
 * `replicates` times. The decisions read only the finished runs, so they are
 * the same whatever order the runs finished in. */
#ifndef SIM_REPLICATES_H
#define SIM_REPLICATES_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "run/experiment.h"

/* A CI needs two values: a point with a target runs at least this many. */
#define REPLICATES_MIN 2

/* Is point p done: every replicate finished, or (with a ci_target) at
 * least REPLICATES_MIN good runs whose main metric's 95% CI half-width is
 * within ci_target of the mean? runs[i] is run i's JSON, NULL if not done. */
bool replicates_settled(const struct experiment *e, cJSON *const *runs, int p);

/* The runs to start next, into todo (room for experiment_runs(e)), marked
 * in `tried` (what was handed out before, finished or not): for each point
 * not settled, its first replicates not yet tried: all of them without a
 * ci_target, else enough to reach REPLICATES_MIN good runs, or one more.
 * Returns how many; 0 when every point is settled or has tried every
 * replicate. */
int replicates_next(const struct experiment *e, cJSON *const *runs, bool *tried, int *todo);

#endif
