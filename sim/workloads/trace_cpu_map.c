/* trace_cpu_map.c - cpu_map=: which simulated CPU replays each traced CPU's
 * stream. "modulo" (trace CPU i on CPU i mod CPUs), "identity" (i on i; a
 * trace with more CPUs than the machine is refused), "spread" (the traced
 * CPUs spread evenly over the machine, so a small trace touches every node),
 * or a list: "0,4,8" (trace CPU i on the i-th entry) or "0:0,1:4" pairs. */
#include "trace_replay.h"

#include <stdlib.h>
#include <string.h>

/* A decimal integer in [0, max], or -1. */
static long parse_index(const char *s, const char *end, long max)
{
	if (s == end)
		return -1;
	long v = 0;
	for (const char *p = s; p < end; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
		if (v > max)
			return -1;
	}
	return v;
}

/* The explicit list forms; map[] is preset to -1. */
static int parse_list(const char *spec, int *map, int ntrace, int ncpus, struct sim_err *err)
{
	int pos = 0;
	const char *p = spec;
	while (*p) {
		const char *comma = strchr(p, ',');
		const char *end = comma ? comma : p + strlen(p);
		const char *colon = memchr(p, ':', (size_t)(end - p));
		long from = colon ? parse_index(p, colon, 1 << 20) : pos;
		long to = parse_index(colon ? colon + 1 : p, end, ncpus - 1);
		if (from < 0 || to < 0)
			return sim_fail(err, "cpu_map=%s: '%.*s' is not CPU or TRACECPU:CPU with "
					"CPU in [0, %d] (or use modulo, identity, spread)", spec,
					(int)(end - p), p, ncpus - 1);
		if (from < ntrace)
			map[from] = (int)to;
		pos++;
		p = comma ? comma + 1 : end;
	}
	return 0;
}

int trace_cpu_map(const char *spec, int *map, int ntrace, int ncpus, const bool *used,
		  struct sim_err *err)
{
	for (int i = 0; i < ntrace; i++)
		map[i] = -1;
	if (!strcmp(spec, "modulo") || !strcmp(spec, "identity")) {
		for (int i = 0; i < ntrace; i++)
			map[i] = i % ncpus;
		if (!strcmp(spec, "identity") && ntrace > ncpus) {
			for (int i = ncpus; i < ntrace; i++)
				if (used[i])
					return sim_fail(err, "cpu_map=identity: the trace has events on "
							"CPU %d but the machine has %d CPUs (try "
							"cpu_map=modulo or spread)", i, ncpus);
		}
	} else if (!strcmp(spec, "spread")) {
		int nused = 0;
		for (int i = 0; i < ntrace; i++)
			nused += used[i];
		for (int i = 0, k = 0; i < ntrace; i++)
			if (used[i])
				map[i] = (int)((long)k++ * ncpus / (nused ? nused : 1)) % ncpus;
	} else if (parse_list(spec, map, ntrace, ncpus, err) < 0) {
		return -1;
	}
	for (int i = 0; i < ntrace; i++)
		if (used[i] && map[i] < 0)
			return sim_fail(err, "cpu_map=%s: the trace has events on CPU %d, which the "
					"map does not place", spec, i);
	return 0;
}
