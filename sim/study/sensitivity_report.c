/* sensitivity_report.c - a sensitivity study's results: a table a check
 * (its top figures, their effects and CIs, mu* and sigma with a Morris
 * screening), sensitivity.json with every effect, and a tornado plot a check. */
#include "sensitivity.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/oom.h"
#include "report/gnuplot.h"
#include "report/report.h"

static const char *const origin_name[] = { "measured", "estimate", "fitted" };

/* The order of S's figures by their effect on check CH (sens_rank), malloc'd. */
static int *ranked(const struct sens_study *s, int ch)
{
	int *order = malloc((size_t)(s->nf + 1) * sizeof(*order));
	if (!order)
		host_oom(__func__);
	sens_rank(s, ch, order);
	return order;
}

/* One row of a check's table: figure I's range, its effects and CI, and
 * with a Morris screening its mu* and sigma. */
static void print_row(FILE *f, const struct sens_study *s, int i, int ch)
{
	int nc = s->vc.nchecks;
	struct sens_effect e = sens_effect_at(s, i, ch);
	char name[200], range[40], ci[24] = "";
	snprintf(name, sizeof(name), "%s:%s", s->f[i].machine, s->f[i].name);
	snprintf(range, sizeof(range), "%g..%g", s->f[i].lo, s->f[i].hi);
	if (isfinite(e.half))
		snprintf(ci, sizeof(ci), " +-%.1f", 100 * e.half);
	fprintf(f, "  %-46s %17s %+7.1f%% %+7.1f%% %+7.1f%%%-*s", name, range, 100 * e.low,
		100 * e.high, 100 * e.effect, s->mu_star ? 8 : 0, ci);
	if (s->mu_star)
		fprintf(f, " %7.1f%% %7.1f%%", 100 * s->mu_star[i * nc + ch],
			100 * s->sigma[i * nc + ch]);
	fputc('\n', f);
}

/* The table of check CH: its value, then its LIMIT top figures. */
static void print_check(FILE *f, const struct sens_study *s, int limit, int ch)
{
	int n = limit && limit < s->nf ? limit : s->nf;
	const struct val_check *k = &s->vc.checks[ch];
	int *order = ranked(s, ch);
	fprintf(f, "\n%s: %s: %g %s at the figures' values (published %g)\n", s->vc.name,
		k->name, s->vals[ch].mean, k->unit, k->published);
	fprintf(f, "  %-46s %17s %8s %8s %16s%s\n", "figure", "range", "low", "high",
		"effect (95% CI)", s->mu_star ? "      mu*    sigma" : "");
	for (int j = 0; j < n; j++)
		print_row(f, s, order[j], ch);
	free(order);
}

void sens_print_tables(FILE *f, const struct sens_study *s, int limit)
{
	fprintf(f, "sensitivity of %s to %d figures (low and high: the check's change with the "
		"figure at that end of its range; effect: high minus low; shares of the "
		"check's value at the figures' values%s)\n", s->vc.name, s->nf,
		s->mu_star ? "; mu*, sigma: Morris, for a move across the whole range" : "");
	for (int ch = 0; ch < s->vc.nchecks; ch++)
		print_check(f, s, limit, ch);
}

/* A number, or null when it is not finite. */
static void add_num(cJSON *o, const char *key, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

/* The JSON of figure F: its value, its two ends and where its range comes from. */
static cJSON *json_figure(const struct sens_figure *f)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "machine", f->machine);
	cJSON_AddStringToObject(o, "name", f->name);
	cJSON_AddNumberToObject(o, "value", f->value);
	cJSON_AddNumberToObject(o, "low", sens_at(f, 0));
	cJSON_AddNumberToObject(o, "high", sens_at(f, 1));
	cJSON_AddStringToObject(o, "origin", origin_name[f->origin]);
	cJSON_AddBoolToObject(o, "range_given", f->range_given);
	return o;
}

/* The JSON of figure I's effect on check CH (with Morris' measures if any). */
static cJSON *json_effect(const struct sens_study *s, int i, int ch)
{
	int nc = s->vc.nchecks;
	struct sens_effect e = sens_effect_at(s, i, ch);
	cJSON *x = cJSON_CreateObject();
	char fig[200];
	snprintf(fig, sizeof(fig), "%s:%s", s->f[i].machine, s->f[i].name);
	cJSON_AddStringToObject(x, "figure", fig);
	add_num(x, "low", e.low);
	add_num(x, "high", e.high);
	add_num(x, "effect", e.effect);
	add_num(x, "ci95_half", e.half);
	if (s->mu_star) {
		add_num(x, "mu_star", s->mu_star[i * nc + ch]);
		add_num(x, "mu", s->mu[i * nc + ch]);
		add_num(x, "sigma", s->sigma[i * nc + ch]);
	}
	return x;
}

/* The JSON of check CH: its base value and CI, and every figure's effect. */
static cJSON *json_check(const struct sens_study *s, int ch)
{
	cJSON *o = cJSON_CreateObject(), *eff;
	cJSON_AddStringToObject(o, "check", s->vc.checks[ch].name);
	add_num(o, "base", s->vals[ch].mean);
	add_num(o, "base_ci95_half", s->vals[ch].half);
	eff = cJSON_AddArrayToObject(o, "effects");
	for (int i = 0; i < s->nf; i++)
		cJSON_AddItemToArray(eff, json_effect(s, i, ch));
	return o;
}

int sens_write_json(const struct sens_study *s, struct sim_err *err)
{
	cJSON *root = cJSON_CreateObject(), *figs = cJSON_AddArrayToObject(root, "figures");
	cJSON_AddStringToObject(root, "case", s->vc.name);
	cJSON_AddStringToObject(root, "model_digest", report_model_digest());
	for (int i = 0; i < s->nf; i++)
		cJSON_AddItemToArray(figs, json_figure(&s->f[i]));
	cJSON *checks = cJSON_AddArrayToObject(root, "checks");
	for (int ch = 0; ch < s->vc.nchecks; ch++)
		cJSON_AddItemToArray(checks, json_check(s, ch));
	char path[600], *text = cJSON_Print(root);
	snprintf(path, sizeof(path), "%s/sensitivity.json", s->out);
	FILE *f = fopen(path, "w");
	int rc = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF ? 0 : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	free(text);
	cJSON_Delete(root);
	return rc < 0 ? sim_fail(err, "cannot write %s: %s", path, strerror(errno)) : 0;
}

/* A string as a gnuplot double-quoted string's contents. */
static void gp_quote(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* The tornado's data: the N top figures of check CH, the largest last
 * (gnuplot draws it on top); the widest change, 0 if none moves it. */
static double tornado_data(FILE *d, const struct sens_study *s, int n, int ch)
{
	int *order = ranked(s, ch);
	double widest = 0;
	fprintf(d, "# figure, change (%%) at its low end, at its high end\n");
	for (int j = n - 1; j >= 0; j--) {
		const struct sens_figure *f = &s->f[order[j]];
		struct sens_effect e = sens_effect_at(s, order[j], ch);
		fprintf(d, "\"%s:%s\" %g %g\n", f->machine, f->name, 100 * e.low, 100 * e.high);
		widest = fmax(widest, fmax(fabs(e.low), fabs(e.high)));
	}
	free(order);
	return widest;
}

/* The tornado's gnuplot script of check CH with N figures: a row a figure, its
 * low end's bar above its high end's, so that neither hides the other. */
static void tornado_script(FILE *g, const struct sens_study *s, int n, int ch, double widest)
{
	fprintf(g, "# slabsim sensitivity: re-run with gnuplot tornado-%d.gp in this folder\n"
		"set terminal pngcairo size 1000,%d\nset output 'tornado-%d.png'\n"
		"set termoption noenhanced\nset title \"%s: ", ch + 1, 200 + 34 * n, ch + 1,
		s->vc.name);
	gp_quote(g, s->vc.checks[ch].name);
	fprintf(g, " (%g %s at the figures' values%s)\"\n%s", s->vals[ch].mean,
		s->vc.checks[ch].unit, widest > 0 ? "" : "; no figure moves it",
		widest > 0 ? "" : "set xrange [-1:1]\n");
	fprintf(g, "set xlabel 'change of the check (%%)'\n"
		"set grid xtics\nset key below center horizontal\nset yrange [-0.6:%d]\n"
		"set xzeroaxis\nset style fill solid 0.75 border -1\n"
		"plot 'tornado-%d.dat' using (0):0:($2<0?$2:0):($2<0?0:$2):($0):($0+0.35):"
		"ytic(1) with boxxyerror lc rgb '#1f77b4' title 'figure at the low end', \\\n"
		"     '' using (0):0:($3<0?$3:0):($3<0?0:$3):($0-0.35):($0) with boxxyerror "
		"lc rgb '#ff7f0e' title 'at the high end'\n", n, ch + 1);
}

int sens_plot_tornado(const struct sens_study *s, int ch, struct sim_err *err)
{
	int n = s->nf < 12 ? s->nf : 12;
	char path[600];
	snprintf(path, sizeof(path), "%s/tornado-%d", s->out, ch + 1);
	FILE *d = plot_open(path, "dat", err), *g = d ? plot_open(path, "gp", err) : NULL;
	if (!g) {
		if (d)
			fclose(d);
		return -1;
	}
	double widest = tornado_data(d, s, n, ch);
	fclose(d);
	tornado_script(g, s, n, ch, widest);
	fclose(g);
	snprintf(path, sizeof(path), "tornado-%d.gp", ch + 1);
	return plot_run_in(s->out, path, err);
}
