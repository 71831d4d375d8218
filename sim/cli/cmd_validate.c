/* cmd_validate.c - `slabsim validate`: run the validation cases (published
 * results the model must predict) and put simulated beside published, with
 * each check's band and verdict and the run's top lock and profile symbol;
 * write summary.json and the plot of simulated against published. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "engine/oom.h"
#include "study/sweep.h"
#include "study/validate.h"
#include "hw/machine.h"
#include "engine/json_in.h"
#include "report/gnuplot.h"
#include "report/outfile.h"
#include "report/replicates.h"
#include "report/report.h"
#include "report/summary.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

static const char validate_help[] =
	"usage: slabsim validate [CASE ...] [--quick] [-j N] [--out DIR] [--from DIR] [--resume]\n"
	"                        [--ci-target F] [--no-plot] [--list] [--fitted]\n"
	"\n"
	"Run the validation cases (validation/*.json: published results the model must\n"
	"predict, each with the runs that reproduce it and an acceptance band per figure)\n"
	"and print one table: case, check, published, simulated (the mean over the case's\n"
	"replicates), its 95% confidence interval, error, band, verdict, and the run's most\n"
	"waited-on lock and top profile symbol. Writes DIR/summary.json, DIR/table.txt,\n"
	"DIR/CASE.jsonl (every run's JSON) and DIR/validation.png (simulated against\n"
	"published, log-log, with the y = x line and each band).\n"
	"\n"
	"  CASE        a case name (C1, V4, ...) or a case file; default: every case\n"
	"  --quick     only the cases marked quick (they run in seconds; make test)\n"
	"  -j N        runs at a time (default: the CPU count)\n"
	"  --out DIR   results folder (default out/validation)\n"
	"  --from DIR  run nothing: judge the runs an earlier validate left in DIR (its\n"
	"              CASE.jsonl), as after a change of a case's checks or bands; refused\n"
	"              when a fitted figure has changed since\n"
	"  --resume    keep the runs an interrupted validate left in DIR (--out) and do\n"
	"              the rest; refused when a fitted figure has changed since\n"
	"  --ci-target F  add seeds to each point, two at first, then one at a time, until\n"
	"              the 95% CI of its main metric is within F of its mean (0.05:\n"
	"              +-5%) or it has the case's replicates (instead of each case's own\n"
	"              ci_target); summary.json says how many each check's point took\n"
	"  --no-plot   write no plot\n"
	"  --list      list the cases and their checks, run nothing\n"
	"  --fitted    print every machine's fitted figures and their digest (summary.json\n"
	"              keeps the digest: a fitted figure changed since shows there)\n"
	"\n"
	"validation/README.md documents the case files. Exit status: 0 every check inside\n"
	"its band, 1 a check outside it (or a run failed), 2 bad usage or input.\n";

struct val_opts {
	const char **names;
	int nnames;
	bool quick, no_plot, list, fitted, resume;
	int jobs;
	double ci_target;	/* --ci-target: every case's, instead of its file's */
	const char *out, *from;
	char digest[17];	/* the fitted figures' digest (fitted_figures()) */
};

struct val_collect {
	const struct val_case *vc;
	cJSON **runs;
	FILE *jsonl;
	int failed;
};

/* One result of a check. */
/* Replicates whose values a check's summary lists (sensitivity pairs them). */
#define VAL_MAX_VALUES 32

struct val_row {
	const struct val_case *vc;
	const struct val_check *ch;
	double sim, ratio;
	int n;			/* replicates that gave a value */
	double lo, hi;		/* the 95% confidence interval of sim (n >= 2) */
	double values[VAL_MAX_VALUES];	/* each replicate's value (a ratio's jackknife
					 * pseudo-value), NAN where it gave none */
	int nvalues;		/* 0 with more replicates than VAL_MAX_VALUES */
	bool have, pass, have_ci;
	char lock[96], sym[64];
};

/* The options and the case names; -1 to go on, else the exit status (0 after --help). */
static int parse_opts(int argc, char **argv, struct val_opts *o)
{
	memset(o, 0, sizeof(*o));
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	o->jobs = ncpu > 0 ? (int)ncpu : 1;
	o->out = "out/validation";
	o->names = calloc((size_t)argc + 1, sizeof(*o->names));
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' }, { "quick", no_argument, NULL, 'q' },
		{ "no-plot", no_argument, NULL, 'n' }, { "list", no_argument, NULL, 'l' },
		{ "fitted", no_argument, NULL, 'F' }, { "out", required_argument, NULL, 'o' },
		{ "from", required_argument, NULL, 'f' }, { "resume", no_argument, NULL, 'r' },
		{ "ci-target", required_argument, NULL, 'c' }, { NULL, 0, NULL, 0 } };
	optind = 0;
	for (int c; (c = cli_getopt("validate", argc, argv, "hj:", longopts)) != -1;) {
		char *end;
		long j;
		switch (c) {
		case 'h':
			fputs(validate_help, stdout);
			return 0;
		case 'q': o->quick = true; break;
		case 'n': o->no_plot = true; break;
		case 'l': o->list = true; break;
		case 'F': o->fitted = true; break;
		case 'o': o->out = optarg; break;
		case 'f': o->from = optarg; break;
		case 'r': o->resume = true; break;
		case 'c':
			if (cli_ci_target("validate", optarg, &o->ci_target))
				return 2;
			break;
		case 'j':
			j = strtol(optarg, &end, 10);
			if (*end || end == optarg || j < 1 || j > 4096)
				return cli_usage_error("-j: expected a count from 1 to 4096, not '%s'",
						       optarg);
			o->jobs = (int)j;
			break;
		default:
			return 2;
		}
	}
	for (; optind < argc; optind++)
		o->names[o->nnames++] = argv[optind];
	if (o->resume && o->from)
		return cli_usage_error("--resume runs the rest of --out's cases; --from runs "
				       "nothing: give one of them");
	return -1;
}

/* qsort() order of strings. */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.json of the first validation folder that has any, sorted. */
static int all_cases(char ***out, struct sim_err *err)
{
	const char *p = val_case_dirs();
	while (*p) {
		size_t dl = strcspn(p, ":");
		char dir[PATH_MAX];
		snprintf(dir, sizeof(dir), "%.*s", (int)dl, p);
		p += dl + (p[dl] == ':');
		DIR *d = dl ? opendir(dir) : NULL;
		if (!d)
			continue;
		int n = 0, cap = 16;
		char **v = malloc((size_t)cap * sizeof(*v));
		if (!v)
			host_oom(__func__);
		for (struct dirent *de; (de = readdir(d));) {
			size_t len = strlen(de->d_name);
			if (len < 6 || strcmp(de->d_name + len - 5, ".json"))
				continue;
			if (n == cap && !(v = realloc(v, (size_t)(cap *= 2) * sizeof(*v))))
				host_oom(__func__);
			if (asprintf(&v[n++], "%s/%s", dir, de->d_name) < 0)
				host_oom(__func__);
		}
		closedir(d);
		if (!n) {
			free(v);
			continue;
		}
		qsort(v, (size_t)n, sizeof(*v), cmp_str);
		*out = v;
		return n;
	}
	return sim_fail(err, "no validation cases found (looked in %s)", val_case_dirs());
}

/* A finished run: count it failed if it left no result or broke an invariant; a parsed one
 * goes to CASE.jsonl and is kept. */
static void on_done(void *ctx, int run, const char *line, const char *why)
{
	struct val_collect *c = ctx;
	cJSON *j = line ? cJSON_Parse(line) : NULL;
	if (!j) {
		c->failed++;
		fprintf(stderr, "slabsim: %s: run %d: %s\n", c->vc->name, run, why ? why : "no result");
		return;
	}
	const char *inv = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "invariants"));
	if (!inv || strcmp(inv, "ok")) {
		c->failed++;
		fprintf(stderr, "slabsim: %s: run %d failed: %s\n", c->vc->name, run, inv ? inv : "?");
	}
	if (c->jsonl)
		fprintf(c->jsonl, "%s\n", line);
	if (!c->runs[run])
		c->runs[run] = j;
	else
		cJSON_Delete(j);
}

/* The most waited-on lock and the top profile symbol of a point's first run. */
static void describe(const cJSON *run, struct val_row *r)
{
	const cJSON *locks = cJSON_GetObjectItemCaseSensitive(run, "locks"), *best = NULL;
	double most = 0;
	for (const cJSON *l = locks ? locks->child : NULL; l; l = l->next) {
		const cJSON *w = cJSON_GetObjectItemCaseSensitive(l, "wait_cycles");
		if (cJSON_IsNumber(w) && w->valuedouble > most) {
			most = w->valuedouble;
			best = l;
		}
	}
	const char *name = best ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(best, "name"))
		: NULL;
	snprintf(r->lock, sizeof(r->lock), "%s", name ? name : "-");
	const cJSON *top = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(run, "profile"), 0);
	const char *sym = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(top, "symbol"));
	const cJSON *pct = cJSON_GetObjectItemCaseSensitive(top, "percent");
	if (sym && cJSON_IsNumber(pct))
		snprintf(r->sym, sizeof(r->sym), "%s %.0f%%", sym, pct->valuedouble);
	else
		snprintf(r->sym, sizeof(r->sym), "-");
}

/* The replicates where x (and y, if given) are numbers: their values packed into px (and
 * py); how many. */
static int pack(const double *x, const double *y, int n, double *px, double *py)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		if (!isnan(x[i]) && (!y || !isnan(y[i]))) {
			px[k] = x[i];
			if (y)
				py[k] = y[i];
			k++;
		}
	return k;
}

/* The mean of the numbers among x[0..n) (NAN if none), as the checks have always summed
 * them. */
static double finite_mean(const double *x, int n)
{
	int k = 0;
	double sum = 0;
	for (int i = 0; i < n; i++)
		if (!isnan(x[i])) {
			sum += x[i];
			k++;
		}
	return k ? sum / k : NAN;
}

/* Half the 95% confidence interval of a / b, the means of x and y over their replicates
 * (summary_stats: Student's t), by the delta method, with their covariance where one run
 * gave both (`paired`); NAN with fewer than two replicates on either side. */
static double ratio_ci95(const double *x, const double *y, int n, bool paired, double a,
			 double b, double *scratch)
{
	double *px = scratch, *py = scratch + n;
	struct stat_summary sx, sy;
	summary_stats(px, pack(x, NULL, n, px, NULL), &sx);
	summary_stats(py, pack(y, NULL, n, py, NULL), &sy);
	if (sx.n < 2 || sy.n < 2)
		return NAN;
	double cov = 0;
	int k = paired ? pack(x, y, n, px, py) : 0;
	if (k >= 2)
		cov = gsl_stats_covariance(px, 1, py, 1, (size_t)k) / k;
	double r = a / b, var = r * r * (sx.sd * sx.sd / sx.n / (a * a) +
					 sy.sd * sy.sd / sy.n / (b * b) - 2 * cov / (a * b));
	int dof = (sx.n < sy.n ? sx.n : sy.n) - 1;
	return gsl_cdf_tdist_Pinv(0.975, dof) * sqrt(var > 0 ? var : 0);
}

/* Each replicate's value of a check into r->values: the number at its point, or for a
 * ratio of means the jackknife pseudo-value n a/b - (n-1) a_r/b_r (a_r, b_r: the means
 * without replicate r), whose mean estimates a/b and whose spread gives its CI; two
 * variants of a case that share its seeds are compared replicate by replicate. */
static void replicate_values(const double *xa, const double *xb, int reps, bool ratio,
			     struct val_row *r)
{
	r->nvalues = reps <= VAL_MAX_VALUES ? reps : 0;
	double sa = 0, sb = 0;
	int n = 0;
	for (int i = 0; i < r->nvalues; i++)
		if (!isnan(xa[i]) && (!ratio || !isnan(xb[i]))) {
			sa += xa[i];
			sb += ratio ? xb[i] : 0;
			n++;
		}
	for (int i = 0; i < r->nvalues; i++) {
		bool have = !isnan(xa[i]) && (!ratio || !isnan(xb[i]));
		r->values[i] = !have ? NAN : !ratio ? xa[i]
			: n < 2 || sb == xb[i] ? NAN
			: n * (sa / sb) - (n - 1) * ((sa - xa[i]) / (sb - xb[i]));
	}
}

/* A check's simulated value (the mean over the replicates at its point, over the mean of
 * the "over" value if any), its 95% confidence interval, its ratio to the published one,
 * whether that is inside the band, and the top lock and symbol. */
static void evaluate(const struct val_case *vc, const struct val_check *ch, cJSON **runs,
		     struct val_row *r)
{
	*r = (struct val_row){ .vc = vc, .ch = ch };
	int reps = vc->e.replicates;
	double *xa = calloc((size_t)reps * 4, sizeof(*xa)), *xb = xa + reps, *scratch = xb + reps;
	if (!xa)
		host_oom(__func__);
	const char *over = ch->over_path ? ch->over_path : ch->path;
	bool ratio = ch->over_point >= 0;
	int na = val_point_values(vc, ch, ch->at_point, ch->path, runs, xa);
	int nb = ratio ? val_point_values(vc, ch, ch->over_point, over, runs, xb) : 0;
	double a = finite_mean(xa, reps), b = ratio ? finite_mean(xb, reps) : 1;
	r->have = na > 0 && (!ratio || (nb > 0 && b != 0));
	r->n = ratio && nb < na ? nb : na;
	r->sim = r->have ? a / b : NAN;
	r->ratio = r->sim / ch->published;
	r->pass = r->have && r->ratio >= ch->low && r->ratio <= ch->high;
	double half = NAN;
	if (r->have && ratio) {
		half = ratio_ci95(xa, xb, reps, ch->over_point == ch->at_point, a, b, scratch);
	} else if (r->have) {
		struct stat_summary st;
		summary_stats(scratch, pack(xa, NULL, reps, scratch, NULL), &st);
		half = st.n >= 2 ? st.ci95 : NAN;
	}
	if (!isnan(half)) {
		r->lo = r->sim - half;
		r->hi = r->sim + half;
		r->have_ci = true;
	}
	if (r->have)
		replicate_values(xa, xb, reps, ratio, r);
	free(xa);
	describe(runs[ch->at_point * vc->e.replicates], r);
}

/* The host's monotonic clock, in seconds. */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int summary_digest(const char *dir, char was[17], struct sim_err *err);

/* --resume: the digest of the fitted figures the runs kept in CASE.jsonl were made with:
 * the one an interrupted run left in `mark` (.running-CASE/fitted_digest), else the
 * folder's summary.json's; an empty string when neither says, -1 on a broken file. */
static int kept_runs_digest(const char *mark, const char *out, char was[17], struct sim_err *err)
{
	size_t len;
	char *text = file_read_text(mark, &len);
	was[0] = 0;
	if (text) {
		snprintf(was, 17, "%.*s", (int)strcspn(text, "\n"), text);
		free(text);
		return 0;
	}
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/summary.json", out);
	return access(path, F_OK) == 0 ? summary_digest(out, was, err) : 0;
}

/* --resume: load the runs CASE.jsonl holds (a run torn by the kill is cut off) into runs[],
 * after checking they were made with today's fitted figures; the count kept, -1 if refused. */
static int resume_case(const struct val_case *vc, const struct val_opts *o, const char *path,
		       const char *mark, cJSON **runs, struct sim_err *err)
{
	if (access(path, F_OK) < 0)
		return 0;
	char was[17];
	if (kept_runs_digest(mark, o->out, was, err) < 0)
		return -1;
	if (!was[0])
		return sim_fail(err, "--resume: nothing in %s says which fitted figures %s's runs "
				"were made with: run the case again without --resume", o->out,
				vc->name);
	if (strcmp(was, o->digest))
		return sim_fail(err, "--resume: the fitted figures changed since %s's runs (digest "
				"%s, now %s): run the case again without --resume", vc->name, was,
				o->digest);
	int kept = runs_load(path, &vc->e, runs, true, false, err);
	if (kept < 0)
		return -1;
	for (int r = 0; r < experiment_runs(&vc->e); r++) {
		const char *inv = runs[r] ? cJSON_GetStringValue(
			cJSON_GetObjectItemCaseSensitive(runs[r], "invariants")) : "ok";
		if (!inv || strcmp(inv, "ok"))
			return sim_fail(err, "--resume: %s's kept run %d failed (%s): run the case "
					"again without --resume", vc->name, r, inv ? inv : "?");
	}
	return kept;
}

/* Write the fitted figures' digest to `mark` in the case's .running folder, for --resume. */
static int mark_running(const char *mark, const char *digest, struct sim_err *err)
{
	FILE *f = fopen(mark, "w");
	bool ok = f && fprintf(f, "%s\n", digest) > 0;
	if (f)
		ok = fclose(f) == 0 && ok;
	return ok ? 0 : sim_fail(err, "cannot write %s: %s", mark, strerror(errno));
}

/* Run every run of a case (forked workers, as a sweep does); with --resume only those
 * CASE.jsonl does not hold yet. */
static int run_case(const struct val_case *vc, const struct val_opts *o, cJSON **runs,
		    struct sim_err *err)
{
	int n = experiment_runs(&vc->e);
	char path[PATH_MAX], tmp[PATH_MAX], mark[PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/%s.jsonl", o->out, val_case_runs_name(vc));
	snprintf(tmp, sizeof(tmp), "%s/.running-%s", o->out, val_case_runs_name(vc));
	snprintf(mark, sizeof(mark), "%s/fitted_digest", tmp);
	int kept = o->resume ? resume_case(vc, o, path, mark, runs, err) : 0;
	if (kept < 0)
		return -1;
	int *todo = malloc((size_t)n * sizeof(*todo)), ntodo = 0;
	bool *tried = calloc((size_t)n + 1, sizeof(*tried));
	if (!todo || !tried)
		host_oom(__func__);
	ntodo = replicates_next(&vc->e, runs, tried, todo);
	struct val_collect c = { .vc = vc, .runs = runs, .jsonl = fopen(path, kept ? "a" : "w") };
	int rc = 0;
	if (!c.jsonl)
		rc = sim_fail(err, "cannot write %s: %s", path, strerror(errno));
	else if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		rc = sim_fail(err, "cannot write %s: %s", tmp, strerror(errno));
	else
		rc = mark_running(mark, o->digest, err);
	if (rc < 0) {
		free(todo);
		free(tried);
		if (c.jsonl)
			fclose(c.jsonl);
		return -1;
	}
	double t0 = now();
	const char *most = vc->e.ci_target > 0 ? "up to " : "";
	if (kept)
		fprintf(stderr, "%s: %d runs of %s%d kept, %d to run (%s)...\n", vc->name, kept,
			most, n, ntodo, vc->title);
	else
		fprintf(stderr, "%s: %s%d runs (%s)...\n", vc->name, most, n, vc->title);
	int crashed = 0;
	while (ntodo > 0 && !sweep_interrupted) {	/* more rounds only with a CI target */
		crashed += sweep_local(&vc->e, todo, ntodo, o->jobs, 0, tmp, on_done, &c);
		ntodo = vc->e.ci_target > 0 ? replicates_next(&vc->e, runs, tried, todo) : 0;
	}
	unlink(mark);
	rmdir(tmp);
	fclose(c.jsonl);
	free(todo);
	free(tried);
	fprintf(stderr, "%s: done in %.0f s\n", vc->name, now() - t0);
	return crashed || c.failed ? 1 : 0;
}

/* Copy file FROM to TO, byte for byte (report/outfile.h: through a temporary file). */
static int copy_file(const char *from, const char *to, struct sim_err *err)
{
	size_t len;
	char *text = file_read_text(from, &len);
	if (!text)
		return sim_fail(err, "cannot read %s: %s", from, strerror(errno));
	struct out_file of;
	FILE *f = out_open(&of, to, err);
	int rc = f ? out_close(&of, fwrite(text, 1, len, f) == len, err) : -1;
	free(text);
	return rc;
}

/* --from: the runs of a case that an earlier validate left in DIR/CASE.jsonl, every one of
 * them, copied to --out when that is another folder; -1 if any is missing or belongs to
 * other runs (the case's experiment changed since), else the count of failed runs as
 * run_case gives it. */
static int load_case_runs(const struct val_case *vc, const struct val_opts *o, cJSON **runs,
			  struct sim_err *err)
{
	char path[PATH_MAX], to[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s.jsonl", o->from, val_case_runs_name(vc));
	int want = experiment_runs(&vc->e);
	int got = runs_load(path, &vc->e, runs, false, false, err);
	if (got < 0)
		return -1;
	if (got < want)
		return sim_fail(err, "%s holds %d of the case's %d runs: run the case again "
				"(slabsim validate %s)", path, got, want, vc->name);
	char *a = realpath(o->from, NULL), *b = realpath(o->out, NULL);
	bool same = a && b && !strcmp(a, b);
	free(a);
	free(b);
	snprintf(to, sizeof(to), "%s/%s.jsonl", o->out, val_case_runs_name(vc));
	if (!same && copy_file(path, to, err) < 0)
		return -1;
	int failed = 0;
	for (int r = 0; r < want; r++) {
		const char *inv = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(runs[r],
										"invariants"));
		if (!inv || strcmp(inv, "ok")) {
			failed = 1;
			fprintf(stderr, "slabsim: %s: run %d failed: %s\n", vc->name, r,
				inv ? inv : "?");
		}
	}
	return failed;
}

/* An earlier case (j < i) whose runs case i judges too (the same RUNS.jsonl),
 * or -1. */
static int same_runs(const struct val_case *cs, int i)
{
	for (int j = 0; j < i; j++)
		if (!strcmp(val_case_runs_name(&cs[j]), val_case_runs_name(&cs[i])))
			return j;
	return -1;
}

/* Case vc's runs as copies of another case's (the same experiment); 0: a
 * failed run among them was counted with that case. */
static int share_runs(const struct val_case *vc, cJSON *const *theirs, cJSON **runs)
{
	for (int r = 0; r < experiment_runs(&vc->e); r++)
		runs[r] = theirs[r] ? cJSON_Duplicate(theirs[r], true) : NULL;
	return 0;
}

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

/* The rows that are judged (not informative). */
static int judged_rows(const struct val_row *rows, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += !rows[i].ch->informative;
	return k;
}

/* The table: a header, one row per check, the count inside the bands. */
static int print_table(FILE *f, const struct val_row *rows, int n, int failed_runs)
{
	fprintf(f, "%-4s %-30s %9s %9s %-15s %-6s %7s %-13s %-4s  %-30s %s\n", "case", "check",
		"published", "simulated", "95% CI", "unit", "error", "band", "",
		"top lock (wait)", "top symbol");
	int pass = 0, reach = 0, judged = judged_rows(rows, n);
	for (int i = 0; i < n; i++) {
		const struct val_row *r = &rows[i];
		print_row(f, r);
		if (r->ch->informative)
			continue;
		pass += r->pass;
		reach += r->have && !r->pass && r->have_ci &&
			 r->hi / r->ch->published >= r->ch->low &&
			 r->lo / r->ch->published <= r->ch->high;
	}
	fprintf(f, "%d of %d checks inside their bands", pass, judged);
	for (int i = 0, said = 0; i < n; i++) {	/* the cases outside, each once */
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
	return pass;
}

/* table.txt: the table as printed, written whole or not at all (report/outfile.h). */
static int write_table(const char *path, const struct val_row *rows, int n, int failed_runs,
		       struct sim_err *err)
{
	struct out_file of;
	FILE *f = out_open(&of, path, err);
	if (!f)
		return -1;
	print_table(f, rows, n, failed_runs);
	return out_close(&of, true, err);
}

/* One check's row for summary.json. */
/* The model digest all the cases' done runs were made with, as
 * report_runs_model_digest() says it of one case ("mixed" across cases
 * that disagree). */
static const char *cases_model_digest(const struct val_case *cs, cJSON ***runs, int n)
{
	const char *seen = NULL;
	for (int i = 0; i < n; i++) {
		if (!runs[i])
			continue;
		const char *d = report_runs_model_digest(runs[i], experiment_runs(&cs[i].e));
		if (seen && strcmp(seen, d))
			return "mixed";
		seen = d;
	}
	return seen ? seen : "unknown";
}

static cJSON *row_json(const struct val_row *r)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "check", r->ch->name);
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

/* validation.png: simulated against published, log-log, one panel per
 * family of cases (their units differ), each band a vertical bar, beside it
 * the 95% confidence interval over the seeds where there is one, the
 * y = x line. */
static int plot(const char *dir, const struct val_row *rows, int n, struct sim_err *err)
{
	char base[PATH_MAX];
	snprintf(base, sizeof(base), "%s/validation", dir);
	FILE *f = plot_open(base, "dat", err);
	if (!f)
		return -1;
	const char *fam[64];
	double lo[64], hi[64];
	int nfam = 0;
	for (int i = 0; i < n; i++) {
		int k = 0;
		while (k < nfam && strcmp(fam[k], rows[i].vc->family))
			k++;
		if (k == nfam && nfam < 64)
			fam[nfam++] = rows[i].vc->family;
	}
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

/* qsort() order of lines. */
static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every figure of the machine files and cost tables fitted to a published
 * result, one line each ("C1 tigerton.json fabric.line_occupancy_cycles =
 * 450"), sorted, and their FNV-1a digest: validation's results hold it, so
 * a fitted figure changed without a new validation run is seen. */
static cJSON *fitted_figures(char digest[17], struct sim_err *err)
{
	char *names[MACHINE_MAX_FILES], *lines[MACHINE_MAX_FILES * MACHINE_MAX_FITTED];
	int n = machine_names(names, MACHINE_MAX_FILES), nl = 0;
	cJSON *out = cJSON_CreateArray();
	for (int i = 0; i < n; i++) {
		struct machine m;
		if (out && machine_load(&m, names[i], err) < 0) {
			cJSON_Delete(out);
			out = NULL;
		}
		for (int k = 0; out && k < m.nfitted; k++) {
			char *l;
			if (asprintf(&l, "%s %s %s = %.17g", m.fitted[k].fit_case, m.fitted[k].file,
				     m.fitted[k].name, m.fitted[k].value) < 0)
				host_oom(__func__);
			bool dup = false;
			for (int j = 0; j < nl && !dup; j++)
				dup = !strcmp(lines[j], l);
			if (dup)
				free(l);
			else
				lines[nl++] = l;
		}
		if (out)
			machine_free(&m);
		free(names[i]);
	}
	qsort(lines, (size_t)nl, sizeof(*lines), cmp_line);
	uint64_t h = 14695981039346656037ull;
	for (int j = 0; j < nl; j++) {
		for (const char *c = lines[j]; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ull;
		h = (h ^ '\n') * 1099511628211ull;
		if (out)
			cJSON_AddItemToArray(out, cJSON_CreateString(lines[j]));
		free(lines[j]);
	}
	snprintf(digest, 17, "%016llx", (unsigned long long)h);
	return out;
}

/* The digest of the fitted figures DIR's runs were made with, as its summary.json keeps
 * it; -1 with a message if it cannot be read. */
static int summary_digest(const char *dir, char was[17], struct sim_err *err)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	size_t len;
	char *text = file_read_text(path, &len);
	if (!text)
		return sim_fail(err, "cannot read %s: %s (a folder an earlier slabsim validate "
				"wrote?)", path, strerror(errno));
	cJSON *j = cJSON_Parse(text);
	free(text);
	const char *d = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "fitted_digest"));
	int rc = d ? 0 : sim_fail(err, "%s keeps no fitted_digest", path);
	if (d)
		snprintf(was, 17, "%s", d);
	cJSON_Delete(j);
	return rc;
}

/* --from: the fitted figures must be those DIR's runs were made with (the digest its
 * summary.json keeps); -1 with a message if not. */
static int check_from_digest(const char *dir, const char *digest, struct sim_err *err)
{
	char was[17];
	if (summary_digest(dir, was, err) < 0) {
		char msg[sizeof(err->msg)];
		snprintf(msg, sizeof(msg), "%s", err->msg);
		return sim_fail(err, "--from %s: %s", dir, msg);
	}
	if (strcmp(was, digest))
		return sim_fail(err, "--from %s: the fitted figures changed since its runs (digest %s, "
				"now %s): run the cases again", dir, was, digest);
	return 0;
}

/* --list: each case with its runs and citation, then its checks' published figures and
 * bands. */
static void list_cases(struct val_case *cs, int n)
{
	for (int i = 0; i < n; i++) {
		printf("%s%s: %s (%d runs)\n  %s\n", cs[i].name, cs[i].quick ? " [quick]" : "",
		       cs[i].title, experiment_runs(&cs[i].e), cs[i].citation);
		for (int k = 0; k < cs[i].nchecks; k++)
			printf("    %-32s published %g %s, band %g..%g\n", cs[i].checks[k].name,
			       cs[i].checks[k].published, cs[i].checks[k].unit ? cs[i].checks[k].unit : "",
			       cs[i].checks[k].low, cs[i].checks[k].high);
	}
}

/* Load the cases named (or every case), keeping the quick ones with --quick. */
static int load_cases(const struct val_opts *o, struct val_case **out, struct sim_err *err)
{
	char **paths = NULL;
	int np = o->nnames;
	if (!np) {
		np = all_cases(&paths, err);
		if (np < 0)
			return -1;
	} else {
		paths = calloc((size_t)np, sizeof(*paths));
		for (int i = 0; i < np; i++) {
			char p[PATH_MAX];
			if (val_case_find(o->names[i], p, sizeof(p)) < 0) {
				size_t l = strlen(o->names[i]);
				if (l > 5 && !strcmp(o->names[i] + l - 5, ".json"))
					sim_fail(err, "cannot read validation case %s: %s", o->names[i],
						 strerror(errno));
				else
					sim_fail(err, "no validation case '%s' (looked for %s.json in %s)",
						 o->names[i], o->names[i], val_case_dirs());
				np = i;
				goto fail;
			}
			paths[i] = strdup(p);
		}
	}
	struct val_case *cs = calloc((size_t)np, sizeof(*cs));
	int n = 0;
	for (int i = 0; i < np; i++) {
		if (val_case_load(&cs[n], paths[i], err) < 0) {
			val_case_free(&cs[n]);
			while (n--)
				val_case_free(&cs[n]);
			free(cs);
			goto fail;
		}
		if (o->quick && !cs[n].quick)
			val_case_free(&cs[n]);
		else if (o->ci_target > 0)
			cs[n++].e.ci_target = o->ci_target;
		else
			n++;
	}
	for (int i = 0; i < np; i++)
		free(paths[i]);
	free(paths);
	*out = cs;
	return n;
fail:
	for (int i = 0; i < np; i++)
		free(paths[i]);
	free(paths);
	return -1;
}

/* --fitted: every machine's fitted figures and their digest; the exit status. */
static int print_fitted(void)
{
	char digest[17];
	struct sim_err err;
	cJSON *fit = fitted_figures(digest, &err);
	if (!fit)
		return cli_usage_error("%s", err.msg);
	for (const cJSON *l = fit->child; l; l = l->next)
		printf("%s\n", l->valuestring);
	printf("fitted digest %s\n", digest);
	cJSON_Delete(fit);
	return 0;
}

/* The cases to run, and everything checked before a run: -1 to go on, else
 * the exit status (0 after --list). */
static int prepare(struct val_opts *o, struct val_case **cs, int *n)
{
	struct sim_err err;
	*n = load_cases(o, cs, &err);
	if (*n < 0)
		return cli_usage_error("%s", err.msg);
	if (!*n)
		return cli_usage_error("no validation case to run%s", o->quick ? " (none is "
				       "marked quick)" : "");
	if (o->list) {
		list_cases(*cs, *n);
		return 0;
	}
	cJSON *fit = fitted_figures(o->digest, &err);	/* these runs' fitted figures */
	if (!fit)
		return cli_usage_error("%s", err.msg);
	cJSON_Delete(fit);
	if (o->from && check_from_digest(o->from, o->digest, &err) < 0)
		return cli_usage_error("%s", err.msg);
	if (sweep_make_dirs(o->out, &err) < 0)
		return cli_usage_error("%s", err.msg);
	return -1;
}

/* Run (or load, or share) each case's runs into RUNS and judge every check
 * into ROWS; -1 to go on, else 2 after a message. */
static int judge_cases(struct val_case *cs, int n, const struct val_opts *o, cJSON ***runs,
		       struct val_row *rows, int *failed_runs)
{
	struct sim_err err;
	for (int i = 0, nrows = 0; i < n; i++) {
		runs[i] = calloc((size_t)experiment_runs(&cs[i].e) + 1, sizeof(**runs));
		int j = same_runs(cs, i), rc;
		if (j >= 0)	/* the runs of an earlier case: judged, not made again */
			rc = share_runs(&cs[i], runs[j], runs[i]);
		else
			rc = o->from ? load_case_runs(&cs[i], o, runs[i], &err) :
				       run_case(&cs[i], o, runs[i], &err);
		if (rc < 0)
			return cli_usage_error("%s", err.msg);
		*failed_runs += rc;
		for (int k = 0; k < cs[i].nchecks; k++)
			evaluate(&cs[i], &cs[i].checks[k], runs[i], &rows[nrows++]);
	}
	return -1;
}

/* One case of summary.json: what it is, the runs it took and its checks (from ROWS). */
static cJSON *case_json(const struct val_case *vc, cJSON *const *runs, const struct val_row *rows)
{
	cJSON *c = cJSON_CreateObject();
	cJSON_AddStringToObject(c, "case", vc->name);
	cJSON_AddStringToObject(c, "family", vc->family);
	cJSON_AddStringToObject(c, "title", vc->title);
	cJSON_AddStringToObject(c, "citation", vc->citation);
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

/* summary.json's whole: the cases, the model and fitted figures, the counts. */
static cJSON *summary_json(const struct val_case *cs, cJSON ***runs, int n,
			   const struct val_row *rows, int nrows, int pass)
{
	cJSON *sum = cJSON_CreateObject(), *jc = cJSON_AddArrayToObject(sum, "cases");
	for (int i = 0, r = 0; i < n; r += cs[i].nchecks, i++)
		cJSON_AddItemToArray(jc, case_json(&cs[i], runs[i], rows + r));
	cJSON_AddStringToObject(sum, "model_digest", cases_model_digest(cs, runs, n));
	char digest[17];
	struct sim_err err;
	cJSON *fit = fitted_figures(digest, &err);
	if (fit) {
		cJSON_AddItemToObject(sum, "fitted", fit);
		cJSON_AddStringToObject(sum, "fitted_digest", digest);
	}
	cJSON_AddNumberToObject(sum, "checks", judged_rows(rows, nrows));
	cJSON_AddNumberToObject(sum, "passed", pass);
	if (nrows > judged_rows(rows, nrows))	/* printed beside, never judged */
		cJSON_AddNumberToObject(sum, "informative", nrows - judged_rows(rows, nrows));
	return sum;
}

/* The table (stdout and DIR/table.txt), summary.json and the plot; the exit status. */
static int report_cases(const struct val_case *cs, cJSON ***runs, int n, const struct val_opts *o,
			const struct val_row *rows, int nrows, int failed_runs)
{
	struct sim_err err;
	int pass = print_table(stdout, rows, nrows, failed_runs), status = -1;
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/table.txt", o->out);
	if (write_table(path, rows, nrows, failed_runs, &err) < 0)
		status = cli_usage_error("%s", err.msg);
	cJSON *sum = summary_json(cs, runs, n, rows, nrows, pass);
	snprintf(path, sizeof(path), "%s/summary.json", o->out);
	if (status < 0 && report_write_json(path, sum, &err) < 0)
		status = cli_usage_error("%s", err.msg);
	cJSON_Delete(sum);
	if (status < 0 && !o->no_plot && plot(o->out, rows, nrows, &err) < 0)
		fprintf(stderr, "slabsim: %s (the table and summary.json are written)\n", err.msg);
	if (status < 0)
		status = pass == judged_rows(rows, nrows) && !failed_runs ? 0 : 1;
	return status;
}

int cmd_validate(int argc, char **argv)
{
	struct val_opts o;
	struct val_case *cs = NULL;
	int n = 0, status = parse_opts(argc, argv, &o);
	if (status < 0 && o.fitted)
		status = print_fitted();
	if (status < 0)
		status = prepare(&o, &cs, &n);
	int nrows = 0, failed_runs = 0;
	for (int i = 0; status < 0 && i < n; i++)
		nrows += cs[i].nchecks;
	struct val_row *rows = status < 0 ? calloc((size_t)nrows + 1, sizeof(*rows)) : NULL;
	cJSON ***runs = status < 0 ? calloc((size_t)n + 1, sizeof(*runs)) : NULL;
	if (status < 0)
		status = judge_cases(cs, n, &o, runs, rows, &failed_runs);
	if (status < 0)
		status = report_cases(cs, runs, n, &o, rows, nrows, failed_runs);
	for (int i = 0; i < n; i++) {
		for (int r = 0; runs && runs[i] && r < experiment_runs(&cs[i].e); r++)
			cJSON_Delete(runs[i][r]);
		if (runs)
			free(runs[i]);
		val_case_free(&cs[i]);
	}
	free(runs);
	free(rows);
	free(cs);
	free(o.names);
	return status;
}
