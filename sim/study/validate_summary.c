/* validate_summary.c - validate's summary.json: each case with the runs it
 * took and its checks judged, the model and the fitted figures the runs were
 * made with, and the counts. */
#include <math.h>
#include <string.h>

#include "report/report.h"
#include "study/validate_int.h"

/* The model digest all the cases' done runs were made with, as
 * report_runs_model_digest() says it of one case ("mixed" across cases
 * that disagree). */
static const char *cases_model_digest(const struct validate_result *res)
{
	const char *seen = NULL;
	for (int i = 0; i < res->ncases; i++) {
		if (!res->runs[i])
			continue;
		const char *d = report_runs_model_digest(res->runs[i],
							 experiment_runs(&res->cases[i].e));
		if (seen && strcmp(seen, d))
			return "mixed";
		seen = d;
	}
	return seen ? seen : "unknown";
}

/* A check's figures: published, simulated and its error, the replicates, the 95% CI and
 * each replicate's value. */
static void add_row_figures(cJSON *j, const struct val_row *r)
{
	cJSON_AddNumberToObject(j, "published", r->ch->published);
	if (r->have) {
		cJSON_AddNumberToObject(j, "simulated", r->sim);
		cJSON_AddNumberToObject(j, "error", r->ratio - 1);
	} else {
		cJSON_AddNullToObject(j, "simulated");
		cJSON_AddNullToObject(j, "error");
	}
	cJSON_AddNumberToObject(j, "replicates", r->n);
	if (r->have_ci) {
		cJSON *ci = cJSON_AddArrayToObject(j, "ci95");
		cJSON_AddItemToArray(ci, cJSON_CreateNumber(r->lo));
		cJSON_AddItemToArray(ci, cJSON_CreateNumber(r->hi));
	} else {
		cJSON_AddNullToObject(j, "ci95");
	}
	if (r->nvalues) {
		cJSON *v = cJSON_AddArrayToObject(j, "values");
		for (int i = 0; i < r->nvalues; i++)
			cJSON_AddItemToArray(v, isnan(r->values[i]) ? cJSON_CreateNull()
					     : cJSON_CreateNumber(r->values[i]));
	}
}

/* One check's row for summary.json. */
static cJSON *row_json(const struct val_row *r)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "check", r->ch->name);
	add_row_figures(j, r);
	cJSON_AddStringToObject(j, "unit", r->ch->unit ? r->ch->unit : "");
	cJSON *band = cJSON_AddArrayToObject(j, "band");
	cJSON_AddItemToArray(band, cJSON_CreateNumber(r->ch->low));
	cJSON_AddItemToArray(band, cJSON_CreateNumber(r->ch->high));
	cJSON_AddStringToObject(j, "reason", r->ch->reason);
	cJSON_AddStringToObject(j, "verdict", !r->have ? "no value" : r->ch->informative ? "info"
				: r->pass ? "ok" : "fail");
	cJSON_AddStringToObject(j, "path", r->ch->path);
	if (r->ch->over_path)
		cJSON_AddStringToObject(j, "over_path", r->ch->over_path);
	cJSON_AddStringToObject(j, "top_lock", r->lock);
	cJSON_AddStringToObject(j, "top_symbol", r->sym);
	return j;
}

/* One case of summary.json: what it is, the runs it took and its checks (from ROWS). */
static cJSON *case_json(const struct val_case *vc, cJSON *const *runs, const struct val_row *rows)
{
	cJSON *c = cJSON_CreateObject();
	cJSON_AddStringToObject(c, "case", vc->name);
	cJSON_AddStringToObject(c, "family", vc->family);
	cJSON_AddStringToObject(c, "title", vc->title);
	cJSON_AddStringToObject(c, "citation", vc->citation);
	char digest[17];
	if (val_case_digest(vc->path, digest) == 0)
		cJSON_AddStringToObject(c, "case_digest", digest);
	int done = 0;
	for (int k = 0; runs && k < experiment_runs(&vc->e); k++)
		done += runs[k] != NULL;
	cJSON_AddNumberToObject(c, "runs", done);
	if (vc->e.ci_target > 0) {	/* runs is then what the target took */
		cJSON_AddNumberToObject(c, "ci_target", vc->e.ci_target);
		cJSON_AddNumberToObject(c, "runs_at_most", experiment_runs(&vc->e));
	}
	cJSON *ck = cJSON_AddArrayToObject(c, "checks");
	for (int k = 0; k < vc->nchecks; k++)
		cJSON_AddItemToArray(ck, row_json(&rows[k]));
	return c;
}

cJSON *val_summary_json(const struct validate_result *res)
{
	cJSON *sum = cJSON_CreateObject(), *jc = cJSON_AddArrayToObject(sum, "cases");
	for (int i = 0, r = 0; i < res->ncases; r += res->cases[i].nchecks, i++)
		cJSON_AddItemToArray(jc, case_json(&res->cases[i], res->runs[i], res->rows + r));
	cJSON_AddStringToObject(sum, "model_digest", cases_model_digest(res));
	char digest[17];
	struct sim_err err;
	cJSON *fit = validate_fitted(digest, &err);
	if (fit) {
		cJSON_AddItemToObject(sum, "fitted", fit);
		cJSON_AddStringToObject(sum, "fitted_digest", digest);
	}
	int judged = val_judged_rows(res->rows, res->nrows);
	cJSON_AddNumberToObject(sum, "checks", judged);
	cJSON_AddNumberToObject(sum, "passed", val_passed_rows(res->rows, res->nrows));
	if (res->nrows > judged)	/* printed beside, never judged */
		cJSON_AddNumberToObject(sum, "informative", res->nrows - judged);
	return sum;
}
