/* sweep_eta.c - the time a sweep has left, each run predicted from its
 * nearest finished relatives (sweep_eta.h). */
#include "sweep_eta.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hw/machine.h"

double sweep_eta_machine_weight(int ncpus)
{
	return pow(ncpus > 0 ? ncpus : 1, 0.25);
}

int sweep_eta_init(struct sweep_eta *eta, const struct experiment *e, struct sim_err *err)
{
	memset(eta, 0, sizeof(*eta));
	eta->npoints = e->npoints;
	eta->replicates = e->replicates;
	eta->point_machine = calloc((size_t)e->npoints + 1, sizeof(*eta->point_machine));
	eta->machine_weight = calloc((size_t)e->npoints + 1, sizeof(*eta->machine_weight));
	eta->state = calloc((size_t)experiment_runs(e) + 1, 1);
	const char **names = calloc((size_t)e->npoints + 1, sizeof(*names));
	if (!eta->point_machine || !eta->machine_weight || !eta->state || !names) {
		free(names);
		sweep_eta_free(eta);
		return sim_fail(err, "out of memory for the sweep's progress");
	}
	for (int p = 0; p < e->npoints; p++) {
		const char *name = experiment_machine(e, &e->points[p]);
		int m = 0;
		while (m < eta->nmachines && strcmp(names[m], name))
			m++;
		if (m == eta->nmachines) {	/* a machine not met before */
			struct machine mach;
			if (machine_load(&mach, name, err) < 0) {
				free(names);
				sweep_eta_free(eta);
				return -1;
			}
			eta->machine_weight[m] = sweep_eta_machine_weight(mach.ncpus);
			machine_free(&mach);
			names[eta->nmachines++] = name;
		}
		eta->point_machine[p] = m;
	}
	free(names);
	return 0;
}

void sweep_eta_free(struct sweep_eta *eta)
{
	free(eta->point_machine);
	free(eta->machine_weight);
	free(eta->state);
	memset(eta, 0, sizeof(*eta));
}

void sweep_eta_mark(struct sweep_eta *eta, int run, int state)
{
	if (run >= 0 && run < eta->npoints * eta->replicates)
		eta->state[run] = (char)state;
}

/* A run's result.wall_seconds; false if it has none. */
static bool run_wall(const cJSON *run, double *wall)
{
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(run, "result"), "wall_seconds");
	if (!cJSON_IsNumber(w) || !(w->valuedouble >= 0))
		return false;
	*wall = w->valuedouble;
	return true;
}

double sweep_eta_seconds(const struct sweep_eta *eta, cJSON *const *runs, int workers)
{
	int np = eta->npoints, nm = eta->nmachines;
	double *sum = calloc((size_t)(np + nm) + 1, sizeof(*sum));
	int *cnt = calloc((size_t)(np + nm) + 1, sizeof(*cnt));
	double scaled = 0, left = 0;
	int nscaled = 0, nleft = 0;
	if (!sum || !cnt) {
		free(sum);
		free(cnt);
		return -1;
	}
	/* sums by point (0..np) and by machine (np..np+nm) */
	for (int r = 0; r < np * eta->replicates; r++) {
		double w;
		if (!runs[r] || !run_wall(runs[r], &w))
			continue;
		int p = r / eta->replicates, m = eta->point_machine[p];
		sum[p] += w, cnt[p]++;
		sum[np + m] += w, cnt[np + m]++;
		scaled += w / eta->machine_weight[m], nscaled++;
	}
	for (int r = 0; nscaled && r < np * eta->replicates; r++) {
		if (eta->state[r] != 1 || runs[r])
			continue;
		int p = r / eta->replicates, m = eta->point_machine[p];
		left += cnt[p] ? sum[p] / cnt[p]
			: cnt[np + m] ? sum[np + m] / cnt[np + m]
			: scaled / nscaled * eta->machine_weight[m];
		nleft++;
	}
	free(sum);
	free(cnt);
	if (!nscaled)
		return -1;
	if (workers > nleft)
		workers = nleft;
	return workers > 0 ? left / workers : 0;
}
