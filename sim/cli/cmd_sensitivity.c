/* cmd_sensitivity.c - `slabsim sensitivity CASE`: how much a validation
 * case's figures depend on the estimated and fitted figures of its machines:
 * each figure at both ends of its range (one at a time), and optionally a
 * Morris screening, each variant a `validate` of the case on a copy of the
 * machine files; a table per check, sensitivity.json and tornado plots. */
#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "engine/json_in.h"
#include "engine/oom.h"
#include "hw/machine.h"
#include "report/gnuplot.h"
#include "report/report.h"
#include "run/sensitivity.h"
#include "study/validate.h"

static const char sensitivity_help[] =
	"usage: slabsim sensitivity CASE [NAME=VALUE ...] [--figures LIST] [--all]\n"
	"                           [--replicates N] [--morris R] [--levels P] [--seed S]\n"
	"                           [--limit N] [-j N] [--out DIR] [--no-plot] [--list]\n"
	"\n"
	"How much a validation case's figures depend on numbers nobody measured:\n"
	"every estimated or fitted figure of the case's machines and their cost\n"
	"tables, each with the range its machine file gives it (\"ranges\"; without\n"
	"one an estimate or a fitted figure +-25%, a measured one +-5%). Each figure\n"
	"is set to the low and to the high end of its range, one at a time, and the\n"
	"case is run as `slabsim validate` runs it; the table gives, for each check,\n"
	"the figures that move it most: the change at each end and the effect\n"
	"(high minus low) as a share of the check's value at the figures' own\n"
	"values, with a 95% CI when the case has 2 replicates or more.\n"
	"\n"
	"  CASE           a case name (C3, V1, ...) or a case file\n"
	"  NAME=VALUE     set a parameter of every run (a smaller size: loops=200)\n"
	"  --figures LIST comma-separated patterns of figures (NAME or MACHINE:NAME,\n"
	"                 shell wildcards: 'handoff_cycles.*,costs.slub.*')\n"
	"  --all          measured figures too\n"
	"  --replicates N replicates a point (default: the case's)\n"
	"  --morris R     also a Morris screening of R trajectories (R x (figures+1)\n"
	"                 runs of the case): each figure's mean |elementary effect|\n"
	"                 (mu*), mean (mu) and sd (sigma), all figures moving together\n"
	"  --levels P     the Morris grid's levels (even, default 4)\n"
	"  --seed S       the Morris design's seed (default 1)\n"
	"  --limit N      figures a check in the table (default 10; 0 for all)\n"
	"  -j N           runs at a time (default: the CPU count)\n"
	"  --out DIR      results folder (default out/sensitivity-CASE); each variant's\n"
	"                 runs stay in DIR/runs/, and a variant already run is kept\n"
	"  --no-plot      write no plot\n"
	"  --list         list the figures and their ranges, run nothing\n"
	"\n"
	"Writes DIR/sensitivity.json, DIR/table.txt and DIR/tornado-N.png (one a\n"
	"check). exit status: 0 done, 1 a variant's runs failed, 2 bad usage or input\n";

struct sens_opts {
	const char *casename, *figures, *out;
	bool all, list, no_plot;
	int jobs, replicates, morris, levels, limit;
	unsigned long seed;
	char **sets;
	int nsets;
	char outbuf[512];
};

/* A check's value at one variant: its mean, its 95% CI's half-width (NAN
 * without one) and each replicate's value (validate's summary "values"). */
#define SENS_MAX_VALUES 32
struct sens_value {
	double mean, half;
	double v[SENS_MAX_VALUES];
	int n;
};

/* The options; -1 to go on, else the exit status (0 after --help). */
static int parse_opts(int argc, char **argv, struct sens_opts *o)
{
	memset(o, 0, sizeof(*o));
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	o->jobs = ncpu > 0 ? (int)ncpu : 1;
	o->levels = 4;
	o->limit = 10;
	o->seed = 1;
	o->sets = calloc((size_t)argc + 1, sizeof(*o->sets));
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' }, { "all", no_argument, NULL, 'a' },
		{ "list", no_argument, NULL, 'l' }, { "no-plot", no_argument, NULL, 'n' },
		{ "figures", required_argument, NULL, 'f' }, { "out", required_argument, NULL, 'o' },
		{ "replicates", required_argument, NULL, 'r' },
		{ "morris", required_argument, NULL, 'm' }, { "levels", required_argument, NULL, 'L' },
		{ "seed", required_argument, NULL, 's' }, { "limit", required_argument, NULL, 'N' },
		{ NULL, 0, NULL, 0 } };
	optind = 0;
	for (int c; (c = cli_getopt("sensitivity", argc, argv, "hj:", longopts)) != -1;) {
		char *end = NULL;
		bool numeric = c > 0 && strchr("jrmLsN", c);
		long v = numeric ? strtol(optarg, &end, 10) : 0;
		bool bad = numeric && (end == optarg || *end || v < 0 || v > 100000);
		switch (c) {
		case 'h': fputs(sensitivity_help, stdout); return 0;
		case 'a': o->all = true; break;
		case 'l': o->list = true; break;
		case 'n': o->no_plot = true; break;
		case 'f': o->figures = optarg; break;
		case 'o': o->out = optarg; break;
		case 'j': o->jobs = (int)v; bad |= v < 1; break;
		case 'r': o->replicates = (int)v; bad |= v < 1; break;
		case 'm': o->morris = (int)v; break;
		case 'L': o->levels = (int)v; bad |= v < 2 || v % 2; break;
		case 's': o->seed = (unsigned long)v; break;
		case 'N': o->limit = (int)v; break;
		default: return 2;
		}
		if (bad)
			return cli_usage_error("sensitivity: %s %s: not a valid count%s", c == 'j' ? "-j"
					       : c == 'r' ? "--replicates" : c == 'm' ? "--morris"
					       : c == 'L' ? "--levels" : c == 's' ? "--seed" : "--limit",
					       optarg, c == 'L' ? " (an even number of levels >= 2)" : "");
	}
	for (; optind < argc; optind++) {
		if (strchr(argv[optind], '='))
			o->sets[o->nsets++] = argv[optind];
		else if (!o->casename)
			o->casename = argv[optind];
		else
			return cli_usage_error("sensitivity: one case at a time ('%s' and '%s')",
					       o->casename, argv[optind]);
	}
	if (!o->casename)
		return cli_usage_error("sensitivity: which case? (slabsim validate --list lists them)");
	return -1;
}

/* The comma-separated names of the case's machines and of its policies. */
static void case_names(const struct val_case *vc, char *machines, size_t msize, char *policies,
		       size_t psize)
{
	machines[0] = policies[0] = 0;
	for (int i = 0; i < vc->e.npoints; i++) {
		const char *m = experiment_machine(&vc->e, &vc->e.points[i]);
		const char *p = experiment_policy(&vc->e, &vc->e.points[i]);
		char pat[80];
		snprintf(pat, sizeof(pat), ",%s,", m);
		char have[1100];
		snprintf(have, sizeof(have), ",%s,", machines);
		if (!strstr(have, pat))
			snprintf(machines + strlen(machines), msize - strlen(machines), "%s%s",
				 machines[0] ? "," : "", m);
		snprintf(pat, sizeof(pat), ",%s,", p);
		snprintf(have, sizeof(have), ",%s,", policies);
		if (!strstr(have, pat))
			snprintf(policies + strlen(policies), psize - strlen(policies), "%s%s",
				 policies[0] ? "," : "", p);
	}
}

/* Every figure of every machine of the case, those --figures picks. */
static int case_figures(const struct sens_opts *o, const struct val_case *vc,
			struct sens_figure **out, struct sim_err *err)
{
	char machines[1024], policies[256], *save = NULL;
	case_names(vc, machines, sizeof(machines), policies, sizeof(policies));
	struct sens_figure *all = NULL;
	int n = 0;
	for (char *m = strtok_r(machines, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
		struct sens_figure *f;
		int k = sens_figures(m, policies, o->all, &f, err);
		if (k < 0) {
			free(all);
			return -1;
		}
		all = realloc(all, (size_t)(n + k + 1) * sizeof(*all));
		if (!all)
			host_oom(__func__);
		memcpy(all + n, f, (size_t)k * sizeof(*f));
		n += k;
		free(f);
	}
	if (n && o->figures && (n = sens_select(all, n, o->figures, err)) < 0) {
		free(all);
		return -1;
	}
	*out = all;
	return n;
}

/* --list: each figure, its value, its range and where the range comes from. */
static void list_figures(const struct sens_figure *f, int n)
{
	static const char *const origin[] = { "measured", "estimate", "fitted" };
	printf("%-46s %10s %21s  %s\n", "figure", "value", "range", "range from");
	for (int i = 0; i < n; i++) {
		char name[200], range[64];
		snprintf(name, sizeof(name), "%s:%s", f[i].machine, f[i].name);
		snprintf(range, sizeof(range), "%g .. %g", f[i].lo, f[i].hi);
		printf("%-46s %10g %21s  %s%s%s\n", name, f[i].value, range, origin[f[i].origin],
		       f[i].range_given ? ", the machine file's range"
		       : f[i].origin == SENS_MEASURED ? ", +-5%" : ", +-25%",
		       f[i].clamped ? ", within its neighbour classes" : "");
	}
	printf("%d figures\n", n);
}

/* The case file FROM with the command line's NAME=VALUE in its experiment's
 * "fixed" and --replicates (a case judging another's runs has no
 * experiment: copied as it is), written to PATH, where validate reads it. */
static int write_case(const struct sens_opts *o, const char *from, const char *path,
		      struct sim_err *err)
{
	cJSON *root = json_read_file(from, err), *e, *fixed;
	if (!root)
		return -1;
	e = cJSON_GetObjectItemCaseSensitive(root, "experiment");
	fixed = cJSON_GetObjectItemCaseSensitive(e, "fixed");
	if (e && !fixed)
		fixed = cJSON_AddObjectToObject(e, "fixed");
	for (int i = 0; e && i < o->nsets; i++) {
		char name[128], *end;
		const char *eq = strchr(o->sets[i], '=');
		snprintf(name, sizeof(name), "%.*s", (int)(eq - o->sets[i]), o->sets[i]);
		double v = strtod(eq + 1, &end);
		cJSON_DeleteItemFromObjectCaseSensitive(fixed, name);
		if (*end || end == eq + 1)
			cJSON_AddStringToObject(fixed, name, eq + 1);
		else
			cJSON_AddNumberToObject(fixed, name, v);
	}
	if (e && o->replicates) {
		cJSON_DeleteItemFromObjectCaseSensitive(e, "replicates");
		cJSON_AddNumberToObject(e, "replicates", o->replicates);
	}
	char *text = cJSON_Print(root);
	FILE *f = fopen(path, "w");
	int rc = f && fputs(text, f) >= 0 ? 0 : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	free(text);
	cJSON_Delete(root);
	return rc < 0 ? sim_fail(err, "cannot write %s: %s", path, strerror(errno)) : 0;
}

/* mkdir -p DIR. */
static int make_dir(const char *dir, struct sim_err *err)
{
	char buf[700];
	snprintf(buf, sizeof(buf), "%s", dir);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(buf, 0755) < 0 && errno != EEXIST)
				return sim_fail(err, "cannot make %s: %s", buf, strerror(errno));
			*p = '/';
		}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return sim_fail(err, "cannot make %s: %s", buf, strerror(errno));
	return 0;
}

/* Run `slabsim validate CASEFILES --out OUT` (with FROM, `--from OUT`:
 * judge its runs again, run nothing) with the machine files of MACHDIR and
 * the case files of DIR found first; its output goes to OUT.log. 0 when it
 * judged the cases (every run gave its JSON), -1 with err set. */
static int spawn_validate(const struct sens_opts *o, const char *machdir, char *const *casefiles,
			  int ncases, const char *out, bool from, struct sim_err *err)
{
	char dirs[4096], cases[2048], jobs[16], log[900];
	snprintf(dirs, sizeof(dirs), "%s:%s", machdir, machine_dirs());
	snprintf(cases, sizeof(cases), "%s:%s", o->out, val_case_dirs());
	snprintf(jobs, sizeof(jobs), "%d", o->jobs);
	snprintf(log, sizeof(log), "%s.log", out);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return sim_fail(err, "fork: %s", strerror(errno));
	if (pid == 0) {
		FILE *l = freopen(log, "w", stdout);
		if (!l || !freopen(log, "a", stderr))
			_exit(2);
		setenv("SLABSIM_MACHINES", dirs, 1);
		setenv("SLABSIM_VALIDATION", cases, 1);
		char *argv[12] = { "slabsim", "validate", casefiles[0] }, **a = argv + 3;
		if (ncases > 1)
			*a++ = casefiles[1];
		*a++ = "--out", *a++ = (char *)out, *a++ = "--no-plot", *a++ = "-j", *a++ = jobs;
		if (from)
			*a++ = "--from", *a++ = (char *)out;
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	int status;
	if (waitpid(pid, &status, 0) < 0)
		return sim_fail(err, "waitpid: %s", strerror(errno));
	int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 3;
	if (rc == 0 || rc == 1)	/* 1: a check outside its band, as expected of variants */
		return 0;
	return sim_fail(err, "the runs of %s failed (exit %d): see %s", out, rc, log);
}

/* Case NAME's checks as judged in OUT/summary.json: VALS[i] for check i;
 * 1 if the summary has not judged that case, 2 if another model made its
 * runs (or there is none). */
static int read_checks(const char *out, const char *name, struct sens_value *vals, int n,
		       struct sim_err *err)
{
	char path[900];
	snprintf(path, sizeof(path), "%s/summary.json", out);
	if (access(path, R_OK) != 0)
		return 2;
	cJSON *s = json_read_file(path, err), *cs;
	if (!s)
		return -1;
	const char *model = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(s, "model_digest"));
	if (!model || strcmp(model, report_model_digest())) {
		cJSON_Delete(s);
		return 2;
	}
	const cJSON *checks = NULL;
	cJSON_ArrayForEach(cs, cJSON_GetObjectItemCaseSensitive(s, "cases"))
		if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cs, "case")) ?: "",
			    name))
			checks = cJSON_GetObjectItemCaseSensitive(cs, "checks");
	if (!checks) {
		cJSON_Delete(s);
		return 1;
	}
	int rc = cJSON_GetArraySize(checks) == n ? 0
		: sim_fail(err, "%s: %d checks, the case has %d", path,
			   cJSON_GetArraySize(checks), n);
	for (int i = 0; rc == 0 && i < n; i++) {
		const cJSON *c = cJSON_GetArrayItem(checks, i);
		const cJSON *sim = cJSON_GetObjectItemCaseSensitive(c, "simulated");
		const cJSON *ci = cJSON_GetObjectItemCaseSensitive(c, "ci95");
		vals[i].mean = cJSON_IsNumber(sim) ? sim->valuedouble : NAN;
		vals[i].half = cJSON_GetArraySize(ci) == 2
			? (cJSON_GetArrayItem(ci, 1)->valuedouble -
			   cJSON_GetArrayItem(ci, 0)->valuedouble) / 2 : NAN;
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, "values"), *x;
		vals[i].n = 0;
		cJSON_ArrayForEach(x, v)
			if (vals[i].n < SENS_MAX_VALUES)
				vals[i].v[vals[i].n++] = cJSON_IsNumber(x) ? x->valuedouble : NAN;
	}
	cJSON_Delete(s);
	return rc;
}

struct sens_ctx {
	const struct sens_opts *o;
	const struct val_case *vc;
	const struct sens_figure *f;
	int nf;
	char *casefiles[2];	/* the case's file (or the one whose runs it judges), its own */
	int ncases;
	int done, total;
};

/* One variant NAME: every figure at VALUES; its checks into VALS. A variant
 * whose summary is already in DIR/runs/NAME, made by this model, is read,
 * not run again. */
static int run_variant(struct sens_ctx *c, const char *name, const double *values,
		       struct sens_value *vals, struct sim_err *err)
{
	char dir[700], machdir[760], out[760], path[900];
	snprintf(dir, sizeof(dir), "%s/runs/%s", c->o->out, name);
	snprintf(machdir, sizeof(machdir), "%s/machines", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(path, sizeof(path), "%s/summary.json", out);
	c->done++;
	int rc = read_checks(out, c->vc->name, vals, c->vc->nchecks, err);
	if (rc == 1)	/* the runs are there, judged for another case (V8 beside C1) */
		rc = spawn_validate(c->o, machdir, c->casefiles, c->ncases, out, true, err) < 0 ? -1
			: read_checks(out, c->vc->name, vals, c->vc->nchecks, err);
	if (rc != 2)
		return rc;
	if (make_dir(dir, err) < 0 || make_dir(machdir, err) < 0)
		return -1;
	for (int i = 0; i < c->nf; i++) {	/* one file a machine, all its figures set */
		bool first = true;
		for (int j = 0; j < i && first; j++)
			first = strcmp(c->f[j].machine, c->f[i].machine) != 0;
		snprintf(path, sizeof(path), "%s/%s.json", machdir, c->f[i].machine);
		if (first && sens_write_machine(c->f[i].machine, c->f, c->nf, values, path, err) < 0)
			return -1;
	}
	fprintf(stderr, "sensitivity: variant %d of %d (%s)\n", c->done, c->total, name);
	if (spawn_validate(c->o, machdir, c->casefiles, c->ncases, out, false, err) < 0)
		return -1;
	return read_checks(out, c->vc->name, vals, c->vc->nchecks, err);
}

/* The one-at-a-time design: BASE, then LOW[i] and HIGH[i] of figure i. */
static int run_oat(struct sens_ctx *c, struct sens_value *base, struct sens_value *low,
		   struct sens_value *high, struct sim_err *err)
{
	int nc = c->vc->nchecks;
	double *v = malloc(((size_t)c->nf + 1) * sizeof(*v));
	if (!v)
		host_oom(__func__);
	for (int i = 0; i < c->nf; i++)
		v[i] = c->f[i].value;
	int rc = run_variant(c, "base", v, base, err);
	for (int i = 0; rc == 0 && i < c->nf; i++) {
		char name[32];
		v[i] = sens_at(&c->f[i], 0);
		snprintf(name, sizeof(name), "f%03d-low", i);
		rc = run_variant(c, name, v, low + (size_t)i * nc, err);
		v[i] = sens_at(&c->f[i], 1);
		snprintf(name, sizeof(name), "f%03d-high", i);
		if (rc == 0)
			rc = run_variant(c, name, v, high + (size_t)i * nc, err);
		v[i] = c->f[i].value;
	}
	free(v);
	return rc;
}

/* The Morris screening: R trajectories; MU_STAR, MU, SIGMA[i * nchecks + check]
 * in units of each check's base value per move across a figure's range. */
static int run_morris(struct sens_ctx *c, const struct sens_value *base, double *mu_star,
		      double *mu, double *sigma, struct sim_err *err)
{
	int k = c->nf, r = c->o->morris, nc = c->vc->nchecks, npts = r * (k + 1);
	double *x = malloc((size_t)npts * k * sizeof(*x)), *v = malloc((size_t)k * sizeof(*v));
	double *y = malloc((size_t)npts * sizeof(*y)), ms[k], m[k], sd[k];
	int *moved = malloc((size_t)r * k * sizeof(*moved));
	struct sens_value *vals = malloc((size_t)npts * nc * sizeof(*vals));
	if (!x || !v || !y || !moved || !vals)
		host_oom(__func__);
	sens_morris_design(k, r, c->o->levels, c->o->seed, x, moved);
	int rc = 0;
	for (int p = 0; rc == 0 && p < npts; p++) {
		char name[40];
		for (int i = 0; i < k; i++)
			v[i] = sens_at(&c->f[i], x[(size_t)p * k + i]);
		snprintf(name, sizeof(name), "morris-s%lu-L%d-t%03d-p%03d", c->o->seed,
			 c->o->levels, p / (k + 1), p % (k + 1));
		rc = run_variant(c, name, v, vals + (size_t)p * nc, err);
	}
	for (int ch = 0; rc == 0 && ch < nc; ch++) {
		for (int p = 0; p < npts; p++)
			y[p] = vals[(size_t)p * nc + ch].mean / base[ch].mean;
		sens_morris_effects(k, r, x, moved, y, ms, m, sd);
		for (int i = 0; i < k; i++) {
			mu_star[i * nc + ch] = ms[i];
			mu[i * nc + ch] = m[i];
			sigma[i * nc + ch] = sd[i];
		}
	}
	free(x); free(v); free(y); free(moved); free(vals);
	return rc;
}

/* The one-at-a-time effects of figure I on check CH, as shares of the
 * check's base value: at the low end, at the high end, high minus low and
 * that difference's 95% CI half-width (NAN without replicates): from the
 * replicates' paired differences where both ends list them (the variants
 * share the case's seeds, so much of the seeds' noise cancels), else from
 * the two ends' own CIs. */
struct sens_effect {
	double low, high, effect, half;
};

static struct sens_effect effect_of(const struct sens_value *base, const struct sens_value *low,
				    const struct sens_value *high)
{
	struct sens_effect e;
	double b = base->mean;
	e.low = (low->mean - b) / b;
	e.high = (high->mean - b) / b;
	e.effect = e.high - e.low;
	e.half = sqrt(low->half * low->half + high->half * high->half) / fabs(b);
	double d[SENS_MAX_VALUES], sum = 0, ss = 0;
	int n = low->n == high->n ? low->n : 0;
	for (int r = 0; r < n; r++) {	/* the same seeds at both ends: replicate by replicate */
		d[r] = (high->v[r] - low->v[r]) / b;
		if (!isfinite(d[r]))
			n = 0;
		sum += d[r];
	}
	for (int r = 0; n >= 2 && r < n; r++)
		ss += (d[r] - sum / n) * (d[r] - sum / n);
	if (n >= 2)
		e.half = gsl_cdf_tdist_Pinv(0.975, n - 1) * sqrt(ss / (n - 1) / n);
	return e;
}

/* The effect of figure I on check CH of NC checks (LOW and HIGH figure by figure). */
static struct sens_effect effect_at(const struct sens_value *base, const struct sens_value *low,
				    const struct sens_value *high, int nc, int i, int ch)
{
	return effect_of(base + ch, low + (size_t)i * nc + ch, high + (size_t)i * nc + ch);
}

struct ranked {
	int fig;
	double size;
};

/* qsort order: the largest effect first. */
static int by_size(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->size, y = ((const struct ranked *)b)->size;
	return (x < y) - (x > y);
}

/* The figures ranked by the size of their effect on check CH (R gets nf entries). */
static void rank(const struct sens_ctx *c, const struct sens_value *base,
		 const struct sens_value *low, const struct sens_value *high, int ch,
		 struct ranked *r)
{
	int nc = c->vc->nchecks;
	for (int i = 0; i < c->nf; i++) {
		struct sens_effect e = effect_at(base, low, high, nc, i, ch);
		r[i].fig = i;
		r[i].size = isfinite(e.effect) ? fabs(e.effect) : -1;
	}
	qsort(r, (size_t)c->nf, sizeof(*r), by_size);
}

/* The table of one check: its value, then its top figures. */
static void print_check(FILE *f, const struct sens_ctx *c, const struct sens_value *base,
			const struct sens_value *low, const struct sens_value *high,
			const double *mu_star, const double *sigma, int ch)
{
	int nc = c->vc->nchecks, n = c->o->limit && c->o->limit < c->nf ? c->o->limit : c->nf;
	const struct val_check *k = &c->vc->checks[ch];
	struct ranked *r = malloc((size_t)(c->nf + 1) * sizeof(*r));
	if (!r)
		host_oom(__func__);
	rank(c, base, low, high, ch, r);
	fprintf(f, "\n%s: %s: %g %s at the figures' values (published %g)\n", c->vc->name,
		k->name, base[ch].mean, k->unit, k->published);
	fprintf(f, "  %-46s %17s %8s %8s %16s%s\n", "figure", "range", "low", "high",
		"effect (95% CI)", mu_star ? "      mu*    sigma" : "");
	for (int j = 0; j < n; j++) {
		int i = r[j].fig;
		struct sens_effect e = effect_at(base, low, high, nc, i, ch);
		char name[200], range[40], ci[24] = "";
		snprintf(name, sizeof(name), "%s:%s", c->f[i].machine, c->f[i].name);
		snprintf(range, sizeof(range), "%g..%g", c->f[i].lo, c->f[i].hi);
		if (isfinite(e.half))
			snprintf(ci, sizeof(ci), " +-%.1f", 100 * e.half);
		fprintf(f, "  %-46s %17s %+7.1f%% %+7.1f%% %+7.1f%%%-*s", name, range,
			100 * e.low, 100 * e.high, 100 * e.effect, mu_star ? 8 : 0, ci);
		if (mu_star)
			fprintf(f, " %7.1f%% %7.1f%%", 100 * mu_star[i * nc + ch],
				100 * sigma[i * nc + ch]);
		fputc('\n', f);
	}
	free(r);
}

/* Every check's table, to F. */
static void print_tables(FILE *f, const struct sens_ctx *c, const struct sens_value *base,
			 const struct sens_value *low, const struct sens_value *high,
			 const double *mu_star, const double *sigma)
{
	fprintf(f, "sensitivity of %s to %d figures (low and high: the check's change with the "
		"figure at that end of its range; effect: high minus low; shares of the "
		"check's value at the figures' values%s)\n", c->vc->name, c->nf,
		mu_star ? "; mu*, sigma: Morris, for a move across the whole range" : "");
	for (int ch = 0; ch < c->vc->nchecks; ch++)
		print_check(f, c, base, low, high, mu_star, sigma, ch);
}

/* A number, or null when it is not finite. */
static void add_num(cJSON *o, const char *key, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

/* DIR/sensitivity.json: the figures, each check's base value and every effect. */
static int write_json(const struct sens_ctx *c, const struct sens_value *base,
		      const struct sens_value *low, const struct sens_value *high,
		      const double *mu_star, const double *mu, const double *sigma,
		      struct sim_err *err)
{
	static const char *const origin[] = { "measured", "estimate", "fitted" };
	int nc = c->vc->nchecks;
	cJSON *root = cJSON_CreateObject(), *figs = cJSON_AddArrayToObject(root, "figures");
	cJSON_AddStringToObject(root, "case", c->vc->name);
	cJSON_AddStringToObject(root, "model_digest", report_model_digest());
	for (int i = 0; i < c->nf; i++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "machine", c->f[i].machine);
		cJSON_AddStringToObject(o, "name", c->f[i].name);
		cJSON_AddNumberToObject(o, "value", c->f[i].value);
		cJSON_AddNumberToObject(o, "low", sens_at(&c->f[i], 0));
		cJSON_AddNumberToObject(o, "high", sens_at(&c->f[i], 1));
		cJSON_AddStringToObject(o, "origin", origin[c->f[i].origin]);
		cJSON_AddBoolToObject(o, "range_given", c->f[i].range_given);
		cJSON_AddItemToArray(figs, o);
	}
	cJSON *checks = cJSON_AddArrayToObject(root, "checks");
	for (int ch = 0; ch < nc; ch++) {
		cJSON *o = cJSON_CreateObject(), *eff = NULL;
		cJSON_AddStringToObject(o, "check", c->vc->checks[ch].name);
		add_num(o, "base", base[ch].mean);
		add_num(o, "base_ci95_half", base[ch].half);
		eff = cJSON_AddArrayToObject(o, "effects");
		for (int i = 0; i < c->nf; i++) {
			struct sens_effect e = effect_at(base, low, high, nc, i, ch);
			cJSON *x = cJSON_CreateObject();
			char fig[200];
			snprintf(fig, sizeof(fig), "%s:%s", c->f[i].machine, c->f[i].name);
			cJSON_AddStringToObject(x, "figure", fig);
			add_num(x, "low", e.low);
			add_num(x, "high", e.high);
			add_num(x, "effect", e.effect);
			add_num(x, "ci95_half", e.half);
			if (mu_star) {
				add_num(x, "mu_star", mu_star[i * nc + ch]);
				add_num(x, "mu", mu[i * nc + ch]);
				add_num(x, "sigma", sigma[i * nc + ch]);
			}
			cJSON_AddItemToArray(eff, x);
		}
		cJSON_AddItemToArray(checks, o);
	}
	char path[600], *text = cJSON_Print(root);
	snprintf(path, sizeof(path), "%s/sensitivity.json", c->o->out);
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

/* DIR/tornado-N.png of check CH: a bar a figure, from the check's change at
 * the figure's low end to that at its high end, the largest on top. */
static int plot_tornado(const struct sens_ctx *c, const struct sens_value *base,
			const struct sens_value *low, const struct sens_value *high, int ch,
			struct sim_err *err)
{
	int nc = c->vc->nchecks, n = c->nf < 12 ? c->nf : 12;
	char path[600];
	struct ranked *r = malloc((size_t)(c->nf + 1) * sizeof(*r));
	if (!r)
		host_oom(__func__);
	rank(c, base, low, high, ch, r);
	snprintf(path, sizeof(path), "%s/tornado-%d", c->o->out, ch + 1);
	FILE *d = plot_open(path, "dat", err), *g = d ? plot_open(path, "gp", err) : NULL;
	if (!g) {
		if (d)
			fclose(d);
		free(r);
		return -1;
	}
	fprintf(d, "# figure, change (%%) at its low end, at its high end\n");
	double widest = 0;
	for (int j = n - 1; j >= 0; j--) {
		struct sens_effect e = effect_at(base, low, high, nc, r[j].fig, ch);
		fprintf(d, "\"%s:%s\" %g %g\n", c->f[r[j].fig].machine, c->f[r[j].fig].name,
			100 * e.low, 100 * e.high);
		widest = fmax(widest, fmax(fabs(e.low), fabs(e.high)));
	}
	fclose(d);
	fprintf(g, "# slabsim sensitivity: re-run with gnuplot tornado-%d.gp in this folder\n"
		"set terminal pngcairo size 1000,%d\nset output 'tornado-%d.png'\n"
		"set termoption noenhanced\nset title \"%s: ", ch + 1, 200 + 34 * n, ch + 1,
		c->vc->name);
	gp_quote(g, c->vc->checks[ch].name);
	fprintf(g, " (%g %s at the figures' values%s)\"\n%s", base[ch].mean,
		c->vc->checks[ch].unit, widest > 0 ? "" : "; no figure moves it",
		widest > 0 ? "" : "set xrange [-1:1]\n");
	fprintf(g, "set xlabel 'change of the check (%%)'\n"
		"set grid xtics\nset key below center horizontal\nset yrange [-0.6:%d]\n"
		"set xzeroaxis\nset style fill solid 0.75 border -1\n"
		"plot 'tornado-%d.dat' using (0):0:($2<0?$2:0):($2<0?0:$2):($0-0.35):($0+0.35):"
		"ytic(1) with boxxyerror lc rgb '#1f77b4' title 'figure at the low end', \\\n"
		"     '' using (0):0:($3<0?$3:0):($3<0?0:$3):($0-0.35):($0+0.35) with boxxyerror "
		"lc rgb '#ff7f0e' title 'at the high end'\n", n, ch + 1);
	fclose(g);
	free(r);
	snprintf(path, sizeof(path), "tornado-%d.gp", ch + 1);
	return plot_run_in(c->o->out, path, err);
}

/* The designs' runs, the tables, the JSON and the plots of one case. */
static int analyse(struct sens_ctx *c, struct sim_err *err)
{
	int nc = c->vc->nchecks, nf = c->nf;
	struct sens_value *base = calloc((size_t)nc, sizeof(*base));
	struct sens_value *low = calloc((size_t)nf * nc, sizeof(*low));
	struct sens_value *high = calloc((size_t)nf * nc, sizeof(*high));
	double *ms = c->o->morris ? calloc((size_t)nf * nc, sizeof(*ms)) : NULL;
	double *mu = c->o->morris ? calloc((size_t)nf * nc, sizeof(*mu)) : NULL;
	double *sd = c->o->morris ? calloc((size_t)nf * nc, sizeof(*sd)) : NULL;
	if (!base || !low || !high || (c->o->morris && (!ms || !mu || !sd)))
		host_oom(__func__);
	c->total = 1 + 2 * nf + c->o->morris * (nf + 1);
	int rc = run_oat(c, base, low, high, err);
	if (rc == 0 && c->o->morris)
		rc = run_morris(c, base, ms, mu, sd, err);
	char path[600];
	snprintf(path, sizeof(path), "%s/table.txt", c->o->out);
	FILE *t = rc == 0 ? fopen(path, "w") : NULL;
	if (rc == 0 && !t)
		rc = sim_fail(err, "cannot write %s: %s", path, strerror(errno));
	if (rc == 0) {
		print_tables(stdout, c, base, low, high, ms, sd);
		print_tables(t, c, base, low, high, ms, sd);
		if (fclose(t) != 0)
			rc = sim_fail(err, "cannot write %s", path);
	}
	if (rc == 0)
		rc = write_json(c, base, low, high, ms, mu, sd, err);
	for (int ch = 0; rc == 0 && !c->o->no_plot && ch < nc; ch++)
		rc = plot_tornado(c, base, low, high, ch, err);
	if (rc == 0)
		printf("\nresults in %s\n", c->o->out);
	free(base); free(low); free(high); free(ms); free(mu); free(sd);
	return rc;
}

int cmd_sensitivity(int argc, char **argv)
{
	struct sens_opts o;
	int rc = parse_opts(argc, argv, &o);
	if (rc >= 0) {
		free(o.sets);
		return rc;
	}
	struct sim_err err;
	struct val_case vc = { 0 };
	struct sens_figure *f = NULL;
	char path[600];
	if (val_case_find(o.casename, path, sizeof(path)) < 0) {
		free(o.sets);
		return cli_usage_error("sensitivity: no case '%s' (slabsim validate --list lists "
				       "them)", o.casename);
	}
	rc = val_case_load(&vc, path, &err) < 0 ? 2 : 0;
	char target[600], files[2][700];
	snprintf(target, sizeof(target), "%s", path);
	if (rc == 0 && vc.runs_of && val_case_find(vc.runs_of, target, sizeof(target)) < 0)
		rc = 2, sim_fail(&err, "%s judges the runs of %s, which is not found", vc.name,
				 vc.runs_of);
	int nf = rc == 0 ? case_figures(&o, &vc, &f, &err) : -1;
	if (rc == 0 && nf < 0)
		rc = 2;
	if (rc == 0 && nf == 0)
		rc = 2, sim_fail(&err, "%s: no figure to vary (--all adds the measured ones)",
				 vc.name);
	if (rc == 0 && o.list) {
		list_figures(f, nf);
		goto out;
	}
	if (!o.out) {
		snprintf(o.outbuf, sizeof(o.outbuf), "out/sensitivity-%s", vc.name);
		o.out = o.outbuf;
	}
	struct sens_ctx c = { .o = &o, .vc = &vc, .f = f, .nf = nf,
			      .casefiles = { files[0], files[1] }, .ncases = vc.runs_of ? 2 : 1 };
	snprintf(files[0], sizeof(files[0]), "%s/%s.json", o.out, vc.runs_of ? vc.runs_of : vc.name);
	snprintf(files[1], sizeof(files[1]), "%s/%s.json", o.out, vc.name);
	snprintf(path, sizeof(path), "%s/runs", o.out);
	if (rc == 0 && (make_dir(path, &err) < 0 || write_case(&o, target, files[0], &err) < 0 ||
			(vc.runs_of && write_case(&o, vc.path, files[1], &err) < 0)))
		rc = 2;
	if (rc == 0 && analyse(&c, &err) < 0)
		rc = 1;
out:
	if (rc)
		fprintf(stderr, "slabsim: %s\n", err.msg);
	free(f);
	free(o.sets);
	val_case_free(&vc);
	return rc;
}
