/* test_validate.c - the validation study without a command line: cases read
 * from validation/, checks judged on runs built here (means, ratios, their
 * 95% confidence intervals, the verdicts), and a tiny case run, judged and
 * written end to end, then judged again from its folder and resumed. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine/json_in.h"
#include "report/summary.h"
#include "study/validate_study.h"
#include "scratch.h"

/* Student's t at 0.975 with 2 degrees of freedom. */
#define T975_2 4.302653

static char tmpdir[64];

/* A scratch folder for the whole run, removed at the end. */
static int make_tmpdir(void **state)
{
	(void)state;
	return scratch_make(tmpdir, sizeof(tmpdir), "test_validate");
}

static int remove_tmpdir(void **state)
{
	(void)state;
	return scratch_remove(tmpdir);
}

/* TEXT written to the scratch folder's file NAME; its path in PATH. */
static void write_file(const char *name, const char *text, char *path, size_t size)
{
	snprintf(path, size, "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/* The whole of file PATH (malloc'ed), failing the test if it cannot be read. */
static char *slurp(const char *path)
{
	size_t len;
	char *text = file_read_text(path, &len);
	assert_non_null(text);
	return text;
}

/* C4 as validation/C4.json gives it: quick, its checks' published figures
 * from the Markov chain, each check at its own point; V7's ratios of two
 * numbers of one run, bounded below only. */
static void test_load_case(void **state)
{
	(void)state;
	char path[4096];
	struct val_case vc;
	struct sim_err err;
	assert_int_equal(val_case_find("C4", path, sizeof(path)), 0);
	assert_int_equal(val_case_load(&vc, path, &err), 0);
	assert_string_equal(vc.name, "C4");
	assert_string_equal(vc.family, "C4");
	assert_true(vc.quick);
	assert_int_equal(vc.nchecks, 8);
	const struct val_check *ch = &vc.checks[0];
	assert_string_equal(ch->name, "throughput a=5000 s=400 n=1");
	assert_string_equal(ch->path, "result.acquisitions_per_second");
	assert_float_equal(ch->published, 1.0 / 5450, 1e-15);	/* 1 / (a + s + c/2) */
	assert_float_equal(ch->scale, 1e-9, 1e-24);
	assert_true(ch->low == 0.95 && ch->high == 1.05);
	assert_int_equal(ch->over_point, -1);
	for (int k = 1; k < vc.nchecks; k++)
		assert_int_not_equal(vc.checks[k].at_point, vc.checks[0].at_point);
	val_case_free(&vc);
	assert_int_equal(val_case_find("V7", path, sizeof(path)), 0);
	assert_int_equal(val_case_load(&vc, path, &err), 0);
	assert_int_equal(vc.e.replicates, 2);
	for (int k = 0; k < vc.nchecks; k++) {
		assert_string_equal(vc.checks[k].over_path, "profile[symbol=kmem_cache_free].percent");
		assert_int_equal(vc.checks[k].over_point, vc.checks[k].at_point);
		assert_true(vc.checks[k].has_default && vc.checks[k].dflt == 0);
		assert_true(vc.checks[k].low == 1 && vc.checks[k].high >= 100);
	}
	val_case_free(&vc);
}

/* The cases a validate picks: the quick ones in order, those named, none
 * quick among those named, a name that is no case. */
static void test_load_cases(void **state)
{
	(void)state;
	struct val_case *cs;
	struct sim_err err;
	struct validate_opts o = { .quick = true, .ci_target = 0.1 };
	int n = validate_load_cases(&o, &cs, &err);
	static const char *const quick[] = { "C2", "C3", "C4", "V4", "V7" };
	assert_int_equal(n, 5);
	for (int i = 0; i < n; i++) {
		assert_string_equal(cs[i].name, quick[i]);
		assert_true(cs[i].e.ci_target == 0.1);
		val_case_free(&cs[i]);
	}
	free(cs);
	const char *names[] = { "V7", "C1" };
	o = (struct validate_opts){ .names = names, .nnames = 2 };
	assert_int_equal(validate_load_cases(&o, &cs, &err), 2);
	assert_string_equal(cs[0].name, "V7");
	assert_string_equal(cs[1].name, "C1");
	val_case_free(&cs[0]);
	val_case_free(&cs[1]);
	free(cs);
	o.nnames = 1;
	o.names = names + 1;
	o.quick = true;
	assert_int_equal(validate_load_cases(&o, &cs, &err), -1);
	assert_string_equal(err.msg, "no validation case to run (none is marked quick)");
	const char *none[] = { "C99" };
	o.names = none;
	assert_int_equal(validate_load_cases(&o, &cs, &err), -1);
	assert_non_null(strstr(err.msg, "no validation case 'C99'"));
}

/* A case of two points (slub, slab), three replicates each, whose checks
 * read result.x and result.y of the runs built by set_runs. */
static const char synthetic_case[] =
	"{\"case\": \"S1\", \"title\": \"synthetic\", \"citation\": \"a test\",\n"
	" \"experiment\": {\"machines\": [\"westmere-ep\"], \"policies\": [\"slub\", \"slab\"],\n"
	"                \"workloads\": [\"pingpong pairs=sample\"], \"replicates\": 3},\n"
	" \"checks\": [\n"
	"  {\"name\": \"mean\", \"path\": \"result.x\", \"at\": {\"policy\": \"slub\"},\n"
	"   \"published\": 12, \"band\": [0.9, 1.1], \"reason\": \"r\"},\n"
	"  {\"name\": \"x over y\", \"path\": \"result.x\", \"over_path\": \"result.y\",\n"
	"   \"at\": {\"policy\": \"slub\"}, \"published\": 1, \"band\": [1, 1000], \"reason\": \"r\"},\n"
	"  {\"name\": \"slub over slab\", \"path\": \"result.x\", \"at\": {\"policy\": \"slub\"},\n"
	"   \"over\": {\"policy\": \"slab\"}, \"published\": 3, \"band\": [0.5, 2], \"reason\": \"r\"},\n"
	"  {\"name\": \"absent\", \"path\": \"result.none\", \"at\": {\"policy\": \"slub\"},\n"
	"   \"published\": 1, \"band\": [0.5, 2], \"reason\": \"r\"},\n"
	"  {\"name\": \"by default\", \"path\": \"result.none\", \"default\": 5, \"scale\": 2,\n"
	"   \"at\": {\"policy\": \"slub\"}, \"published\": 10, \"band\": [0.5, 2], \"reason\": \"r\"}]}\n";

/* A run's JSON: its invariants, result.x and result.y, a lock table whose
 * second lock waited most, and a profile led by cpu_idle. */
static cJSON *make_run(const char *inv, double x, double y)
{
	cJSON *run = cJSON_CreateObject();
	cJSON_AddStringToObject(run, "invariants", inv);
	cJSON *res = cJSON_AddObjectToObject(run, "result");
	cJSON_AddNumberToObject(res, "x", x);
	cJSON_AddNumberToObject(res, "y", y);
	cJSON *locks = cJSON_AddArrayToObject(run, "locks");
	static const char *const names[] = { "&zone->lock", "&n->list_lock", "&rq->lock" };
	static const double waits[] = { 10, 300, 20 };
	for (int i = 0; i < 3; i++) {
		cJSON *l = cJSON_CreateObject();
		cJSON_AddStringToObject(l, "name", names[i]);
		cJSON_AddNumberToObject(l, "wait_cycles", waits[i]);
		cJSON_AddItemToArray(locks, l);
	}
	cJSON *p = cJSON_CreateObject();
	cJSON_AddStringToObject(p, "symbol", "cpu_idle");
	cJSON_AddNumberToObject(p, "percent", 41.6);
	cJSON_AddItemToArray(cJSON_AddArrayToObject(run, "profile"), p);
	return run;
}

/* The runs of the synthetic case: at slub x = 10, 12, 14 and y = 5, 6, 4;
 * at slab x = 4, 4, 4 and y = 1; every invariant held but (with `broken`)
 * slub's third run's. */
static void set_runs(const struct val_case *vc, cJSON **runs, bool broken)
{
	static const double x[] = { 10, 12, 14 }, y[] = { 5, 6, 4 };
	int slub = vc->checks[0].at_point, slab = vc->checks[2].over_point;
	for (int r = 0; r < 3; r++) {
		runs[slub * 3 + r] = make_run(broken && r == 2 ? "failed: x" : "ok", x[r], y[r]);
		runs[slab * 3 + r] = make_run("ok", 4, 1);
	}
}

/* Load the synthetic case into VC and judge each of its checks into rows[]. */
static void judge_synthetic(struct val_case *vc, bool broken, struct val_row *rows)
{
	char path[4096];
	struct sim_err err;
	write_file("S1.json", synthetic_case, path, sizeof(path));
	assert_int_equal(val_case_load(vc, path, &err), 0);
	assert_int_equal(experiment_runs(&vc->e), 6);
	cJSON *runs[6] = { 0 };
	set_runs(vc, runs, broken);
	for (int k = 0; k < vc->nchecks; k++)
		val_judge(vc, &vc->checks[k], runs, &rows[k]);
	for (int r = 0; r < 6; r++)
		cJSON_Delete(runs[r]);
}

/* A mean over three replicates and its t interval; a number no run has
 * (no value, failed), or its default times the scale (an interval of zero
 * width); the top lock and symbol of the point's first run. */
static void test_judge_mean(void **state)
{
	(void)state;
	struct val_case vc;
	struct val_row rows[5];
	judge_synthetic(&vc, false, rows);
	const struct val_row *m = &rows[0];
	assert_true(m->have && m->pass && m->have_ci);
	assert_int_equal(m->n, 3);
	assert_float_equal(m->sim, 12, 1e-12);
	assert_float_equal(m->ratio, 1, 1e-12);
	double half = T975_2 * 2 / sqrt(3);	/* sd 2 over three replicates */
	assert_float_equal(m->lo, 12 - half, 1e-5);
	assert_float_equal(m->hi, 12 + half, 1e-5);
	assert_int_equal(m->nvalues, 3);
	assert_true(m->values[0] == 10 && m->values[1] == 12 && m->values[2] == 14);
	assert_string_equal(m->lock, "&n->list_lock");
	assert_string_equal(m->sym, "cpu_idle 42%");
	assert_false(rows[3].have || rows[3].pass || rows[3].have_ci);
	assert_int_equal(rows[3].n, 0);
	assert_true(isnan(rows[3].sim));
	assert_true(rows[4].have && rows[4].pass && rows[4].have_ci);
	assert_float_equal(rows[4].sim, 10, 1e-12);
	assert_true(rows[4].lo == 10 && rows[4].hi == 10);
	val_case_free(&vc);
}

/* A ratio of two numbers of one run: the ratio of their means, its interval
 * by the delta method with their covariance, each replicate's jackknife
 * pseudo-value; a ratio of two points (no covariance). */
static void test_judge_ratio(void **state)
{
	(void)state;
	struct val_case vc;
	struct val_row rows[5];
	judge_synthetic(&vc, false, rows);
	const struct val_row *r = &rows[1];
	double mx = 12, my = 5, q = mx / my;
	double vx = 4.0 / 3, vy = 1.0 / 3, cxy = -1.0 / 3;	/* of the means */
	double half = T975_2 * sqrt(q * q * (vx / (mx * mx) + vy / (my * my) - 2 * cxy / (mx * my)));
	assert_true(r->have && r->pass && r->have_ci);
	assert_float_equal(r->sim, q, 1e-12);
	assert_float_equal(r->lo, q - half, 1e-5);
	assert_float_equal(r->hi, q + half, 1e-5);
	static const double x[] = { 10, 12, 14 }, y[] = { 5, 6, 4 };
	for (int i = 0; i < 3; i++)
		assert_float_equal(r->values[i], 3 * q - 2 * ((36 - x[i]) / (15 - y[i])), 1e-12);
	const struct val_row *p = &rows[2];	/* 12 / 4 against 3: inside; slab's sd is 0 */
	assert_true(p->have && p->pass);
	assert_float_equal(p->sim, 3, 1e-12);
	half = T975_2 * sqrt(9 * (vx / (mx * mx)));
	assert_float_equal(p->hi - p->sim, half, 1e-5);
	val_case_free(&vc);
}

/* A run that broke an invariant gives no value: the mean and interval of
 * the other two (t with one degree of freedom), its replicate's value NAN,
 * a ratio of one run's numbers over the two as well. */
static void test_judge_broken_run(void **state)
{
	(void)state;
	struct val_case vc;
	struct val_row rows[5];
	judge_synthetic(&vc, true, rows);
	const struct val_row *m = &rows[0];
	assert_int_equal(m->n, 2);
	assert_float_equal(m->sim, 11, 1e-12);
	assert_true(m->pass);	/* 11 / 12: inside 0.9..1.1 */
	assert_float_equal(m->hi - m->sim, 12.7062, 1e-3);	/* sd sqrt(2) over two */
	assert_true(m->values[0] == 10 && m->values[1] == 12 && isnan(m->values[2]));
	assert_int_equal(rows[1].n, 2);
	assert_float_equal(rows[1].sim, 22.0 / 11, 1e-12);
	assert_int_equal(rows[4].n, 2);
	val_case_free(&vc);
}

/* The study's notes, kept for the test to read. */
struct notes {
	char text[4096];
	int failures;
};

/* Keep a note of the study. */
static void keep_note(void *ctx, bool failure, const char *line)
{
	struct notes *n = ctx;
	size_t len = strlen(n->text);
	snprintf(n->text + len, sizeof(n->text) - len, "%s\n", line);
	n->failures += failure;
}

/* A tiny case (pingpong's sample pairs on westmere-ep, one run) whose one
 * check publishes PUBLISHED, written to the scratch folder as NAME. */
static void tiny_case(const char *name, double published, char *path, size_t size)
{
	char text[1024];
	snprintf(text, sizeof(text),
		 "{\"case\": \"T1\", \"title\": \"pingpong smt\", \"citation\": \"a test\",\n"
		 " \"experiment\": {\"machines\": [\"westmere-ep\"], \"policies\": [\"slub\"],\n"
		 "                \"workloads\": [\"pingpong pairs=sample\"]},\n"
		 " \"checks\": [{\"name\": \"smt\", \"path\": \"result.by_class.smt\",\n"
		 "              \"at\": {\"machine\": \"westmere-ep\"}, \"published\": %g,\n"
		 "              \"band\": [0.9, 1.1], \"reason\": \"fitted\"}]}\n", published);
	write_file(name, text, path, size);
}

/* The number at PATH of the first run in file FILE. */
static double first_run_value(const char *file, const char *path)
{
	char *text = slurp(file);
	cJSON *run = cJSON_Parse(text);
	free(text);
	double x;
	assert_int_equal(summary_lookup(run, path, &x), 0);
	cJSON_Delete(run);
	return x;
}

/* The tiny case run into OUT: exit 0, its row the run's own number, the
 * table and summary.json written, what it said while running. */
static void run_tiny(const char *casefile, const char *out, struct notes *notes)
{
	const char *names[] = { casefile };
	struct validate_opts o = { .names = names, .nnames = 1, .no_plot = true, .jobs = 1,
				   .out = out, .note = keep_note, .note_ctx = notes };
	struct validate_result res;
	struct sim_err err;
	assert_int_equal(validate_cases(&o, &res, &err), 0);
	assert_true(res.judged);
	assert_int_equal(res.ncases, 1);
	assert_int_equal(res.nrows, 1);
	assert_int_equal(res.failed_runs, 0);
	char path[4096];
	snprintf(path, sizeof(path), "%s/T1.jsonl", out);
	double smt = first_run_value(path, "result.by_class.smt");
	assert_true(smt > 0);
	assert_float_equal(res.rows[0].sim, smt, 1e-12);
	assert_true(res.rows[0].pass);
	validate_result_free(&res);
}

/* One check's summary.json in OUT: the counts and the check's verdict. */
static void assert_summary(const char *out, int passed, const char *verdict)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/summary.json", out);
	char *text = slurp(path);
	cJSON *sum = cJSON_Parse(text);
	free(text);
	assert_int_equal(cJSON_GetObjectItem(sum, "checks")->valueint, 1);
	assert_int_equal(cJSON_GetObjectItem(sum, "passed")->valueint, passed);
	assert_non_null(cJSON_GetStringValue(cJSON_GetObjectItem(sum, "fitted_digest")));
	const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(sum, "cases"), 0);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(c, "case")), "T1");
	assert_int_equal(cJSON_GetObjectItem(c, "runs")->valueint, 1);
	const cJSON *k = cJSON_GetArrayItem(cJSON_GetObjectItem(c, "checks"), 0);
	assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(k, "verdict")), verdict);
	cJSON_Delete(sum);
}

/* Run, write, judge again from the folder (the same summary.json, no run),
 * resume a finished folder (nothing to run). */
static void test_end_to_end(void **state)
{
	(void)state;
	char ok[512], out[512], again[512], path[4096];
	struct notes notes = { "", 0 };
	tiny_case("ok.json", 7.1, ok, sizeof(ok));
	snprintf(out, sizeof(out), "%s/v1", tmpdir);
	run_tiny(ok, out, &notes);
	assert_int_equal(strncmp(notes.text, "T1: 1 runs (pingpong smt)...\nT1: done in ", 41), 0);
	assert_int_equal(notes.failures, 0);
	assert_summary(out, 1, "ok");
	snprintf(path, sizeof(path), "%s/table.txt", out);
	char *table = slurp(path);
	assert_non_null(strstr(table, "\nT1   smt "));
	assert_non_null(strstr(table, "\n1 of 1 checks inside their bands\n"));
	free(table);
	const char *names[] = { ok };
	snprintf(again, sizeof(again), "%s/again", tmpdir);
	struct validate_opts o = { .names = names, .nnames = 1, .no_plot = true, .jobs = 1,
				   .out = again, .from = out, .note = keep_note, .note_ctx = &notes };
	struct validate_result res;
	struct sim_err err;
	notes.text[0] = 0;
	assert_int_equal(validate_cases(&o, &res, &err), 0);
	validate_result_free(&res);
	assert_string_equal(notes.text, "");
	snprintf(path, sizeof(path), "%s/summary.json", out);
	char *a = slurp(path);
	snprintf(path, sizeof(path), "%s/summary.json", again);
	char *b = slurp(path);
	assert_string_equal(a, b);
	free(a);
	free(b);
	o = (struct validate_opts){ .names = names, .nnames = 1, .no_plot = true, .jobs = 1,
				    .out = out, .resume = true, .note = keep_note,
				    .note_ctx = &notes };
	assert_int_equal(validate_cases(&o, &res, &err), 0);
	validate_result_free(&res);
	assert_non_null(strstr(notes.text, "T1: 1 runs of 1 kept, 0 to run (pingpong smt)...\n"));
}

/* A band the run cannot meet: exit 1, the verdict fail, the table's count
 * names the case; --from a folder without a summary is refused. */
static void test_outside_and_refused(void **state)
{
	(void)state;
	char off[512], out[512];
	tiny_case("off.json", 71, off, sizeof(off));
	snprintf(out, sizeof(out), "%s/v2", tmpdir);
	const char *names[] = { off };
	struct validate_opts o = { .names = names, .nnames = 1, .no_plot = true, .jobs = 1,
				   .out = out };
	struct validate_result res;
	struct sim_err err;
	assert_int_equal(validate_cases(&o, &res, &err), 1);
	assert_false(res.rows[0].pass);
	char *text;
	size_t len;
	FILE *f = open_memstream(&text, &len);
	assert_int_equal(validate_print_table(f, &res), 0);
	fclose(f);
	assert_non_null(strstr(text, " FAIL "));
	assert_non_null(strstr(text, "\n0 of 1 checks inside their bands; outside: T1\n"));
	free(text);
	validate_result_free(&res);
	assert_summary(out, 0, "fail");
	char nowhere[512];
	snprintf(nowhere, sizeof(nowhere), "%s/nowhere", tmpdir);
	o.from = nowhere;
	assert_int_equal(validate_cases(&o, &res, &err), -1);
	assert_false(res.judged);
	validate_result_free(&res);
	assert_non_null(strstr(err.msg, "/nowhere/summary.json: No such file or directory"));
	assert_int_equal(strncmp(err.msg, "--from ", 7), 0);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	setenv("SLABSIM_VALIDATION", "validation", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_case),
		cmocka_unit_test(test_load_cases),
		cmocka_unit_test(test_judge_mean),
		cmocka_unit_test(test_judge_ratio),
		cmocka_unit_test(test_judge_broken_run),
		cmocka_unit_test(test_end_to_end),
		cmocka_unit_test(test_outside_and_refused),
	};
	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
