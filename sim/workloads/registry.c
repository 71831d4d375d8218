/* registry.c - the built-in workloads. */
#include <string.h>

#include "workload.h"

extern const struct workload hackbench_workload;
extern const struct workload pingpong_workload;
extern const struct workload lockbench_workload;
extern const struct workload slab_test_workload;
extern const struct workload oltp_workload;
extern const struct workload netperf_workload;
extern const struct workload kbuild_workload;
extern const struct workload mix_workload;
extern const struct workload trace_workload;

const struct workload *const workloads[] = {
	&hackbench_workload,
	&pingpong_workload,
	&lockbench_workload,
	&slab_test_workload,
	&oltp_workload,
	&netperf_workload,
	&kbuild_workload,
	&mix_workload,
	&trace_workload,
	NULL,
};

const struct workload *workload_find(const char *name)
{
	for (int i = 0; workloads[i]; i++)
		if (strcmp(workloads[i]->name, name) == 0)
			return workloads[i];
	return NULL;
}
