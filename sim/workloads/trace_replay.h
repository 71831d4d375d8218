/* trace_replay.h - the trace workload's own pieces: the CPU map. */
#ifndef SIM_TRACE_REPLAY_H
#define SIM_TRACE_REPLAY_H

#include <stdbool.h>

#include "engine/error.h"

/* Fill map[0..ntrace) (trace CPU -> simulated CPU) from cpu_map=SPEC;
 * used[i] says whether trace CPU i has events. -1 with a message if a used
 * CPU has no place or the spec is malformed. */
int trace_cpu_map(const char *spec, int *map, int ntrace, int ncpus, const bool *used,
		  struct sim_err *err);

#endif
