/* validate.h - validation cases: one published result per file (folder
 * validation/), the runs that reproduce it (an experiment, as in configs/)
 * and the checks that compare the runs with the published figures, each
 * with its acceptance band and the reason for it. The schema is documented
 * in validation/README.md. */
#ifndef SIM_VALIDATE_H
#define SIM_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "run/experiment.h"

/* A dimension of the experiment and the label of the choice it must take. */
struct val_sel {
	char *dim, *label;
};

#define VAL_SYMBOLS 16

struct val_check {
	char *name;		/* "slub_min_objects=8", "test 1 512 B alloc" */
	char *path;		/* the number in a run's JSON (summary_lookup) */
	char *over_path;	/* the denominator's number, if not `path` */
	double scale;
	bool has_default;	/* a value missing from a run counts as `dflt` */
	double dflt;
	struct val_sel at[EXP_MAX_DIMS];	/* the point measured */
	int nat;
	struct val_sel over[EXP_MAX_DIMS];	/* a ratio's denominator (nover > 0) */
	int nover;
	int at_point, over_point;	/* resolved by val_case_load */
	double published;
	double low, high;	/* accepted: low <= simulated / published <= high */
	char *unit;		/* "s", "cycles", "ns", "x" */
	char *reason;		/* why the band is as wide as it is */
	/* instead of a path: the share of CPU time (%) in these profile symbols,
	 * their self time, or with `callers` also the waits at them on the lock
	 * classes named by spin_locks (whose spinning the profile charges to the
	 * lock function, _spin_lock) */
	char *symbols[VAL_SYMBOLS];
	int nsymbols;
	bool callers;
	char *spin_locks[VAL_SYMBOLS];
	int nspin_locks;
	bool informative;	/* printed beside the others, never a pass or a fail */
};

struct val_case {
	char *path, *name, *family, *title, *citation;
	char *runs_of;		/* the case whose experiment and runs it judges, or NULL */
	bool quick;		/* part of `validate --quick` (runs in seconds) */
	struct experiment e;
	struct val_check *checks;
	int nchecks;
};

/* Read, check and expand the case at PATH; machine files named "./X" or
 * "../X" are found beside the case file. -1: bad input, with the key path. */
int val_case_load(struct val_case *vc, const char *path, struct sim_err *err);
void val_case_free(struct val_case *vc);

/* FNV-1a: hash H (start from VAL_FNV_INIT) carried over the N bytes at P;
 * the digests validate keeps (fitted figures, case files) are these, in hex. */
#define VAL_FNV_INIT 14695981039346656037ull
static inline uint64_t val_fnv1a(uint64_t h, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ ((const unsigned char *)p)[i]) * 1099511628211ull;
	return h;
}

/* The FNV-1a digest (16 hex digits) of the case file at PATH as it is: a
 * summary keeps it per case, so that whoever reads the summary later can
 * tell whether the case's checks have changed since. -1 if unreadable. */
int val_case_digest(const char *path, char out[17]);

/* The name of the runs' file, RUNS.jsonl: the case's own, or that of the
 * case whose runs it judges (runs_of). */
const char *val_case_runs_name(const struct val_case *vc);

/* The folders searched for validation cases, ':'-separated: $SLABSIM_VALIDATION,
 * then validation/ beside the binary, above it, and in the data directory. */
const char *val_case_dirs(void);

/* Find the case file of NAME (a path ending in .json, or a case name looked
 * up in val_case_dirs()); 0 and the path in `out`, else -1. */
int val_case_find(const char *name, char *out, size_t size);

/* The number at PATH (the check's path or over_path, times its scale) in each replicate's
 * run at POINT (runs[i] is run i's JSON): x[r] for replicate r, NAN where the run broke an
 * invariant or gave none. Returns the count of runs that gave one. */
int val_point_values(const struct val_case *vc, const struct val_check *ch, int point,
		     const char *path, cJSON *const *runs, double *x);

#endif
