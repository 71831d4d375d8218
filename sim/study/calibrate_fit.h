/* calibrate_fit.h - a machine file fitted to measurements of a host: each
 * latency in whole cycles at the measured clock; what user space cannot
 * measure (the fabric's occupancy, the instruction costs) from the nearest
 * modelled machine; every figure with its source. Nothing here probes the
 * host: the measurements may be a host's or a test's. */
#ifndef SIM_STUDY_CALIBRATE_FIT_H
#define SIM_STUDY_CALIBRATE_FIT_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "engine/error.h"
#include "study/calibrate_topo.h"

/* What was measured on a host, in GHz and nanoseconds. */
struct calibrate_measured {
	double ghz;	/* the core clock */
	/* the one-way hand-off of a line at each distance class: the median,
	 * lowest and highest over the CPU pairs measured (no pairs: the host
	 * has none at that distance) */
	double handoff_ns[NR_DIST], handoff_lo[NR_DIST], handoff_hi[NR_DIST];
	int handoff_pairs[NR_DIST];
	double l1_ns, atomic_ns;		/* an L1 hit; a locked op on a line in it */
	double llc_ns;				/* a last-level cache hit; 0: not measured */
	double mem_local_ns, mem_remote_ns;	/* remote: only with several nodes */
	size_t llc_bytes, mem_bytes;		/* the pointer chases' sizes */
};

/* What the machine file says of itself. */
struct calibrate_label {
	const char *name;	/* the machine's name */
	const char *host;	/* the host measured */
	const char *date;	/* the day it was measured, YYYY-MM-DD */
};

/* The fitted machine file and what it took from the modelled machines. */
struct calibrate_fitted {
	cJSON *machine;
	char nearest[64];	/* the machine the fabric comes from */
	char cost_table[64];	/* the instruction costs (machines/costs/) */
};

/* ns at `ghz` as whole cycles, rounded, at least 1. */
unsigned calibrate_cycles(double ns, double ghz);

/* Is h a topology calibrate can measure and describe: at least two CPUs,
 * as many as its nodes x packages x dies x cores x threads? 0, or -1 with
 * a message in err. */
int calibrate_check_host(const struct host_topo *h, struct sim_err *err);

/* Fit the machine file of host h to the measurements ms into *fit (free it
 * with calibrate_fitted_free); 0, or -1 with a message in err when h or ms
 * make no machine (a figure not a positive number, a distance class of h
 * without a hand-off) or no modelled machine has home agents to take the
 * fabric from. */
int calibrate_fit(const struct host_topo *h, const struct calibrate_measured *ms,
		  const struct calibrate_label *label, struct calibrate_fitted *fit,
		  struct sim_err *err);

void calibrate_fitted_free(struct calibrate_fitted *fit);

#endif
