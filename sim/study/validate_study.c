/* validate_study.c - a validation from start to end: the cases, the checks
 * made before any run (the fitted figures, --from's folder, the results
 * folder), each case's runs made, reloaded or shared with an earlier case
 * that judges the same runs, every check judged, and the results written. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/oom.h"
#include "report/report.h"
#include "study/sweep.h"
#include "study/validate_int.h"

/* Before any run: the fitted figures these runs are made with into DIGEST,
 * those of --from's runs the same, the results folder made. */
static int prepare(const struct validate_opts *o, char digest[17], struct sim_err *err)
{
	cJSON *fit = validate_fitted(digest, err);
	if (!fit)
		return -1;
	cJSON_Delete(fit);
	if (o->from && val_check_from_digest(o->from, digest, err) < 0)
		return -1;
	return sweep_make_dirs(o->out, err);
}

/* An earlier case (j < i) whose runs case i judges too (the same RUNS.jsonl),
 * or -1. */
static int same_runs(const struct val_case *cs, int i)
{
	for (int j = 0; j < i; j++)
		if (!strcmp(val_case_runs_name(&cs[j]), val_case_runs_name(&cs[i])))
			return j;
	return -1;
}

/* Case vc's runs as copies of another case's (the same experiment); 0: a
 * failed run among them was counted with that case. */
static int share_runs(const struct val_case *vc, cJSON *const *theirs, cJSON **runs)
{
	for (int r = 0; r < experiment_runs(&vc->e); r++)
		runs[r] = theirs[r] ? cJSON_Duplicate(theirs[r], true) : NULL;
	return 0;
}

/* Make (or load, or share) each case's runs into res->runs and judge every check into
 * res->rows; -1 with a message. */
static int judge_cases(const struct validate_opts *o, const char *digest,
		       struct validate_result *res, struct sim_err *err)
{
	struct val_case *cs = res->cases;
	for (int i = 0; i < res->ncases; i++) {
		res->runs[i] = xcalloc((size_t)experiment_runs(&cs[i].e) + 1, sizeof(**res->runs));
		int j = same_runs(cs, i), rc;
		if (j >= 0)	/* the runs of an earlier case: judged, not made again */
			rc = share_runs(&cs[i], res->runs[j], res->runs[i]);
		else
			rc = o->from ? val_runs_from(&cs[i], o, res->runs[i], err)
				     : val_runs_make(&cs[i], o, digest, res->runs[i], err);
		if (rc < 0)
			return -1;
		res->failed_runs += rc;
		for (int k = 0; k < cs[i].nchecks; k++)
			val_judge(&cs[i], &cs[i].checks[k], res->runs[i], &res->rows[res->nrows++]);
	}
	res->judged = true;
	return 0;
}

/* table.txt and summary.json (each whole or not at all), and the plot, whose failure is
 * kept in res->plot_error; then 0 if every judged check is inside its band and no run
 * failed, else 1; -1 with a message. */
static int write_results(const struct validate_opts *o, struct validate_result *res,
			 struct sim_err *err)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/table.txt", o->out);
	if (val_write_table(path, res, err) < 0)
		return -1;
	cJSON *sum = val_summary_json(res);
	snprintf(path, sizeof(path), "%s/summary.json", o->out);
	int rc = report_write_json(path, sum, err);
	cJSON_Delete(sum);
	if (rc < 0)
		return -1;
	struct sim_err plot_err;
	if (!o->no_plot && val_plot(o->out, res->rows, res->nrows, &plot_err) < 0)
		snprintf(res->plot_error, sizeof(res->plot_error), "%s", plot_err.msg);
	int judged = val_judged_rows(res->rows, res->nrows);
	return val_passed_rows(res->rows, res->nrows) == judged && !res->failed_runs ? 0 : 1;
}

int validate_cases(const struct validate_opts *o, struct validate_result *res,
		   struct sim_err *err)
{
	memset(res, 0, sizeof(*res));
	int n = validate_load_cases(o, &res->cases, err);
	if (n < 0)
		return -1;
	res->ncases = n;
	char digest[17];
	if (prepare(o, digest, err) < 0)
		return -1;
	int nchecks = 0;
	for (int i = 0; i < n; i++)
		nchecks += res->cases[i].nchecks;
	res->rows = xcalloc((size_t)nchecks + 1, sizeof(*res->rows));
	res->runs = xcalloc((size_t)n + 1, sizeof(*res->runs));
	if (judge_cases(o, digest, res, err) < 0)
		return -1;
	return write_results(o, res, err);
}

void validate_result_free(struct validate_result *res)
{
	for (int i = 0; i < res->ncases; i++) {
		for (int r = 0; res->runs && res->runs[i] && r < experiment_runs(&res->cases[i].e);
		     r++)
			cJSON_Delete(res->runs[i][r]);
		if (res->runs)
			free(res->runs[i]);
		val_case_free(&res->cases[i]);
	}
	free(res->runs);
	free(res->rows);
	free(res->cases);
	memset(res, 0, sizeof(*res));
}
