/* timeline_plot.c - `slabsim run --timeline-plot FILE.png`: the run over
 * simulated time in five panels that share the time axis, drawn by gnuplot
 * from the timeline's own table (FILE.png.dat, FILE.png.gp beside it):
 * the work's rate and the live objects; the CPUs' busy, allocator and
 * spinning shares; the tasks runnable and their run-queue wait; the lock
 * waited on most, its hold and wait and how often it is taken per unit of
 * work; the slabs on partial lists. Together they say whether a slow
 * stretch is the allocator's, a lock's or the scheduler's. */
#include "report.h"

#include <stdio.h>

#include "report/gnuplot.h"

/* `s` for a gnuplot double-quoted string: without its quotes and backslashes. */
static const char *quotable(const char *s, char *buf, size_t size)
{
	size_t n = 0;
	for (; *s && n + 1 < size; s++)
		if (*s != '"' && *s != '\\')
			buf[n++] = *s;
	buf[n] = '\0';
	return buf;
}

/* The gnuplot script, naming its files by `base` (it runs beside them):
 * columns as report_timeline_write() writes them. */
static void write_script(FILE *gp, const struct run *r, const char *base, const char *unit,
			 uint64_t total)
{
	char wl[256];
	fprintf(gp, "# slabsim run --timeline-plot: %s on %s, policy %s, seed %llu\n",
		r->cfg.workload, r->m.name, r->policy->name, (unsigned long long)r->cfg.seed);
	fprintf(gp, "set terminal pngcairo size 960,1400 font ',10'\n"
		"set output '%s'\n"
		"set datafile separator '\\t'\n"
		"set multiplot layout 5,1 title \"%s, %s, %s (seed %llu)\"\n"
		"set key top right opaque\n"
		"set grid\n"
		"set lmargin 12\nset rmargin 12\n"
		"set y2tics\nset ytics nomirror\n", base, quotable(r->cfg.workload, wl, sizeof(wl)),
		r->m.name,
		r->policy->name, (unsigned long long)r->cfg.seed);
	fprintf(gp, "set ylabel '%s a second'\nset y2label 'live objects'\n"
		"plot '%s.dat' using 1:3 with lines lw 2 title '%s a second', "
		"'' using 1:4 axes x1y2 with lines title 'live slab objects'\n",
		unit, base, unit);
	fprintf(gp, "unset y2tics\nunset y2label\nset ytics mirror\nset yrange [0:105]\n"
		"set ylabel '%%'\nset key bottom right opaque\n"
		"plot '%s.dat' using 1:6 with lines title 'CPUs busy', "
		"'' using 1:($6*$7/100) with lines lw 2 title 'in the allocator', "
		"'' using 1:($6*$8/100) with lines title 'spinning on locks'\n", base);
	fprintf(gp, "set autoscale y\nset key top right opaque\nset y2tics\nset ytics nomirror\n"
		"set ylabel 'tasks runnable'\nset y2label 'run-queue wait (ms)'\n"
		"set logscale y2\n"
		"plot '%s.dat' using 1:9 with lines title 'runnable', "
		"'' using 1:($16 > 0 ? $16 : NaN) axes x1y2 with lines lw 2 "
		"title 'mean wait for a CPU', "
		"'' using 1:($17 > 0 ? $17 : NaN) axes x1y2 with lines "
		"title 'after a wake-up'\n", base);
	/* per unit of work once 1% of it is done: the first rows' rates are
	 * too small to divide by */
	fprintf(gp, "unset logscale y2\nset logscale y\n"
		"set ylabel 'us'\nset y2label 'acquisitions / %s'\n"
		"plot '%s.dat' using 1:($21 > 0 ? $21 : NaN) with lines lw 2 "
		"title 'hold (the lock waited on most)', "
		"'' using 1:($20 > 0 ? $20 : NaN) with lines title 'wait', "
		"'' using 1:($3 > 0 && $2 >= %llu ? $18/$3 : NaN) axes x1y2 with lines "
		"title 'taken / %s'\n", unit, base, (unsigned long long)(total / 100), unit);
	fprintf(gp, "unset logscale y\nunset y2tics\nunset y2label\nset ytics mirror\n"
		"set xlabel 'simulated seconds'\nset ylabel 'slabs'\n"
		"plot '%s.dat' using 1:22 with lines lw 2 title 'slabs on partial lists'\n"
		"unset multiplot\n", base);
}

int report_timeline_plot(const char *path, const struct run *r, struct sim_err *err)
{
	char dat[4096];
	snprintf(dat, sizeof(dat), "%s.dat", path);
	if (report_timeline_write(dat, r, err) < 0)
		return -1;
	uint64_t done, total;
	const char *unit;
	run_units(r, &done, &total, &unit);
	FILE *gp = plot_open(path, "gp", err);
	if (!gp)
		return -1;
	write_script(gp, r, plot_base(path), unit, total);
	bool ok = !ferror(gp);
	if (fclose(gp) != 0 || !ok)
		return sim_fail(err, "cannot write %s.gp", path);
	return plot_run_beside(path, err);
}
