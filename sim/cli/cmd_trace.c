/* cmd_trace.c - `slabsim trace record` (a run that also writes every kmem
 * event it made, as /sys/kernel/tracing/trace prints them) and `slabsim trace
 * replay` (a shorthand for `run -w 'trace FILE'`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char trace_help[] =
	"usage: slabsim trace record -o FILE -m MACHINE -p POLICY -w WORKLOAD [run options]\n"
	"       slabsim trace replay FILE -m MACHINE -p POLICY [NAME=VALUE ...] [run options]\n"
	"\n"
	"record: simulate like `slabsim run` and also write every kmalloc,\n"
	"kmem_cache_alloc, kfree and kmem_cache_free the run made to FILE, in the\n"
	"ftrace text format of a 6.x kernel (call_site=SYMBOL, name= on the cache\n"
	"events), sorted by time, so that `-w 'trace FILE'` replays it.\n"
	"\n"
	"replay: run the `trace` workload on FILE (a /sys/kernel/tracing/trace\n"
	"capture, `trace-cmd report` or `perf script` output); workload parameters\n"
	"such as cpu_map=, pace=recorded|asap and strict=1 are given as NAME=VALUE\n"
	"(`slabsim list params` shows them).\n";

/* `trace record`: take -o FILE out of the arguments and run the rest. */
static int trace_record(int argc, char **argv)
{
	const char *out = NULL;
	char **rest = calloc((size_t)argc + 1, sizeof(*rest));
	if (!rest)
		return cli_usage_error("out of memory");
	int n = 0;
	rest[n++] = argv[0];
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) {
			if (i + 1 >= argc) {
				free(rest);
				return cli_usage_error("trace record: %s needs a file name", argv[i]);
			}
			out = argv[++i];
		} else {
			rest[n++] = argv[i];
		}
	}
	int rc = out ? cmd_run_record(n, rest, out)
		     : cli_usage_error("trace record: -o FILE is required (slabsim trace --help)");
	free(rest);
	return rc;
}

/* `trace replay FILE ...`: `run -w trace file=FILE ...`, the file as an
 * assignment of its own, not a word of the workload spec to re-split. */
static int trace_replay(int argc, char **argv)
{
	if (argc < 2 || argv[1][0] == '-')
		return cli_usage_error("trace replay: the trace FILE comes first (slabsim trace --help)");
	size_t len = strlen(argv[1]) + 8;
	char *w = malloc(len);
	char **rest = calloc((size_t)argc + 3, sizeof(*rest));
	if (!w || !rest) {
		free(w);
		free(rest);
		return cli_usage_error("out of memory");
	}
	snprintf(w, len, "file=%s", argv[1]);
	int n = 0;
	rest[n++] = argv[0];
	rest[n++] = "-w";
	rest[n++] = "trace";
	rest[n++] = w;
	for (int i = 2; i < argc; i++)
		rest[n++] = argv[i];
	int rc = cmd_run(n, rest);
	free(w);
	free(rest);
	return rc;
}

int cmd_trace(int argc, char **argv)
{
	if (argc < 2)
		return fputs(trace_help, stderr), 2;
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return fputs(trace_help, stdout), 0;
	if (!strcmp(argv[1], "record"))
		return trace_record(argc - 1, argv + 1);
	if (!strcmp(argv[1], "replay"))
		return trace_replay(argc - 1, argv + 1);
	return cli_usage_error("trace: unknown subcommand '%s' (record, replay)", argv[1]);
}
