/* cmd_tune.c - `slabsim tune`: its options, then the search (study/tune.h)
 * printed: the table of the values tried, DIR/tune.json and, for the
 * Pareto objective, the plot of time against memory. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "report/gnuplot.h"
#include "run/run_core.h"
#include "study/tune.h"

static const char tune_help[] =
	"usage: slabsim tune -m MACHINE -p POLICY -w WORKLOAD PARAM=LO..HI [NAME=VALUE ...]\n"
	"                    [--objective time|memory|pareto] [--budget RUNS] [--grid N]\n"
	"                    [--replicates N] [-j N] [--seed N] [--out DIR]\n"
	"\n"
	"Search PARAM's range for its best value. The range becomes a grid of --grid\n"
	"values (default 9; geometric when HI/LO >= 4, whole numbers for an integer\n"
	"parameter). Successive halving: every value runs 2 replicates; each round\n"
	"keeps the better half and every value whose mean lies within the best one's\n"
	"95% confidence interval, and doubles their replicates, up to --replicates\n"
	"(default 8), until one value is left or --budget runs (default 40) are\n"
	"spent. Prints every value tried (mean, 95% CI, peak slab memory), the best\n"
	"and the knee: the smallest value whose mean is within the best's CI.\n"
	"\n"
	"  --objective time    the simulated time (default); memory: the peak slab\n"
	"                      memory; pareto: every grid value, then the front of\n"
	"                      time against peak slab memory, drawn in DIR/pareto.png\n"
	"  --out DIR           tune.json, runs.jsonl and experiment.json (default\n"
	"                      out/tune-PARAM); `slabsim sweep DIR/experiment.json`\n"
	"                      runs the plain sweep of the same grid and seeds\n"
	"  -j N                runs at a time (default: the CPU count)\n"
	"\n"
	"exit status: 0 done, 1 a run failed, 2 bad usage or input\n";

/* --objective's names, by enum tune_objective. */
static const char *const objective_names[] = {
	[TUNE_TIME] = "time", [TUNE_MEMORY] = "memory", [TUNE_PARETO] = "pareto"
};

/* The options as parsed: the search's, and the fixed NAME=VALUE parameters they point to. */
struct tune_args {
	struct tune_opts o;
	const char *assign[64];
};

/* DIR/pareto.dat and .gp: each value's time against peak slab memory, and the front; then
 * gnuplot draws pareto.png (a failed plot is only reported). */
static int draw_pareto(const struct tune_result *r)
{
	struct sim_err err;
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/pareto", r->dir);
	FILE *dat = plot_open(path, "dat", &err), *gp = dat ? plot_open(path, "gp", &err) : NULL;
	if (!dat || !gp) {
		if (dat)
			fclose(dat);
		return cli_usage_error("tune: %s", err.msg);
	}
	fprintf(dat, "# %s time_s ci_s slab_peak_mb front\n", r->param);
	for (int i = 0; i < r->n; i++)
		if (r->p[i].reps)
			fprintf(dat, "%g %.6g %.6g %.6g %d\n", r->p[i].value, r->p[i].mean,
				r->p[i].ci, r->p[i].mem_mean, tune_on_front(r->p, r->n, &r->p[i]));
	/* index 1: the front alone, by memory (no two front values share it
	 * and one is faster, so by memory is also by time) */
	fprintf(dat, "\n\n# the front, by peak slab memory\n");
	double last = -INFINITY;
	for (;;) {
		const struct tune_point *next = NULL;
		for (int i = 0; i < r->n; i++)
			if (r->p[i].reps && tune_on_front(r->p, r->n, &r->p[i]) &&
			    r->p[i].mem_mean > last && (!next || r->p[i].mem_mean < next->mem_mean))
				next = &r->p[i];
		if (!next)
			break;
		fprintf(dat, "%g %.6g %.6g %.6g 1\n", next->value, next->mean, next->ci,
			next->mem_mean);
		last = next->mem_mean;
	}
	fclose(dat);
	fprintf(gp, "set terminal pngcairo size 800,560 noenhanced\nset output 'pareto.png'\n"
		"set xlabel 'peak slab memory (MB)'\nset ylabel 'time (simulated s)'\n"
		"set title 'tune %s: time against memory (the front joined)'\nset key top right\n"
		"plot 'pareto.dat' index 0 using 4:2:3 with yerrorbars title 'each value (95%% CI)', \\\n"
		"     '' index 0 using 4:2:(sprintf('%%g', $1)) with labels offset 1,1 notitle, \\\n"
		"     '' index 1 using 4:2 with linespoints lw 2 title 'the front'\n", r->param);
	fclose(gp);
	if (plot_run_in(r->dir, "pareto.gp", &err) < 0)
		fprintf(stderr, "tune: no plot: %s\n", err.msg);
	return 0;
}

/* A count option's value (--budget, --grid, --replicates, -j, --seed); 0, or 2 after a
 * message naming its range. */
static int count_opt(struct tune_opts *o, int c, const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);
	if (!*arg || *end || v < 1 ||
	    v > (c == 'B' ? 10000 : c == 'G' ? TUNE_MAX_GRID : c == 'R' ? TUNE_MAX_REPLICATES :
		 c == 'j' ? 1024 : (long)SEED_MAX))
		return cli_usage_error("tune: %s %s: expected a whole number in %s",
				       c == 'B' ? "--budget" : c == 'G' ? "--grid" :
				       c == 'R' ? "--replicates" : c == 'j' ? "-j" : "--seed",
				       arg, c == 'B' ? "1..10000" : c == 'G' ? "2..32" :
				       c == 'R' ? "2..64" : c == 'j' ? "1..1024" :
				       "1..9007199254740991 (2^53 - 1)");
	if (c == 'B')
		o->budget = (int)v;
	else if (c == 'G')
		o->grid = (int)v;
	else if (c == 'R')
		o->max_replicates = (int)v;
	else if (c == 'j')
		o->jobs = (int)v;
	else
		o->seed = (unsigned long long)v;
	return 0;
}

/* --objective NAME; 0, or 2 after a message. */
static int objective_opt(struct tune_opts *o, const char *arg)
{
	for (int i = 0; i <= TUNE_PARETO; i++)
		if (!strcmp(arg, objective_names[i])) {
			o->objective = (enum tune_objective)i;
			return 0;
		}
	return cli_usage_error("tune: --objective %s: expected time, memory or pareto", arg);
}

/* The operands: NAME=VALUE parameters and the one PARAM=LO..HI; 0, or 2 after a message. */
static int tune_operands(struct tune_args *a, int argc, char **argv)
{
	for (; optind < argc; optind++) {
		if (!strchr(argv[optind], '='))
			return cli_usage_error("tune: unknown argument '%s': parameters are NAME=VALUE "
					       "and the one searched PARAM=LO..HI", argv[optind]);
		if (strstr(argv[optind], "..")) {
			if (a->o.range)
				return cli_usage_error("tune: one range at a time ('%s' and '%s')",
						       a->o.range, argv[optind]);
			a->o.range = argv[optind];
		} else if (a->o.nassign < 64) {
			a->assign[a->o.nassign++] = argv[optind];
		}
	}
	return 0;
}

/* The command line into A; -1 to go on, else the exit status (0 after --help). */
static int tune_parse(struct tune_args *a, int argc, char **argv)
{
	struct tune_opts *o = &a->o;
	*o = (struct tune_opts){ .objective = TUNE_TIME, .budget = 40, .grid = 9,
				 .max_replicates = 8, .jobs = (int)sysconf(_SC_NPROCESSORS_ONLN),
				 .seed = 1, .assign = a->assign };
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' }, { "machine", required_argument, NULL, 'm' },
		{ "policy", required_argument, NULL, 'p' }, { "workload", required_argument, NULL, 'w' },
		{ "objective", required_argument, NULL, 'O' }, { "budget", required_argument, NULL, 'B' },
		{ "grid", required_argument, NULL, 'G' }, { "replicates", required_argument, NULL, 'R' },
		{ "seed", required_argument, NULL, 's' }, { "out", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 } };
	optind = 0;
	for (int c; (c = cli_getopt("tune", argc, argv, "hm:p:w:j:", longopts)) != -1;) {
		switch (c) {
		case 'h': return fputs(tune_help, stdout), 0;
		case 'm': o->machine = optarg; break;
		case 'p': o->policy = optarg; break;
		case 'w': o->workload = optarg; break;
		case 'o': o->out = optarg; break;
		case 'O':
			if (objective_opt(o, optarg))
				return 2;
			break;
		case 'B': case 'G': case 'R': case 'j': case 's':
			if (count_opt(o, c, optarg))
				return 2;
			break;
		default: return 2;
		}
	}
	return tune_operands(a, argc, argv) ? 2 : -1;
}

/* The search has its grid: what it is about to run, on stderr. */
static void say_started(void *ctx, const char *param, int n, double lo, double hi)
{
	const struct tune_opts *o = ctx;
	fprintf(stderr, "tune: %s over %d values from %g to %g, at most %d runs\n", param, n, lo,
		hi, o->budget);
}

/* A run failed: which, and why, on stderr. */
static void say_failed(void *ctx, int run, const char *param, double value, int rep,
		       const char *why)
{
	(void)ctx;
	fprintf(stderr, "tune: run %d (%s=%g, replicate %d) failed: %s\n", run, param, value, rep,
		why);
}

/* A round is over: its runs and the values left, on stderr. */
static void say_round(void *ctx, int round, int runs, int left)
{
	(void)ctx;
	fprintf(stderr, "tune: round %d: %d runs, %d values left\n", round, runs, left);
}

/* The table of the values tried, the best and the knee, on stdout. */
static void print_tune(const struct tune_result *r, const struct tune_opts *o)
{
	bool memory = o->objective == TUNE_MEMORY, pareto = o->objective == TUNE_PARETO;
	printf("tune %s on %s, %s, '%s' (objective %s): %d runs in %d round(s); a sweep of the "
	       "grid is %d\n", r->param, o->machine, o->policy, o->workload,
	       objective_names[o->objective], r->runs_used, r->rounds, r->n * o->max_replicates);
	printf("%14s %5s %14s %12s %16s%s\n", r->param, "runs", memory ? "peak MB" : "time (s)",
	       "95% CI", "peak slab (MB)", pareto ? "  front" : "");
	for (int i = 0; i < r->n; i++) {
		const struct tune_point *p = &r->p[i];
		if (!p->reps)
			continue;
		printf("%14g %5d %14.4f %12.4f %16.1f%s%s\n", p->value, p->reps, p->mean,
		       isinf(p->ci) ? 0.0 : p->ci, p->mem_mean,
		       pareto ? (tune_on_front(r->p, r->n, p) ? "  *" : "   ") : "",
		       p == r->best ? "  best" : p == r->knee ? "  knee" : "");
	}
	if (r->best)
		printf("best: %s=%g (%.4f +- %.4f); knee: %s=%g, the smallest value within the "
		       "best's 95%% CI\n", r->param, r->best->value, r->best->mean, r->best->ci,
		       r->param, r->knee->value);
}

/* One value's statistics as tune.json gives them. */
static cJSON *point_json(const struct tune_result *r, const struct tune_point *p, bool pareto)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "value", p->value);
	cJSON_AddNumberToObject(j, "runs", p->reps);
	if (p->reps) {
		cJSON_AddNumberToObject(j, "mean", p->mean);
		cJSON_AddNumberToObject(j, "ci95", isinf(p->ci) ? -1 : p->ci);
		cJSON_AddNumberToObject(j, "slab_mb_peak", p->mem_mean);
		if (pareto)
			cJSON_AddBoolToObject(j, "front", tune_on_front(r->p, r->n, p));
	}
	return j;
}

/* DIR/tune.json: the search's result and every value's statistics; 0, or 2 after a message. */
static int write_tune_json(const struct tune_result *r, const struct tune_opts *o)
{
	cJSON *res = cJSON_CreateObject();
	cJSON_AddStringToObject(res, "param", r->param);
	cJSON_AddStringToObject(res, "objective", objective_names[o->objective]);
	cJSON_AddNumberToObject(res, "runs", r->runs_used);
	cJSON_AddNumberToObject(res, "sweep_runs", r->n * o->max_replicates);
	cJSON_AddNumberToObject(res, "best", r->best ? r->best->value : NAN);
	cJSON_AddNumberToObject(res, "knee", r->knee ? r->knee->value : NAN);
	cJSON *pts = cJSON_AddArrayToObject(res, "values");
	for (int i = 0; i < r->n; i++)
		cJSON_AddItemToArray(pts, point_json(r, &r->p[i], o->objective == TUNE_PARETO));
	char rpath[PATH_MAX];
	snprintf(rpath, sizeof(rpath), "%s/tune.json", r->dir);
	char *text = cJSON_Print(res);
	FILE *f = fopen(rpath, "w");
	int status = 0;
	if (!f || fprintf(f, "%s\n", text) < 0 || fclose(f) != 0)
		status = cli_usage_error("tune: cannot write %s: %s", rpath, strerror(errno));
	free(text);
	cJSON_Delete(res);
	return status;
}

/* The search's answer: the table, tune.json, the Pareto plot and where they are. */
static int report_tune(const struct tune_result *r, const struct tune_opts *o)
{
	print_tune(r, o);
	int status = write_tune_json(r, o);
	if (o->objective == TUNE_PARETO && !status)
		status = draw_pareto(r);
	fflush(stdout);
	fprintf(stderr, "tune: %s/tune.json; the plain sweep of the same grid: slabsim sweep %s\n",
		r->dir, r->experiment_path);
	return status;
}

/* `slabsim tune`: the options, the search, its answer printed. */
int cmd_tune(int argc, char **argv)
{
	struct tune_args a;
	int status = tune_parse(&a, argc, argv);
	if (status >= 0)
		return status;
	a.o.progress = (struct tune_progress){ say_started, say_failed, say_round, &a.o };
	struct sim_err err;
	struct tune_result *r = tune_run(&a.o, &err);
	if (!r)
		return cli_usage_error("tune: %s", err.msg);
	status = r->failed ? 1 : report_tune(r, &a.o);
	tune_result_free(r);
	return status;
}
