/* test_sensitivity_study.c - a sensitivity study without the command line:
 * the case and the figures its options pick, the variants that set them,
 * and the effects with their paired CIs, the table, sensitivity.json and
 * Morris' measures, read from summaries written where the variants' runs
 * leave them, beside the files they were made with (those of other files
 * are refused); a variant without one is run (here a binary that is not
 * there, so it fails and nothing else runs). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine/json_in.h"
#include "hw/machine.h"
#include "report/report.h"
#include "study/sensitivity.h"
#include "scratch.h"

/* westmere-ep's smt (19, 18..20) and same_socket (99, 94..104) hand-offs. */
#define FIGURES "westmere-ep:handoff_cycles.smt,westmere-ep:handoff_cycles.same_socket"

/* Case T1: two checks of one point, three replicates. */
static const char case_text[] =
	"{ \"case\": \"T1\", \"title\": \"t\", \"citation\": \"c\",\n"
	"  \"experiment\": { \"machines\": [\"westmere-ep\"], \"policies\": [\"slub\"],\n"
	"    \"workloads\": [\"pingpong pairs=sample\"], \"replicates\": 3, \"seed\": 1 },\n"
	"  \"checks\": [\n"
	"    { \"name\": \"smt\", \"path\": \"result.by_class.smt\",\n"
	"      \"at\": { \"machine\": \"westmere-ep\" }, \"published\": 7.1, \"unit\": \"ns\",\n"
	"      \"band\": [0.9, 1.1], \"reason\": \"r\" },\n"
	"    { \"name\": \"same_socket\", \"path\": \"result.by_class.same_socket\",\n"
	"      \"at\": { \"machine\": \"westmere-ep\" }, \"published\": 37.2, \"unit\": \"ns\",\n"
	"      \"band\": [0.9, 1.1], \"reason\": \"r\" } ] }\n";

/* A check as a variant's validate summary gives it: its mean, its CI's
 * half-width (0: none) and its replicates' values. */
struct check {
	double mean, half;
	double v[3];
	int nv;
};

struct scratch {
	char dir[64];		/* the test's folder */
	char casefile[128];	/* DIR/T1.json */
	char out[128];		/* DIR/out, the study's results folder */
	char *sets[2];
	struct sens_opts o;
};

/* A scratch folder with case T1 and the options of a study of FIGURES in it. */
static int setup(void **state)
{
	struct scratch *t = calloc(1, sizeof(*t));
	assert_int_equal(scratch_make(t->dir, sizeof(t->dir), "slabsim-sens-study"), 0);
	snprintf(t->casefile, sizeof(t->casefile), "%s/T1.json", t->dir);
	snprintf(t->out, sizeof(t->out), "%s/out", t->dir);
	FILE *f = fopen(t->casefile, "w");
	assert_non_null(f);
	fputs(case_text, f);
	fclose(f);
	t->sets[0] = "loops=7";
	t->sets[1] = "mode=fast";
	t->o = (struct sens_opts){ .casename = t->casefile, .sets = t->sets, .nsets = 2,
				   .figures = FIGURES, .all = true, .levels = 4, .seed = 1,
				   .jobs = 1, .out = t->out, .no_plot = true,
				   .exe = "/nonexistent/slabsim" };
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct scratch *t = *state;
	scratch_remove(t->dir);
	free(t);
	return 0;
}

/* OUT/runs/VARIANT/out/summary.json as validate leaves it: case T1's two
 * checks, made by the model of digest MODEL, judged with the study's case
 * file of now (OUT/T1.json: its digest). */
static void write_summary(const char *out, const char *variant, const char *model,
			  const struct check *c)
{
	char path[512], digest[17];
	snprintf(path, sizeof(path), "%s/T1.json", out);
	assert_int_equal(val_case_digest(path, digest), 0);
	snprintf(path, sizeof(path), "%s/runs/%s/out", out, variant);
	for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {	/* mkdir -p */
		*s = 0;
		mkdir(path, 0755);
		*s = '/';
	}
	mkdir(path, 0755);
	cJSON *root = cJSON_CreateObject(), *cs = cJSON_AddArrayToObject(root, "cases");
	cJSON_AddStringToObject(root, "model_digest", model);
	cJSON *one = cJSON_CreateObject(), *checks = cJSON_AddArrayToObject(one, "checks");
	cJSON_AddStringToObject(one, "case", "T1");
	cJSON_AddStringToObject(one, "case_digest", digest);
	cJSON_AddItemToArray(cs, one);
	for (int k = 0; k < 2; k++) {
		cJSON *ch = cJSON_CreateObject(), *ci, *v = cJSON_AddArrayToObject(ch, "values");
		cJSON_AddNumberToObject(ch, "simulated", c[k].mean);
		if (c[k].half) {
			ci = cJSON_AddArrayToObject(ch, "ci95");
			cJSON_AddItemToArray(ci, cJSON_CreateNumber(c[k].mean - c[k].half));
			cJSON_AddItemToArray(ci, cJSON_CreateNumber(c[k].mean + c[k].half));
		}
		for (int r = 0; r < c[k].nv; r++)
			cJSON_AddItemToArray(v, cJSON_CreateNumber(c[k].v[r]));
		cJSON_AddItemToArray(checks, ch);
	}
	char *text = cJSON_Print(root);
	strcat(path, "/summary.json");
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(text);
	cJSON_Delete(root);
}

/* O's study opened into S, with its variants planned in S->plan. */
static void open_planned(const struct sens_opts *o, struct sens_study *s)
{
	struct sim_err err;
	assert_int_equal(sens_study_open(o, s, &err), SENS_DONE);
	sens_plan_make(o, s->f, s->nf, &s->plan);
}

/* The files of study S's variants FROM..TO-1 as a run of them leaves them
 * (their machine files and case.json). */
static void write_variant_files(const struct sens_opts *o, const struct sens_study *s,
				int from, int to)
{
	struct sim_err err;
	for (int v = from; v < to; v++)
		assert_int_equal(sens_variant_files(o, s, v, &err), 0);
}

/* The one-at-a-time variants' files and summaries: the smt figure (f000)
 * moves the smt check by -10% .. +10% with paired replicates; the
 * same_socket figure (f001) moves the same_socket check by -10% .. +10%,
 * its high end without replicate values (its CI from the two ends' own). */
static void write_one_at_a_time(const struct scratch *t, const char *model)
{
	const char *out = t->out;
	struct sens_study s;
	open_planned(&t->o, &s);
	write_variant_files(&t->o, &s, 0, 5);
	sens_study_free(&s);
	const struct check base[2] = { { 10, 0.5, { 9.9, 10, 10.1 }, 3 },
				       { 40, 1, { 39, 40, 41 }, 3 } };
	const struct check f0_low[2] = { { 9, 0.5, { 8.9, 9, 9.1 }, 3 }, base[1] };
	const struct check f0_high[2] = { { 11, 0.5, { 11, 11.1, 10.9 }, 3 }, base[1] };
	const struct check f1_low[2] = { base[0], { 36, 1, { 35, 36, 37 }, 3 } };
	const struct check f1_high[2] = { base[0], { 44, 1, { 0 }, 0 } };
	write_summary(out, "base", model, base);
	write_summary(out, "f000-low", model, f0_low);
	write_summary(out, "f000-high", model, f0_high);
	write_summary(out, "f001-low", model, f1_low);
	write_summary(out, "f001-high", model, f1_high);
}

/* The whole of file PATH, malloc'd. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	return strdup(buf);
}

/* The case, the figures FIGURES picks and their ranges, the default
 * results folder; a case not found and a pattern matching nothing are bad
 * input. */
static void test_open(void **state)
{
	struct scratch *t = *state;
	struct sens_opts o = t->o;
	struct sens_study s;
	struct sim_err err;
	o.out = NULL;
	assert_int_equal(sens_study_open(&o, &s, &err), SENS_DONE);
	assert_string_equal(s.vc.name, "T1");
	assert_int_equal(s.vc.nchecks, 2);
	assert_int_equal(s.nf, 2);
	assert_string_equal(s.f[0].machine, "westmere-ep");
	assert_string_equal(s.f[0].name, "handoff_cycles.smt");
	assert_true(s.f[0].value == 19 && s.f[0].lo == 18 && s.f[0].hi == 20);
	assert_string_equal(s.f[1].name, "handoff_cycles.same_socket");
	assert_true(s.f[1].value == 99 && s.f[1].lo == 94 && s.f[1].hi == 104);
	assert_string_equal(s.out, "out/sensitivity-T1");
	sens_study_free(&s);
	o.casename = "C99";
	assert_int_equal(sens_study_open(&o, &s, &err), SENS_BAD_INPUT);
	assert_string_equal(err.msg, "sensitivity: no case 'C99' (slabsim validate --list lists them)");
	sens_study_free(&s);
	o.casename = t->casefile;
	o.figures = "nothing.*";
	assert_int_equal(sens_study_open(&o, &s, &err), SENS_BAD_INPUT);
	assert_non_null(strstr(err.msg, "'nothing.*' matches no figure"));
	sens_study_free(&s);
	o.figures = FIGURES;
	o.all = false;	/* both figures are measured */
	assert_int_equal(sens_study_open(&o, &s, &err), SENS_BAD_INPUT);
	sens_study_free(&s);
}

/* The variants of two figures with 2 Morris trajectories: base, each
 * figure at its low and high end with the other at its value, then 2 x 3
 * Morris points on the grid, one figure moving from point to point. */
static void test_plan(void **state)
{
	struct scratch *t = *state;
	struct sens_opts o = t->o;
	struct sens_study s;
	o.morris = 2;
	open_planned(&o, &s);
	const struct sens_plan p = s.plan;
	assert_int_equal(p.n, 1 + 2 * 2 + 2 * 3);
	const char *names[] = { "base", "f000-low", "f000-high", "f001-low", "f001-high",
				"morris-s1-L4-t000-p000", "morris-s1-L4-t000-p001",
				"morris-s1-L4-t000-p002", "morris-s1-L4-t001-p000" };
	const double values[5][2] = { { 19, 99 }, { 18, 99 }, { 20, 99 }, { 19, 94 }, { 19, 104 } };
	for (int v = 0; v < 9; v++)
		assert_string_equal(p.names[v], names[v]);
	for (int v = 0; v < 5; v++)
		for (int i = 0; i < 2; i++)
			assert_true(p.values[v * 2 + i] == values[v][i]);
	for (int v = 5; v < p.n; v++) {
		const double *x = p.x + (v - 5) * 2, *val = p.values + v * 2;
		for (int i = 0; i < 2; i++)	/* sens_at of the point's place, in whole cycles */
			assert_true(val[i] == round(s.f[i].lo + x[i] * (s.f[i].hi - s.f[i].lo)));
		if ((v - 5) % 3)	/* one figure moved from the point before */
			assert_int_equal((x[0] != x[-2]) + (x[1] != x[-1]), 1);
	}
	sens_study_free(&s);
}

/* Every variant kept: nothing runs; the effects and their CIs (paired
 * where both ends list replicates), the table (to table.txt and the echo
 * alike), sensitivity.json and the case file validate would read. */
static void test_effects(void **state)
{
	struct scratch *t = *state;
	struct sens_opts o = t->o;
	struct sens_study s;
	struct sim_err err;
	char *echo = NULL, path[256];
	size_t echo_len;
	write_one_at_a_time(t, report_model_digest());
	o.echo = open_memstream(&echo, &echo_len);
	assert_int_equal(sens_study_run(&o, &s, &err), SENS_DONE);
	fclose(o.echo);
	struct sens_effect e = sens_effect_at(&s, 0, 0);
	/* paired: d = (1.1, 1.1, 0.8) / 10, sd 0.01 * sqrt(3), t(0.975, 2) = 4.3027 */
	assert_float_equal(e.low, -0.1, 1e-12);
	assert_float_equal(e.high, 0.1, 1e-12);
	assert_float_equal(e.effect, 0.2, 1e-12);
	assert_float_equal(e.half, 4.302653 * 0.01, 1e-6);
	e = sens_effect_at(&s, 0, 1);
	assert_true(e.effect == 0 && e.half == 0);
	e = sens_effect_at(&s, 1, 1);	/* unpaired: the ends' CIs (1 each) over 40 */
	assert_float_equal(e.effect, 0.2, 1e-12);
	assert_float_equal(e.half, sqrt(2) / 40, 1e-12);
	int order[2];
	sens_rank(&s, 1, order);
	assert_true(order[0] == 1 && order[1] == 0);
	snprintf(path, sizeof(path), "%s/table.txt", t->out);
	char *table = slurp(path);
	assert_string_equal(table, echo);
	assert_non_null(strstr(table, "sensitivity of T1 to 2 figures (low"));
	assert_non_null(strstr(table, "\nT1: smt: 10 ns at the figures' values (published 7.1)\n"));
	assert_non_null(strstr(table, "\n  westmere-ep:handoff_cycles.smt                            "
			       "18..20   -10.0%   +10.0%   +20.0% +-4.3\n"));
	assert_non_null(strstr(table, "\nT1: same_socket: 40 ns at the figures' values (published 37.2)\n"
			       "  figure                                                     range"
			       "      low     high  effect (95% CI)\n"
			       "  westmere-ep:handoff_cycles.same_socket                   94..104"
			       "   -10.0%   +10.0%   +20.0% +-3.5\n"
			       "  westmere-ep:handoff_cycles.smt                            18..20"
			       "    +0.0%    +0.0%    +0.0% +-0.0\n"));
	free(table);
	snprintf(path, sizeof(path), "%s/sensitivity.json", t->out);
	cJSON *j = json_read_file(path, &err);
	assert_non_null(j);
	assert_string_equal(cJSON_GetObjectItem(j, "case")->valuestring, "T1");
	const cJSON *f1 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "figures"), 1);
	assert_true(cJSON_GetObjectItem(f1, "low")->valuedouble == 94);
	assert_string_equal(cJSON_GetObjectItem(f1, "origin")->valuestring, "measured");
	const cJSON *c0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "checks"), 0);
	assert_string_equal(cJSON_GetObjectItem(c0, "check")->valuestring, "smt");
	assert_true(cJSON_GetObjectItem(c0, "base")->valuedouble == 10);
	const cJSON *x = cJSON_GetArrayItem(cJSON_GetObjectItem(c0, "effects"), 0);
	assert_string_equal(cJSON_GetObjectItem(x, "figure")->valuestring,
			    "westmere-ep:handoff_cycles.smt");
	assert_float_equal(cJSON_GetObjectItem(x, "effect")->valuedouble, 0.2, 1e-12);
	assert_null(cJSON_GetObjectItem(x, "mu_star"));
	cJSON_Delete(j);
	snprintf(path, sizeof(path), "%s/T1.json", t->out);	/* NAME=VALUE in "fixed" */
	j = json_read_file(path, &err);
	const cJSON *fixed = cJSON_GetObjectItem(cJSON_GetObjectItem(j, "experiment"), "fixed");
	assert_true(cJSON_GetObjectItem(fixed, "loops")->valuedouble == 7);
	assert_string_equal(cJSON_GetObjectItem(fixed, "mode")->valuestring, "fast");
	cJSON_Delete(j);
	free(echo);
	sens_study_free(&s);
}

/* Morris on check smt = 10 (1 + 0.3 x0 - 0.1 x1) at each point's places
 * x, same_socket constant: mu* 0.3 and 0.1, mu 0.3 and -0.1, sigma 0 (in
 * base values per move across the range); the table and JSON show them. */
static void test_morris(void **state)
{
	struct scratch *t = *state;
	struct sens_opts o = t->o;
	struct sens_study s;
	struct sim_err err;
	o.morris = 2;
	write_one_at_a_time(t, report_model_digest());
	open_planned(&o, &s);
	write_variant_files(&o, &s, 5, s.plan.n);
	for (int v = 5; v < s.plan.n; v++) {
		const double *x = s.plan.x + (v - 5) * 2;
		struct check c[2] = { { 10 * (1 + 0.3 * x[0] - 0.1 * x[1]), 0, { 0 }, 0 },
				      { 40, 0, { 0 }, 0 } };
		write_summary(t->out, s.plan.names[v], report_model_digest(), c);
	}
	sens_study_free(&s);
	assert_int_equal(sens_study_run(&o, &s, &err), SENS_DONE);
	assert_non_null(s.mu_star);
	assert_float_equal(s.mu_star[0 * 2 + 0], 0.3, 1e-9);	/* figure 0, check 0 */
	assert_float_equal(s.mu[0 * 2 + 0], 0.3, 1e-9);
	assert_float_equal(s.mu_star[1 * 2 + 0], 0.1, 1e-9);
	assert_float_equal(s.mu[1 * 2 + 0], -0.1, 1e-9);
	assert_float_equal(s.sigma[1 * 2 + 0], 0, 1e-9);
	assert_true(s.mu_star[0 * 2 + 1] == 0 && s.mu_star[1 * 2 + 1] == 0);
	char path[256];
	snprintf(path, sizeof(path), "%s/table.txt", t->out);
	char *table = slurp(path);
	assert_non_null(strstr(table, "effect (95% CI)      mu*    sigma\n"
			       "  westmere-ep:handoff_cycles.smt                            18..20"
			       "   -10.0%   +10.0%   +20.0% +-4.3      30.0%     0.0%\n"));
	free(table);
	snprintf(path, sizeof(path), "%s/sensitivity.json", t->out);
	cJSON *j = json_read_file(path, &err);
	assert_non_null(j);
	const cJSON *c0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "checks"), 0);
	const cJSON *x = cJSON_GetArrayItem(cJSON_GetObjectItem(c0, "effects"), 1);
	assert_float_equal(cJSON_GetObjectItem(x, "mu_star")->valuedouble, 0.1, 1e-9);
	assert_float_equal(cJSON_GetObjectItem(x, "mu")->valuedouble, -0.1, 1e-9);
	assert_float_equal(cJSON_GetObjectItem(x, "sigma")->valuedouble, 0, 1e-9);
	cJSON_Delete(j);
	sens_study_free(&s);
}

struct announced {
	int calls, n, total;
	char variant[40];
};

/* sens_progress_fn: the last variant announced. */
static void record(void *arg, int n, int total, const char *variant)
{
	struct announced *a = arg;
	a->calls++;
	a->n = n;
	a->total = total;
	snprintf(a->variant, sizeof(a->variant), "%s", variant);
}

/* T's study with its announcements recorded in A, its one-at-a-time
 * variants kept as made by this model. */
static struct sens_opts recording(const struct scratch *t, struct announced *a)
{
	struct sens_opts o = t->o;
	o.progress = record;
	o.progress_arg = a;
	write_one_at_a_time(t, report_model_digest());
	return o;
}

/* A variant without a summary, or with another model's, is run: its
 * machine file written with its figures set, announced, and its validate
 * started (here a binary that is not there: the study stops, failed). One
 * whose summary was judged with the case file of before (edited since) is
 * judged again from its runs: validate --from, nothing announced. */
static void test_runs_what_is_missing(void **state)
{
	struct scratch *t = *state;
	struct announced a = { 0 };
	struct sens_opts o = recording(t, &a);
	struct sens_study s;
	struct sim_err err;
	char path[256];
	snprintf(path, sizeof(path), "%s/runs/f001-high/out/summary.json", t->out);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(sens_study_run(&o, &s, &err), SENS_RUNS_FAILED);
	assert_non_null(strstr(err.msg, "runs/f001-high/out failed (exit 127)"));
	assert_true(a.calls == 1 && a.n == 5 && a.total == 5);
	assert_string_equal(a.variant, "f001-high");
	snprintf(path, sizeof(path), "%s/runs/f001-high/machines/westmere-ep.json", t->out);
	struct machine m;
	assert_int_equal(machine_load(&m, path, &err), 0);
	assert_int_equal(m.handoff[DIST_SAME_SOCKET], 104);
	machine_free(&m);
	sens_study_free(&s);
	write_one_at_a_time(t, "0123456789abcdef");	/* another model's */
	a.calls = 0;
	assert_int_equal(sens_study_run(&o, &s, &err), SENS_RUNS_FAILED);
	assert_true(a.calls == 1 && a.n == 1);
	assert_string_equal(a.variant, "base");
	sens_study_free(&s);
	write_one_at_a_time(t, report_model_digest());
	snprintf(path, sizeof(path), "%s/runs/f000-low/out/summary.json", t->out);
	char *text = slurp(path), *d = strstr(text, "\"case_digest\":");
	assert_non_null(d);
	d = strchr(d + 14, '"') + 1;
	*d = *d == '0' ? '1' : '0';	/* the digest of another case file */
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(text);
	a.calls = 0;
	assert_int_equal(sens_study_run(&o, &s, &err), SENS_RUNS_FAILED);
	assert_non_null(strstr(err.msg, "runs/f000-low/out failed (exit 127)"));
	assert_int_equal(a.calls, 0);
	sens_study_free(&s);
}

/* Replace the first FIND in file PATH by REPL. */
static void edit_file(const char *path, const char *find, const char *repl)
{
	char *text = slurp(path), *at = strstr(text, find);
	assert_non_null(at);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%.*s%s%s", (int)(at - text), text, repl, at + strlen(find));
	fclose(f);
	free(text);
}

/* Kept runs are read only if made with the study's case file and figures'
 * values: another case file, or another value of a figure, is refused
 * (bad input, nothing run, the summary untouched); what a variant notes
 * in its machine file's sources does not count. */
static void test_refuses_other_files(void **state)
{
	struct scratch *t = *state;
	struct announced a = { 0 };
	struct sens_opts o = recording(t, &a);
	struct sens_study s;
	struct sim_err err;
	char path[256];
	snprintf(path, sizeof(path), "%s/runs/f000-low/case.json", t->out);
	edit_file(path, "\"loops\":\t7", "\"loops\":\t8");
	assert_int_equal(sens_study_run(&o, &s, &err), SENS_BAD_INPUT);
	assert_non_null(strstr(err.msg, "runs/f000-low was run with another case file or other "
			       "figures' values (") && strstr(err.msg, "f000-low/case.json differs)"));
	assert_int_equal(a.calls, 0);
	sens_study_free(&s);
	write_one_at_a_time(t, report_model_digest());
	snprintf(path, sizeof(path), "%s/runs/f001-high/machines/westmere-ep.json", t->out);
	edit_file(path, "\"same_socket\":\t104", "\"same_socket\":\t103");
	assert_int_equal(sens_study_run(&o, &s, &err), SENS_BAD_INPUT);
	assert_non_null(strstr(err.msg, "f001-high/machines/westmere-ep.json differs)"));
	sens_study_free(&s);
	write_one_at_a_time(t, report_model_digest());
	edit_file(path, "\"sources\":\t{", "\"sources\":\t{\"x\": \"a note\",");
	assert_int_equal(sens_study_run(&o, &s, &err), SENS_DONE);
	assert_int_equal(a.calls, 0);
	snprintf(path, sizeof(path), "%s/runs/f001-high/out/summary.json", t->out);
	char *kept = slurp(path);
	assert_non_null(strstr(kept, "44"));
	free(kept);
	sens_study_free(&s);
}

/* A study given one more figure, a cost from the machine's table, reads
 * the variants kept from the study without it (their machine files lack
 * the entry that only restates the cost's own value; what can move no run,
 * a machine file's "ranges", does not count either) and runs the new
 * figure's two ends only; a kept variant with the cost set to another
 * value is refused. */
static void test_reads_kept_with_one_more_cost(void **state)
{
	struct scratch *t = *state;
	struct announced a = { 0 };
	struct sens_opts o = recording(t, &a);
	o.figures = FIGURES ",westmere-ep:costs.syscall_cold_lines";
	struct sens_study s;
	struct sim_err err;
	char path[256];
	snprintf(path, sizeof(path), "%s/runs/f000-high/machines/westmere-ep.json", t->out);
	edit_file(path, "{", "{ \"ranges\": { \"handoff_cycles.smt\": [1, 99] },");
	assert_int_equal(sens_study_run(&o, &s, &err), SENS_RUNS_FAILED);
	assert_true(a.calls == 1 && a.n == 6 && a.total == 7);
	assert_string_equal(a.variant, "f002-low");
	sens_study_free(&s);
	snprintf(path, sizeof(path), "%s/runs/f000-low/machines/westmere-ep.json", t->out);
	edit_file(path, "{", "{ \"costs\": { \"syscall_cold_lines\": 9 },");
	a.calls = 0;
	assert_int_equal(sens_study_run(&o, &s, &err), SENS_BAD_INPUT);
	assert_non_null(strstr(err.msg, "f000-low/machines/westmere-ep.json differs)"));
	assert_int_equal(a.calls, 0);
	sens_study_free(&s);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	setenv("SLABSIM_VALIDATION", "validation", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_open, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuses_other_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_plan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_effects, setup, teardown),
		cmocka_unit_test_setup_teardown(test_morris, setup, teardown),
		cmocka_unit_test_setup_teardown(test_runs_what_is_missing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reads_kept_with_one_more_cost, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
