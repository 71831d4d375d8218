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
#define MAX_PROFILE_POINTS 60

struct layout {
	const char *dir, *format;
	const cJSON *points;
	int npoints;
	const cJSON *dim[MAX_DIMS];
	int ndims, nvals[MAX_DIMS];
	int xdim, sdims[MAX_DIMS], nsdims, nseries;
	int (*idx)[MAX_DIMS];		/* per point: its value in each dimension */
	int *series;			/* per point: its series */
	char title[1024];
	char term[128];
	int reps;		/* replicates per point */
};

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

/* A string as a gnuplot double-quoted string's contents. */
static void gp_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* Series S's legend: its value in each series dimension, comma-separated ("all" if there
 * are none). */
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
	if (!l->nsdims)
		snprintf(out, size, "%s", "all");
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
	char over[256] = "";
	const cJSON *o;
	cJSON_ArrayForEach(o, get(summary, "overrides")) {
		size_t len = strlen(over);
		if (cJSON_IsString(o))
			snprintf(over + len, sizeof(over) - len, "%s%s", len ? " " : ", ",
				 o->valuestring);
	}
	snprintf(l->title, sizeof(l->title), "%s%s%s%s", get(summary, "experiment")->valuestring,
		 *fixed ? ": " : "", fixed, over);
	l->reps = reps ? reps->valueint : 1;
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

/* A line's colour and dashes: with two or more dimensions in the legend,
 * the colour follows the first and the dash and point type the others, so
 * 3 policies x 5 tests read as 3 colours x 5 dash patterns. */
static const char *line_style(const struct layout *l, int s)
{
	static char buf[96];
	if (l->nsdims < 2) {
		snprintf(buf, sizeof(buf), "lc %d pt 7 ps 0.6", s % 10 + 1);
		return buf;
	}
	int rest = l->nseries / l->nvals[l->sdims[0]];
	int colour = s / rest, dash = s % rest;
	snprintf(buf, sizeof(buf), "lc %d dt %d pt %d ps 0.7", colour % 10 + 1, dash % 5 + 1,
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

/* The script's head; the title says what the bars are: 95% CIs where the
 * plot draws them (ci), else the means of the replicates. */
static void script_head(const struct layout *l, FILE *g, const char *name, const char *what,
			bool ci)
{
	fprintf(g, "# slabsim: %s. Edit and re-run: gnuplot %s.gp (in this folder)\n", what, name);
	fprintf(g, "set terminal %s\nset output '%s.%s'\nset termoption noenhanced\n", l->term,
		name, l->format);
	fprintf(g, "set datafile missing '?'\nset grid\nset key outside right top\n");
	/* ten distinct colours, so stacked profile segments never share one */
	static const char *const colours[] = { "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
		"#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f" };
	for (int i = 0; i < 10; i++)
		fprintf(g, "set linetype %d lc rgb '%s' lw 1.5\n", i + 1, colours[i]);
	fprintf(g, "set linetype cycle 10\n");
	fprintf(g, "set title \"");
	gp_str(g, l->title);
	if (ci)
		fprintf(g, " (%d replicate%s, 95%% CI)\"\n", l->reps, l->reps == 1 ? "" : "s");
	else
		fprintf(g, " (mean of %d replicate%s)\"\n", l->reps, l->reps == 1 ? "" : "s");
}

/* Run gnuplot on NAME.gp in the plot folder. */
static int run_gnuplot(const struct layout *l, const char *name, struct sim_err *err)
{
	char script[300];
	snprintf(script, sizeof(script), "%s.gp", name);
	return plot_run_in(l->dir, script, err);
}

/* A metric against x: lines with error bars (numeric x) or clustered bars
 * with error bars (categories). */
static int plot_metric(const struct layout *l, const char *name, const char *metric,
		       const char *ylabel, bool logx, bool logy, struct sim_err *err)
{
	bool numeric = cJSON_IsTrue(get(l->dim[l->xdim], "numeric"));
	const cJSON *xs = get(l->dim[l->xdim], "x");
	int nx = l->nvals[l->xdim];
	FILE *d = open_file(l, name, "dat", err);
	if (!d)
		return -1;
	char sname[512];
	if (numeric) {
		for (int s = 0; s < l->nseries; s++) {
			series_name(l, s, sname, sizeof(sname));
			fprintf(d, "%s# %s\n# %s mean ci95\n", s ? "\n\n" : "", sname,
				dim_name(l, l->xdim));
			for (int xi = 0; xi < nx; xi++) {
				const cJSON *pt = point_at(l, s, xi);
				if (!pt)
					continue;
				fprintf(d, "%.10g", cJSON_GetArrayItem(xs, xi)->valuedouble);
				write_stat(d, pt, metric);
				fputc('\n', d);
			}
		}
	} else {
		fprintf(d, "# %s, then mean and ci95 of each line\n", dim_name(l, l->xdim));
		for (int xi = 0; xi < nx; xi++) {
			fputc('"', d);
			gp_str(d, value_label(l, l->xdim, xi));
			fputc('"', d);
			for (int s = 0; s < l->nseries; s++) {
				const cJSON *pt = point_at(l, s, xi);
				if (pt)
					write_stat(d, pt, metric);
				else
					fputs(" ? ?", d);
			}
			fputc('\n', d);
		}
	}
	fclose(d);
	FILE *g = open_file(l, name, "gp", err);
	if (!g)
		return -1;
	script_head(l, g, name, ylabel, true);
	fprintf(g, "set xlabel \"");
	gp_str(g, dim_label(l, l->xdim));
	fprintf(g, "\"\nset ylabel \"");
	gp_str(g, ylabel);
	fprintf(g, "\"\n%s\n", logy ? "set logscale y" : "set yrange [0:*]");
	if (numeric) {
		fprintf(g, "set autoscale xfix\nset offsets graph 0.03, graph 0.03, 0, 0\n");
		if (logx)
			fprintf(g, "set logscale x 2\n");
		fprintf(g, "plot ");
		for (int s = 0; s < l->nseries; s++) {
			series_name(l, s, sname, sizeof(sname));
			fprintf(g, "%s'%s.dat' index %d using 1:2:3 with yerrorlines %s title \"",
				s ? ", \\\n     " : "", name, s, line_style(l, s));
			gp_str(g, sname);
			fprintf(g, "\"");
		}
	} else {
		fprintf(g, "set style data histograms\nset style histogram errorbars gap 1 lw 1\n"
			"set style fill solid 0.6 border -1\nset xtics rotate by -30\n");
		fprintf(g, "plot ");
		for (int s = 0; s < l->nseries; s++) {
			series_name(l, s, sname, sizeof(sname));
			fprintf(g, "%s'%s.dat' using %d:%d%s title \"", s ? ", \\\n     " : "", name,
				2 + 2 * s, 3 + 2 * s, s ? "" : ":xtic(1)");
			gp_str(g, sname);
			fprintf(g, "\"");
		}
	}
	fprintf(g, "\n");
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
		snprintf(out, size, "all");
}

/* One stacked bar per point: the share of CPU time of each top symbol. */
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
	script_head(l, g, name, "profile: share of CPU time by kernel symbol, per point", false);
	fprintf(g, "set ylabel 'share of all CPU time (%%)'\nset yrange [0:100]\n"
		"set style data histograms\nset style histogram rowstacked\n"
		"set style fill solid 0.8 border -1\nset boxwidth 0.7\n"
		"set xtics rotate by -45 font ',8'\n");
	if (np < l->npoints)
		fprintf(g, "set label 1 'first %d of %d points' at graph 0.01, graph 0.97\n", np,
			l->npoints);
	fprintf(g, "plot for [i=2:%d] '%s.dat' using i:xtic(1) title columnheader(i)\n",
		nsym + 1, name);
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
	script_head(l, g, name, what, true);
	fprintf(g, "set xlabel \"");
	gp_str(g, mlabel);
	fprintf(g, "\"\nset ylabel 'slab memory, peak (MB)'\nset yrange [0:*]\nplot ");
	for (int s = 0; s < l->nseries; s++) {
		series_name(l, s, sname, sizeof(sname));
		fprintf(g, "%s'%s.dat' index %d using 1:3:2:4 with xyerrorbars pt 7 ps 0.6 lc %d "
			"title \"", s ? ", \\\n     " : "", name, s, s + 1);
		gp_str(g, sname);
		fprintf(g, "\", '' index %d using 1:3:5 with labels offset 0.8,0.6 font ',7' "
			"tc lt %d notitle", s, s + 1);
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
