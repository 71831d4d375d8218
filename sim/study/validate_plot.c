/* validate_plot.c - validation.png: simulated against published, log-log,
 * one panel per family of cases (their units differ), each band a vertical
 * bar, beside it the 95% confidence interval over the seeds where there is
 * one, the checks outside their band marked, and the y = x line. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/gnuplot.h"
#include "study/validate_int.h"

/* Families a plot has panels for, at most. */
#define VAL_MAX_FAMILIES 64

/* One family's block of validation.dat (its judged rows: published,
 * simulated, band, CI, outside) and the range its panel must show. */
static void plot_family(FILE *f, const char *fam, const struct val_row *rows, int n, double *lo,
			double *hi)
{
	*lo = INFINITY;
	*hi = 0;
	fprintf(f, "# family %s: published simulated band_low band_high ci_low ci_high outside\n",
		fam);
	for (int i = 0; i < n; i++) {
		const struct val_row *r = &rows[i];
		double p = r->ch->published;
		if (strcmp(r->vc->family, fam) || !r->have || !(r->sim > 0) || r->ch->informative)
			continue;
		double cl = r->have_ci && r->lo > 0 ? r->lo : r->sim;
		double ch = r->have_ci ? r->hi : r->sim;
		/* an ordering (bounded below only) is drawn up to just past what it holds */
		double bh = r->ch->high >= 100 ? fmax(2 * p, 1.5 * ch) : p * r->ch->high;
		*lo = fmin(*lo, p * r->ch->low);
		*hi = fmax(*hi, bh);
		fprintf(f, "%.6g %.6g %.6g %.6g %.6g %.6g %d\n", p, r->sim, p * r->ch->low, bh, cl,
			ch, !r->pass);
		*lo = fmin(*lo, cl);
		*hi = fmax(*hi, ch);
	}
	fprintf(f, "\n\n");
}

/* validation.gp: a log-log panel a family, in a near-square grid. */
static void plot_script(FILE *g, const char *const *fam, int nfam, const double *lo,
			const double *hi)
{
	int cols = 1;
	while (cols * cols < nfam)
		cols++;
	int nrows = (nfam + cols - 1) / cols;
	fprintf(g, "set terminal pngcairo size %d,%d\nset output 'validation.png'\n"
		"set multiplot layout %d,%d title 'slabsim validate: simulated against published "
		"(blue: acceptance bands; orange, beside: 95%% CI over the seeds; red x: outside its "
		"band)'\n"
		"set logscale xy\nset format x '%%g'\nset format y '%%g'\n"
		"set xlabel 'published'\nset ylabel 'simulated'\nunset key\n",
		420 * cols, 360 * nrows, nrows, cols);
	for (int k = 0; k < nfam; k++) {
		double a = hi[k] > 0 ? lo[k] / 1.5 : 1, b = hi[k] > 0 ? hi[k] * 1.5 : 10;
		fprintf(g, "set title '%s'\nset xrange [%g:%g]\nset yrange [%g:%g]\n"
			"plot x lc rgb 'gray', 'validation.dat' index %d using 1:2:3:4 with yerrorbars "
			"pt 7 ps 0.6 lc rgb '#0060a0', '' index %d using ($1*%g):2:5:6 with "
			"yerrorbars pt 7 ps 0.3 lc rgb '#d06000', '' index %d using 1:($7 > 0 ? $2 : 1/0) "
			"with points pt 2 ps 1.8 lw 2 lc rgb '#d00000'\n", fam[k], a, b, a, b, k, k,
			pow(b / a, 0.012), k);	/* beside the band by 1.2% of the panel's width */
	}
	fprintf(g, "unset multiplot\n");
}

/* The families of ROWS' cases, each once, in the order of the rows; how many. */
static int families(const struct val_row *rows, int n, const char **fam)
{
	int nfam = 0;
	for (int i = 0; i < n; i++) {
		int k = 0;
		while (k < nfam && strcmp(fam[k], rows[i].vc->family))
			k++;
		if (k == nfam && nfam < VAL_MAX_FAMILIES)
			fam[nfam++] = rows[i].vc->family;
	}
	return nfam;
}

int val_plot(const char *dir, const struct val_row *rows, int n, struct sim_err *err)
{
	char base[PATH_MAX];
	snprintf(base, sizeof(base), "%s/validation", dir);
	FILE *f = plot_open(base, "dat", err);
	if (!f)
		return -1;
	const char *fam[VAL_MAX_FAMILIES];
	double lo[VAL_MAX_FAMILIES], hi[VAL_MAX_FAMILIES];
	int nfam = families(rows, n, fam);
	for (int k = 0; k < nfam; k++)
		plot_family(f, fam[k], rows, n, &lo[k], &hi[k]);
	fclose(f);
	FILE *g = plot_open(base, "gp", err);
	if (!g)
		return -1;
	plot_script(g, fam, nfam, lo, hi);
	fclose(g);
	return plot_run_in(dir, "validation.gp", err);
}
