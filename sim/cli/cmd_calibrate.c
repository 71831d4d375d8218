/* cmd_calibrate.c - `slabsim calibrate`: a machine file for the host it runs
 * on (study/calibrate.h measures and fits it); the options, what was
 * measured on stderr, the file to --out or stdout. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "study/calibrate.h"
#include "cli.h"
#include "report/outfile.h"

static const char calibrate_help[] =
	"usage: slabsim calibrate [--out FILE.json] [--name NAME] [--pairs N]\n"
	"\n"
	"Measure the host and write a machine file for it (standard output without\n"
	"--out): the topology from hwloc; the core clock; the one-way hand-off of a\n"
	"cache line between two pinned threads at each distance (lock cmpxchg\n"
	"ping-pong, the core-to-core-latency method, medians); load-to-use\n"
	"latencies by pointer chasing (the L1, the last-level cache, memory of each\n"
	"node); a locked op on a line in the L1. The fabric's occupancy and the\n"
	"instruction costs cannot be measured from user space: they come from the\n"
	"nearest modelled machine, and the file's sources say so. Run it with\n"
	"  slabsim run -m ./FILE.json -p slub -w pingpong\n"
	"\n"
	"  --out FILE   write the machine file there\n"
	"  --name NAME  the machine's name (default: host)\n"
	"  --pairs N    CPU pairs measured per distance (default 4)\n"
	"\n"
	"It takes a few seconds; run it on an idle host. It refuses where threads\n"
	"cannot be pinned to CPUs (sched_setaffinity denied) or only one CPU is\n"
	"available.\n"
	"\n"
	"exit status: 0 done, 2 bad usage, or the host cannot be measured\n";

/* The options into *o and *out; -1 to go on, else the exit status (0 after --help). */
static int parse_opts(int argc, char **argv, struct calibrate_opts *o, const char **out)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' }, { "out", required_argument, NULL, 'o' },
		{ "name", required_argument, NULL, 'n' }, { "pairs", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 } };
	optind = 0;
	for (int c; (c = cli_getopt("calibrate", argc, argv, "h", longopts)) != -1;) {
		char *end;
		switch (c) {
		case 'h': return fputs(calibrate_help, stdout), 0;
		case 'o': *out = optarg; break;
		case 'n':
			if (!*optarg || strlen(optarg) > CALIBRATE_NAME_MAX)
				return cli_usage_error("calibrate: --name '%s': 1 to %d characters",
						       optarg, CALIBRATE_NAME_MAX);
			o->name = optarg;
			break;
		case 'P': {
			long v = strtol(optarg, &end, 10);
			if (!*optarg || *end || v < 1 || v > CALIBRATE_PAIRS_MAX)
				return cli_usage_error("calibrate: --pairs %s: expected 1..%d", optarg,
						       CALIBRATE_PAIRS_MAX);
			o->pairs = (int)v;
			break;
		}
		default: return 2;
		}
	}
	if (optind < argc)
		return cli_usage_error("calibrate: unknown argument '%s' (slabsim calibrate --help)",
				       argv[optind]);
	return -1;
}

/* The host's topology on stderr, before the probes run. */
static void print_host(const struct host_topo *h)
{
	fprintf(stderr, "calibrate: %s, %d CPUs (%d node(s) x %d package(s) x %d die(s) x %d "
		"core(s) x %d thread(s))\n", h->cpu_model, h->ncpus, h->nodes, h->sockets_per_node,
		h->dies_per_socket, h->cores_per_die, h->threads_per_core);
}

/* What was measured, and where the rest came from, on stderr. */
static void print_measured(const struct calibrate_result *r)
{
	const struct calibrate_measured *ms = &r->measured;
	fprintf(stderr, "calibrate: clock %.3f GHz; hand-off", ms->ghz);
	for (int d = DIST_SMT; d < NR_DIST; d++)
		if (ms->handoff_pairs[d])
			fprintf(stderr, " %s %.1f ns", hw_dist_name[d], ms->handoff_ns[d]);
	fprintf(stderr, "; memory %.1f ns", ms->mem_local_ns);
	if (r->host->nodes > 1)
		fprintf(stderr, " (remote %.1f ns)", ms->mem_remote_ns);
	fprintf(stderr, "; fabric from %s, instruction costs %s\n", r->fitted.nearest,
		r->fitted.cost_table);
}

/* The machine file to OUT (or stdout); the exit status. */
static int write_machine(const cJSON *root, const char *out)
{
	char *text = cJSON_Print(root);
	int rc = 0;
	if (!out) {
		printf("%s\n", text);
	} else {
		FILE *f = fopen(out, "w");
		if (!f || fprintf(f, "%s\n", text) < 0 || fclose(f) != 0)
			rc = cli_usage_error("calibrate: cannot write %s: %s", out, strerror(errno));
		else
			fprintf(stderr, "calibrate: wrote %s; run it with: slabsim run -m %s%s -p slub "
				"-w pingpong\n", out, strchr(out, '/') ? "" : "./", out);
	}
	free(text);
	return rc;
}

int cmd_calibrate(int argc, char **argv)
{
	struct calibrate_opts o = { .name = "host", .pairs = 4, .on_host = print_host };
	const char *out = NULL;
	int rc = parse_opts(argc, argv, &o, &out);
	if (rc >= 0)
		return rc;
	struct sim_err err;
	if (out && out_check(out, &err) < 0)
		return cli_usage_error("calibrate: %s", err.msg);
	struct calibrate_result r;
	if (calibrate_host(&o, &r, &err) < 0)
		return cli_usage_error("calibrate: %s", err.msg);
	print_measured(&r);
	rc = write_machine(r.fitted.machine, out);
	calibrate_result_free(&r);
	return rc;
}
