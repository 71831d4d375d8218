/* cmd_bench.c - `slabsim bench`: the engine's own speed, and the whole
 * model's on three reference hackbench runs (host time per event and per
 * simulated message). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "engine/array_size.h"
#include "engine/bench.h"
#include "report/report.h"
#include "run/run_core.h"

static const char bench_help[] =
	"usage: slabsim bench [--quick] [--engine-only] [--json FILE]\n"
	"       slabsim bench --runs\n"
	"\n"
	"Measures the engine alone: the hold model (pop the earliest event, schedule\n"
	"one more) at 16, 1024 and 65536 pending events; a fiber round trip; and the\n"
	"ordering rule's hand-over between 16 simulated CPUs (cpu_sync that yields).\n"
	"Then the whole model on the reference hackbench runs of three machines\n"
	"(Tigerton, x3950-m2, Genoa): host nanoseconds per event and microseconds per\n"
	"simulated message. --quick runs a tenth of the loops; --engine-only skips\n"
	"the model; --runs prints the reference runs as `slabsim run` arguments.\n";

/* The reference runs: a machine of each size, each a few seconds long. */
struct bench_run {
	const char *name, *machine, *policy, *workload, *quick_workload;
	const char *assign[3];
};

static const struct bench_run bench_runs[] = {
	{ "tigerton", "tigerton", "slub", "hackbench 100 process 60", "hackbench 100 process 6",
	  { "slub_min_objects=64", "slub_max_order=3" } },
	{ "x3950-m2", "x3950-m2", "slub", "hackbench 90 process 20", "hackbench 90 process 2",
	  { "slub_min_objects=16" } },
	{ "genoa", "epyc-genoa-2s", "slub", "hackbench 100 process 20", "hackbench 100 process 2",
	  { "kernel=3.2" } },
};
#define NR_BENCH_RUNS ARRAY_SIZE(bench_runs)

struct model_figures {
	double wall, events, messages, ns_per_event, us_per_message, sim_per_wall;
};

/* How many NAME=VALUE a reference run sets (at most 3). */
static int nassign(const struct bench_run *b)
{
	int n = 0;
	while (n < 3 && b->assign[n])
		n++;
	return n;
}

/* One reference run, timed as `run` times it (the event loop alone). */
static int bench_model(const struct bench_run *b, bool quick, struct model_figures *f)
{
	struct run_config cfg = {
		.machine = b->machine, .policy = b->policy,
		.workload = quick ? b->quick_workload : b->workload, .seed = 1,
		.assign = (const char **)b->assign, .nassign = nassign(b),
	};
	struct run r;
	struct sim_err err;
	if (run_configure(&r, &cfg, &err) < 0 || run_execute(&r, &err) < 0) {
		run_free(&r);
		return cli_usage_error("bench: %s: %s", b->name, err.msg);
	}
	const cJSON *m = r.res.extra ? cJSON_GetObjectItem(r.res.extra, "messages") : NULL;
	f->wall = r.wall_seconds;
	f->events = (double)r.eng.events;
	f->messages = cJSON_IsNumber(m) ? m->valuedouble : 0;
	f->ns_per_event = f->events > 0 ? f->wall * 1e9 / f->events : 0;
	f->us_per_message = f->messages > 0 ? f->wall * 1e6 / f->messages : 0;
	f->sim_per_wall = f->wall > 0 ? r.res.sim_seconds / f->wall : 0;
	int ok = r.invariants_ok;
	run_free(&r);
	if (!ok)
		return cli_usage_error("bench: %s: the run failed its invariants", b->name);
	return 0;
}

/* --runs: each reference run as `slabsim run` arguments. */
static void print_runs(void)
{
	for (int i = 0; i < NR_BENCH_RUNS; i++) {
		const struct bench_run *b = &bench_runs[i];
		printf("-m %s -p %s -w '%s'", b->machine, b->policy, b->workload);
		for (int a = 0; a < nassign(b); a++)
			printf(" %s", b->assign[a]);
		putchar('\n');
	}
}

/* --json FILE: the engine's figures and each reference run's; 0, or 2 after a message. */
static int write_bench_json(const char *json, const double *hold, const unsigned int *sizes,
			    double rt, double sync, const struct model_figures *mf, int nmodel,
			    bool quick)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddNumberToObject(root, "events_per_second", hold[1]);
	cJSON *h = cJSON_AddObjectToObject(root, "hold_events_per_second");
	for (int i = 0; i < 3; i++) {
		char k[16];
		snprintf(k, sizeof(k), "%u", sizes[i]);
		cJSON_AddNumberToObject(h, k, hold[i]);
	}
	cJSON_AddNumberToObject(root, "fiber_roundtrip_ns", rt);
	cJSON_AddNumberToObject(root, "sync_handovers_per_second", sync);
	cJSON *model = cJSON_AddArrayToObject(root, "model");
	for (int i = 0; i < nmodel; i++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", bench_runs[i].name);
		cJSON_AddStringToObject(o, "machine", bench_runs[i].machine);
		cJSON_AddStringToObject(o, "workload", quick ? bench_runs[i].quick_workload
							     : bench_runs[i].workload);
		cJSON_AddNumberToObject(o, "wall_seconds", mf[i].wall);
		cJSON_AddNumberToObject(o, "events", mf[i].events);
		cJSON_AddNumberToObject(o, "messages", mf[i].messages);
		cJSON_AddNumberToObject(o, "ns_per_event", mf[i].ns_per_event);
		cJSON_AddNumberToObject(o, "us_per_message", mf[i].us_per_message);
		cJSON_AddNumberToObject(o, "sim_seconds_per_wall_second", mf[i].sim_per_wall);
		cJSON_AddItemToArray(model, o);
	}
	struct sim_err err;
	int rc = report_write_json(json, root, &err);
	cJSON_Delete(root);
	return rc < 0 ? cli_usage_error("%s", err.msg) : 0;
}

int cmd_bench(int argc, char **argv)
{
	const char *json = NULL;
	bool quick = false, engine_only = false;
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' }, { "quick", no_argument, NULL, 'q' },
		{ "engine-only", no_argument, NULL, 'e' }, { "runs", no_argument, NULL, 'r' },
		{ "json", required_argument, NULL, 'j' }, { NULL, 0, NULL, 0 } };
	optind = 0;
	for (int c; (c = cli_getopt("bench", argc, argv, "h", longopts)) != -1;) {
		switch (c) {
		case 'h': return fputs(bench_help, stdout), 0;
		case 'q': quick = true; break;
		case 'e': engine_only = true; break;
		case 'r': return print_runs(), 0;
		case 'j': json = optarg; break;
		default: return 2;
		}
	}
	if (optind < argc)
		return cli_usage_error("bench: unknown argument '%s' (slabsim bench --help)",
				       argv[optind]);
	uint64_t n = quick ? 2000000 : 30000000;
	const unsigned int sizes[] = { 16, 1024, 65536 };
	double hold[3];
	for (int i = 0; i < 3; i++) {
		hold[i] = bench_hold(sizes[i], n);
		printf("engine hold model, %5u pending: %6.1f M events/s\n", sizes[i], hold[i] / 1e6);
	}
	double rt = bench_fiber_roundtrip(quick ? 1000000 : 20000000);
	printf("fiber switch round trip:            %6.1f ns\n", rt);
	double sync = bench_sync(16, quick ? 100000 : 2000000);
	printf("ordering-rule hand-over, 16 CPUs:   %6.1f M/s (%.1f ns each)\n", sync / 1e6,
	       sync > 0 ? 1e9 / sync : 0);
	struct model_figures mf[NR_BENCH_RUNS];
	int nmodel = engine_only ? 0 : NR_BENCH_RUNS;
	if (nmodel)
		printf("model, reference runs (%s):\n", quick ? "--quick: a tenth of the loops"
							 : "slabsim bench --runs");
	for (int i = 0; i < nmodel; i++) {
		const struct bench_run *b = &bench_runs[i];
		if (bench_model(b, quick, &mf[i]) != 0)
			return 2;
		printf("  %-9s %-26s %6.2f s wall, %5.0f ns/event, %5.2f us/message, "
		       "%.3f simulated s per wall s\n", b->name, quick ? b->quick_workload : b->workload,
		       mf[i].wall, mf[i].ns_per_event, mf[i].us_per_message, mf[i].sim_per_wall);
	}
	return json ? write_bench_json(json, hold, sizes, rt, sync, mf, nmodel, quick) : 0;
}
