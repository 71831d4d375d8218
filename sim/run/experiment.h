/* experiment.h - an experiment file (a sweep): machines x policies x
 * workloads x axes, with fixed parameters, replicates and a base seed,
 * expanded into points and runs. The schema is documented in
 * configs/README.md; every mistake is refused with the key path. */
#ifndef SIM_EXPERIMENT_H
#define SIM_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "engine/error.h"

#define EXP_MAX_DIMS 10
#define EXP_MAX_METRICS 17

/* One NAME=VALUE and where it came from ("axes[0].values[2]"). A value
 * starting with '=' is an expression over the machine (=2*cpus_per_node). */
struct exp_assign {
	char *name, *value, *where;
};

/* One value of a dimension: a machine, a policy, a workload, an axis value. */
struct exp_choice {
	char *label;		/* unique within the dimension */
	char *name;		/* machine or policy name, workload command line */
	struct exp_assign *set;	/* parameters this choice sets */
	int nset;
	bool numeric;		/* x is a number (for plots) */
	double x;
	char **machines;	/* a workload restricted to these machines */
	int nmachines;
};

enum exp_dim_kind { DIM_MACHINE, DIM_POLICY, DIM_WORKLOAD, DIM_AXIS };

struct exp_dim {
	enum exp_dim_kind kind;
	char *name;		/* "machine", "policy", "workload", or the axis' name */
	char *label;		/* the plot's axis label, with its unit (else the name) */
	struct exp_choice *v;
	int n;
};

struct exp_metric {
	char *name, *path, *label;	/* "time", "result.sim_seconds", "time (simulated s)" */
	double scale;			/* multiply the value (e.g. 1e-6 for MB) */
};

/* One point: a choice in every dimension. */
struct exp_point {
	int choice[EXP_MAX_DIMS];
	char *key;		/* "machine=tigerton policy=slub ... slub_min_objects=8" */
};

struct experiment {
	char *path, *name, *question;
	char *text;		/* the file as read */
	struct exp_dim dim[EXP_MAX_DIMS];
	int ndims;
	struct exp_assign *fixed;
	int nfixed;
	struct exp_assign *overrides;	/* NAME=VALUE of the command line */
	int noverrides;
	int replicates;		/* runs a point; with ci_target, at most */
	double ci_target;	/* > 0: a point stops adding replicates once its main
				 * metric's 95% CI is within this share of its mean */
	uint64_t seed;
	struct exp_metric metric[EXP_MAX_METRICS];
	int nmetrics;
	char *plot_x;		/* the axis plotted along x (default: the first) */
	bool plot_logx, plot_logy;	/* logarithmic x or y axis */
	struct exp_point *points;
	int npoints;
	void **owned;		/* every allocation, freed by experiment_free */
	int nowned, capowned;
};

/* Read and check PATH (structure only: keys, types, ranges, labels). */
int experiment_load(struct experiment *e, const char *path, struct sim_err *err);

/* Parse an experiment from text; `path` names it in messages. */
int experiment_parse(struct experiment *e, const char *path, const char *text,
		     struct sim_err *err);

/* Add the command line's NAME=VALUE overrides (before experiment_expand). */
int experiment_override(struct experiment *e, const char *assign, struct sim_err *err);

/* Expand into points and check every point's run configuration (machine,
 * policy, workload, each parameter), naming the key path of a bad one. */
int experiment_expand(struct experiment *e, struct sim_err *err);

/* The NAME=VALUE list of a point, expressions evaluated on its machine.
 * Returns the count; the strings live in `buf` (size bytes). */
int experiment_assigns(const struct experiment *e, const struct exp_point *p,
		       const char **out, int max, char *buf, int size, struct sim_err *err);

/* The machine, policy and workload of a point. */
const char *experiment_machine(const struct experiment *e, const struct exp_point *p);
const char *experiment_policy(const struct experiment *e, const struct exp_point *p);
const char *experiment_workload(const struct experiment *e, const struct exp_point *p);

/* The labels of the dimensions that vary ("nehalem-ex slub_min_objects=8"). */
void experiment_short_key(const struct experiment *e, const struct exp_point *p, char *out,
			  size_t size);

/* Runs are numbered point * replicates + replicate. */
static inline int experiment_runs(const struct experiment *e)
{
	return e->npoints * e->replicates;
}

/* A run's seed: from the base seed, the point's key and the replicate, so it
 * does not depend on the order or the place the run is done. */
uint64_t experiment_run_seed(const struct experiment *e, int run);

/* A digest of what decides the results (the file, the overrides and the
 * replicates), kept with the results so --resume and merge refuse a
 * different experiment. */
uint64_t experiment_digest(const struct experiment *e);

/* The digest as 16 hex digits, as results folders keep it. */
#define EXP_DIGEST_HEX 17
void experiment_digest_hex(const struct experiment *e, char out[EXP_DIGEST_HEX]);

/* The command line's overrides as a JSON list of "NAME=VALUE". */
cJSON *experiment_overrides_json(const struct experiment *e);

void experiment_free(struct experiment *e);

#endif
