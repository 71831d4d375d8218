/* tune_grid.c - the tuner's grid of values over PARAM=LO..HI and the
 * experiment of the whole grid, written as a sweep would run it. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "study/sweep.h"
#include "study/tune.h"

/* PARAM=LO..HI into a grid of up to `want` values: geometric when HI/LO >=
 * 4, whole numbers unless a bound has a fraction (repeats dropped). */
int tune_make_grid(const char *range, char *param, size_t psize, double *v, int want)
{
	const char *eq = strchr(range, '='), *dots = eq ? strstr(eq, "..") : NULL;
	if (!eq || !dots || eq == range || (size_t)(eq - range) >= psize)
		return -1;
	snprintf(param, psize, "%.*s", (int)(eq - range), range);
	char lo_text[64], *end;
	if ((size_t)(dots - eq - 1) >= sizeof(lo_text) || dots == eq + 1)
		return -1;
	snprintf(lo_text, sizeof(lo_text), "%.*s", (int)(dots - eq - 1), eq + 1);
	double lo = strtod(lo_text, &end);	/* alone: strtod would take "4." of "4..64" */
	if (*end)
		return -1;
	double hi = strtod(dots + 2, &end);
	if (*end || !(hi > lo))
		return -1;
	bool geometric = lo > 0 && hi / lo >= 4;
	/* whole numbers unless a bound is written with a fraction */
	bool integer = !strpbrk(eq + 1, "eE") && !memchr(eq + 1, '.', (size_t)(dots - eq - 1)) &&
		       !strchr(dots + 2, '.');
	int n = 0;
	for (int i = 0; i < want; i++) {
		double f = want > 1 ? (double)i / (want - 1) : 0;
		double x = geometric ? lo * pow(hi / lo, f) : lo + (hi - lo) * f;
		if (integer)
			x = round(x);
		if (!n || x > v[n - 1])
			v[n++] = x;
	}
	return n;
}

/* The experiment of R's grid as JSON: one machine, policy and workload, O's
 * fixed parameters as the command line spells them, the grid as one axis. */
static cJSON *experiment_json(const struct tune_result *r, const struct tune_opts *o)
{
	cJSON *root = cJSON_CreateObject();
	char name[128];
	snprintf(name, sizeof(name), "tune-%s", r->param);
	cJSON_AddStringToObject(root, "name", name);
	cJSON_AddStringToObject(root, "question", "slabsim tune: the best value of the parameter");
	cJSON_AddItemToObject(root, "machines", cJSON_CreateStringArray(&o->machine, 1));
	cJSON_AddItemToObject(root, "policies", cJSON_CreateStringArray(&o->policy, 1));
	cJSON_AddItemToObject(root, "workloads", cJSON_CreateStringArray(&o->workload, 1));
	cJSON *fixed = cJSON_AddObjectToObject(root, "fixed");
	for (int i = 0; i < o->nassign; i++) {
		const char *eq = strchr(o->assign[i], '=');
		char key[128];
		snprintf(key, sizeof(key), "%.*s", (int)(eq - o->assign[i]), o->assign[i]);
		cJSON_AddStringToObject(fixed, key, eq + 1);
	}
	cJSON *axes = cJSON_AddArrayToObject(root, "axes");
	cJSON *ax = cJSON_CreateObject();
	cJSON_AddStringToObject(ax, "param", r->param);
	cJSON *vals = cJSON_AddArrayToObject(ax, "values");
	for (int i = 0; i < r->n; i++)
		cJSON_AddItemToArray(vals, cJSON_CreateNumber(r->p[i].value));
	cJSON_AddItemToArray(axes, ax);
	cJSON_AddNumberToObject(root, "replicates", o->max_replicates);
	report_add_u64(root, "seed", o->seed);
	return root;
}

/* DIR/experiment.json of R's grid, read back into r->e and expanded: the
 * runs of the search are this experiment's, so a sweep of it checks them. */
static int write_experiment(struct tune_result *r, const struct tune_opts *o,
			    struct sim_err *err)
{
	cJSON *root = experiment_json(r, o);
	char *text = cJSON_Print(root);
	cJSON_Delete(root);
	snprintf(r->experiment_path, sizeof(r->experiment_path), "%s/experiment.json", r->dir);
	FILE *f = fopen(r->experiment_path, "w");
	if (!f || fprintf(f, "%s\n", text) < 0 || fclose(f) != 0) {
		free(text);
		return sim_fail(err, "cannot write %s: %s", r->experiment_path, strerror(errno));
	}
	int rc = experiment_parse(&r->e, r->experiment_path, text, err);
	free(text);
	if (rc < 0 || experiment_expand(&r->e, err) < 0)
		return -1;
	return 0;
}

/* R's parameter, grid and results folder from O, the folder made and the
 * experiment written; -1 after a message. */
int tune_setup(struct tune_result *r, const struct tune_opts *o, struct sim_err *err)
{
	if (o->out && strlen(o->out) >= sizeof(r->dir))
		return sim_fail(err, "--out: a path of at most %zu characters", sizeof(r->dir) - 1);
	double vals[TUNE_MAX_GRID];
	r->n = tune_make_grid(o->range, r->param, sizeof(r->param), vals, o->grid);
	if (r->n < 2)
		return sim_fail(err, "'%s': expected PARAM=LO..HI with LO < HI and at least two "
				"values between", o->range);
	for (int i = 0; i < r->n; i++)
		r->p[i] = (struct tune_point){ .value = vals[i], .alive = true };
	if (o->out)
		snprintf(r->dir, sizeof(r->dir), "%s", o->out);
	else
		snprintf(r->dir, sizeof(r->dir), "out/tune-%s", r->param);
	if (sweep_make_dirs(r->dir, err) < 0 || write_experiment(r, o, err) < 0)
		return -1;
	return 0;
}
