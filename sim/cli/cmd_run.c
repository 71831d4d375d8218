/* cmd_run.c - `slabsim run`: one simulation, its text report and JSON. */
#include <errno.h>
#include <math.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"
#include "report/gnuplot.h"
#include "engine/oom.h"
#include "report/outfile.h"
#include "report/report.h"
#include "run/run_core.h"

static const char run_help[] =
	"usage: slabsim run -m MACHINE -p POLICY -w WORKLOAD [NAME=VALUE ...]\n"
	"                   [--seed N] [--json FILE] [--profile-rows N] [--quiet]\n"
	"                   [--no-progress]\n"
	"                   [--host-memory SIZE] [--check-interval US] [--check-every N]\n"
	"                   [--compare]           (slab_test: published figures beside)\n"
	"                   [--plot FILE.png]     (pingpong: its heatmap)\n"
	"                   [--timeline FILE] [--timeline-plot FILE.png]\n"
	"                   [--timeline-every MS]\n"
	"\n"
	"Simulate WORKLOAD on MACHINE with the slab allocator POLICY and print the\n"
	"workload's own result (hackbench: Time: S.MS), a slabinfo-style cache table\n"
	"with the allocator's statistics, a lock_stat-style lock table and a\n"
	"perf-report-style profile by kernel symbol. Invariants are checked at the end.\n"
	"\n"
	"  -m, --machine NAME   a machine of `slabsim list machines`, or a JSON file path\n"
	"  -p, --policy NAME    an allocator of `slabsim list policies` (lockbench and\n"
	"                       pingpong allocate nothing: slub if it is left out)\n"
	"  -w, --workload CMD   the workload's command line, e.g. 'hackbench 100 process 2000'\n"
	"  NAME=VALUE           any kernel, policy or workload parameter, e.g.\n"
	"                       slub_min_objects=8 slub_max_order=3 kernel=2.6.25 loops=200\n"
	"                       (`slabsim list params` shows them all)\n"
	"  --seed N             the run's random seed (default 1); same seed, same JSON\n"
	"  --json FILE          also write the results as JSON (a new or regular file is\n"
	"                       replaced atomically, a link written through; -: standard\n"
	"                       output, the report then goes to standard error)\n"
	"  --plot FILE.png      pingpong only: draw its hand-off heatmap with gnuplot; the\n"
	"                       data (FILE.png.dat) and script (FILE.png.gp) stay beside it\n"
	"  --timeline FILE      also write the run over simulated time, a row every\n"
	"                       --timeline-every MS simulated milliseconds (default 100):\n"
	"                       units done (hackbench: messages) and their rate, slab\n"
	"                       objects and pages in use, the CPUs' busy, allocator and\n"
	"                       spinning shares, tasks runnable and waiting on sockets,\n"
	"                       switches, wake-ups, migrations, tasks exited, the\n"
	"                       mean wait in a run queue (all, after a wake-up), the\n"
	"                       lock waited on most with its lock_stat counts and the\n"
	"                       call site that waited most for it, the slabs on\n"
	"                       partial lists: a tab-separated table (-: standard\n"
	"                       output, the report then goes to standard error); the\n"
	"                       run's results stay those of a run without it\n"
	"  --timeline-plot FILE.png  draw the timeline with gnuplot, five panels: the\n"
	"                       rate and live objects, the CPUs' shares, the tasks\n"
	"                       runnable and their wait, the lock waited on most, the\n"
	"                       partial slabs (the table and script stay beside it:\n"
	"                       FILE.png.dat, .gp)\n"
	"  --compare            slab_test only: print the published figures beside its own\n"
	"                       (validation case C2; SLUB's are the 2.6.26 era's: give\n"
	"                       kernel=2.6.26 to compare like with like)\n"
	"  --profile-rows N     symbols shown in the profile (default 25)\n"
	"  --quiet              print only the workload's result line\n"
	"  --no-progress        no progress line (on a terminal, stderr shows the\n"
	"                       simulated time, the messages done and an ETA)\n"
	"  --check-interval US  also check every invariant mid-run, every US simulated\n"
	"                       microseconds, as a CPU leaves the allocator with none\n"
	"                       half-way; the results stay those of a run without it\n"
	"  --check-every N      the same every N slab operations (allocations and frees)\n"
	"  --host-memory SIZE   stop the run (exit 1, saying what to shrink) once it holds\n"
	"                       more host memory than SIZE: MB, or with K, M, G, T, or a\n"
	"                       share of physical memory like 50% (default 80%)\n"
	"\n"
	"exit status: 0 done, 1 the run failed (invariant or stall), 2 bad usage or input\n";

static const char trace_record_help[] =
	"usage: slabsim trace record -o FILE -m MACHINE -p POLICY -w WORKLOAD [run options]\n"
	"\n"
	"Simulate like `slabsim run` and also write every kmem event of the run to\n"
	"FILE as ftrace prints them (slabsim trace --help).\n"
	"\n"
	"  -o, --output FILE    where the trace goes (as --json writes: - is standard\n"
	"                       output, a link is written through)\n"
	"  --from SEC, --to SEC only the events between these simulated seconds (a\n"
	"                       window of a long run: every event of hackbench 100\n"
	"                       process 2000 would be some 20 GB)\n";

/* The whole string as an unsigned decimal number (no sign); -1 if it is not one. */
static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (!*s || *end || errno || *s == '-')
		return -1;
	*out = v;
	return 0;
}

/* A seed: digits, or a whole number as a JSON writer may print it
 * (3.77940459187348e+15, as slabsim's JSON did before it wrote the digits);
 * at most SEED_MAX, below which a double holds every whole number. */
static int parse_seed(const char *s, uint64_t *out)
{
	if (parse_u64(s, out) == 0)
		return *out <= SEED_MAX ? 0 : -1;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (!*s || *end || errno || !(v >= 0) || v > (double)SEED_MAX || v != floor(v) ||
	    !strpbrk(s, "eE"))
		return -1;
	*out = (uint64_t)v;
	return 0;
}

/* Write what the run allocated and freed as an ftrace kmem trace (a file
 * as outfile.h writes it). */
static int write_record(struct run *r, const char *path, struct sim_err *err)
{
	struct out_file o;
	FILE *f = out_open(&o, path, err);
	if (!f)
		return -1;
	return out_close(&o, kmem_rec_write(&r->k, f) == 0, err);
}

int cmd_run(int argc, char **argv)
{
	return cmd_run_record(argc, argv, false);
}

/* What `run` was asked: the run's configuration and the outputs wanted. */
struct run_args {
	struct run_config cfg;
	const char *json, *plot, *record, *timeline, *timeline_plot;
	double timeline_every_ms;	/* 0: not given */
	const char **assign;
	int rows;
	bool quiet, help, no_progress;
};

/* "CMD: unknown argument A", with a hint for the two common slips. */
static int unknown_argument(const char *cmd, const char *a)
{
	if (a[0] >= '0' && a[0] <= '9')	/* -w hackbench 2 thread: no quotes */
		return cli_usage_error("%s: unknown argument '%s': a workload's arguments go "
				       "inside its quotes, as -w 'hackbench 10 process 100'", cmd, a);
	if (a[0] != '-')	/* "slub_min_objects 8": a parameter without its = */
		return cli_usage_error("%s: unknown argument '%s': parameters are written "
				       "NAME=VALUE, as %s=VALUE (slabsim %s --help)", cmd, a, a, cmd);
	return cli_usage_error("%s: unknown argument '%s' (slabsim %s --help)", cmd, a, cmd);
}

/* ARG as a whole number in [1, 1e9] into *OUT; 0, or 2 after a message naming OPT and WHAT. */
static int check_count(const char *cmd, const char *opt, const char *what, const char *arg,
		       uint64_t *out)
{
	if (parse_u64(arg, out) < 0 || *out < 1 || *out > 1000000000)
		return cli_usage_error("%s: %s %s: expected %s, 1..1000000000", cmd, opt, arg, what);
	return 0;
}

/* The whole string as a finite decimal number in [lo, hi]; -1 if it is not one. */
static int parse_in_range(const char *s, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || !(v >= lo && v <= hi))
		return -1;
	*out = v;
	return 0;
}

/* trace record's --from / --to SEC: simulated seconds, finite and not negative. */
static int window_opt(const char *opt, const char *arg, double *out)
{
	if (parse_in_range(arg, 0, HUGE_VAL, out) < 0)
		return cli_usage_error("trace record: %s %s: expected simulated seconds (0 or "
				       "more, like 2.5)", opt, arg);
	return 0;
}

/* --timeline-every MS: simulated milliseconds, at least 0.001 (a
 * microsecond) and at most 10^6. */
static int timeline_every_opt(const char *cmd, const char *arg, double *out)
{
	if (parse_in_range(arg, 0.001, 1e6, out) < 0)
		return cli_usage_error("%s: --timeline-every %s: expected simulated milliseconds, "
				       "0.001..1000000 (like 100 or 2.5)", cmd, arg);
	return 0;
}

/* --check-every, --check-interval, --seed or --profile-rows (C) of command
 * CMD into A; 0, or 2 after a message naming the accepted range. */
static int number_opt(const char *cmd, int c, const char *arg, struct run_args *a)
{
	uint64_t v;
	switch (c) {
	case 'E':
		return check_count(cmd, "--check-every", "slab operations", arg,
				   &a->cfg.check_every_ops);
	case 'k':
		return check_count(cmd, "--check-interval", "simulated microseconds", arg,
				   &a->cfg.check_interval_us);
	case 'f':
		return window_opt("--from", arg, &a->cfg.record_from_s);
	case 't':
		return window_opt("--to", arg, &a->cfg.record_to_s);
	case 's':
		if (parse_seed(arg, &a->cfg.seed) < 0)
			return cli_usage_error("--seed %s: expected a whole number in 0..%llu "
					       "(2^53 - 1)", arg, SEED_MAX);
		return 0;
	default:
		if (parse_u64(arg, &v) < 0 || v > 1000)
			return cli_usage_error("--profile-rows %s: expected 0..1000", arg);
		a->rows = (int)v;
		return 0;
	}
}

/* What a run cannot go without: -o for trace record, and a machine, policy
 * and workload (a workload that allocates nothing takes any policy: slub). */
static int required_args(const char *cmd, bool record, struct run_args *a)
{
	if (!a->help && record && !a->record)
		return cli_usage_error("trace record: -o FILE is required (slabsim trace --help)");
	if (a->timeline_every_ms > 0 && !a->timeline && !a->timeline_plot)
		return cli_usage_error("%s: --timeline-every needs --timeline FILE or "
				       "--timeline-plot FILE.png", cmd);
	if (a->timeline && a->json && !strcmp(a->timeline, "-") && !strcmp(a->json, "-"))
		return cli_usage_error("%s: --json - and --timeline - cannot both go to standard "
				       "output: name a file for one of them", cmd);
	if (a->timeline || a->timeline_plot)	/* 100 ms unless asked, in whole microseconds */
		a->cfg.timeline_every_us = (uint64_t)((a->timeline_every_ms > 0
							? a->timeline_every_ms : 100) * 1e3 + 0.5);
	if (a->cfg.record_to_s && a->cfg.record_to_s <= a->cfg.record_from_s)
		return cli_usage_error("trace record: --to %g is not after --from %g",
				       a->cfg.record_to_s, a->cfg.record_from_s);
	if (!a->help && !a->cfg.policy && a->cfg.workload) {	/* no allocator runs: any will do */
		char name[32];
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(a->cfg.workload, " \t"),
			 a->cfg.workload);
		const struct workload *w = workload_find(name);
		if (w && w->allocates_nothing)
			a->cfg.policy = "slub";
	}
	if (!a->help && (!a->cfg.machine || !a->cfg.policy || !a->cfg.workload))
		return cli_usage_error("%s: -m MACHINE, -p POLICY and -w WORKLOAD are required "
				       "(slabsim %s --help)", cmd, record ? "trace" : "run");
	return 0;
}

/* Read run's command line into a (trace record's, with its -o FILE, when
 * `record`); 0, or the exit status of a usage error. */
static int parse_run_args(int argc, char **argv, bool record, struct run_args *a)
{
	static const struct option longopts[] = {	/* the first three: trace record only */
		{ "output", required_argument, NULL, 'o' }, { "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' }, { "machine", required_argument, NULL, 'm' },
		{ "policy", required_argument, NULL, 'p' },
		{ "workload", required_argument, NULL, 'w' },
		{ "seed", required_argument, NULL, 's' }, { "json", required_argument, NULL, 'J' },
		{ "plot", required_argument, NULL, 'P' },
		{ "profile-rows", required_argument, NULL, 'r' },
		{ "compare", no_argument, NULL, 'c' }, { "quiet", no_argument, NULL, 'q' },
		{ "check-interval", required_argument, NULL, 'k' },
		{ "no-progress", no_argument, NULL, 'N' },
		{ "check-every", required_argument, NULL, 'E' },
		{ "host-memory", required_argument, NULL, 'H' },
		{ "timeline", required_argument, NULL, 'T' },
		{ "timeline-every", required_argument, NULL, 'e' },
		{ "timeline-plot", required_argument, NULL, 'L' }, { NULL, 0, NULL, 0 } };
	const char *cmd = record ? "trace record" : "run";
	optind = 0;
	for (int c; (c = cli_getopt(cmd, argc, argv, record ? "hm:p:w:o:" : "hm:p:w:",
				    record ? longopts : longopts + 3)) != -1;) {
		switch (c) {
		case 'h': a->help = true; break;
		case 'o': a->record = optarg; break;
		case 'H':
			if (cli_host_memory(cmd, optarg))
				return 2;
			break;
		case 'm': a->cfg.machine = optarg; break;
		case 'p': a->cfg.policy = optarg; break;
		case 'w': a->cfg.workload = optarg; break;
		case 'J': a->json = optarg; break;
		case 'P': a->plot = optarg; break;
		case 'T': a->timeline = optarg; break;
		case 'L': a->timeline_plot = optarg; break;
		case 'e':
			if (timeline_every_opt(cmd, optarg, &a->timeline_every_ms))
				return 2;
			break;
		case 'c': a->cfg.compare = true; break;
		case 'q': a->quiet = true; break;
		case 'N': a->no_progress = true; break;
		case 'E': case 'k': case 's': case 'r': case 'f': case 't':
			if (number_opt(cmd, c, optarg, a))
				return 2;
			break;
		default:
			return 2;
		}
	}
	for (; optind < argc; optind++) {	/* NAME=VALUE */
		if (!strchr(argv[optind], '='))
			return unknown_argument(cmd, argv[optind]);
		a->assign[a->cfg.nassign++] = argv[optind];
	}
	return required_args(cmd, record, a);
}

/* Everything that can be refused before simulating: names, parameters,
 * options the workload lacks, output paths. 0, or an exit status. */
static int check_before_run(struct run *r, const struct run_args *a, struct sim_err *err)
{
	if (run_configure(r, &a->cfg, err) < 0)
		return cli_usage_error("%s", err->msg);
	if (*run_policy_note(r))
		fprintf(stderr, "slabsim: note: %s\n", run_policy_note(r));
	if (a->cfg.compare && !strcmp(r->policy->name, "slub") &&
	    strcmp(param_str(&r->kparams, "kernel"), "2.6.26"))
		fprintf(stderr, "slabsim: note: the published SLUB figures (C2) are of the 2.6.26 "
			"era; this run is kernel=%s (give kernel=2.6.26 to compare like with "
			"like)\n", param_str(&r->kparams, "kernel"));
	if (a->cfg.compare && !r->wl->compare)
		return cli_usage_error("--compare: workload %s has no published figures to "
				       "compare with (slab_test has)", r->wl->name);
	if (a->plot && !r->wl->plot)
		return cli_usage_error("--plot: workload %s draws no plot (pingpong does)",
				       r->wl->name);
	if (a->plot && plot_check(a->plot, err) < 0)
		return cli_usage_error("--plot: %s", err->msg);
	if (a->timeline_plot && plot_check(a->timeline_plot, err) < 0)
		return cli_usage_error("--timeline-plot: %s", err->msg);
	if ((a->json && out_check(a->json, err) < 0) ||
	    (a->record && out_check(a->record, err) < 0) ||
	    (a->timeline && out_check(a->timeline, err) < 0))
		return cli_usage_error("%s", err->msg);
	return 0;
}

/* Simulate, then the report, the JSON, the plot and the trace as asked.
 * The exit status: 0, 1 the run failed, 2 an output could not be written. */
static int execute_and_report(struct run *r, const struct run_args *a, struct sim_err *err)
{
	struct cli_progress progress = { .out = stderr };
	if (!a->no_progress && cli_progress_wanted(stderr)) {
		r->cfg.progress = cli_progress_show;
		r->cfg.progress_arg = &progress;
	}
	int rc = run_execute(r, err);
	if (rc < 0)
		return cli_usage_error("%s", err->msg);
	/* --json - or --timeline -: it alone on standard output, the report on stderr */
	FILE *txt = (a->json && !strcmp(a->json, "-")) || (a->timeline && !strcmp(a->timeline, "-"))
		? stderr : stdout;
	if (a->quiet) {
		fprintf(txt, "%s\n", r->res.line);
		report_workload_print(txt, r, a->cfg.compare);
	} else {
		report_text(txt, r, a->rows);
	}
	int status = rc == 0 ? 0 : 1;
	fflush(stdout);	/* the report first, then any complaint */
	if (!r->invariants_ok)
		fprintf(stderr, "slabsim: run failed: %s\n", r->invariants_msg);
	else if (rc != 0)
		fprintf(stderr, "slabsim: the workload stopped early (the allocator's invariants "
			"hold): %s\n", r->res.stopped);
	if (a->json) {
		cJSON *root = report_json(r);
		if (report_write_json(a->json, root, err) < 0)
			status = cli_usage_error("%s", err->msg);
		cJSON_Delete(root);
	}
	if (a->plot && rc == 0 && plot_draw(a->plot, r->wl->plot, r->wstate, err) < 0)
		status = cli_usage_error("%s", err->msg);
	if (a->timeline && report_timeline_write(a->timeline, r, err) < 0)
		status = cli_usage_error("%s", err->msg);
	if (a->timeline_plot && report_timeline_plot(a->timeline_plot, r, err) < 0)
		status = cli_usage_error("--timeline-plot: %s", err->msg);
	if (a->record && write_record(r, a->record, err) < 0)
		status = cli_usage_error("%s", err->msg);
	else if (a->record)
		fprintf(stderr, "slabsim: %llu kmem events written to %s\n",
			(unsigned long long)r->k.kmem.nrec, a->record);
	return status;
}

int cmd_run_record(int argc, char **argv, bool record)
{
	struct run_args a = { .cfg = { .seed = 1, .record = record }, .rows = 25 };
	a.assign = xcalloc((size_t)argc + 1, sizeof(*a.assign));
	a.cfg.assign = a.assign;
	int status = parse_run_args(argc, argv, record, &a);
	if (!status && a.help) {
		fputs(record ? trace_record_help : run_help, stdout);
	} else if (!status) {
		struct run *r = xcalloc(1, sizeof(*r));
		struct sim_err err;
		status = check_before_run(r, &a, &err);
		if (!status)
			status = execute_and_report(r, &a, &err);
		run_free(r);
		free(r);
	}
	free(a.assign);
	return status;
}
