/* sweep_experiment.c - a sweep from start to end: rank 0 (or the one
 * process) readies the folder and plans the runs, the runs go (here in
 * worker processes, round after round while a CI target asks for more, or
 * over MPI ranks), each ended run is kept, appended and reported, and the
 * summary and plots are written at the end. */
#include "sweep_experiment.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report/replicates.h"
#include "report/summary.h"
#include "study/sweep.h"
#include "study/sweep_setup.h"

/* The host's monotonic clock, in seconds. */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A run that left no result (it crashed, was stopped by the run timeout or
 * failed to start) gets a line in crashed.jsonl, which resume leaves: the
 * run itself is done again, as it is not in runs.jsonl. False (PATH holds
 * crashed.jsonl's name) if the line could not be written. */
static bool record_crash(const struct sweep *s, int run, const char *key, const char *why,
			 char *path, size_t size)
{
	snprintf(path, size, "%s/crashed.jsonl", s->dir);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "run", run);
	cJSON_AddStringToObject(o, "key", key);
	cJSON_AddNumberToObject(o, "replicate", run >= 0 ? run % s->e.replicates : -1);
	cJSON_AddStringToObject(o, "why", why);
	char *line = cJSON_PrintUnformatted(o);
	FILE *f = fopen(path, "a");
	bool ok = f && line && fprintf(f, "%s\n", line) >= 0;
	if (f && fclose(f) != 0)
		ok = false;
	free(line);
	cJSON_Delete(o);
	return ok;
}

/* Seconds until the runs left are done: from the ended runs' wall times,
 * else (none yet) from the time taken so far. */
static double time_left(const struct sweep *s, int finished)
{
	double left = sweep_eta_seconds(&s->eta, s->runs, s->workers);
	if (left < 0)
		left = (now() - s->t0) / s->done * (s->total - finished);
	return left;
}

/* Tell the caller's hook that a run ended. */
static void report_end(const struct sweep *s, const struct sweep_run_end *r)
{
	if (s->hooks && s->hooks->run_ended)
		s->hooks->run_ended(s->hooks->ctx, s, r);
}

/* A run that left JSON J: appended to runs.jsonl, kept pruned (the first
 * copy of a run only), and reported with the progress and the time left. */
static void keep_run(struct sweep *s, int run, const char *line, cJSON *j,
		     struct sweep_run_end *r)
{
	if (!s->write_failed && runs_append(s->fd, line, &s->write_err) < 0)
		s->write_failed = true;
	const cJSON *inv = cJSON_GetObjectItemCaseSensitive(j, "invariants");
	if (!cJSON_IsString(inv) || strcmp(inv->valuestring, "ok")) {
		s->failed++;
		r->broken = cJSON_IsString(inv) ? inv->valuestring : "?";
	}
	summary_prune(j, &s->e);
	bool kept_before = s->runs[run] != NULL;
	if (!kept_before)
		s->runs[run] = j;
	r->finished = s->done_before + s->done;
	r->total = s->total;
	r->eta = time_left(s, r->finished);
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(s->runs[run], "result");
	const char *summary = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(res, "line"));
	r->line = summary ? summary : "";
	report_end(s, r);
	if (kept_before)
		cJSON_Delete(j);
}

/* A run ended (LINE: its JSON, or NULL and WHY): counted, kept or recorded
 * as crashed, and reported. */
static void on_done(void *ctx, int run, const char *line, const char *why)
{
	struct sweep *s = ctx;
	const struct experiment *e = &s->e;
	char key[512] = "?", crash_log[4200];
	if (run >= 0 && run < experiment_runs(e))
		experiment_short_key(e, &e->points[run / e->replicates], key, sizeof(key));
	struct sweep_run_end r = { .run = run, .key = key,
				   .replicate = run >= 0 ? run % e->replicates : -1 };
	cJSON *j = line ? cJSON_Parse(line) : NULL;
	s->done++;
	sweep_eta_mark(&s->eta, run, 2);
	if (j) {
		keep_run(s, run, line, j, &r);
		return;
	}
	s->failed++;
	r.why = why ? why : "no result";
	if (!record_crash(s, run, key, r.why, crash_log, sizeof(crash_log)))
		r.crash_log_unwritten = crash_log;
	report_end(s, &r);
}

/* With a CI target: the next round's runs (replicates_next) into s->todo,
 * counted for the time left; returns how many. */
static int plan_round(struct sweep *s)
{
	int n = replicates_next(&s->e, s->runs, s->tried, s->todo);
	for (int i = 0; i < n; i++)
		sweep_eta_mark(&s->eta, s->todo[i], 1);
	return n;
}

/* Without a CI target: every run not done yet (of this shard, if one). */
static int plan_all(struct sweep *s)
{
	const struct sweep_options *o = s->o;
	int n = 0;
	for (int i = 0; i < experiment_runs(&s->e); i++)
		if (!s->runs[i] && (!o->shard || i % o->shard_n == o->shard_i)) {
			s->todo[n++] = i;
			sweep_eta_mark(&s->eta, i, 1);
		}
	return n;
}

/* Rank 0's (or the one process's) start: the results folder ready, the
 * runs to do first planned and reported to the planned hook. */
static int plan_start(struct sweep *s, struct sim_err *err)
{
	const struct sweep_options *o = s->o;
	if (sweep_open_dir(s, err) < 0 || sweep_eta_init(&s->eta, &s->e, err) < 0)
		return -1;
	for (int i = 0; i < experiment_runs(&s->e); i++)
		s->done_before += s->runs[i] != NULL;
	s->ntodo = s->e.ci_target > 0 ? plan_round(s) : plan_all(s);
	s->workers = o->nranks > 1 ? o->nranks - 1 : o->jobs;
	s->total = s->done_before + s->ntodo;
	if (s->hooks && s->hooks->planned)
		s->hooks->planned(s->hooks->ctx, s);
	return 0;
}

/* Everything before the runs: the experiment, a CI target refused under
 * MPI, and on rank 0 the folder and the plan; 0, or -1 with ERR. */
static int start(struct sweep *s, struct sim_err *err)
{
	const struct sweep_options *o = s->o;
	if (sweep_prepare(s, err) < 0)
		return -1;
	if (s->e.ci_target > 0 && o->nranks > 1)
		return sim_fail(err, "sweep: a CI target (--ci-target or the file's ci_target) "
				"decides runs as others finish; run it without mpirun");
	int nruns = experiment_runs(&s->e);
	s->runs = calloc((size_t)nruns + 1, sizeof(*s->runs));
	if (o->rank > 0)
		return 0;
	s->todo = malloc(((size_t)nruns + 1) * sizeof(*s->todo));
	s->tried = calloc((size_t)nruns + 1, sizeof(*s->tried));
	return plan_start(s, err);
}

/* Run the runs: over MPI ranks, or here, round after round while a CI
 * target asks for more. */
static void execute(struct sweep *s)
{
	const struct sweep_options *o = s->o;
	s->t0 = now();
	if (o->nranks > 1 && o->rank == 0) {
		sweep_mpi_coordinate(&s->e, s->todo, s->ntodo, on_done, s);
		return;
	}
	if (o->nranks > 1) {
		sweep_mpi_work(&s->e);
		return;
	}
	sweep_catch_interrupts();
	while (s->ntodo > 0 && !sweep_interrupted) {
		sweep_local(&s->e, s->todo, s->ntodo, o->jobs, o->run_timeout, s->tmpdir, on_done, s);
		s->ntodo = s->e.ci_target > 0 && !sweep_interrupted ? plan_round(s) : 0;
		s->total += s->ntodo;
	}
}

/* Rank 0's end: the workers' folder removed, runs.jsonl closed, an
 * interruption reported, the summary and plots written. */
static enum sweep_end finish(struct sweep *s, struct sim_err *err)
{
	const struct sweep_options *o = s->o;
	rmdir(s->tmpdir);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	s->interrupted = sweep_interrupted;
	if (s->interrupted && s->hooks && s->hooks->interrupted)
		s->hooks->interrupted(s->hooks->ctx, s);
	if (s->write_failed) {
		*err = s->write_err;
		return SWEEP_UNSAVED;
	}
	if (sweep_finish(s->dir, &s->e, s->runs, o->no_plot || o->shard, o->format, err) < 0)
		return SWEEP_NO_SUMMARY;
	return SWEEP_FINISHED;
}

enum sweep_end sweep_experiment(const struct sweep_options *o, const struct sweep_hooks *hooks,
				struct sweep *s, struct sim_err *err)
{
	memset(s, 0, sizeof(*s));
	s->o = o;
	s->hooks = hooks;
	s->fd = -1;
	bool ready = start(s, err) == 0;
	if (!sweep_mpi_agree(ready)) {
		if (ready)	/* a worker rank: rank 0 refused it */
			sim_fail(err, "sweep: rank 0 refused the sweep");
		return SWEEP_REFUSED;
	}
	execute(s);
	return o->rank > 0 ? SWEEP_FINISHED : finish(s, err);
}

void sweep_free(struct sweep *s)
{
	for (int i = 0; s->runs && i < experiment_runs(&s->e); i++)
		cJSON_Delete(s->runs[i]);
	free(s->runs);
	free(s->todo);
	free(s->tried);
	sweep_eta_free(&s->eta);
	if (s->fd >= 0)
		close(s->fd);
	experiment_free(&s->e);
}
