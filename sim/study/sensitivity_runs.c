/* sensitivity_runs.c - the runs of a sensitivity study's variants: each a
 * child `slabsim validate` of the case with the variant's machine files and
 * the study's case files found first, its results kept in RUNS/NAME/
 * (OUT/runs/NAME/ unless the study names another folder) and read back from
 * its summary's checks. A kept variant is read only if it was run with the
 * case file and machine files this study would give it. */
#include "sensitivity.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/json_in.h"
#include "engine/oom.h"
#include "hw/machine.h"
#include "report/report.h"
#include "study/sweep.h"

/* The case file FROM with O's NAME=VALUE in its experiment's "fixed" and
 * --replicates (a case judging another's runs has no experiment: copied as
 * it is), written to PATH, where validate reads it. */
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

/* The case's file in OUT, FILE 0 that of the case whose runs it makes (its
 * own, or runs_of's), FILE 1 its own. */
static void case_file(const struct sens_study *s, int file, char *path, size_t size)
{
	const char *name = file == 0 && s->vc.runs_of ? s->vc.runs_of : s->vc.name;
	snprintf(path, size, "%s/%s.json", s->out, name);
}

/* RUNS and the case files in OUT that every variant's validate reads. */
static int write_cases(const struct sens_opts *o, const struct sens_study *s,
		       struct sim_err *err)
{
	char runs[700], own[700];
	case_file(s, 0, runs, sizeof(runs));
	case_file(s, 1, own, sizeof(own));
	if (sweep_make_dirs(s->out, err) < 0 || sweep_make_dirs(s->runs, err) < 0 ||
	    write_case(o, s->target, runs, err) < 0)
		return -1;
	return s->vc.runs_of ? write_case(o, s->vc.path, own, err) : 0;
}

/* The child of spawn_validate: its output to LOG, the variant's machine
 * files and the study's case files found first, then validate. */
static void exec_validate(const struct sens_opts *o, const struct sens_study *s,
			  const char *machdir, const char *out, bool from, const char *log)
{
	char dirs[4096], cases[2048], jobs[16], files[2][700];
	snprintf(dirs, sizeof(dirs), "%s:%s", machdir, machine_dirs());
	snprintf(cases, sizeof(cases), "%s:%s", s->out, val_case_dirs());
	snprintf(jobs, sizeof(jobs), "%d", o->jobs);
	case_file(s, 0, files[0], sizeof(files[0]));
	case_file(s, 1, files[1], sizeof(files[1]));
	FILE *l = freopen(log, "w", stdout);
	if (!l || !freopen(log, "a", stderr))
		_exit(2);
	setenv("SLABSIM_MACHINES", dirs, 1);
	setenv("SLABSIM_VALIDATION", cases, 1);
	char *argv[12] = { "slabsim", "validate", files[0] }, **a = argv + 3;
	if (s->vc.runs_of)
		*a++ = files[1];
	*a++ = "--out", *a++ = (char *)out, *a++ = "--no-plot", *a++ = "-j", *a++ = jobs;
	if (from)
		*a++ = "--from", *a++ = (char *)out;
	execv(o->exe, argv);
	_exit(127);
}

/* Run `slabsim validate CASEFILES --out OUT` (with FROM, `--from OUT`:
 * judge its runs again, run nothing) with the machine files of MACHDIR;
 * its output goes to OUT.log. 0 when it judged the cases (every run gave
 * its JSON), -1 with err set. */
static int spawn_validate(const struct sens_opts *o, const struct sens_study *s,
			  const char *machdir, const char *out, bool from, struct sim_err *err)
{
	char log[900];
	snprintf(log, sizeof(log), "%s.log", out);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return sim_fail(err, "fork: %s", strerror(errno));
	if (pid == 0)
		exec_validate(o, s, machdir, out, from, log);
	int status;
	if (waitpid(pid, &status, 0) < 0)
		return sim_fail(err, "waitpid: %s", strerror(errno));
	int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 3;
	if (rc == 0 || rc == 1)	/* 1: a check outside its band, as expected of variants */
		return 0;
	return sim_fail(err, "the runs of %s failed (exit %d): see %s", out, rc, log);
}

/* One check C of a summary into VAL: its mean, its CI's half-width and
 * each replicate's value. */
static void read_check(const cJSON *c, struct sens_value *val)
{
	const cJSON *sim = cJSON_GetObjectItemCaseSensitive(c, "simulated");
	const cJSON *ci = cJSON_GetObjectItemCaseSensitive(c, "ci95"), *x;
	val->mean = cJSON_IsNumber(sim) ? sim->valuedouble : NAN;
	val->half = cJSON_GetArraySize(ci) == 2
		? (cJSON_GetArrayItem(ci, 1)->valuedouble - cJSON_GetArrayItem(ci, 0)->valuedouble) / 2
		: NAN;
	val->n = 0;
	cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(c, "values"))
		if (val->n < SENS_MAX_VALUES)
			val->v[val->n++] = cJSON_IsNumber(x) ? x->valuedouble : NAN;
}

/* Whether summary case CS was judged with the case file at PATH as it is
 * now (validate keeps the file's digest), not with checks since changed. */
static bool judged_with(const cJSON *cs, const char *path)
{
	char now[17];
	const char *was = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cs, "case_digest"));
	return was && val_case_digest(path, now) == 0 && !strcmp(was, now);
}

/* The case S judges, as judged in summary SUM (NULL if it is not there, or
 * was judged with other checks than the case file's of now). */
static const cJSON *case_checks(const cJSON *sum, const struct sens_study *s)
{
	char own[700];
	const cJSON *cs, *checks = NULL;
	case_file(s, 1, own, sizeof(own));
	cJSON_ArrayForEach(cs, cJSON_GetObjectItemCaseSensitive(sum, "cases"))
		if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cs, "case")) ?: "",
			    s->vc.name) && judged_with(cs, own))
			checks = cJSON_GetObjectItemCaseSensitive(cs, "checks");
	return checks;
}

/* The checks of the case S judges as OUT/summary.json has them: VALS[i] for
 * check i; 1 if the summary has not judged that case with its checks of now
 * (judge the runs again), 2 if another model made its runs (or there is
 * none), -1 with err set. */
static int read_checks(const char *out, const struct sens_study *s, struct sens_value *vals,
		       int n, struct sim_err *err)
{
	char path[900];
	snprintf(path, sizeof(path), "%s/summary.json", out);
	if (access(path, R_OK) != 0)
		return 2;
	cJSON *sum = json_read_file(path, err);
	if (!sum)
		return -1;
	const char *model = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(sum, "model_digest"));
	const cJSON *checks = case_checks(sum, s);
	int rc = !model || strcmp(model, report_model_digest()) ? 2 : !checks ? 1
		: cJSON_GetArraySize(checks) == n ? 0
		: sim_fail(err, "%s: %d checks, the case has %d", path,
			   cJSON_GetArraySize(checks), n);
	for (int i = 0; rc == 0 && i < n; i++)
		read_check(cJSON_GetArrayItem(checks, i), &vals[i]);
	cJSON_Delete(sum);
	return rc;
}

/* MACHDIR/MACHINE.json for each machine of S's figures, every figure set
 * to VALUES. */
static int write_machines(const struct sens_study *s, const char *machdir,
			  const double *values, struct sim_err *err)
{
	char path[900];
	for (int i = 0; i < s->nf; i++) {
		bool first = true;
		for (int j = 0; j < i && first; j++)
			first = strcmp(s->f[j].machine, s->f[i].machine) != 0;
		snprintf(path, sizeof(path), "%s/%s.json", machdir, s->f[i].machine);
		if (first && sens_write_machine(s->f[i].machine, s->f, s->nf, values, path, err) < 0)
			return -1;
	}
	return 0;
}

/* Whether file PATH holds exactly TEXT (false if it cannot be read). */
static bool file_holds(const char *path, const char *text)
{
	size_t len;
	char *have = file_read_text(path, &len);
	bool same = have && len == strlen(text) && !memcmp(have, text, len);
	free(have);
	return same;
}

/* Drop from machine file ROOT the cost entries of S's figures of MACHINE
 * that only restate the figure's own value (what the cost table gives
 * it), and "costs" itself once empty: a variant writes every figure of the
 * study, so a study given one more cost figure would otherwise see its
 * kept variants, run without that entry, as run with other values. */
static void drop_restated_costs(cJSON *root, const struct sens_study *s, const char *machine)
{
	cJSON *costs = cJSON_GetObjectItemCaseSensitive(root, "costs");
	for (int i = 0; costs && i < s->nf; i++) {
		const struct sens_figure *f = &s->f[i];
		if (strcmp(f->machine, machine) || strncmp(f->name, "costs.", 6))
			continue;
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(costs, f->name + 6);
		if (cJSON_IsNumber(v) && fabs(v->valuedouble - f->value) <= 1e-9 * fabs(f->value))
			cJSON_DeleteItemFromObjectCaseSensitive(costs, f->name + 6);
	}
	if (costs && !costs->child)
		cJSON_DeleteItemFromObjectCaseSensitive(root, "costs");
}

/* Drop from machine file ROOT what cannot move a run: "sources" (what the
 * figures rest on, which a variant notes for the figures it moves),
 * "ranges" (what a study may set them to) and, of each fitted figure, all
 * but its value (how and to which case it was fitted). */
static void drop_notes(cJSON *root)
{
	cJSON_DeleteItemFromObjectCaseSensitive(root, "sources");
	cJSON_DeleteItemFromObjectCaseSensitive(root, "ranges");
	cJSON *fitted = cJSON_GetObjectItemCaseSensitive(root, "fitted");
	for (cJSON *f = fitted ? fitted->child : NULL; f; f = f->next)
		for (cJSON *m = f->child, *next; m; m = next) {
			next = m->next;
			if (!m->string || strcmp(m->string, "value"))
				cJSON_Delete(cJSON_DetachItemViaPointer(f, m));
		}
}

/* Whether machine file PATH of MACHINE sets every figure as TEXT does;
 * notes (drop_notes) and a cost entry that restates its figure's own
 * value are not compared. */
static bool machine_same(const struct sens_study *s, const char *machine, const char *path,
			 const char *text)
{
	struct sim_err ignored;
	cJSON *have = json_read_file(path, &ignored), *want = cJSON_Parse(text);
	bool same = have && want;
	if (same) {
		drop_notes(have);
		drop_notes(want);
		drop_restated_costs(have, s, machine);
		drop_restated_costs(want, s, machine);
		same = cJSON_Compare(have, want, true);
	}
	cJSON_Delete(have);
	cJSON_Delete(want);
	return same;
}

/* Whether variant V's kept runs in DIR were made with the case file this
 * study runs (DIR/case.json) and the figures' values it gives V; if not,
 * err says which file differs. */
static bool variant_matches(const struct sens_study *s, int v, const char *dir,
			    struct sim_err *err)
{
	char path[900], casefile[700];
	case_file(s, 0, casefile, sizeof(casefile));
	size_t len;
	char *want = file_read_text(casefile, &len);
	snprintf(path, sizeof(path), "%s/case.json", dir);
	bool same = want && file_holds(path, want);
	free(want);
	for (int i = 0; same && i < s->nf; i++) {
		char *text = sens_machine_text(s->f[i].machine, s->f, s->nf,
					       s->plan.values + (size_t)v * s->nf, err);
		if (!text)
			return false;
		snprintf(path, sizeof(path), "%s/machines/%s.json", dir, s->f[i].machine);
		same = machine_same(s, s->f[i].machine, path, text);
		free(text);
	}
	if (!same)
		sim_fail(err, "%s was run with another case file or other figures' values (%s "
			 "differs): give another --out or --runs, or remove it", dir, path);
	return same;
}

/* DIR/case.json: a copy of the case file variant DIR's runs are made with. */
static int keep_case(const struct sens_study *s, const char *dir, struct sim_err *err)
{
	char from[700], path[900];
	case_file(s, 0, from, sizeof(from));
	snprintf(path, sizeof(path), "%s/case.json", dir);
	size_t len;
	char *text = file_read_text(from, &len);
	FILE *f = text ? fopen(path, "w") : NULL;
	bool ok = f && fwrite(text, 1, len, f) == len;
	if (f && fclose(f) != 0)
		ok = false;
	free(text);
	return ok ? 0 : sim_fail(err, "cannot write %s: %s", path, strerror(errno));
}

/* RUNS/NAME/ of variant V: its machine files and its case.json. */
static int variant_files(const struct sens_study *s, int v, struct sim_err *err)
{
	char dir[700], machdir[760];
	snprintf(dir, sizeof(dir), "%s/%s", s->runs, s->plan.names[v]);
	snprintf(machdir, sizeof(machdir), "%s/machines", dir);
	if (sweep_make_dirs(dir, err) < 0 || sweep_make_dirs(machdir, err) < 0 ||
	    write_machines(s, machdir, s->plan.values + (size_t)v * s->nf, err) < 0)
		return -1;
	return keep_case(s, dir, err);
}

int sens_variant_files(const struct sens_opts *o, const struct sens_study *s, int v,
		       struct sim_err *err)
{
	return write_cases(o, s, err) < 0 ? -1 : variant_files(s, v, err);
}

/* Variant V of S's plan: its checks into S->vals, read from its kept
 * summary when this model made it with this study's files (judged again,
 * nothing run, when it lacks this case, V8 beside C1, or judged it with
 * checks since changed), else run. -2 when the kept runs were made with
 * other files. */
static int run_variant(const struct sens_opts *o, struct sens_study *s, int v,
		       struct sim_err *err)
{
	char dir[700], machdir[760], out[760];
	const char *name = s->plan.names[v];
	int nc = s->vc.nchecks;
	struct sens_value *vals = s->vals + (size_t)v * nc;
	snprintf(dir, sizeof(dir), "%s/%s", s->runs, name);
	snprintf(machdir, sizeof(machdir), "%s/machines", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	int rc = read_checks(out, s, vals, nc, err);
	if (rc != 2 && rc >= 0 && !variant_matches(s, v, dir, err))
		return -2;
	if (rc == 1)
		rc = spawn_validate(o, s, machdir, out, true, err) < 0 ? -1
			: read_checks(out, s, vals, nc, err);
	if (rc != 2)
		return rc;
	if (variant_files(s, v, err) < 0)
		return -1;
	if (o->progress)
		o->progress(o->progress_arg, v + 1, s->plan.n, name);
	if (spawn_validate(o, s, machdir, out, false, err) < 0)
		return -1;
	return read_checks(out, s, vals, nc, err);
}

int sens_run_variants(const struct sens_opts *o, struct sens_study *s, struct sim_err *err)
{
	if (write_cases(o, s, err) < 0)
		return SENS_BAD_INPUT;
	s->vals = calloc((size_t)s->plan.n * s->vc.nchecks + 1, sizeof(*s->vals));
	if (!s->vals)
		host_oom(__func__);
	for (int v = 0; v < s->plan.n; v++) {
		int rc = run_variant(o, s, v, err);
		if (rc == -2)
			return SENS_BAD_INPUT;
		if (rc < 0)
			return SENS_RUNS_FAILED;
		if (rc > 0)
			return sim_fail(err, "%s/%s/out: validate judged no case %s", s->runs,
					s->plan.names[v], s->vc.name), SENS_RUNS_FAILED;
	}
	return SENS_DONE;
}
