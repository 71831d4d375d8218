/* summary.h - a sweep's summary: per point and metric the mean, standard
 * deviation and 95% confidence interval (Student's t, from GSL) over the
 * replicates, written as summary.json and summary.csv. The summary depends
 * only on the runs' results and their numbers, never on the order they
 * finished in, so it is the same for every -j, MPI layout or shard split. */
#ifndef SIM_SUMMARY_H
#define SIM_SUMMARY_H

#include <cjson/cJSON.h>

#include "run/experiment.h"

struct stat_summary {
	int n;
	double mean, sd;	/* sd: sample standard deviation (n - 1) */
	double ci95;		/* half-width; 0 when n < 2 */
};

/* Mean, sd and t-based 95% CI half-width of x[0..n). */
void summary_stats(const double *x, int n, struct stat_summary *out);

/* "MEAN +- CI" with the CI to two significant digits and the mean to the
 * same decimal place ("2.464 +- 0.025"); a zero CI gives the mean to six
 * digits and "+- 0". Returns out. */
char *summary_format_ci(double mean, double ci, char *out, size_t size);

/* The number at PATH in a run's JSON: members by name, array elements by
 * index ("result.tests[0].alloc_cycles") or by the first element whose
 * members match ("result.tests[test=1,size=512].alloc_cycles",
 * "locks[name=slab_lock [kmalloc-512]].contentions"). */
int summary_lookup(const cJSON *run, const char *path, double *out);

/* Drop the parts of a run's JSON no summary reads (its caches, hardware
 * counters, parameters), unless a metric's path goes there: a sweep keeps
 * every run in memory. */
void summary_prune(cJSON *run, const struct experiment *e);

/* Build the summary of an experiment from its runs (runs[i] is run i's JSON,
 * NULL if it has not finished). */
cJSON *summary_build(const struct experiment *e, cJSON *const *runs);

/* summary.csv: one row per point, the labels then mean/sd/ci95 per metric. */
int summary_write_csv(const char *path, const cJSON *summary, struct sim_err *err);

#endif
