/* sweep_plot.c - gnuplot plots of a sweep. The x axis is the experiment's
 * plot.x, else its first axis with several values, else the first dimension
 * that varies; every other varying dimension makes one line (or bar) per
 * combination, and the dimensions with one value go into the title. */
#include "sweep_plot.h"
#include "gnuplot.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIMS 10
#define MAX_SERIES 64
#define MAX_PROFILE_POINTS 120

struct layout {
	const char *dir, *format;
	const cJSON *points;
	int npoints;
	const cJSON *dim[MAX_DIMS];
	int ndims, nvals[MAX_DIMS];
	int xdim, sdims[MAX_DIMS], nsdims, nseries;
	int (*idx)[MAX_DIMS];		/* per point: its value in each dimension */
	int *series;			/* per point: its series */
	char title[1024];	/* the experiment and what every point shares */
	char term[128];
	int reps;		/* replicates per point (the most, with a CI target) */
	int nmin;		/* the fewest runs of any point: CIs are drawn from 3 */
	bool runs;		/* the summary has each run's values (the dots) */
};

#define CI_MIN_RUNS 3	/* with 2 a 95% CI is +-9 sd: the runs are drawn instead */

/* o.k, NULL if it is missing. */
static const cJSON *get(const cJSON *o, const char *k)
{
	return cJSON_GetObjectItemCaseSensitive(o, k);
}

/* The name of dimension D. */
static const char *dim_name(const struct layout *l, int d)
{
	return get(l->dim[d], "name")->valuestring;
}

/* The axis label of dimension D: its "label" (with a unit), else its name. */
static const char *dim_label(const struct layout *l, int d)
{
	const char *s = cJSON_GetStringValue(get(l->dim[d], "label"));
	return s ? s : dim_name(l, d);
}

/* The label of value I of dimension D. */
static const char *value_label(const struct layout *l, int d, int i)
{
	return cJSON_GetArrayItem(get(l->dim[d], "values"), i)->valuestring;
}

/* A string as a gnuplot double-quoted string's contents (a newline as \\n). */
static void gp_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\n') {
			fputs("\\n", f);
			continue;
		}
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* Series S's legend: its value in each series dimension, comma-separated ("" if there
 * are none: one line needs no legend). */
static void series_name(const struct layout *l, int s, char *out, size_t size)
{
	int v[MAX_DIMS];
	for (int k = l->nsdims - 1; k >= 0; k--) {
		v[k] = s % l->nvals[l->sdims[k]];
		s /= l->nvals[l->sdims[k]];
	}
	size_t len = 0;
	out[0] = 0;
	for (int k = 0; k < l->nsdims && len < size; k++)
		len += (size_t)snprintf(out + len, size - len, "%s%s", k ? ", " : "",
					value_label(l, l->sdims[k], v[k]));
}

/* The layout from the summary: the x dimension, the series dimensions, the title (the
 * single-valued dimensions and the overrides), and each point's values and series. */
static int layout_build(struct layout *l, const cJSON *summary, struct sim_err *err)
{
	const cJSON *dims = get(summary, "dimensions"), *d;
	l->points = get(summary, "points");
	l->npoints = cJSON_GetArraySize(l->points);
	cJSON_ArrayForEach(d, dims) {
		if (l->ndims == MAX_DIMS)
			return sim_fail(err, "summary.json: too many dimensions");
		l->nvals[l->ndims] = cJSON_GetArraySize(get(d, "values"));
		l->dim[l->ndims++] = d;
	}
	const char *px = cJSON_GetStringValue(get(get(summary, "plot"), "x"));
	l->xdim = -1;
	for (int i = 0; i < l->ndims && l->xdim < 0; i++)
		if (px ? !strcmp(dim_name(l, i), px)
		       : !strcmp(get(l->dim[i], "kind")->valuestring, "axis") && l->nvals[i] > 1)
			l->xdim = i;
	for (int i = 0; i < l->ndims && l->xdim < 0; i++)
		if (l->nvals[i] > 1)
			l->xdim = i;
	if (l->xdim < 0)
		l->xdim = 0;
	l->nseries = 1;
	char fixed[512] = "";
	for (int i = 0; i < l->ndims; i++) {
		if (i != l->xdim && l->nvals[i] > 1) {
			l->sdims[l->nsdims++] = i;
			l->nseries *= l->nvals[i];
		} else if (i != l->xdim) {
			size_t len = strlen(fixed);
			snprintf(fixed + len, sizeof(fixed) - len, "%s%s", len ? ", " : "",
				 value_label(l, i, 0));
		}
	}
	if (l->nseries > MAX_SERIES)
		return sim_fail(err, "summary.json: %d lines in one plot (at most %d); give the "
				"experiment a \"plot\": {\"x\": ...} or fewer values", l->nseries,
				MAX_SERIES);
	const cJSON *reps = get(summary, "replicates");
	char set[512] = "";	/* the file's fixed parameters, then the overrides */
	const cJSON *o;
	for (int k = 0; k < 2; k++)
		cJSON_ArrayForEach(o, get(summary, k ? "overrides" : "fixed")) {
			size_t len = strlen(set);
			if (cJSON_IsString(o))
				snprintf(set + len, sizeof(set) - len, "%s%s", len ? " " : "",
					 o->valuestring);
		}
	if (snprintf(l->title, sizeof(l->title), "%s%s%s%s%s",
		     get(summary, "experiment")->valuestring, *fixed ? ": " : "", fixed,
		     *set ? "\n" : "", set) >= (int)sizeof(l->title))
		strcpy(l->title + sizeof(l->title) - 4, "...");	/* a title too long to show */
	l->reps = reps ? reps->valueint : 1;
	l->nmin = l->reps;
	l->idx = calloc((size_t)l->npoints + 1, sizeof(*l->idx));
	l->series = calloc((size_t)l->npoints + 1, sizeof(*l->series));
	int p = 0;
	const cJSON *pt;
	cJSON_ArrayForEach(pt, l->points) {
		const cJSON *labels = get(pt, "labels");
		for (int i = 0; i < l->ndims; i++) {
			const char *lab = cJSON_GetStringValue(get(labels, dim_name(l, i)));
			l->idx[p][i] = -1;
			for (int v = 0; lab && v < l->nvals[i]; v++)
				if (!strcmp(value_label(l, i, v), lab))
					l->idx[p][i] = v;
			if (l->idx[p][i] < 0)
				return sim_fail(err, "summary.json: point %d has no %s", p,
						dim_name(l, i));
		}
		int s = 0;
		for (int k = 0; k < l->nsdims; k++)
			s = s * l->nvals[l->sdims[k]] + l->idx[p][l->sdims[k]];
		l->series[p++] = s;
	}
	return 0;
}

/* Series S's colour (a linetype): its own with one series dimension, else
 * that of its value of the first, the others told apart by dashes. */
static int series_colour(const struct layout *l, int s)
{
	if (l->nsdims < 2)
		return s % 10 + 1;
	return s / (l->nseries / l->nvals[l->sdims[0]]) % 10 + 1;
}

/* A line's colour and dashes: with two or more dimensions in the legend,
 * the colour follows the first and the dash and point type the others, so
 * 3 policies x 5 tests read as 3 colours x 5 dash patterns. */
static const char *line_style(const struct layout *l, int s)
{
	static char buf[96];
	if (l->nsdims < 2) {
		snprintf(buf, sizeof(buf), "lc %d pt 7 ps 0.6", series_colour(l, s));
		return buf;
	}
	int dash = s % (l->nseries / l->nvals[l->sdims[0]]);
	snprintf(buf, sizeof(buf), "lc %d dt %d pt %d ps 0.7", series_colour(l, s), dash % 5 + 1,
		 dash % 13 + 1);
	return buf;
}

/* The point of series S at x value XI, or NULL. */
static const cJSON *point_at(const struct layout *l, int s, int xi)
{
	for (int p = 0; p < l->npoints; p++)
		if (l->series[p] == s && l->idx[p][l->xdim] == xi)
			return cJSON_GetArrayItem(l->points, p);
	return NULL;
}

/* " MEAN CI95" of a metric at a point (CI 0 if there is none), " ? ?" if it has no mean. */
static void write_stat(FILE *f, const cJSON *pt, const char *metric)
{
	const cJSON *st = get(get(pt, "metrics"), metric);
	const cJSON *mean = get(st, "mean"), *ci = get(st, "ci95");
	if (!cJSON_IsNumber(mean)) {
		fputs(" ? ?", f);
		return;
	}
	fprintf(f, " %.8g %.8g", mean->valuedouble, cJSON_IsNumber(ci) ? ci->valuedouble : 0.0);
}

/* Create DIR/NAME.EXT for writing; NULL, with the message in err, if it cannot. */
static FILE *open_file(const struct layout *l, const char *name, const char *ext,
		       struct sim_err *err)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s.%s", l->dir, name, ext);
	FILE *f = fopen(path, "w");
	if (!f)
		sim_fail(err, "cannot write %s: %s", path, strerror(errno));
	return f;
}

/* More values than this get gnuplot's own x tics; longer series names
 * put the legend below the plot. */
enum { MAX_X_TICS = 16, LONG_KEY = 24 };

/* The legend: none for a single line, else outside on the right, or below
 * the plot when the names are long enough to squeeze it. */
static void key_for(const struct layout *l, FILE *g)
{
	char sname[512];
	size_t longest = 0;
	for (int s = 0; s < l->nseries; s++) {
		series_name(l, s, sname, sizeof(sname));
		longest = strlen(sname) > longest ? strlen(sname) : longest;
	}
	fprintf(g, "%s\n", l->nseries < 2 ? "set key off"
		: longest > LONG_KEY ? "set key below left Left reverse maxrows 4"
		: "set key outside right top");
}

/* The script's head; the title ends with what is drawn (`drawn`, e.g.
 * "mean and 95% CI") and how many runs each point has. */
static void script_head(const struct layout *l, FILE *g, const char *name, const char *what,
			const char *drawn)
{
	fprintf(g, "# slabsim: %s. Edit and re-run: gnuplot %s.gp (in this folder)\n", what, name);
	fprintf(g, "set terminal %s\nset output '%s.%s'\nset termoption noenhanced\n", l->term,
		name, l->format);
	fprintf(g, "set datafile missing '?'\nset grid\n");
	key_for(l, g);
	/* ten distinct colours, so stacked profile segments never share one */
	static const char *const colours[] = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
		"#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f" };
	for (int i = 0; i < 10; i++)
		fprintf(g, "set linetype %d lc rgb '%s' lw 1.5\n", i + 1, colours[i]);
	fprintf(g, "set linetype cycle 10\n");
	fprintf(g, "set title \"");
	gp_str(g, l->title);
	if (l->nmin == l->reps)
		fprintf(g, " (%d run%s a point: %s)\"\n", l->reps, l->reps == 1 ? "" : "s", drawn);
	else
		fprintf(g, " (%d to %d runs a point: %s)\"\n", l->nmin, l->reps, drawn);
}

/* Whether the points have the runs for a 95% CI that means something. */
static bool draw_ci(const struct layout *l)
{
	return l->nmin >= CI_MIN_RUNS;
}

/* True if a value's label is not its number ("unlimited" for 1000000). */
static bool label_is_word(const char *label)
{
	char *end;
	strtod(label, &end);
	return end == label || *end;
}

/* Where value XI of the x dimension is drawn: at its number, but for a last
 * value named by a word (cpu_partial "unlimited") lying over 8x beyond the
 * one before it, which is drawn at 4x that one (two steps on a log-2 axis)
 * so that it does not squeeze the other points. */
static double plot_x(const struct layout *l, int xi)
{
	const cJSON *xs = get(l->dim[l->xdim], "x");
	double x = cJSON_GetArrayItem(xs, xi)->valuedouble;
	if (xi == 0 || xi != l->nvals[l->xdim] - 1 || !label_is_word(value_label(l, l->xdim, xi)))
		return x;
	double prev = cJSON_GetArrayItem(xs, xi - 1)->valuedouble;
	return prev > 0 && x > 8 * prev ? prev * 4 : x;
}

/* A doubling parameter (all x > 0, spanning 8x or more) reads best on a log-2 axis. */
static bool doubling(const struct layout *l)
{
	double lo = 0, hi = 0;
	for (int xi = 0; xi < l->nvals[l->xdim]; xi++) {
		double x = plot_x(l, xi);
		if (x <= 0)
			return false;
		lo = lo && lo < x ? lo : x;
		hi = hi > x ? hi : x;
	}
	return lo > 0 && hi / lo >= 8;
}

/* The x axis's tics: one at each value, labelled as the sweep names it
 * (gnuplot's own tics for more than MAX_X_TICS values named by numbers). */
static void x_tics(const struct layout *l, FILE *g)
{
	int n = l->nvals[l->xdim];
	if (n > MAX_X_TICS && !label_is_word(value_label(l, l->xdim, n - 1)))
		return;
	fprintf(g, "set xtics (");
	for (int xi = 0; xi < l->nvals[l->xdim]; xi++) {
		fprintf(g, "%s\"", xi ? ", " : "");
		gp_str(g, value_label(l, l->xdim, xi));
		fprintf(g, "\" %.10g", plot_x(l, xi));
	}
	fprintf(g, ")\n");
}

/* Each run's value of a metric at a point, " X VALUE" a line, for the dots. */
static void write_runs(FILE *f, double x, const cJSON *pt, const char *metric)
{
	const cJSON *v;
	cJSON_ArrayForEach(v, get(get(get(pt, "metrics"), metric), "values"))
		if (cJSON_IsNumber(v))
			fprintf(f, "%.10g %.8g\n", x, v->valuedouble);
}

/* " LOW HIGH": the range of a point's runs (the mean twice if it has none). */
static void write_range(FILE *f, const cJSON *pt, const char *metric)
{
	const cJSON *st = get(get(pt, "metrics"), metric), *v, *mean = get(st, "mean");
	double lo = 0, hi = 0;
	int n = 0;
	cJSON_ArrayForEach(v, get(st, "values"))
		if (cJSON_IsNumber(v)) {
			lo = n && lo < v->valuedouble ? lo : v->valuedouble;
			hi = n && hi > v->valuedouble ? hi : v->valuedouble;
			n++;
		}
	if (!n && cJSON_IsNumber(mean))
		lo = hi = mean->valuedouble;
	if (!n && !cJSON_IsNumber(mean))
		fputs(" ? ?", f);
	else
		fprintf(f, " %.8g %.8g", lo, hi);
}

/* Run gnuplot on NAME.gp in the plot folder. */
static int run_gnuplot(const struct layout *l, const char *name, struct sim_err *err)
{
	char script[300];
	snprintf(script, sizeof(script), "%s.gp", name);
	return plot_run_in(l->dir, script, err);
}

/* The data of a metric against a numeric x: a block per line (x, mean,
 * ci95), then a block per line of its runs (x, value), for the dots. */
static void metric_data_numeric(const struct layout *l, FILE *d, const char *metric)
{
	char sname[512];
	for (int k = 0; k < 2; k++)
		for (int s = 0; s < l->nseries; s++) {
			series_name(l, s, sname, sizeof(sname));
			fprintf(d, "%s# %s%s\n# %s %s\n", k || s ? "\n\n" : "", sname,
				k ? ": each run" : "", dim_name(l, l->xdim),
				k ? "value" : "mean ci95");
			for (int xi = 0; xi < l->nvals[l->xdim]; xi++) {
				const cJSON *pt = point_at(l, s, xi);
				double x = plot_x(l, xi);
				if (pt && k)
					write_runs(d, x, pt, metric);
				if (pt && !k) {
					fprintf(d, "%.10g", x);
					write_stat(d, pt, metric);
					fputc('\n', d);
				}
			}
		}
}

/* The data of a metric against categories: a row per x value, and per line
 * its mean, ci95 and the range of its runs. */
static void metric_data_bars(const struct layout *l, FILE *d, const char *metric)
{
	fprintf(d, "# %s, then mean, ci95, lowest and highest run of each line\n",
		dim_name(l, l->xdim));
	for (int xi = 0; xi < l->nvals[l->xdim]; xi++) {
		fputc('"', d);
		gp_str(d, value_label(l, l->xdim, xi));
		fputc('"', d);
		for (int s = 0; s < l->nseries; s++) {
			const cJSON *pt = point_at(l, s, xi);
			if (pt) {
				write_stat(d, pt, metric);
				write_range(d, pt, metric);
			} else {
				fputs(" ? ? ? ?", d);
			}
		}
		fputc('\n', d);
	}
}

/* The plot command of a metric against a numeric x: each line its mean
 * (with 95% CIs from CI_MIN_RUNS runs), and each run as a dot of its colour. */
static void metric_plot_numeric(const struct layout *l, FILE *g, const char *name)
{
	char sname[512];
	fprintf(g, "plot ");
	for (int s = 0; s < l->nseries; s++) {
		series_name(l, s, sname, sizeof(sname));
		fprintf(g, "%s'%s.dat' index %d using 1:2%s with %s %s title \"",
			s ? ", \\\n     " : "", name, s, draw_ci(l) ? ":3" : "",
			draw_ci(l) ? "yerrorlines" : "linespoints", line_style(l, s));
		gp_str(g, sname);
		fprintf(g, "\"");
		if (l->runs)
			fprintf(g, ", \\\n     '' index %d using 1:2 with points pt 6 ps 0.5 lc %d "
				"notitle", l->nseries + s, series_colour(l, s));
	}
	fprintf(g, "\n");
}

/* The plot command of a metric against categories: clustered bars, the
 * error bar a 95% CI from CI_MIN_RUNS runs, else the range of the runs. */
static void metric_plot_bars(const struct layout *l, FILE *g, const char *name)
{
	char sname[512];
	fprintf(g, "set style data histograms\nset style histogram errorbars gap 1 lw 1\n"
		"set style fill solid 0.6 border -1\nset xtics rotate by -30\n");
	fprintf(g, "plot ");
	for (int s = 0; s < l->nseries; s++) {
		series_name(l, s, sname, sizeof(sname));
		int c = 2 + 4 * s;
		if (draw_ci(l))
			fprintf(g, "%s'%s.dat' using %d:%d%s title \"", s ? ", \\\n     " : "", name,
				c, c + 1, s ? "" : ":xtic(1)");
		else
			fprintf(g, "%s'%s.dat' using %d:%d:%d%s title \"", s ? ", \\\n     " : "",
				name, c, c + 2, c + 3, s ? "" : ":xtic(1)");
		gp_str(g, sname);
		fprintf(g, "\"");
	}
	fprintf(g, "\n");
}

/* A metric against x: lines (numeric x) or clustered bars (categories). */
static int plot_metric(const struct layout *l, const char *name, const char *metric,
		       const char *ylabel, bool logx, bool logy, struct sim_err *err)
{
	bool numeric = cJSON_IsTrue(get(l->dim[l->xdim], "numeric"));
	FILE *d = open_file(l, name, "dat", err);
	if (!d)
		return -1;
	if (numeric)
		metric_data_numeric(l, d, metric);
	else
		metric_data_bars(l, d, metric);
	fclose(d);
	FILE *g = open_file(l, name, "gp", err);
	if (!g)
		return -1;
	script_head(l, g, name, ylabel, draw_ci(l) ? "mean and 95% CI"
		    : numeric && l->runs ? "the mean, and each run as a dot"
		    : numeric ? "the mean" : "the mean, and the range of the runs");
	fprintf(g, "set xlabel \"");
	gp_str(g, dim_label(l, l->xdim));
	fprintf(g, "\"\nset ylabel \"");
	gp_str(g, ylabel);
	fprintf(g, "\"\n%s\n", logy ? "set logscale y" : "set yrange [0:*]");
	if (numeric) {
		fprintf(g, "set autoscale xfix\nset offsets graph 0.03, graph 0.03, 0, 0\n");
		if (logx || doubling(l))
			fprintf(g, "set logscale x 2\n");
		x_tics(l, g);
		metric_plot_numeric(l, g, name);
	} else {
		metric_plot_bars(l, g, name);
	}
	fclose(g);
	return run_gnuplot(l, name, err);
}

/* Point P's labels in the dimensions that vary, space-separated ("all" if none varies). */
static void point_label(const struct layout *l, int p, char *out, size_t size)
{
	size_t len = 0;
	out[0] = 0;
	for (int i = 0; i < l->ndims; i++)
		if (l->nvals[i] > 1)
			len += (size_t)snprintf(out + len, size - len, "%s%s", len ? " " : "",
						value_label(l, i, l->idx[p][i]));
	if (!len)
		snprintf(out, size, "the one point");
}

/* One horizontal stacked bar per point, labelled, the first point at the
 * top: the share of all CPU time of each top symbol; the plot grows with
 * the points so every label stays readable. */
static int plot_profile(const struct layout *l, struct sim_err *err)
{
	const char *name = "profile";
	const cJSON *first = get(cJSON_GetArrayItem(l->points, 0), "profile");
	int nsym = cJSON_GetArraySize(first);
	int np = l->npoints < MAX_PROFILE_POINTS ? l->npoints : MAX_PROFILE_POINTS;
	FILE *d = open_file(l, name, "dat", err);
	if (!d)
		return -1;
	fprintf(d, "point");
	const cJSON *x;
	cJSON_ArrayForEach(x, first)
		fprintf(d, " \"%s\"", get(x, "symbol")->valuestring);
	fputc('\n', d);
	char label[512];
	for (int p = 0; p < np; p++) {
		point_label(l, p, label, sizeof(label));
		fputc('"', d);
		gp_str(d, label);
		fputc('"', d);
		cJSON_ArrayForEach(x, get(cJSON_GetArrayItem(l->points, p), "profile")) {
			const cJSON *m = get(x, "mean");
			fprintf(d, " %.6g", cJSON_IsNumber(m) ? m->valuedouble : 0.0);
		}
		fputc('\n', d);
	}
	fclose(d);
	FILE *g = open_file(l, name, "gp", err);
	if (!g)
		return -1;
	struct layout tall = *l;	/* 22 pixels a bar, 600 at least */
	int height = 160 + 22 * np > 600 ? 160 + 22 * np : 600;
	snprintf(tall.term, sizeof(tall.term), "%s size 1000,%d font '%s'",
		 !strcmp(l->format, "png") ? "pngcairo" : "svg", height,
		 !strcmp(l->format, "png") ? ",10" : "Sans,10");
	script_head(&tall, g, name, "profile: share of CPU time by kernel symbol, per point",
		    "the mean");
	fprintf(g, "set ylabel \"");	/* what the bars' labels are */
	for (int i = 0, said = 0; i < l->ndims; i++)
		if (l->nvals[i] > 1) {
			fprintf(g, "%s", said++ ? ", " : "");
			gp_str(g, dim_name(l, i));
		}
	fprintf(g, "\"\n");
	fprintf(g, "set key outside right top\nset xlabel 'share of all CPU time (%%)'\n"
		"set xrange [0:100]\nset yrange [%d:-1] noreverse\nset ytics font ',8'\n"
		"set style fill solid 0.85 border -1\nset grid xtics noytics\n", np);
	if (np < l->npoints)
		fprintf(g, "set label 1 'the first %d of %d points' at screen 0.01, screen 0.99 "
			"left\n", np, l->npoints);
	fprintf(g, "start(i) = (i > 2 ? sum [j=2:i-1] column(j) : 0)\n"
		"plot for [i=2:%d] '%s.dat' using (start(i) + column(i) / 2):0:(start(i)):"
		"(start(i) + column(i)):($0 - 0.38):($0 + 0.38):ytic(1) with boxxyerror "
		"lc i-1 title columnheader(i)\n", nsym + 1, name);
	fclose(g);
	return run_gnuplot(l, name, err);
}

/* Slab memory against throughput (or the main metric): what caching costs
 * for what it buys. Not drawn when no run has slab memory (lockbench). */
static int plot_memory(const struct layout *l, const char *metric, const char *mlabel,
		       struct sim_err *err)
{
	const char *name = "memory";
	FILE *d = open_file(l, name, "dat", err);
	if (!d)
		return -1;
	char sname[512], label[512];
	for (int s = 0; s < l->nseries; s++) {
		series_name(l, s, sname, sizeof(sname));
		fprintf(d, "%s# %s\n# %s ci95 slab_mb_peak ci95 label\n", s ? "\n\n" : "", sname,
			metric);
		for (int xi = 0; xi < l->nvals[l->xdim]; xi++) {
			const cJSON *pt = point_at(l, s, xi);
			if (!pt)
				continue;
			write_stat(d, pt, metric);
			write_stat(d, pt, "slab_mb_peak");
			snprintf(label, sizeof(label), "%s", value_label(l, l->xdim, xi));
			fputs(" \"", d);
			gp_str(d, label);
			fputs("\"\n", d);
		}
	}
	fclose(d);
	FILE *g = open_file(l, name, "gp", err);
	if (!g)
		return -1;
	char what[600];
	snprintf(what, sizeof(what), "slab memory against %s (the cost of caching)", mlabel);
	script_head(l, g, name, what, draw_ci(l) ? "mean and 95% CIs" : "the mean");
	fprintf(g, "set xlabel \"");
	gp_str(g, mlabel);
	fprintf(g, "\"\nset ylabel 'slab memory, peak (MB)'\nset xrange [0:*]\n"
		"set yrange [0:*]\nplot ");
	for (int s = 0; s < l->nseries; s++) {
		series_name(l, s, sname, sizeof(sname));
		fprintf(g, "%s'%s.dat' index %d using 1:3%s with %s pt 7 ps 0.6 lc %d "
			"title \"", s ? ", \\\n     " : "", name, s, draw_ci(l) ? ":2:4" : "",
			draw_ci(l) ? "xyerrorbars" : "points", s % 10 + 1);
		gp_str(g, sname);
		fprintf(g, "\", '' index %d using 1:3:5 with labels offset 0.8,0.6 font ',7' "
			"tc lt %d notitle", s, s % 10 + 1);
	}
	fprintf(g, "\n");
	fclose(g);
	return run_gnuplot(l, name, err);
}

/* A non-empty array of strings only. */
static bool all_strings(const cJSON *a)
{
	const cJSON *x;
	if (!cJSON_IsArray(a) || !cJSON_GetArraySize(a))
		return false;
	cJSON_ArrayForEach(x, a)
		if (!cJSON_IsString(x))
			return false;
	return true;
}

/* The summary has the shape summary_build() writes (a hand-edited or
 * damaged file is refused, never followed into a crash). */
static int check_summary(const cJSON *s, struct sim_err *err)
{
	const cJSON *d, *p, *m;
	if (!cJSON_IsString(get(s, "experiment")) || !cJSON_IsArray(get(s, "dimensions")) ||
	    !cJSON_IsArray(get(s, "points")) || !cJSON_IsArray(get(s, "metrics")) ||
	    !cJSON_GetArraySize(get(s, "metrics")))
		return sim_fail(err, "summary.json: not a sweep's summary (it needs experiment, "
				"dimensions, points and metrics)");
	cJSON_ArrayForEach(d, get(s, "dimensions")) {
		const cJSON *xs = get(d, "x");
		if (!cJSON_IsString(get(d, "name")) || !cJSON_IsString(get(d, "kind")) ||
		    !all_strings(get(d, "values")))
			return sim_fail(err, "summary.json: a dimension lacks name, kind or values");
		if (cJSON_IsTrue(get(d, "numeric")) &&
		    (!cJSON_IsArray(xs) || cJSON_GetArraySize(xs) != cJSON_GetArraySize(get(d, "values"))))
			return sim_fail(err, "summary.json: numeric dimension %s lacks its x values",
					get(d, "name")->valuestring);
		cJSON_ArrayForEach(p, xs)
			if (!cJSON_IsNumber(p))
				return sim_fail(err, "summary.json: dimension %s: x is not a number",
						get(d, "name")->valuestring);
	}
	cJSON_ArrayForEach(m, get(s, "metrics"))
		if (!cJSON_IsString(get(m, "name")) || !cJSON_IsString(get(m, "label")))
			return sim_fail(err, "summary.json: a metric lacks name or label");
	cJSON_ArrayForEach(p, get(s, "points")) {
		if (!cJSON_IsObject(get(p, "labels")) || !cJSON_IsObject(get(p, "metrics")) ||
		    !cJSON_IsArray(get(p, "profile")))
			return sim_fail(err, "summary.json: a point lacks labels, metrics or profile");
		const cJSON *x;
		cJSON_ArrayForEach(x, get(p, "profile"))
			if (!cJSON_IsString(get(x, "symbol")))
				return sim_fail(err, "summary.json: a profile entry has no symbol");
	}
	return 0;
}

int sweep_plot(const char *dir, const cJSON *summary, const char *format, struct sim_err *err)
{
	if (check_summary(summary, err) < 0)
		return -1;
	struct layout l = { .dir = dir, .format = format };
	if (strcmp(format, "png") && strcmp(format, "svg"))
		return sim_fail(err, "--format %s: expected png or svg", format);
	snprintf(l.term, sizeof(l.term), "%s", !strcmp(format, "png")
		 ? "pngcairo size 1000,600 font ',10'" : "svg size 1000,600 font 'Sans,10'");
	int rc = layout_build(&l, summary, err);
	const cJSON *m0 = cJSON_GetArrayItem(get(summary, "metrics"), 0);
	const char *metric = get(m0, "name")->valuestring, *mlabel = get(m0, "label")->valuestring;
	const cJSON *pt;
	cJSON_ArrayForEach(pt, get(summary, "points")) {	/* the fewest runs of a point */
		const cJSON *st = get(get(pt, "metrics"), metric), *n = get(st, "n");
		if (cJSON_IsNumber(n) && n->valueint > 0 && n->valueint < l.nmin)
			l.nmin = n->valueint;
		l.runs |= cJSON_GetArraySize(get(st, "values")) > 0;
	}
	bool logx = cJSON_IsTrue(get(get(summary, "plot"), "logx"));
	bool logy = cJSON_IsTrue(get(get(summary, "plot"), "logy"));
	if (rc == 0 && l.npoints)
		rc = plot_metric(&l, "metric", metric, mlabel, logx, logy, err);
	if (rc == 0 && l.npoints)
		rc = plot_metric(&l, "lock-wait", "spin", "CPU time spinning on locks (%)", logx,
				 false, err);
	if (rc == 0 && l.npoints)
		rc = plot_profile(&l, err);
	/* memory against throughput where the workload reports one (hackbench),
	 * else against the main metric */
	const char *mx = metric, *mxlabel = mlabel;
	const cJSON *m, *p;
	cJSON_ArrayForEach(p, get(summary, "points")) {
		const cJSON *n = get(get(get(p, "metrics"), "throughput"), "n");
		if (cJSON_IsNumber(n) && n->valueint > 0)
			mx = "throughput";
	}
	cJSON_ArrayForEach(m, get(summary, "metrics"))
		if (!strcmp(get(m, "name")->valuestring, mx))
			mxlabel = get(m, "label")->valuestring;
	bool memory = false;	/* any slab memory to show? */
	cJSON_ArrayForEach(p, get(summary, "points")) {
		const cJSON *mb = get(get(get(p, "metrics"), "slab_mb_peak"), "mean");
		memory |= cJSON_IsNumber(mb) && mb->valuedouble > 0;
	}
	if (rc == 0 && l.npoints && memory)
		rc = plot_memory(&l, mx, mxlabel, err);
	free(l.idx);
	free(l.series);
	return rc;
}
