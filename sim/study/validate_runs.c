/* validate_runs.c - the runs of a validation case: made by forked workers as
 * a sweep's are, each kept in OUT/RUNS.jsonl as it finishes; with --resume
 * those an interrupted validate left there are kept and only the rest run;
 * with --from they are all read from an earlier validate's folder. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/json_in.h"
#include "engine/oom.h"
#include "report/outfile.h"
#include "report/replicates.h"
#include "study/sweep.h"
#include "study/validate_int.h"

/* Where a case's runs go in the results folder: RUNS.jsonl, the
 * .running-RUNS folder the workers leave their results in, and the mark in
 * it that keeps the fitted figures' digest for --resume. */
struct case_paths {
	char jsonl[PATH_MAX], tmp[PATH_MAX], mark[PATH_MAX + 16];
};

/* What a case's finished runs go to. */
struct val_collect {
	const struct val_case *vc;
	const struct validate_opts *o;
	cJSON **runs;
	FILE *jsonl;
	int failed;
};

/* Tell the user LINE (printf-style) through o->note, if there is one. */
static void __attribute__((format(printf, 3, 4)))
say(const struct validate_opts *o, bool failure, const char *fmt, ...)
{
	if (!o->note)
		return;
	va_list ap;
	va_start(ap, fmt);
	char *line;
	if (vasprintf(&line, fmt, ap) < 0)
		host_oom(__func__);
	va_end(ap);
	o->note(o->note_ctx, failure, line);
	free(line);
}

/* The case's paths in folder OUT. */
static void case_paths(const struct val_case *vc, const char *out, struct case_paths *p)
{
	snprintf(p->jsonl, sizeof(p->jsonl), "%s/%s.jsonl", out, val_case_runs_name(vc));
	snprintf(p->tmp, sizeof(p->tmp), "%s/.running-%s", out, val_case_runs_name(vc));
	snprintf(p->mark, sizeof(p->mark), "%s/fitted_digest", p->tmp);
}

/* A finished run: count it failed if it left no result or broke an invariant; a parsed one
 * goes to RUNS.jsonl and is kept. */
static void on_done(void *ctx, int run, const char *line, const char *why)
{
	struct val_collect *c = ctx;
	cJSON *j = line ? cJSON_Parse(line) : NULL;
	if (!j) {
		c->failed++;
		say(c->o, true, "%s: run %d: %s", c->vc->name, run, why ? why : "no result");
		return;
	}
	const char *inv = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "invariants"));
	if (!inv || strcmp(inv, "ok")) {
		c->failed++;
		say(c->o, true, "%s: run %d failed: %s", c->vc->name, run, inv ? inv : "?");
	}
	if (c->jsonl)
		fprintf(c->jsonl, "%s\n", line);
	if (!c->runs[run])
		c->runs[run] = j;
	else
		cJSON_Delete(j);
}

/* The host's monotonic clock, in seconds. */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --resume: the digest of the fitted figures the runs kept in RUNS.jsonl were made with:
 * the one an interrupted run left in `mark`, else the folder's summary.json's; an empty
 * string when neither says, -1 on a broken file. */
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
	return access(path, F_OK) == 0 ? val_summary_digest(out, was, err) : 0;
}

/* --resume: load the runs RUNS.jsonl holds (a run torn by the kill is cut off) into runs[],
 * after checking they were made with the fitted figures of DIGEST; the count kept, -1 if
 * refused. */
static int resume_case(const struct val_case *vc, const struct validate_opts *o,
		       const struct case_paths *p, const char *digest, cJSON **runs,
		       struct sim_err *err)
{
	if (access(p->jsonl, F_OK) < 0)
		return 0;
	char was[17];
	if (kept_runs_digest(p->mark, o->out, was, err) < 0)
		return -1;
	if (!was[0])
		return sim_fail(err, "--resume: nothing in %s says which fitted figures %s's runs "
				"were made with: run the case again without --resume", o->out,
				vc->name);
	if (strcmp(was, digest))
		return sim_fail(err, "--resume: the fitted figures changed since %s's runs (digest "
				"%s, now %s): run the case again without --resume", vc->name, was,
				digest);
	int kept = runs_load(p->jsonl, &vc->e, runs, true, false, err);
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

/* Open RUNS.jsonl (appended to when KEPT runs are there already) into *jsonl and make the
 * .running folder, marked with DIGEST. */
static int start_case(const struct case_paths *p, int kept, const char *digest, FILE **jsonl,
		      struct sim_err *err)
{
	int rc = 0;
	*jsonl = fopen(p->jsonl, kept ? "a" : "w");
	if (!*jsonl)
		rc = sim_fail(err, "cannot write %s: %s", p->jsonl, strerror(errno));
	else if (mkdir(p->tmp, 0755) < 0 && errno != EEXIST)
		rc = sim_fail(err, "cannot write %s: %s", p->tmp, strerror(errno));
	else
		rc = mark_running(p->mark, digest, err);
	if (rc < 0 && *jsonl) {
		fclose(*jsonl);
		*jsonl = NULL;
	}
	return rc;
}

/* Run TODO[0..ntodo) into C, then (with a CI target) more rounds until every point
 * settles; the .running folder goes when done. 1 if a run failed, else 0. */
static int run_rounds(const struct val_case *vc, const struct case_paths *p, int kept,
		      int *todo, int ntodo, bool *tried, struct val_collect *c)
{
	double t0 = now();
	const char *most = vc->e.ci_target > 0 ? "up to " : "";
	int n = experiment_runs(&vc->e), crashed = 0;
	if (kept)
		say(c->o, false, "%s: %d runs of %s%d kept, %d to run (%s)...", vc->name, kept, most,
		    n, ntodo, vc->title);
	else
		say(c->o, false, "%s: %s%d runs (%s)...", vc->name, most, n, vc->title);
	while (ntodo > 0 && !sweep_interrupted) {	/* more rounds only with a CI target */
		crashed += sweep_local(&vc->e, todo, ntodo, c->o->jobs, 0, p->tmp, on_done, c);
		ntodo = vc->e.ci_target > 0 ? replicates_next(&vc->e, c->runs, tried, todo) : 0;
	}
	unlink(p->mark);
	rmdir(p->tmp);
	fclose(c->jsonl);
	say(c->o, false, "%s: done in %.0f s", vc->name, now() - t0);
	return crashed || c->failed ? 1 : 0;
}

int val_runs_make(const struct val_case *vc, const struct validate_opts *o, const char *digest,
		  cJSON **runs, struct sim_err *err)
{
	struct case_paths p;
	case_paths(vc, o->out, &p);
	int kept = o->resume ? resume_case(vc, o, &p, digest, runs, err) : 0;
	if (kept < 0)
		return -1;
	int n = experiment_runs(&vc->e);
	int *todo = xcalloc((size_t)n + 1, sizeof(*todo));
	bool *tried = xcalloc((size_t)n + 1, sizeof(*tried));
	int ntodo = replicates_next(&vc->e, runs, tried, todo);
	struct val_collect c = { .vc = vc, .o = o, .runs = runs };
	int rc = start_case(&p, kept, digest, &c.jsonl, err);
	if (rc == 0)
		rc = run_rounds(vc, &p, kept, todo, ntodo, tried, &c);
	free(todo);
	free(tried);
	return rc;
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

/* Do folders A and B name the same folder? */
static bool same_folder(const char *a, const char *b)
{
	char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
	bool same = ra && rb && !strcmp(ra, rb);
	free(ra);
	free(rb);
	return same;
}

int val_runs_from(const struct val_case *vc, const struct validate_opts *o, cJSON **runs,
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
	snprintf(to, sizeof(to), "%s/%s.jsonl", o->out, val_case_runs_name(vc));
	if (!same_folder(o->from, o->out) && copy_file(path, to, err) < 0)
		return -1;
	int failed = 0;
	for (int r = 0; r < want; r++) {
		const char *inv = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(runs[r],
										"invariants"));
		if (!inv || strcmp(inv, "ok")) {
			failed = 1;
			say(o, true, "%s: run %d failed: %s", vc->name, r, inv ? inv : "?");
		}
	}
	return failed;
}
