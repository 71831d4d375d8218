/* test_sweep.c - a whole sweep through sweep_experiment, without a command
 * line: a tiny experiment (2 points x 2 replicates of a short hackbench on
 * core2-ep) into a temporary folder writes runs.jsonl and summary.json;
 * a run taken out of runs.jsonl is the only one --resume runs again, and it
 * comes back the same; bad input is refused with a message and writes
 * nothing; shards merged give the sweep's summary. */
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
#include "study/sweep_experiment.h"
#include "study/sweep_merge.h"
#include "scratch.h"

static const char exp_text[] =
	"{ \"name\": \"two\", \"machines\": [\"core2-ep\"], \"policies\": [\"slub\"],\n"
	"  \"workloads\": [\"hackbench 2 process\"], \"fixed\": { \"loops\": 5 },\n"
	"  \"axes\": [ { \"param\": \"slub_min_objects\", \"values\": [4, 16] } ],\n"
	"  \"replicates\": 2, \"seed\": 3 }\n";
#define RUNS 4

/* What the hooks were told. */
struct heard {
	int planned, ntodo;	/* planned calls, and the runs then to do */
	int ended, run[16];	/* runs ended, in order */
	int finished, total;	/* the last progress */
};

/* The plan: counted, with its runs to do. */
static void on_planned(void *ctx, const struct sweep *s)
{
	struct heard *h = ctx;
	h->planned++;
	h->ntodo = s->ntodo;
}

/* A run ended: it left a result that passed its invariants; noted in order. */
static void on_run_ended(void *ctx, const struct sweep *s, const struct sweep_run_end *r)
{
	struct heard *h = ctx;
	assert_null(r->why);
	assert_null(r->broken);
	if (h->ended < 16)
		h->run[h->ended] = r->run;
	h->ended++;
	h->finished = r->finished;
	h->total = r->total;
}

/* A temporary folder holding the experiment file two.json. */
struct scratch {
	char dir[64], file[128];
};

/* Make the scratch folder and its experiment file. */
static int make_scratch(void **state)
{
	struct scratch *t = calloc(1, sizeof(*t));
	assert_int_equal(scratch_make(t->dir, sizeof(t->dir), "slabsim-sweep"), 0);
	snprintf(t->file, sizeof(t->file), "%s/two.json", t->dir);
	FILE *f = fopen(t->file, "w");
	assert_non_null(f);
	fputs(exp_text, f);
	fclose(f);
	*state = t;
	return 0;
}

/* Remove the scratch folder and all in it. */
static int drop_scratch(void **state)
{
	struct scratch *t = *state;
	if (scratch_remove(t->dir) != 0)
		fprintf(stderr, "cannot remove %s\n", t->dir);
	free(t);
	return 0;
}

/* Options for a sweep of the scratch experiment into its folder NAME. */
static struct sweep_options options(const struct scratch *t, const char *name, char *out,
				    size_t size)
{
	snprintf(out, size, "%s/%s", t->dir, name);
	struct sweep_options o = { .file = t->file, .out = out, .jobs = 2, .no_plot = true,
				   .format = "png", .shard_n = 1 };
	return o;
}

/* Sweep O, telling H; the end, with the sweep freed. */
static enum sweep_end sweep(const struct sweep_options *o, struct heard *h, struct sim_err *err)
{
	struct sweep_hooks hooks = { .planned = on_planned, .run_ended = on_run_ended, .ctx = h };
	struct sweep s;
	memset(h, 0, sizeof(*h));
	enum sweep_end end = sweep_experiment(o, &hooks, &s, err);
	sweep_free(&s);
	return end;
}

/* DIR/NAME's text (the caller frees it); fails the test if it has none. */
static char *read_text(const char *dir, const char *name)
{
	char path[256];
	size_t len;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	char *text = file_read_text(path, &len);
	assert_non_null(text);
	return text;
}

/* The runs.jsonl of DIR by run number (parsed lines; the caller frees them). */
static int load_runs(const char *dir, cJSON *runs[RUNS])
{
	char *text = read_text(dir, "runs.jsonl");
	int lines = 0;
	memset(runs, 0, RUNS * sizeof(*runs));
	for (char *p = text, *nl; (nl = strchr(p, '\n')); p = nl + 1, lines++) {
		*nl = 0;
		cJSON *run = cJSON_Parse(p);
		assert_non_null(run);
		const cJSON *sw = cJSON_GetObjectItemCaseSensitive(run, "sweep");
		int i = cJSON_GetObjectItemCaseSensitive(sw, "run")->valueint;
		assert_true(i >= 0 && i < RUNS);
		assert_null(runs[i]);
		runs[i] = run;
	}
	free(text);
	return lines;
}

/* Free what load_runs parsed. */
static void free_runs(cJSON *runs[RUNS])
{
	for (int i = 0; i < RUNS; i++)
		cJSON_Delete(runs[i]);
}

/* A run's JSON without what the host's speed changes. */
static char *simulated(cJSON *run)
{
	cJSON *res = cJSON_GetObjectItemCaseSensitive(run, "result");
	cJSON_DeleteItemFromObject(res, "wall_seconds");
	cJSON_DeleteItemFromObject(res, "events_per_second");
	cJSON_DeleteItemFromObject(res, "host_peak_rss_mb");
	return cJSON_PrintUnformatted(run);
}

/* A sweep writes every run once, the summary and the folder's record, and
 * reports the plan and each run as it ends. */
static void test_sweep_writes_results(void **state)
{
	const struct scratch *t = *state;
	char out[128];
	struct sweep_options o = options(t, "res", out, sizeof(out));
	struct heard h;
	struct sim_err err;
	assert_int_equal(sweep(&o, &h, &err), SWEEP_FINISHED);
	assert_int_equal(h.planned, 1);
	assert_int_equal(h.ntodo, RUNS);
	assert_int_equal(h.ended, RUNS);
	assert_int_equal(h.finished, RUNS);
	assert_int_equal(h.total, RUNS);

	cJSON *runs[RUNS];
	assert_int_equal(load_runs(out, runs), RUNS);
	for (int i = 0; i < RUNS; i++) {
		assert_non_null(runs[i]);
		const char *inv = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(runs[i],
											"invariants"));
		assert_string_equal(inv, "ok");
	}
	free_runs(runs);

	char *text = read_text(out, "summary.json");
	cJSON *sum = cJSON_Parse(text);
	free(text);
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(sum, "runs_done")->valueint, RUNS);
	assert_int_equal(cJSON_GetObjectItemCaseSensitive(sum, "runs_failed")->valueint, 0);
	const cJSON *points = cJSON_GetObjectItemCaseSensitive(sum, "points"), *p;
	assert_int_equal(cJSON_GetArraySize(points), 2);
	cJSON_ArrayForEach(p, points) {
		const cJSON *metric = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(p, "metrics"), "time");
		assert_int_equal(cJSON_GetObjectItemCaseSensitive(metric, "n")->valueint, 2);
		assert_true(cJSON_GetObjectItemCaseSensitive(metric, "mean")->valuedouble > 0);
	}
	cJSON_Delete(sum);

	text = read_text(out, "experiment.json");
	assert_string_equal(text, exp_text);
	free(text);
	char running[160];
	snprintf(running, sizeof(running), "%s/.running", out);
	assert_int_equal(access(running, F_OK), -1);	/* the workers' folder is gone */
}

/* Without resume or force, a folder with results is refused untouched. */
static void test_results_kept(void **state)
{
	const struct scratch *t = *state;
	char out[128];
	struct sweep_options o = options(t, "kept", out, sizeof(out));
	struct heard h;
	struct sim_err err;
	assert_int_equal(sweep(&o, &h, &err), SWEEP_FINISHED);
	assert_int_equal(sweep(&o, &h, &err), SWEEP_REFUSED);
	assert_non_null(strstr(err.msg, "already holds a sweep's results: --resume to finish it"));
	assert_int_equal(h.ended, 0);
	char crashed[160];	/* an earlier sweep's crashes go with its runs */
	snprintf(crashed, sizeof(crashed), "%s/crashed.jsonl", out);
	FILE *f = fopen(crashed, "w");
	assert_non_null(f);
	fputs("{\"run\": 0}\n", f);
	fclose(f);
	o.force = true;		/* started again: every run once more */
	assert_int_equal(sweep(&o, &h, &err), SWEEP_FINISHED);
	assert_int_equal(h.ended, RUNS);
	assert_int_equal(access(crashed, F_OK), -1);
	cJSON *runs[RUNS];
	assert_int_equal(load_runs(out, runs), RUNS);
	free_runs(runs);
}

/* Run 2's line taken out of runs.jsonl: resume runs it alone, appends it,
 * and it and the summary come back the same. */
static void test_resume_reruns_the_missing_run(void **state)
{
	const struct scratch *t = *state;
	char out[128];
	struct sweep_options o = options(t, "resumed", out, sizeof(out));
	struct heard h;
	struct sim_err err;
	assert_int_equal(sweep(&o, &h, &err), SWEEP_FINISHED);
	char *summary = read_text(out, "summary.json");
	cJSON *runs[RUNS];
	assert_int_equal(load_runs(out, runs), RUNS);

	char path[160];
	snprintf(path, sizeof(path), "%s/runs.jsonl", out);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < RUNS; i++) {
		char *line = cJSON_PrintUnformatted(runs[i]);
		if (i != 2)
			fprintf(f, "%s\n", line);
		free(line);
	}
	fclose(f);

	o.resume = true;
	assert_int_equal(sweep(&o, &h, &err), SWEEP_FINISHED);
	assert_int_equal(h.ntodo, 1);
	assert_int_equal(h.ended, 1);
	assert_int_equal(h.run[0], 2);
	assert_int_equal(h.finished, RUNS);	/* 3 kept and the one run */
	assert_int_equal(h.total, RUNS);

	cJSON *again[RUNS];
	assert_int_equal(load_runs(out, again), RUNS);
	char *before = simulated(runs[2]), *after = simulated(again[2]);
	assert_string_equal(after, before);
	free(before);
	free(after);
	char *resumed = read_text(out, "summary.json");
	assert_string_equal(resumed, summary);
	free(resumed);
	free(summary);
	free_runs(runs);
	free_runs(again);

	assert_int_equal(sweep(&o, &h, &err), SWEEP_FINISHED);	/* nothing left */
	assert_int_equal(h.ntodo, 0);
	assert_int_equal(h.ended, 0);
}

/* Bad input: one message saying what is wrong, no run, no folder. */
static void test_bad_input_refused(void **state)
{
	const struct scratch *t = *state;
	char out[128], missing[160];
	struct sweep_options o = options(t, "bad", out, sizeof(out));
	struct heard h;
	struct sim_err err;

	snprintf(missing, sizeof(missing), "%s/nosuch.json", t->dir);
	o.file = missing;
	assert_int_equal(sweep(&o, &h, &err), SWEEP_REFUSED);
	assert_non_null(strstr(err.msg, "cannot read experiment"));
	assert_non_null(strstr(err.msg, "nosuch.json"));

	o.file = t->file;
	o.ci_target = 0.05;
	o.shard = "0/2";
	o.shard_n = 2;
	assert_int_equal(sweep(&o, &h, &err), SWEEP_REFUSED);
	assert_non_null(strstr(err.msg, "--shard splits a fixed set of runs"));
	assert_int_equal(h.planned + h.ended, 0);
	assert_int_equal(access(out, F_OK), -1);

	/* a folder under a file cannot be made */
	o = options(t, "two.json/res", out, sizeof(out));
	assert_int_equal(sweep(&o, &h, &err), SWEEP_REFUSED);
	assert_non_null(strstr(err.msg, "cannot create"));

	/* another experiment's folder (other overrides) is not resumed */
	o = options(t, "other", out, sizeof(out));
	assert_int_equal(sweep(&o, &h, &err), SWEEP_FINISHED);
	const char *loops[] = { "loops=6" };
	o.assign = loops;
	o.nassign = 1;
	o.resume = true;
	assert_int_equal(sweep(&o, &h, &err), SWEEP_REFUSED);
	assert_non_null(strstr(err.msg, "holds another experiment's results"));
	assert_int_equal(h.ended, 0);
}

/* Two shards merged: every run once, and the whole sweep's summary. */
static void test_shards_merged(void **state)
{
	const struct scratch *t = *state;
	char whole[128], part0[128], part1[128], merged[128];
	struct sweep_options o = options(t, "whole", whole, sizeof(whole));
	struct heard h;
	struct sim_err err;
	assert_int_equal(sweep(&o, &h, &err), SWEEP_FINISHED);
	struct sweep_options s0 = options(t, "part0", part0, sizeof(part0));
	struct sweep_options s1 = options(t, "part1", part1, sizeof(part1));
	s0.shard = "0/2", s0.shard_i = 0, s0.shard_n = 2;
	s1.shard = "1/2", s1.shard_i = 1, s1.shard_n = 2;
	assert_int_equal(sweep(&s0, &h, &err), SWEEP_FINISHED);
	assert_int_equal(h.ended, RUNS / 2);
	assert_true(h.run[0] % 2 == 0 && h.run[1] % 2 == 0);
	assert_int_equal(sweep(&s1, &h, &err), SWEEP_FINISHED);
	assert_int_equal(h.ended, RUNS / 2);

	snprintf(merged, sizeof(merged), "%s/merged", t->dir);
	const char *dirs[] = { part0, part1, part0 };
	struct sweep_merge_options mo = { .dirs = dirs, .ndirs = 3, .out = merged,
					  .format = "png", .no_plot = true };
	struct sweep_merged m;
	assert_int_equal(sweep_merge(&mo, &m, &err), 0);
	assert_int_equal(m.runs, RUNS);
	assert_int_equal(m.have, RUNS);
	assert_int_equal(m.failed, 0);
	char *a = read_text(whole, "summary.json"), *b = read_text(merged, "summary.json");
	assert_string_equal(b, a);
	free(a);
	free(b);

	mo.ndirs = 1;	/* one shard: half the runs */
	assert_int_equal(sweep_merge(&mo, &m, &err), 0);
	assert_int_equal(m.have, RUNS / 2);

	dirs[0] = t->dir;	/* not a results folder */
	assert_int_equal(sweep_merge(&mo, &m, &err), -1);
	assert_non_null(strstr(err.msg, "not a sweep's results folder (no sweep.json)"));
}

/* The table's row of a point: its key and its runs' main metric. */
static void test_point_rows(void **state)
{
	const struct scratch *t = *state;
	char out[128];
	struct sweep_options o = options(t, "rows", out, sizeof(out));
	struct sweep_hooks hooks = { 0 };
	struct sweep s;
	struct sim_err err;
	assert_int_equal(sweep_experiment(&o, &hooks, &s, &err), SWEEP_FINISHED);
	struct sweep_row row;
	sweep_point_row(&s.e, s.runs, 0, &row);
	assert_string_equal(row.key, "slub_min_objects=4");
	assert_int_equal(row.n, 2);
	assert_true(row.mean > 0);
	assert_float_equal(row.mean, (row.first + row.second) / 2, 1e-12 * row.mean);
	assert_int_equal(row.same, row.first == row.second);
	sweep_point_row(&s.e, s.runs, 1, &row);
	assert_string_equal(row.key, "slub_min_objects=16");
	cJSON_Delete(s.runs[2]);	/* one run of point 1 left */
	s.runs[2] = NULL;
	sweep_point_row(&s.e, s.runs, 1, &row);
	assert_int_equal(row.n, 1);
	assert_false(row.same);
	assert_float_equal(row.mean, row.first, 0);
	sweep_free(&s);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sweep_writes_results, make_scratch,
						drop_scratch),
		cmocka_unit_test_setup_teardown(test_results_kept, make_scratch, drop_scratch),
		cmocka_unit_test_setup_teardown(test_resume_reruns_the_missing_run, make_scratch,
						drop_scratch),
		cmocka_unit_test_setup_teardown(test_bad_input_refused, make_scratch, drop_scratch),
		cmocka_unit_test_setup_teardown(test_shards_merged, make_scratch, drop_scratch),
		cmocka_unit_test_setup_teardown(test_point_rows, make_scratch, drop_scratch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
