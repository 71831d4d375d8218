/* fuzz_trace.c - the trace reader (ftrace's trace file, trace-cmd report,
 * perf script) on any bytes: it loads them or says why not, never more. */
#include <stdlib.h>

#include "fuzz.h"
#include "workloads/trace_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace tr;
	struct sim_err err;
	int rc = trace_load_text("fuzz", (const char *)data, size, &tr, &err);
	if (rc != 0 && rc != -1)
		abort();
	trace_free(&tr);
	return 0;
}
