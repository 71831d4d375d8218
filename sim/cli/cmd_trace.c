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
		return cmd_run_record(argc - 1, argv + 1, true);
	if (!strcmp(argv[1], "replay"))
		return trace_replay(argc - 1, argv + 1);
	return cli_usage_error("trace: unknown subcommand '%s' (record, replay)", argv[1]);
}
