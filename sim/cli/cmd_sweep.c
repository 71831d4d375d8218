/* cmd_sweep.c - `slabsim sweep`: every run of an experiment, in parallel
 * (worker processes, MPI ranks, or one shard of a job array), its results
 * appended as each finishes, then the summary and the plots
 * (study/sweep_experiment.h); here its options, its progress and its table. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "study/sweep.h"
#include "report/summary.h"
#include "sweep_opts.h"

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

/* The line before the runs: what the sweep is and how much of it is left. */
static void print_plan(void *ctx, const struct sweep *s)
{
	const struct experiment *e = &s->e;
	const struct sweep_options *o = s->o;
	if (e->ci_target > 0)
		fprintf(stderr, "%s: %d points x up to %d replicates, until each point's 95%% CI is "
			"within +-%g%% of its mean; %d to start, %d at a time\n", e->name, e->npoints,
			e->replicates, 100 * e->ci_target, s->ntodo, o->jobs);
	else
		fprintf(stderr, "%s: %d points x %d replicate%s = %d runs%s; %d to do, %d %s\n",
			e->name, e->npoints, e->replicates, e->replicates == 1 ? "" : "s",
			experiment_runs(e),
			o->shard ? " (this shard's share)" : "", s->ntodo, s->workers,
			o->nranks > 2 ? "MPI ranks working" : o->nranks > 1 ? "MPI rank working"
			: "at a time");
}

/* A run ended: why it failed, if it did, then (for a run that left a
 * result) the progress, as a bar on a terminal (*ctx) or a line per run. */
static void print_run_end(void *ctx, const struct sweep *s, const struct sweep_run_end *r)
{
	bool tty = *(const bool *)ctx;
	const char *clear = tty ? "\r\033[K" : "";
	if (r->why) {
		fprintf(stderr, "%sslabsim: run %d (%s, replicate %d): %s\n", clear, r->run, r->key,
			r->replicate, r->why);
		if (r->crash_log_unwritten)
			fprintf(stderr, "slabsim: cannot write %s\n", r->crash_log_unwritten);
		return;
	}
	if (r->broken)
		fprintf(stderr, "%sslabsim: run %d (%s, replicate %d) failed: %s\n", clear, r->run,
			r->key, r->replicate, r->broken);
	char eta[32];
	fmt_duration(r->eta, eta, sizeof(eta));
	if (tty) {
		int width = 30, fill = r->total ? width * r->finished / r->total : width;
		fprintf(stderr, "\r  [%.*s%*s] %d/%d runs, ETA %s ", fill,
			"##############################", width - fill, "", r->finished, r->total, eta);
		if (r->finished == r->total)
			fputc('\n', stderr);
	} else {
		fprintf(stderr, "[%d/%d] %s, replicate %d: %s (ETA %s)\n", r->finished, r->total,
			r->key, r->replicate, r->line, eta);
	}
}

/* Ctrl-C or SIGTERM stopped the sweep: how far it got, and how to finish it. */
static void print_interrupted(void *ctx, const struct sweep *s)
{
	bool tty = *(const bool *)ctx;
	fprintf(stderr, "%sslabsim: sweep interrupted (%s): %d of %d runs done; the same "
		"command with --resume finishes it\n", tty ? "\r\033[K" : "",
		strsignal(s->interrupted), s->done_before + s->done - s->failed, s->total);
}

/* A short table of the main metric per point, on stdout. */
static void print_table(const struct sweep *s)
{
	const struct experiment *e = &s->e;
	if (e->replicates == 1 && e->ci_target <= 0)
		printf("%s: %d points x 1 replicate; %s, one run a point:\n", e->name, e->npoints,
		       e->metric[0].label);
	else
		printf("%s: %d points x %s%d replicates; %s, mean +- 95%% CI (with 2 runs, the "
		       "runs):\n", e->name, e->npoints, e->ci_target > 0 ? "up to " : "",
		       e->replicates, e->metric[0].label);
	for (int p = 0; p < e->npoints; p++) {
		struct sweep_row row;
		char ci[64];
		sweep_point_row(e, s->runs, p, &row);
		if (row.same)	/* the seed reached no random draw (docs/usage.md) */
			printf("  %-40s %12.6g, all %d runs the same: no seed changed it\n", row.key,
			       row.mean, row.n);
		else if (row.n == 2)	/* a CI of 2 runs is +-9 sd: the runs say more */
			printf("  %-40s %12.4g (%.4g, %.4g)\n", row.key, row.mean, row.first,
			       row.second);
		else if (row.n > 1 && e->ci_target > 0)
			printf("  %-40s %s (%d runs)\n", row.key,
			       summary_format_ci(row.mean, row.ci95, ci, sizeof(ci)), row.n);
		else if (row.n > 1)
			printf("  %-40s %s\n", row.key,
			       summary_format_ci(row.mean, row.ci95, ci, sizeof(ci)));
		else if (row.n == 1)
			printf("  %-40s %12.6g (one run)\n", row.key, row.mean);
		else
			printf("  %-40s  (no result)\n", row.key);
	}
	printf("results in %s\n", s->dir);
}

/* Rank 0's end of a sweep that ran: what kept it from its summary, or its
 * table; a shard's reminder to merge; the exit status. */
static int print_end(const struct sweep *s, enum sweep_end end, const struct sim_err *err)
{
	int status = s->failed ? 1 : 0;
	if (s->interrupted)
		status = 128 + s->interrupted;
	if (end == SWEEP_UNSAVED) {
		fprintf(stderr, "slabsim: %s\n", err->msg);
		status = 1;
	} else if (end == SWEEP_NO_SUMMARY) {
		status = cli_usage_error("%s", err->msg);
	} else {
		print_table(s);
	}
	if (s->o->shard)
		fprintf(stderr, "shard %s done; join the shards with `slabsim merge DIR... --out "
			"DIR`\n", s->o->shard);
	return status;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_options o;
	int rank = 0, nranks = sweep_mpi_init(&argc, &argv, &rank);
	int status = sweep_parse_opts(argc, argv, &o, sweep_help);
	if (status < 0) {
		bool tty = isatty(2);
		struct sweep_hooks hooks = { .planned = print_plan, .run_ended = print_run_end,
					     .interrupted = print_interrupted, .ctx = &tty };
		struct sweep s;
		struct sim_err err;
		o.rank = rank;
		o.nranks = nranks;
		enum sweep_end end = sweep_experiment(&o, &hooks, &s, &err);
		if (end == SWEEP_REFUSED)
			status = rank == 0 ? cli_usage_error("%s", err.msg) : 2;
		else
			status = rank == 0 ? print_end(&s, end, &err) : 0;
		sweep_free(&s);
	}
	sweep_mpi_finish();
	return status;
}
