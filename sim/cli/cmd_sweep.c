/* cmd_sweep.c - `slabsim sweep`: every run of an experiment, in parallel
 * (worker processes, MPI ranks, or one shard of a job array), its results
 * appended as each finishes, then the summary and the plots. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "study/sweep.h"
#include "study/sweep_eta.h"
#include "sweep_opts.h"
#include "report/replicates.h"
#include "report/summary.h"

static const char sweep_help[] =
	"usage: slabsim sweep EXPERIMENT.json [NAME=VALUE ...] [-j N] [--out DIR] [--resume]\n"
	"                     [--force] [--replicates N] [--ci-target F] [--shard I/N]\n"
	"                     [--format png|svg] [--no-plot] [--host-memory SIZE]\n"
	"                     [--run-timeout S]\n"
	"\n"
	"Run every point of an experiment (machines x policies x workloads x axes) as\n"
	"many times as it has replicates, and write to DIR: runs.jsonl (each run's JSON,\n"
	"appended as it finishes), summary.json and summary.csv (per point and metric:\n"
	"mean, sd, 95% confidence interval from Student's t, n), the experiment file,\n"
	"and plots with their .dat and .gp files. configs/README.md documents the file.\n"
	"\n"
	"  NAME=VALUE      override a parameter in every run (e.g. loops=10)\n"
	"  -j N            worker processes (default: the CPU count); under mpirun, the\n"
	"                  ranks do the work instead. The summary is the same for any N.\n"
	"  --out DIR       results folder (default out/NAME, NAME from the file)\n"
	"  --resume        keep DIR's finished runs and do the rest (after a kill)\n"
	"  --force         start DIR again, dropping its runs\n"
	"  --replicates N  replicates of every point instead of the file's (with a CI\n"
	"                  target, the most a point may take)\n"
	"  --ci-target F   add replicates to a point, two at first, then one at a time,\n"
	"                  until the 95% CI of its main metric is within F of its mean\n"
	"                  (0.05: +-5%) or it has --replicates of them (instead of the\n"
	"                  file's ci_target); the summary says how many each took\n"
	"  --shard I/N     do only runs with number % N == I (0 <= I < N), for job\n"
	"                  arrays; `slabsim merge` joins the shards' folders\n"
	"  --format F      plots as png (default) or svg\n"
	"  --no-plot       write no plots\n"
	"  --host-memory SIZE  stop a run (failed, saying what to shrink) once it holds\n"
	"                  more host memory than SIZE: MB, or with K, M, G, T, or a\n"
	"                  share of physical memory like 40% (default 80%, per run)\n"
	"  --run-timeout S stop a run still going after S seconds of wall time and count\n"
	"                  it as failed; the sweep goes on (--resume runs it again)\n"
	"A run that crashes (a module's SIGSEGV) or is stopped leaves a line with its\n"
	"key and why (the signal) in DIR/crashed.jsonl, and the sweep goes on.\n"
	"\n"
	"Each run's seed derives from the file's seed, the point and the replicate, so\n"
	"results do not depend on order or parallelism. Exit status: 0 done, 1 a run\n"
	"failed (invariant, crash), 2 bad usage or input (nothing is written), 130\n"
	"interrupted by Ctrl-C (the runs going are stopped; --resume finishes it).\n";

struct progress {
	const struct experiment *e;
	cJSON **runs;
	int fd;
	int total, done_before, done, failed;
	double t0;
	bool tty;
	struct sim_err err;
	bool write_failed;
	const char *out;	/* the results folder: crashed.jsonl goes there */
	struct sweep_eta eta;	/* each run left predicted from its relatives */
	int workers;
};

/* The host's monotonic clock, in seconds. */
static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A duration as 1h02m, 3m04s or 5s. */
static void fmt_duration(double s, char *out, size_t size)
{
	if (s >= 3600)
		snprintf(out, size, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
	else if (s >= 60)
		snprintf(out, size, "%dm%02ds", (int)(s / 60), (int)s % 60);
	else
		snprintf(out, size, "%.0fs", s);
}

/* A run that left no result (it crashed, was stopped by --run-timeout or
 * failed to start) gets a line in crashed.jsonl, which --resume leaves: the
 * run itself is done again, as it is not in runs.jsonl. */
static void record_crash(struct progress *pg, int run, const char *key, const char *why)
{
	if (!pg->out)
		return;
	char path[4200];
	snprintf(path, sizeof(path), "%s/crashed.jsonl", pg->out);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "run", run);
	cJSON_AddStringToObject(o, "key", key);
	cJSON_AddNumberToObject(o, "replicate", run >= 0 ? run % pg->e->replicates : -1);
	cJSON_AddStringToObject(o, "why", why);
	char *line = cJSON_PrintUnformatted(o);
	FILE *f = fopen(path, "a");
	if (!f || !line || fprintf(f, "%s\n", line) < 0 || fclose(f) != 0)
		fprintf(stderr, "slabsim: cannot write %s\n", path);
	free(line);
	cJSON_Delete(o);
}

/* A run finished (line: its JSON, or NULL with why): append it to runs.jsonl, keep it pruned,
 * report a failure, and show the progress and the ETA. */
static void on_done(void *ctx, int run, const char *line, const char *why)
{
	struct progress *pg = ctx;
	const struct experiment *e = pg->e;
	cJSON *j = line ? cJSON_Parse(line) : NULL;
	char key[512] = "?";
	if (run >= 0 && run < experiment_runs(e))
		experiment_short_key(e, &e->points[run / e->replicates], key, sizeof(key));
	pg->done++;
	sweep_eta_mark(&pg->eta, run, 2);
	if (!j) {
		pg->failed++;
		fprintf(stderr, "%sslabsim: run %d (%s, replicate %d): %s\n", pg->tty ? "\r\033[K" : "",
			run, key, run >= 0 ? run % e->replicates : -1, why ? why : "no result");
		record_crash(pg, run, key, why ? why : "no result");
		return;
	}
	if (!pg->write_failed && runs_append(pg->fd, line, &pg->err) < 0)
		pg->write_failed = true;
	const cJSON *inv = cJSON_GetObjectItemCaseSensitive(j, "invariants");
	bool ok = cJSON_IsString(inv) && !strcmp(inv->valuestring, "ok");
	if (!ok) {
		pg->failed++;
		fprintf(stderr, "%sslabsim: run %d (%s, replicate %d) failed: %s\n",
			pg->tty ? "\r\033[K" : "", run, key, run % e->replicates, cJSON_IsString(inv) ? inv->valuestring : "?");
	}
	summary_prune(j, e);
	if (!pg->runs[run])
		pg->runs[run] = j;
	else
		cJSON_Delete(j);
	int finished = pg->done_before + pg->done;
	double left = sweep_eta_seconds(&pg->eta, pg->runs, pg->workers);
	if (left < 0)	/* no wall times to go by */
		left = (now() - pg->t0) / pg->done * (pg->total - finished);
	char eta[32];
	fmt_duration(left, eta, sizeof(eta));
	if (pg->tty) {
		int width = 30, fill = pg->total ? width * finished / pg->total : width;
		fprintf(stderr, "\r  [%.*s%*s] %d/%d runs, ETA %s ", fill,
			"##############################", width - fill, "", finished, pg->total, eta);
		if (finished == pg->total)
			fputc('\n', stderr);
	} else {
		const cJSON *res = cJSON_GetObjectItemCaseSensitive(pg->runs[run], "result");
		const cJSON *rl = cJSON_GetObjectItemCaseSensitive(res, "line");
		fprintf(stderr, "[%d/%d] %s, replicate %d: %s (ETA %s)\n", finished, pg->total,
			key, run % e->replicates,
			cJSON_IsString(rl) ? rl->valuestring : "", eta);
	}
}

/* With a CI target: the next round's runs (replicates_next) into todo,
 * counted for the ETA; returns how many. */
static int plan_round(const struct experiment *e, cJSON **runs, bool *tried, int *todo,
		      struct progress *pg)
{
	int n = replicates_next(e, runs, tried, todo);
	for (int i = 0; i < n; i++)
		sweep_eta_mark(&pg->eta, todo[i], 1);
	return n;
}

/* A short table of the main metric per point, on stdout. */
static void print_table(const struct experiment *e, cJSON **runs, const char *dir)
{
	const struct exp_metric *m = &e->metric[0];
	double *x = calloc((size_t)e->replicates, sizeof(*x));
	printf("%s: %d points x %s%d replicates; %s, mean +- 95%% CI (with 2 runs, the runs):\n",
	       e->name, e->npoints, e->ci_target > 0 ? "up to " : "", e->replicates, m->label);
	char key[512];
	for (int p = 0; p < e->npoints; p++) {
		int n = 0;
		experiment_short_key(e, &e->points[p], key, sizeof(key));
		for (int r = 0; r < e->replicates; r++) {
			cJSON *run = runs[p * e->replicates + r];
			const char *inv = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(run,
											"invariants"));
			if (inv && !strcmp(inv, "ok") && summary_lookup(run, m->path, &x[n]) == 0)
				x[n++] *= m->scale;
		}
		struct stat_summary s;
		summary_stats(x, n, &s);
		char ci[64];
		bool same = n > 1;
		for (int i = 1; i < n; i++)
			same = same && x[i] == x[0];
		if (same)	/* the seed reached no random draw (docs/usage.md) */
			printf("  %-40s %12.6g, all %d runs the same: no seed changed it\n", key,
			       s.mean, n);
		else if (n == 2)	/* a CI of 2 runs is +-9 sd: the runs say more */
			printf("  %-40s %12.4g (%.4g, %.4g)\n", key, s.mean, x[0], x[1]);
		else if (n > 1 && summary_format_ci(s.mean, s.ci95, ci, sizeof(ci)) && e->ci_target > 0)
			printf("  %-40s %s (%d runs)\n", key, ci, n);
		else if (n > 1)
			printf("  %-40s %s\n", key, ci);
		else if (n == 1)
			printf("  %-40s %12.6g (one run)\n", key, s.mean);
		else
			printf("  %-40s  (no result)\n", key);
	}
	free(x);
	printf("results in %s\n", dir);
}

/* The work of rank 0 (or of the one process): the results folder, the runs
 * still to do (a first round with a CI target) and the header line; -1 to
 * go on, else 2 after a message. */
static int plan_start(struct sweep_opts *o, struct experiment *e, cJSON **runs,
		      struct progress *pg, int nranks, int *todo, bool *tried, int *ntodo)
{
	struct sim_err err;
	if (sweep_open_dir(o, e, runs, &pg->fd, &err) < 0 || sweep_eta_init(&pg->eta, e, &err) < 0)
		return cli_usage_error("%s", err.msg);
	for (int i = 0; i < experiment_runs(e); i++)
		pg->done_before += runs[i] != NULL;
	if (e->ci_target > 0) {
		*ntodo = plan_round(e, runs, tried, todo, pg);
	} else {
		for (int i = 0; i < experiment_runs(e); i++)
			if (!runs[i] && i % o->shard_n == o->shard_i) {
				todo[(*ntodo)++] = i;
				sweep_eta_mark(&pg->eta, i, 1);
			}
	}
	pg->workers = nranks > 1 ? nranks - 1 : o->jobs;
	pg->total = pg->done_before + *ntodo;
	if (e->ci_target > 0)
		fprintf(stderr, "%s: %d points x up to %d replicates, until each point's 95%% CI is "
			"within +-%g%% of its mean; %d to start, %d at a time\n", e->name, e->npoints,
			e->replicates, 100 * e->ci_target, *ntodo, o->jobs);
	else
		fprintf(stderr, "%s: %d points x %d replicates = %d runs%s; %d to do, %d %s\n",
			e->name, e->npoints, e->replicates, experiment_runs(e),
			o->shard ? " (this shard's share)" : "", *ntodo, nranks > 1 ? nranks - 1 : o->jobs,
			nranks > 2 ? "MPI ranks working" : nranks > 1 ? "MPI rank working"
			: "at a time");
	return -1;
}

/* Run the runs: over MPI ranks, or here, round after round while a CI target asks for more. */
static void execute(const struct sweep_opts *o, struct experiment *e, cJSON **runs,
		    struct progress *pg, int nranks, int rank, int *todo, bool *tried, int ntodo)
{
	pg->t0 = now();
	/* crashed runs are counted in pg->failed as they are reported */
	if (nranks > 1 && rank == 0) {
		sweep_mpi_coordinate(e, todo, ntodo, on_done, pg);
		return;
	}
	if (nranks > 1) {
		sweep_mpi_work(e);
		return;
	}
	sweep_catch_interrupts();
	while (ntodo > 0 && !sweep_interrupted) {	/* a round a CI target asks */
		sweep_local(e, todo, ntodo, o->jobs, o->run_timeout, o->tmpdir, on_done, pg);
		ntodo = e->ci_target > 0 && !sweep_interrupted ? plan_round(e, runs, tried, todo, pg)
			: 0;
		pg->total += ntodo;
	}
}

/* Rank 0's end: an interruption reported, the summary and plots written,
 * the table printed; the exit status. */
static int finish(const struct sweep_opts *o, struct experiment *e, cJSON **runs,
		  struct progress *pg)
{
	struct sim_err err;
	rmdir(o->tmpdir);
	if (pg->fd >= 0)
		close(pg->fd);
	int status = pg->failed ? 1 : 0;
	if (sweep_interrupted) {
		fprintf(stderr, "%sslabsim: sweep interrupted (%s): %d of %d runs done; the same "
			"command with --resume finishes it\n", pg->tty ? "\r\033[K" : "",
			strsignal(sweep_interrupted), pg->done_before + pg->done - pg->failed,
			pg->total);
		status = 128 + sweep_interrupted;
	}
	if (pg->write_failed) {
		fprintf(stderr, "slabsim: %s\n", pg->err.msg);
		status = 1;
	} else if (sweep_finish(o->out, e, runs, o->no_plot || o->shard, o->format, &err) < 0) {
		status = cli_usage_error("%s", err.msg);
	} else {
		print_table(e, runs, o->out);
	}
	if (o->shard)
		fprintf(stderr, "shard %s done; join the shards with `slabsim merge DIR... --out "
			"DIR`\n", o->shard);
	return status;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_opts o;
	int rank = 0, nranks = sweep_mpi_init(&argc, &argv, &rank);
	int status = sweep_parse_opts(argc, argv, &o, sweep_help);
	struct experiment e;
	struct sim_err err;
	memset(&e, 0, sizeof(e));
	if (status < 0 && sweep_prepare(&o, &e, rank, &err) < 0)
		status = rank == 0 ? cli_usage_error("%s", err.msg) : 2;
	if (status < 0 && e.ci_target > 0 && nranks > 1)
		status = rank == 0 ? cli_usage_error("sweep: a CI target (--ci-target or the file's "
						     "ci_target) decides runs as others finish; run "
						     "it without mpirun") : 2;
	int nruns = status < 0 ? experiment_runs(&e) : 0, ntodo = 0;
	cJSON **runs = status < 0 ? calloc((size_t)nruns + 1, sizeof(*runs)) : NULL;
	struct progress pg = { .e = &e, .runs = runs, .fd = -1, .tty = isatty(2), .out = o.out };
	int *todo = status < 0 && rank == 0 ? malloc(((size_t)nruns + 1) * sizeof(*todo)) : NULL;
	bool *tried = todo ? calloc((size_t)nruns + 1, sizeof(*tried)) : NULL;	/* handed out */
	if (status < 0 && rank == 0)
		status = plan_start(&o, &e, runs, &pg, nranks, todo, tried, &ntodo);
	status = sweep_mpi_agree(status);
	if (status < 0) {
		execute(&o, &e, runs, &pg, nranks, rank, todo, tried, ntodo);
		status = rank == 0 ? finish(&o, &e, runs, &pg) : 0;
	}
	for (int i = 0; runs && i < nruns; i++)
		cJSON_Delete(runs[i]);
	free(runs);
	free(todo);
	free(tried);
	sweep_eta_free(&pg.eta);
	experiment_free(&e);
	sweep_mpi_finish();
	return status;
}
