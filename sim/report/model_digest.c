/* model_digest.c - which model a run was made with: the first 16 hex digits
 * of the SHA-256 of tests/golden/digests.txt, compiled in (Makefile). The
 * golden digests hold the JSON of reference runs of every policy, era,
 * machine kind and workload; a change that can move any run's JSON moves
 * one of them, so their set names the model. */
#include "report.h"

#include <string.h>

#ifndef SLABSIM_MODEL_DIGEST
#define SLABSIM_MODEL_DIGEST "unknown"
#endif

const char *report_model_digest(void)
{
	return SLABSIM_MODEL_DIGEST;
}

const char *report_runs_model_digest(cJSON *const *runs, int n)
{
	const char *seen = NULL;
	for (int i = 0; i < n; i++) {
		if (!runs[i])
			continue;
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(runs[i], "slabsim");
		const char *d = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "model_digest"));
		if (!d)
			d = "unknown";
		if (seen && strcmp(seen, d))
			return "mixed";
		seen = d;
	}
	return seen ? seen : "unknown";
}
