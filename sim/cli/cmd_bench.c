/* cmd_bench.c - `slabsim bench`: the engine's own speed. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "engine/bench.h"
#include "report/report.h"

static const char bench_help[] =
	"usage: slabsim bench [--quick] [--json FILE]\n"
	"\n"
	"Measures the engine alone: the hold model (pop the earliest event, schedule\n"
	"one more) at 16, 1024 and 65536 pending events; a fiber round trip; and the\n"
	"ordering rule's hand-over between 16 simulated CPUs (cpu_sync that yields).\n";

int cmd_bench(int argc, char **argv)
{
	const char *json = NULL;
	bool quick = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return fputs(bench_help, stdout), 0;
		if (!strcmp(argv[i], "--quick"))
			quick = true;
		else if (!strcmp(argv[i], "--json") && i + 1 < argc)
			json = argv[++i];
		else
			return cli_usage_error("bench: unknown argument '%s' (slabsim bench --help)",
					       argv[i]);
	}
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
	if (json) {
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
		struct sim_err err;
		int rc = report_write_json(json, root, &err);
		cJSON_Delete(root);
		if (rc < 0)
			return cli_usage_error("%s", err.msg);
	}
	return 0;
}
