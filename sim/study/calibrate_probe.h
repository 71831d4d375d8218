/* calibrate_probe.h - measurements of the host for `slabsim calibrate`:
 * the core clock, a locked op on a line in the L1, load-to-use latencies by
 * pointer chasing, and the core-to-core hand-off of one cache line bounced
 * between two pinned threads with lock cmpxchg (the method of the public
 * core-to-core-latency tool). */
#ifndef SIM_STUDY_CALIBRATE_PROBE_H
#define SIM_STUDY_CALIBRATE_PROBE_H

#include <stddef.h>

/* Sort v[0..n) ascending. */
void probe_sort(double *v, int n);

/* The median of v[0..n) (n > 0), the mean of the middle two when n is even;
 * sorts v in place. */
double probe_median(double *v, int n);

/* Pin the calling thread to Linux CPU `cpu`; 0, or -1 with errno. */
int probe_pin(int cpu);

/* The core's clock in GHz: a chain of dependent adds, one cycle each. */
double probe_clock_ghz(void);

/* Nanoseconds of one lock cmpxchg on a line in the L1, in a dependent chain. */
double probe_atomic_ns(void);

/* Loads of a pointer chase timed per walk (PROBE_CHASE_WALKS walks, after one
 * untimed to warm the caches): a few million measure as well as a whole
 * round of a region many times the caches, in seconds. */
#define PROBE_CHASE_STEPS 4000000
#define PROBE_CHASE_WALKS 3

/* Nanoseconds per load of a random cyclic chase through `bytes` bytes, one
 * load per 64-byte line (huge pages asked for), the fastest of the walks;
 * memory bound to NUMA node `node` when node >= 0 (hwloc). Negative on
 * failure. */
double probe_chase_ns(size_t bytes, int node);

/* One-way nanoseconds of handing a line between Linux CPUs a and b: the
 * median over `samples` samples of `rounds` round trips, over two. Negative
 * (with errno) if a thread cannot be pinned. Calibrate takes
 * PROBE_PINGPONG_SAMPLES samples of PROBE_PINGPONG_ROUNDS round trips. */
#define PROBE_PINGPONG_SAMPLES 15
#define PROBE_PINGPONG_ROUNDS 2000
double probe_pingpong_ns(int a, int b, int samples, int rounds);

#endif
