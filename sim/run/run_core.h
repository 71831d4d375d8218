/* run_core.h - one simulated run: machine + kernel + policy + workload,
 * built from a configuration, executed, checked. Shared by `slabsim run`
 * (and later `sweep`). */
#ifndef SIM_RUN_CORE_H
#define SIM_RUN_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "engine/params.h"
#include "hw/hw.h"
#include "hw/machine.h"
#include "kernel/kernel.h"
#include "run/run_timeline.h"
#include "policies/policy.h"
#include "workloads/workload.h"

/* The largest seed: 2^53 - 1, so that every JSON reader holds it exactly. */
#define SEED_MAX 9007199254740991ull

/* Where a run is, for a progress line. */
struct run_progress {
	double sim_seconds;	/* simulated so far */
	double wall_seconds;	/* since the simulation started */
	uint64_t done, total;	/* the workload's units of work (total 0: none) */
	const char *unit;	/* "messages" */
	bool sampling;		/* sample=auto: the run may stop before total */
	bool done_run;		/* the last call: the run has ended */
};

struct run_config {
	const char *machine;
	const char *policy;
	const char *workload;	/* "hackbench 100 process 2000"; NULL: no workload */
	uint64_t seed;		/* at most SEED_MAX */
	const char **assign;	/* NAME=VALUE */
	int nassign;
	bool compare;		/* print published figures beside the workload's */
	bool record;		/* keep every kmem event (slabsim trace record) */
	double record_from_s, record_to_s;	/* only those in this window of simulated
						 * seconds (to 0: to the end) */
	uint64_t check_interval_us;	/* also check the invariants mid-run; 0: at the end only */
	uint64_t check_every_ops;	/* or every so many slab operations; 0: not so */
	uint64_t timeline_every_us;	/* a timeline row every so many simulated
					 * microseconds (run_timeline.h); 0: none */
	/* Optional: called every few milliseconds of wall time while the run
	 * simulates (a terminal's progress line), and once with done = true. */
	void (*progress)(const struct run_progress *p, void *arg);
	void *progress_arg;
};

struct run {
	struct run_config cfg;
	struct machine m;
	const struct slab_policy *policy;
	const struct workload *wl;
	struct param_set kparams, pparams, wparams;
	struct param_set rparams;	/* the run's own: sample, sample_ci */
	char policy_owner[64], workload_owner[64];
	struct engine eng;
	struct hw hw;
	struct kernel k;
	void *wstate;
	struct workload_result res;
	struct run_timeline timeline;
	double wall_seconds;
	double host_peak_rss_mb;	/* the process's peak resident memory, at the end */
	bool built;		/* engine, hw, kernel exist */
	bool workload_caches;	/* run_build leaves kernel_caches_ready to run_execute */
	bool invariants_ok;
	char invariants_msg[1024];
};

/* The run's own parameters (steady-state sampling). */
extern const struct param_def run_param_defs[];

/* Resolve names and parameters (no simulation yet). -1: bad input. */
int run_configure(struct run *r, const struct run_config *cfg, struct sim_err *err);

/* What a policy and kernel= combination means when the allocator was not
 * in that kernel (SLAB after 6.7, SLQB ever): "" when it was. The kernel
 * then sets only what surrounds the allocator (locks, scheduler). */
const char *run_policy_note(const struct run *r);

/* Build the machine and the kernel (with its boot caches), nothing more;
 * the boot caches are then all the caches there are (kernel_caches_ready). */
int run_build(struct run *r, struct sim_err *err);

/* Build the machine, kernel and workload and simulate to the end.
 * 0: the workload finished and every invariant holds; 1: it did not
 * (r->invariants_msg says why); -1: bad input found while building. */
int run_execute(struct run *r, struct sim_err *err);

/* The workload's units of work: done so far and in all, and what they are
 * ("messages"; "units" for a workload that does not say). */
void run_units(const struct run *r, uint64_t *done, uint64_t *total, const char **unit);

void run_free(struct run *r);

#endif
