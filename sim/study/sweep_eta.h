/* sweep_eta.h - how long the rest of a sweep will take, from its own runs.
 *
 * A sweep's runs differ by up to 10x in wall time (a collapsed point, a
 * 384-CPU machine), and configs run them machine by machine, so "elapsed /
 * done x left" is wrong by a third for most of a long sweep. Each run left
 * is predicted from what is known of it, nearest first: the finished runs
 * of its point, else of its machine, else of all machines scaled by the
 * fourth root of the CPU count (the model's wall time per run grows so
 * with the machine: host cache footprint and per-CPU work, measured on
 * designs-hackbench, docs/usage.md). */
#ifndef SIM_SWEEP_ETA_H
#define SIM_SWEEP_ETA_H

#include <cjson/cJSON.h>

#include "engine/error.h"
#include "run/experiment.h"

/* The fourth root of a machine's CPU count: how a run's wall time scales
 * across machines when nothing else is known of it. */
double sweep_eta_machine_weight(int ncpus);

struct sweep_eta {
	int npoints, replicates, nmachines;
	int *point_machine;	/* by point: index into the machines */
	double *machine_weight;	/* by machine: sweep_eta_machine_weight */
	char *state;		/* by run: 0 not this process's, 1 to do, 2 done */
};

/* The machines of E's points, each loaded once for its CPU count. */
int sweep_eta_init(struct sweep_eta *eta, const struct experiment *e, struct sim_err *err);
void sweep_eta_free(struct sweep_eta *eta);

/* Run RUN is this process's to do (1) or has ended, with a result or not (2). */
void sweep_eta_mark(struct sweep_eta *eta, int run, int state);

/* Seconds until the runs still to do are done by `workers` at a time, from
 * the wall times (result.wall_seconds) of the finished runs in RUNS; -1
 * while no run has finished. */
double sweep_eta_seconds(const struct sweep_eta *eta, cJSON *const *runs, int workers);

#endif
