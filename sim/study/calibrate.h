/* calibrate.h - `slabsim calibrate`'s experiment: read the host's topology
 * (calibrate_topo.h), measure its clock, hand-offs and latencies
 * (calibrate_probe.h), and fit a machine file to what was measured
 * (calibrate_fit.h). */
#ifndef SIM_STUDY_CALIBRATE_H
#define SIM_STUDY_CALIBRATE_H

#include "study/calibrate_fit.h"

#define CALIBRATE_NAME_MAX 60	/* characters of a machine's name */
#define CALIBRATE_PAIRS_MAX 64	/* CPU pairs measured per distance */

struct calibrate_opts {
	const char *name;	/* the machine's name, 1 to CALIBRATE_NAME_MAX characters */
	int pairs;		/* CPU pairs measured per distance, 1 to CALIBRATE_PAIRS_MAX */
	/* told the host's topology once it is read, before the probes run (or NULL) */
	void (*on_host)(const struct host_topo *h);
};

struct calibrate_result {
	struct host_topo *host;		/* the CPUs this process may run on */
	struct calibrate_measured measured;
	struct calibrate_fitted fitted;	/* the machine file */
};

/* Measure the host and fit its machine file into *r (free it with
 * calibrate_result_free); 0, or -1 with a message in err and nothing to
 * free (bad options, a host that cannot be measured: one CPU, threads that
 * cannot be pinned, no memory for the pointer chase). */
int calibrate_host(const struct calibrate_opts *o, struct calibrate_result *r,
		   struct sim_err *err);

void calibrate_result_free(struct calibrate_result *r);

#endif
