/* validate_table.c - validate's table: a row per check (published,
 * simulated, its 95% CI, error, band, verdict, top lock and symbol) and a
 * line that counts the checks inside their bands and names the cases
 * outside; printed, and kept as table.txt. */
#include <math.h>
#include <stdio.h>

#include "report/outfile.h"
#include "study/validate_int.h"

/* A number for the table: whole from 100, one decimal from 10, else 3 significant digits;
 * "-" for NAN. */
static void fmt_num(double x, char *out, size_t size)
{
	if (isnan(x))
		snprintf(out, size, "-");
	else if (fabs(x) >= 100)
		snprintf(out, size, "%.0f", x);
	else if (fabs(x) >= 10)
		snprintf(out, size, "%.1f", x);
	else
		snprintf(out, size, "%.3g", x);
}

/* One check's table row. */
static void print_row(FILE *f, const struct val_row *r)
{
	char pub[32], sim[32], err[32], band[48], lo[32], hi[32], ci[72];
	fmt_num(r->ch->published, pub, sizeof(pub));
	fmt_num(r->sim, sim, sizeof(sim));
	fmt_num(r->lo, lo, sizeof(lo));
	fmt_num(r->hi, hi, sizeof(hi));
	snprintf(ci, sizeof(ci), "%s..%s", lo, hi);
	if (r->have)
		snprintf(err, sizeof(err), "%+.0f%%", 100 * (r->ratio - 1));
	else
		snprintf(err, sizeof(err), "-");
	if (r->ch->high >= 100)	/* an ordering: bounded below only */
		snprintf(band, sizeof(band), ">= %+.0f%%", 100 * (r->ch->low - 1));
	else
		snprintf(band, sizeof(band), "%+.0f..%+.0f%%", 100 * (r->ch->low - 1),
			 100 * (r->ch->high - 1));
	fprintf(f, "%-4s %-30.30s %9s %9s %-15s %-6s %7s %-13s %-4s  %-30.30s %s\n", r->vc->name,
		r->ch->name, pub, sim, r->have_ci ? ci : "-", r->ch->unit ? r->ch->unit : "", err,
		band,
		!r->have ? "NONE" : r->ch->informative ? "info" : r->pass ? "ok" : "FAIL", r->lock,
		r->sym);
}

int val_judged_rows(const struct val_row *rows, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += !rows[i].ch->informative;
	return k;
}

int val_passed_rows(const struct val_row *rows, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += rows[i].pass && !rows[i].ch->informative;
	return k;
}

/* The judged rows outside their band whose 95% CI reaches into it. */
static int reaching_rows(const struct val_row *rows, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++) {
		const struct val_row *r = &rows[i];
		k += !r->ch->informative && r->have && !r->pass && r->have_ci &&
		     r->hi / r->ch->published >= r->ch->low && r->lo / r->ch->published <= r->ch->high;
	}
	return k;
}

/* The table's last line: the count inside the bands, the cases outside (each once, with
 * how many of its checks), the CIs that reach into their band, the failed runs. */
static void print_total(FILE *f, const struct val_row *rows, int n, int failed_runs)
{
	int pass = val_passed_rows(rows, n), judged = val_judged_rows(rows, n);
	int reach = reaching_rows(rows, n);
	fprintf(f, "%d of %d checks inside their bands", pass, judged);
	for (int i = 0, said = 0; i < n; i++) {
		if (i && rows[i - 1].vc == rows[i].vc)
			continue;
		int out = 0;
		for (int j = i; j < n && rows[j].vc == rows[i].vc; j++)
			out += !rows[j].pass && !rows[j].ch->informative;
		if (out)
			fprintf(f, out > 1 ? "%s%s (%d)" : "%s%s", said++ ? ", " : "; outside: ",
				rows[i].vc->name, out);
	}
	if (reach)
		fprintf(f, "; the 95%% CI of %d of the %d outside reaches into the band", reach,
			judged - pass);
	if (failed_runs)
		fprintf(f, "; %d case%s had a failed run", failed_runs, failed_runs > 1 ? "s" : "");
	fprintf(f, "\n");
}

int validate_print_table(FILE *f, const struct validate_result *res)
{
	fprintf(f, "%-4s %-30s %9s %9s %-15s %-6s %7s %-13s %-4s  %-30s %s\n", "case", "check",
		"published", "simulated", "95% CI", "unit", "error", "band", "",
		"top lock (wait)", "top symbol");
	for (int i = 0; i < res->nrows; i++)
		print_row(f, &res->rows[i]);
	print_total(f, res->rows, res->nrows, res->failed_runs);
	return val_passed_rows(res->rows, res->nrows);
}

int val_write_table(const char *path, const struct validate_result *res, struct sim_err *err)
{
	struct out_file of;
	FILE *f = out_open(&of, path, err);
	if (!f)
		return -1;
	validate_print_table(f, res);
	return out_close(&of, true, err);
}
