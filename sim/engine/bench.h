/* bench.h - speed of the engine alone (reported by `slabsim bench`). */
#ifndef SIM_BENCH_H
#define SIM_BENCH_H

#include <stdint.h>

struct bench_result {
	double events_per_second;	/* hold model through the engine loop */
	uint64_t events;
	double fiber_roundtrip_ns;	/* A -> B -> A */
	double sync_yields_per_second;	/* cpu_sync that had to hand over */
};

/* Hold model: `pending` events in the queue; each one fired schedules one
 * more at an exponential distance (mean 64 cycles x pending), `events` in
 * total; returns events per second. */
double bench_hold(unsigned int pending, uint64_t events);
double bench_fiber_roundtrip(uint64_t iterations);
double bench_sync(int ncpus, uint64_t syncs_per_cpu);

#endif
