/* run_diff.h - two runs' JSON side by side with the deltas, like perf diff:
 * the workload's figure, CPU shares, memory, the scheduler, each cache's
 * geometry and statistics, the lock table and the profile, the largest
 * changes first (`slabsim diff`). */
#ifndef SIM_RUN_DIFF_H
#define SIM_RUN_DIFF_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>

/* Plain columns for a terminal, or Markdown tables for a mailing-list post. */
enum diff_format { DIFF_TEXT, DIFF_MARKDOWN };

struct diff_opts {
	enum diff_format format;
	int limit;		/* rows of each ranked table (0: all) */
	const char *name_a, *name_b;	/* how the two runs are named */
};

/* Print run `a` against run `b` (each a run's JSON, docs/json.md). */
void run_diff_print(FILE *out, const cJSON *a, const cJSON *b, const struct diff_opts *o);

/* The value of NAME in a run's JSON as text, for picking runs of a results
 * folder: machine, policy, workload, seed, replicate (a sweep's), or any
 * kernel, policy or workload parameter; false if the run has no such name. */
bool run_diff_param(const cJSON *run, const char *name, char *buf, size_t size);

#endif
