/* fuzz_mix.c - the `mix` workload's description files, read and checked. */
#include "fuzz.h"
#include "workloads/mix_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct mix_spec s;	/* 64 caches: too big for a fuzzer's stack */
	struct sim_err err;
	if (mix_spec_parse(&s, "fuzz.json", (const char *)data, size, &err) == 0)
		mix_spec_check(&s, "fuzz.json", &err);
	return 0;
}
