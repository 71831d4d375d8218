/* fuzz_workload.c - a workload's command line, as `-w '...'` gives it
 * (its name, its words and NAME=VALUE words), parsed by the workload. */
#include <stdlib.h>

#include "fuzz.h"
#include "run/run_core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	struct run_config cfg = { .machine = "tigerton", .policy = "slub", .workload = text,
				  .seed = 1 };
	static struct run r;
	struct sim_err err;
	run_configure(&r, &cfg, &err);
	run_free(&r);
	free(text);
	return 0;
}
