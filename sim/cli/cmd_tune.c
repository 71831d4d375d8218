/* cmd_tune.c - `slabsim tune`: the best value of one parameter over a range,
 * by successive halving over replicates (each round keeps the better half
 * of the values, and the values within the best one's confidence interval,
 * and gives them twice the replicates), with fewer runs than a sweep of
 * the same grid. The runs are a sweep's runs of the same experiment (the
 * same seeds), so `slabsim sweep DIR/experiment.json` checks the answer. */
#include <errno.h>
#include <getopt.h>
#include <gsl/gsl_cdf.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "engine/oom.h"
#include "report/gnuplot.h"
#include "report/report.h"
#include "study/sweep.h"

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

#define TUNE_MAX_GRID 32

struct tune_point {
	double value;
	int reps;		/* replicates run */
	double t[64], mem[64];	/* each replicate's time and peak slab memory (MB) */
	bool alive;
	double mean, ci, mem_mean;
};

struct tune {
	struct experiment e;
	struct tune_point p[TUNE_MAX_GRID];
	int n;
	int runs_used, failed;
	const char *objective;
};

/* The mean of x[0..n), and in *ci its 95% CI half-width (Student's t; infinite for one). */
static double mean_ci(const double *x, int n, double *ci)
{
	double m = 0, ss = 0;
	for (int i = 0; i < n; i++)
		m += x[i];
	m /= n;
	for (int i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*ci = n > 1 ? gsl_cdf_tdist_Pinv(0.975, n - 1) * sqrt(ss / (n - 1)) / sqrt(n) : INFINITY;
	return m;
}

/* A point's mean and CI: of its times, or of its peak slab memory with `memory`; mem_mean
 * always. */
static void point_stats(struct tune_point *p, bool memory)
{
	double ci;
	p->mem_mean = mean_ci(p->mem, p->reps, &ci);
	p->mean = memory ? p->mem_mean : mean_ci(p->t, p->reps, &p->ci);
	if (memory)
		p->ci = ci;
}

struct tune_collect {
	struct tune *tn;
	FILE *jsonl;
};

/* A finished run: its time and peak slab memory to its point. */
static void on_done(void *ctx, int run, const char *line, const char *why)
{
	struct tune_collect *c = ctx;
	struct tune *tn = c->tn;
	struct tune_point *p = &tn->p[run / tn->e.replicates];
	int rep = run % tn->e.replicates;
	cJSON *j = line ? cJSON_Parse(line) : NULL;
	const cJSON *res = j ? cJSON_GetObjectItemCaseSensitive(j, "result") : NULL;
	const cJSON *mem = j ? cJSON_GetObjectItemCaseSensitive(j, "memory") : NULL;
	const cJSON *inv = j ? cJSON_GetObjectItemCaseSensitive(j, "invariants") : NULL;
	if (!res || !cJSON_IsString(inv) || strcmp(inv->valuestring, "ok")) {
		fprintf(stderr, "tune: run %d (%s=%g, replicate %d) failed: %s\n", run,
			tn->e.dim[tn->e.ndims - 1].name, p->value, rep,
			why ? why : cJSON_IsString(inv) ? inv->valuestring : "no result");
		tn->failed++;
	} else {
		p->t[rep] = cJSON_GetObjectItemCaseSensitive(res, "sim_seconds")->valuedouble;
		p->mem[rep] = cJSON_GetObjectItemCaseSensitive(mem, "slab_bytes_peak")->valuedouble /
			      1048576.0;
		fprintf(c->jsonl, "%s\n", line);
	}
	cJSON_Delete(j);
}

/* Run replicates [p->reps, reps) of every alive point, at most `budget`
 * runs; returns the runs done. */
static int run_round(struct tune *tn, int reps, int budget, int jobs, const char dir[2048],
		     FILE *jsonl)
{
	int todo[TUNE_MAX_GRID * 64], n = 0;
	for (int r = 0; r < reps; r++)	/* replicate by replicate: a cut budget cuts evenly */
		for (int i = 0; i < tn->n && n < budget; i++)
			if (tn->p[i].alive && r >= tn->p[i].reps)
				todo[n++] = i * tn->e.replicates + r;
	if (!n)
		return 0;
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof(tmp), "%s/.running", dir);
	mkdir(tmp, 0755);
	struct tune_collect c = { tn, jsonl };
	sweep_local(&tn->e, todo, n, jobs, 0, tmp, on_done, &c);
	rmdir(tmp);
	for (int k = 0; k < n; k++) {
		struct tune_point *p = &tn->p[todo[k] / tn->e.replicates];
		int r = todo[k] % tn->e.replicates + 1;
		if (r > p->reps)
			p->reps = r;
	}
	tn->runs_used += n;
	return n;
}

/* Points (by pointer) by mean, lowest first. */
static int by_mean(const void *a, const void *b)
{
	const struct tune_point *x = *(struct tune_point *const *)a;
	const struct tune_point *y = *(struct tune_point *const *)b;
	return x->mean < y->mean ? -1 : x->mean > y->mean;
}

/* The alive point with the lowest mean. */
static struct tune_point *best_point(struct tune *tn, bool alive_only)
{
	struct tune_point *best = NULL;
	for (int i = 0; i < tn->n; i++)
		if ((!alive_only || tn->p[i].alive) && tn->p[i].reps &&
		    (!best || tn->p[i].mean < best->mean))
			best = &tn->p[i];
	return best;
}

/* Keep the better half of the alive points, and from 4 replicates on those
 * within the best's 95% CI (with 2, Student's t makes every CI too wide to
 * tell anything apart). */
static int halve(struct tune *tn, bool memory)
{
	struct tune_point *alive[TUNE_MAX_GRID];
	int n = 0;
	for (int i = 0; i < tn->n; i++)
		if (tn->p[i].alive) {
			point_stats(&tn->p[i], memory);
			alive[n++] = &tn->p[i];
		}
	qsort(alive, (size_t)n, sizeof(alive[0]), by_mean);
	int keep = (n + 1) / 2, left = 0;
	for (int i = 0; i < n; i++) {
		bool near = alive[0]->reps >= 4 && alive[i]->mean <= alive[0]->mean + alive[0]->ci;
		alive[i]->alive = i < keep || near;
		left += alive[i]->alive;
	}
	return left;
}

/* PARAM=LO..HI into a grid of up to `want` values: geometric when HI/LO >=
 * 4, whole numbers unless a bound has a fraction (repeats dropped). */
static int make_grid(const char *range, char *param, size_t psize, double *v, int want)
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

/* The experiment of the whole grid, as a sweep would run it. */
static int build_experiment(struct tune *tn, const char *machine, const char *policy,
			    const char *workload, const char *param, const char **assign, int nassign,
			    int replicates, unsigned long long seed, const char *dir, char *path,
			    size_t psize, struct sim_err *err)
{
	cJSON *root = cJSON_CreateObject();
	char name[128];
	snprintf(name, sizeof(name), "tune-%s", param);
	cJSON_AddStringToObject(root, "name", name);
	cJSON_AddStringToObject(root, "question", "slabsim tune: the best value of the parameter");
	cJSON_AddItemToObject(root, "machines", cJSON_CreateStringArray(&machine, 1));
	cJSON_AddItemToObject(root, "policies", cJSON_CreateStringArray(&policy, 1));
	cJSON_AddItemToObject(root, "workloads", cJSON_CreateStringArray(&workload, 1));
	cJSON *fixed = cJSON_AddObjectToObject(root, "fixed");
	for (int i = 0; i < nassign; i++) {
		const char *eq = strchr(assign[i], '=');
		char key[128];
		snprintf(key, sizeof(key), "%.*s", (int)(eq - assign[i]), assign[i]);
		cJSON_AddStringToObject(fixed, key, eq + 1);	/* as the command line spells it */
	}
	cJSON *axes = cJSON_AddArrayToObject(root, "axes");
	cJSON *ax = cJSON_CreateObject();
	cJSON_AddStringToObject(ax, "param", param);
	cJSON *vals = cJSON_AddArrayToObject(ax, "values");
	for (int i = 0; i < tn->n; i++)
		cJSON_AddItemToArray(vals, cJSON_CreateNumber(tn->p[i].value));
	cJSON_AddItemToArray(axes, ax);
	cJSON_AddNumberToObject(root, "replicates", replicates);
	report_add_u64(root, "seed", seed);
	char *text = cJSON_Print(root);
	cJSON_Delete(root);
	snprintf(path, psize, "%s/experiment.json", dir);
	FILE *f = fopen(path, "w");
	if (!f || fprintf(f, "%s\n", text) < 0 || fclose(f) != 0) {
		free(text);
		return sim_fail(err, "cannot write %s: %s", path, strerror(errno));
	}
	int rc = experiment_parse(&tn->e, path, text, err);
	free(text);
	if (rc < 0 || experiment_expand(&tn->e, err) < 0)
		return -1;
	return 0;
}

/* The values on the front of time against peak slab memory: no other
 * value is at least as fast and as small and better in one. */
static bool on_front(const struct tune *tn, const struct tune_point *p)
{
	for (int i = 0; i < tn->n; i++) {
		const struct tune_point *q = &tn->p[i];
		if (q == p || !q->reps)
			continue;
		if (q->mean <= p->mean && q->mem_mean <= p->mem_mean &&
		    (q->mean < p->mean || q->mem_mean < p->mem_mean))
			return false;
	}
	return true;
}

/* DIR/pareto.dat and .gp: each value's time against peak slab memory, and the front; then
 * gnuplot draws pareto.png (a failed plot is only reported). */
static int draw_pareto(const struct tune *tn, const char dir[2048], const char *param)
{
	struct sim_err err;
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/pareto", dir);
	FILE *dat = plot_open(path, "dat", &err), *gp = dat ? plot_open(path, "gp", &err) : NULL;
	if (!dat || !gp) {
		if (dat)
			fclose(dat);
		return cli_usage_error("tune: %s", err.msg);
	}
	fprintf(dat, "# %s time_s ci_s slab_peak_mb front\n", param);
	for (int i = 0; i < tn->n; i++)
		if (tn->p[i].reps)
			fprintf(dat, "%g %.6g %.6g %.6g %d\n", tn->p[i].value, tn->p[i].mean,
				tn->p[i].ci, tn->p[i].mem_mean, on_front(tn, &tn->p[i]));
	/* index 1: the front alone, by memory (no two front values share it
	 * and one is faster, so by memory is also by time) */
	fprintf(dat, "\n\n# the front, by peak slab memory\n");
	double last = -INFINITY;
	for (;;) {
		const struct tune_point *next = NULL;
		for (int i = 0; i < tn->n; i++)
			if (tn->p[i].reps && on_front(tn, &tn->p[i]) && tn->p[i].mem_mean > last &&
			    (!next || tn->p[i].mem_mean < next->mem_mean))
				next = &tn->p[i];
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
		"     '' index 1 using 4:2 with linespoints lw 2 title 'the front'\n", param);
	fclose(gp);
	if (plot_run_in(dir, "pareto.gp", &err) < 0)
		fprintf(stderr, "tune: no plot: %s\n", err.msg);
	return 0;
}

struct tune_opts {
	const char *machine, *policy, *workload, *objective, *out, *range;
	const char *assign[64];
	int nassign, budget, grid, maxrep, jobs;
	unsigned long long seed;
};

/* A count option's value (--budget, --grid, --replicates, -j, --seed); 0, or 2 after a
 * message naming its range. */
static int count_opt(struct tune_opts *o, int c, const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);
	if (!*arg || *end || v < 1 ||
	    v > (c == 'B' ? 10000 : c == 'G' ? TUNE_MAX_GRID : c == 'R' ? 64 :
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
		o->maxrep = (int)v;
	else if (c == 'j')
		o->jobs = (int)v;
	else
		o->seed = (unsigned long long)v;
	return 0;
}

/* The operands: NAME=VALUE parameters and the one PARAM=LO..HI; 0, or 2 after a message. */
static int tune_operands(struct tune_opts *o, int argc, char **argv)
{
	for (; optind < argc; optind++) {
		if (!strchr(argv[optind], '='))
			return cli_usage_error("tune: unknown argument '%s': parameters are NAME=VALUE "
					       "and the one searched PARAM=LO..HI", argv[optind]);
		if (strstr(argv[optind], "..")) {
			if (o->range)
				return cli_usage_error("tune: one range at a time ('%s' and '%s')",
						       o->range, argv[optind]);
			o->range = argv[optind];
		} else if (o->nassign < 64) {
			o->assign[o->nassign++] = argv[optind];
		}
	}
	if (!o->machine || !o->policy || !o->workload)
		return cli_usage_error("tune: -m MACHINE, -p POLICY and -w WORKLOAD are required");
	if (!o->range)
		return cli_usage_error("tune: no range to search: give PARAM=LO..HI, e.g. "
				       "slub_min_objects=4..64");
	if (o->grid < 2 || o->maxrep < 2)
		return cli_usage_error("tune: --grid and --replicates must be at least 2");
	return 0;
}

/* The command line; -1 to go on, else the exit status (0 after --help). */
static int tune_parse(struct tune_opts *o, int argc, char **argv)
{
	*o = (struct tune_opts){ .objective = "time", .budget = 40, .grid = 9, .maxrep = 8,
				 .jobs = (int)sysconf(_SC_NPROCESSORS_ONLN), .seed = 1 };
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
			if (strcmp(optarg, "time") && strcmp(optarg, "memory") && strcmp(optarg, "pareto"))
				return cli_usage_error("tune: --objective %s: expected time, memory or "
						       "pareto", optarg);
			o->objective = optarg;
			break;
		case 'B': case 'G': case 'R': case 'j': case 's':
			if (count_opt(o, c, optarg))
				return 2;
			break;
		default: return 2;
		}
	}
	return tune_operands(o, argc, argv) ? 2 : -1;
}

/* Successive halving: rounds of replicates, doubling each round, over the values still
 * alive; the rounds run. */
static int tune_search(struct tune *tn, const struct tune_opts *o, const char *dir, FILE *jsonl,
		       bool memory, bool pareto)
{
	int reps = 2, rounds = 0;
	sweep_catch_interrupts();
	for (;;) {
		int did = run_round(tn, reps, o->budget - tn->runs_used, o->jobs, dir, jsonl);
		rounds++;
		if (sweep_interrupted || tn->failed)
			break;
		int left = pareto ? tn->n : halve(tn, memory);
		for (int i = 0; i < tn->n; i++)
			if (tn->p[i].reps)
				point_stats(&tn->p[i], memory);
		fprintf(stderr, "tune: round %d: %d runs, %d values left\n", rounds, did, left);
		if (pareto || left <= 1 || reps >= o->maxrep || tn->runs_used >= o->budget || !did)
			break;
		reps = reps * 2 > o->maxrep ? o->maxrep : reps * 2;
	}
	return rounds;
}

/* The smallest value within the best's 95% CI. */
static struct tune_point *knee_of(struct tune *tn, struct tune_point *best)
{
	for (int i = 0; i < tn->n && best; i++)
		if (tn->p[i].reps && tn->p[i].mean <= best->mean + best->ci)
			return &tn->p[i];
	return best;
}

/* The table of the values tried, the best and the knee, on stdout. */
static void print_tune(const struct tune *tn, const struct tune_opts *o, const char *param,
		       int rounds, const struct tune_point *best, const struct tune_point *knee)
{
	bool memory = !strcmp(o->objective, "memory"), pareto = !strcmp(o->objective, "pareto");
	printf("tune %s on %s, %s, '%s' (objective %s): %d runs in %d round(s); a sweep of the "
	       "grid is %d\n", param, o->machine, o->policy, o->workload, o->objective,
	       tn->runs_used, rounds, tn->n * o->maxrep);
	printf("%14s %5s %14s %12s %16s%s\n", param, "runs", memory ? "peak MB" : "time (s)",
	       "95% CI", "peak slab (MB)", pareto ? "  front" : "");
	for (int i = 0; i < tn->n; i++) {
		const struct tune_point *p = &tn->p[i];
		if (!p->reps)
			continue;
		printf("%14g %5d %14.4f %12.4f %16.1f%s%s\n", p->value, p->reps, p->mean,
		       isinf(p->ci) ? 0.0 : p->ci, p->mem_mean,
		       pareto ? (on_front(tn, p) ? "  *" : "   ") : "",
		       p == best ? "  best" : p == knee ? "  knee" : "");
	}
	if (best)
		printf("best: %s=%g (%.4f +- %.4f); knee: %s=%g, the smallest value within the "
		       "best's 95%% CI\n", param, best->value, best->mean, best->ci, param,
		       knee->value);
}

/* DIR/tune.json: the search's result and every value's statistics; 0, or 2 after a message. */
static int write_tune_json(const struct tune *tn, const struct tune_opts *o, const char *param,
			   const char *dir, const struct tune_point *best,
			   const struct tune_point *knee)
{
	bool pareto = !strcmp(o->objective, "pareto");
	cJSON *res = cJSON_CreateObject();
	cJSON_AddStringToObject(res, "param", param);
	cJSON_AddStringToObject(res, "objective", o->objective);
	cJSON_AddNumberToObject(res, "runs", tn->runs_used);
	cJSON_AddNumberToObject(res, "sweep_runs", tn->n * o->maxrep);
	cJSON_AddNumberToObject(res, "best", best ? best->value : NAN);
	cJSON_AddNumberToObject(res, "knee", knee ? knee->value : NAN);
	cJSON *pts = cJSON_AddArrayToObject(res, "values");
	for (int i = 0; i < tn->n; i++) {
		const struct tune_point *p = &tn->p[i];
		cJSON *j = cJSON_CreateObject();
		cJSON_AddNumberToObject(j, "value", p->value);
		cJSON_AddNumberToObject(j, "runs", p->reps);
		if (p->reps) {
			cJSON_AddNumberToObject(j, "mean", p->mean);
			cJSON_AddNumberToObject(j, "ci95", isinf(p->ci) ? -1 : p->ci);
			cJSON_AddNumberToObject(j, "slab_mb_peak", p->mem_mean);
			if (pareto)
				cJSON_AddBoolToObject(j, "front", on_front(tn, p));
		}
		cJSON_AddItemToArray(pts, j);
	}
	char rpath[PATH_MAX];
	snprintf(rpath, sizeof(rpath), "%s/tune.json", dir);
	char *text = cJSON_Print(res);
	FILE *f = fopen(rpath, "w");
	int status = 0;
	if (!f || fprintf(f, "%s\n", text) < 0 || fclose(f) != 0)
		status = cli_usage_error("tune: cannot write %s: %s", rpath, strerror(errno));
	free(text);
	cJSON_Delete(res);
	return status;
}

/* The grid of values to search, into a fresh tune; NULL after a message. */
static struct tune *tune_grid(const struct tune_opts *o, char *param, size_t psize)
{
	struct tune *tn = calloc(1, sizeof(*tn));
	double vals[TUNE_MAX_GRID];
	if (!tn)
		host_oom(__func__);
	tn->n = make_grid(o->range, param, psize, vals, o->grid);
	if (tn->n < 2) {
		free(tn);
		cli_usage_error("tune: '%s': expected PARAM=LO..HI with LO < HI and at least two "
				"values between", o->range);
		return NULL;
	}
	for (int i = 0; i < tn->n; i++)
		tn->p[i] = (struct tune_point){ .value = vals[i], .alive = true };
	return tn;
}

int cmd_tune(int argc, char **argv)
{
	struct tune_opts o;
	int status = tune_parse(&o, argc, argv);
	if (status >= 0)
		return status;
	status = 0;
	char param[64], dir[2048], epath[PATH_MAX], jpath[PATH_MAX];
	if (o.out && strlen(o.out) >= sizeof(dir))
		return cli_usage_error("tune: --out: a path of at most %zu characters", sizeof(dir) - 1);
	struct tune *tn = tune_grid(&o, param, sizeof(param));
	if (!tn)
		return 2;
	snprintf(dir, sizeof(dir), "%s", o.out ? o.out : "");
	if (!o.out)
		snprintf(dir, sizeof(dir), "out/tune-%s", param);
	struct sim_err err;
	FILE *jsonl = NULL;
	snprintf(jpath, sizeof(jpath), "%s/runs.jsonl", dir);
	if (sweep_make_dirs(dir, &err) < 0 ||
	    build_experiment(tn, o.machine, o.policy, o.workload, param, o.assign, o.nassign,
			     o.maxrep, o.seed, dir, epath, sizeof(epath), &err) < 0)
		status = cli_usage_error("tune: %s", err.msg);
	else if (!(jsonl = fopen(jpath, "w")))
		status = cli_usage_error("tune: cannot write %s: %s", jpath, strerror(errno));
	if (status)
		goto done;
	bool memory = !strcmp(o.objective, "memory"), pareto = !strcmp(o.objective, "pareto");
	fprintf(stderr, "tune: %s over %d values from %g to %g, at most %d runs\n", param, tn->n,
		tn->p[0].value, tn->p[tn->n - 1].value, o.budget);
	int rounds = tune_search(tn, &o, dir, jsonl, memory, pareto);
	fclose(jsonl);
	if (tn->failed) {
		status = 1;
		goto done;
	}
	struct tune_point *best = best_point(tn, !pareto), *knee = knee_of(tn, best);
	print_tune(tn, &o, param, rounds, best, knee);
	status = write_tune_json(tn, &o, param, dir, best, knee);
	if (pareto && !status)
		status = draw_pareto(tn, dir, param);
	fflush(stdout);
	fprintf(stderr, "tune: %s/tune.json; the plain sweep of the same grid: slabsim sweep %s\n",
		dir, epath);
done:
	experiment_free(&tn->e);
	free(tn);
	return status;
}
