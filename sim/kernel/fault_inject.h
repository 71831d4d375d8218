/* fault_inject.h - the kernel's fault injection (lib/fault-inject.c and
 * Documentation/fault-injection/): failslab fails slab allocations,
 * fail_page_alloc page allocations, each by the attributes the kernel's
 * debugfs and boot parameters give them. */
#ifndef SIM_FAULT_INJECT_H
#define SIM_FAULT_INJECT_H

#include <gsl/gsl_rng.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"
#include "gfp.h"

struct fault_attr {
	const char *name;		/* "failslab", "fail_page_alloc" */
	bool enabled;			/* probability > 0 */
	unsigned long interval;		/* only every interval-th call may fail */
	unsigned int probability;	/* percent of those that fail */
	long space;			/* bytes let through before any failure */
	long times;			/* failures left; -1: no limit */
	bool ignore_gfp_wait;		/* spare allocations that may sleep */
	unsigned long count;		/* calls counted for the interval */
	uint64_t calls, injected;	/* what the report shows */
	uint64_t spared;		/* allocations ignore_gfp_wait let through */
};

/* Parse the boot parameter's value "INTERVAL,PROBABILITY,SPACE,TIMES" (the
 * kernel's failslab= and fail_page_alloc=; "" leaves it off) into *a. */
int fault_attr_parse(struct fault_attr *a, const char *name, const char *spec,
		     struct sim_err *err);

/* The ignore-gfp-wait filter of should_failslab() and
 * should_fail_alloc_page(): true (and counted) if this allocation is spared
 * because it may sleep. */
bool fault_gfp_spared(struct fault_attr *a, gfp_t gfp);

/* should_fail(): whether this call of `size` bytes fails, as the kernel
 * decides it (times, space, interval, then the probability). */
bool should_fail(struct fault_attr *a, gsl_rng *rng, size_t size);

#endif
