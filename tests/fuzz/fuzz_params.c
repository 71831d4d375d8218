/* fuzz_params.c - NAME=VALUE parameters, as `run` takes them: the first
 * byte picks the policy, each following line is one assignment, checked
 * against the kernel's, the policy's, the workload's and the run's own. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "policies/policy.h"
#include "run/run_core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int npolicies = 0;
	while (slab_policies[npolicies])
		npolicies++;
	char *text = fuzz_text(data + 1, size - 1);
	if (!text)
		return 0;
	const char *assign[64];
	int n = 0;
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l && n < 64;
	     l = strtok_r(NULL, "\n", &save))
		assign[n++] = l;
	struct run_config cfg = { .machine = "tigerton",
				  .policy = slab_policies[data[0] % npolicies]->name,
				  .workload = "hackbench", .seed = 1, .assign = assign,
				  .nassign = n };
	static struct run r;
	struct sim_err err;
	run_configure(&r, &cfg, &err);
	run_free(&r);
	free(text);
	return 0;
}
