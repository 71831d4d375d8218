/* replicates.c - which replicates a point still needs (replicates.h). */
#include "replicates.h"
#include "summary.h"

#include <math.h>
#include <string.h>

/* Run `run`'s main metric into *x, if it finished with its invariants. */
static bool main_value(const struct experiment *e, const cJSON *run, double *x)
{
	const cJSON *inv = cJSON_GetObjectItemCaseSensitive(run, "invariants");
	if (!run || !cJSON_IsString(inv) || strcmp(inv->valuestring, "ok") ||
	    summary_lookup(run, e->metric[0].path, x) < 0)
		return false;
	*x *= e->metric[0].scale;
	return true;
}

/* The good runs of point p (their main metric in x) and the finished ones. */
static int point_values(const struct experiment *e, cJSON *const *runs, int p, double *x,
			int *finished)
{
	int n = 0, first = p * e->replicates;
	*finished = 0;
	for (int r = 0; r < e->replicates; r++) {
		*finished += runs[first + r] != NULL;
		n += main_value(e, runs[first + r], &x[n]);
	}
	return n;
}

/* Is the 95% CI of x[0..n) within `target` of its mean? */
static bool ci_within(const double *x, int n, double target)
{
	struct stat_summary s;
	if (n < REPLICATES_MIN)
		return false;
	summary_stats(x, n, &s);
	return s.ci95 <= target * fabs(s.mean);
}

bool replicates_settled(const struct experiment *e, cJSON *const *runs, int p)
{
	double x[e->replicates];
	int finished, n = point_values(e, runs, p, x, &finished);
	return finished == e->replicates || (e->ci_target > 0 && ci_within(x, n, e->ci_target));
}

int replicates_next(const struct experiment *e, cJSON *const *runs, bool *tried, int *todo)
{
	int count = 0;
	double x[e->replicates];
	for (int p = 0; p < e->npoints; p++) {
		int finished, n = point_values(e, runs, p, x, &finished), first = p * e->replicates;
		if (e->ci_target > 0 && ci_within(x, n, e->ci_target))
			continue;
		int want = e->ci_target <= 0 ? e->replicates
			: n < REPLICATES_MIN ? REPLICATES_MIN - n : 1;
		for (int r = 0; r < e->replicates && want > 0; r++)
			if (!tried[first + r] && !runs[first + r]) {
				tried[first + r] = true;
				todo[count++] = first + r;
				want--;
			}
	}
	return count;
}
