/* sweep_table.c - each point's main metric over its runs, as the table at
 * the end of a sweep shows it. */
#include "sweep_experiment.h"

#include <stdlib.h>
#include <string.h>

#include "report/summary.h"

void sweep_point_row(const struct experiment *e, cJSON *const *runs, int p, struct sweep_row *row)
{
	const struct exp_metric *m = &e->metric[0];
	double *x = calloc((size_t)e->replicates, sizeof(*x));
	int n = 0;
	experiment_short_key(e, &e->points[p], row->key, sizeof(row->key));
	for (int r = 0; r < e->replicates; r++) {
		const cJSON *run = runs[p * e->replicates + r];
		const char *inv = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(run,
										"invariants"));
		if (inv && !strcmp(inv, "ok") && summary_lookup(run, m->path, &x[n]) == 0)
			x[n++] *= m->scale;
	}
	struct stat_summary s;
	summary_stats(x, n, &s);
	row->n = n;
	row->mean = s.mean;
	row->ci95 = s.ci95;
	row->first = n > 0 ? x[0] : 0;
	row->second = n > 1 ? x[1] : 0;
	row->same = n > 1;
	for (int i = 1; i < n; i++)
		row->same = row->same && x[i] == x[0];
	free(x);
}
