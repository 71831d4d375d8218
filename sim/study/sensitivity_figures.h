/* sensitivity_figures.h - how much a prediction depends on figures nobody
 * measured: a machine's estimated and fitted figures with the range each may
 * take, the machine files that set them, and the one-at-a-time and Morris
 * (elementary effects) designs over those ranges with their effects. */
#ifndef SIM_SENSITIVITY_FIGURES_H
#define SIM_SENSITIVITY_FIGURES_H

#include <stdbool.h>

#include "engine/error.h"

/* A figure's range when its machine file gives none ("ranges"): a measured
 * figure within +-5% of its value, an estimate or a fitted figure +-25%
 * (a whole-number figure at least one step either way). */
#define SENS_MEASURED_SHARE 0.05
#define SENS_ESTIMATE_SHARE 0.25

enum sens_origin { SENS_MEASURED, SENS_ESTIMATE, SENS_FITTED };

struct sens_figure {
	char machine[64];	/* the machine file's name */
	char name[96];		/* "handoff_cycles.other_socket", "costs.syscall_cold_lines" */
	double value, lo, hi;
	enum sens_origin origin;
	bool range_given;	/* lo and hi from the machine file's "ranges" */
	bool integer;		/* a whole number: its range in whole steps, at least one */
	bool clamped;		/* a hand-off kept within its nearer and farther classes' */
};

/* The figures of machine MACHINE (a name or a file) that can move a run and
 * are not its shape: the latencies and occupancies of the machine file,
 * its fitted figures, and its cost table's entries but those of a policy
 * not in POLICIES (comma-separated names, NULL for all); only estimated and
 * fitted ones unless ALL. A "ranges" entry that names no figure is refused.
 * Returns the count (*out malloc'd), -1 with err set. */
int sens_figures(const char *machine, const char *policies, bool all, struct sens_figure **out,
		 struct sim_err *err);

/* Keep the figures whose "MACHINE:NAME" or NAME matches one of PATTERNS
 * (comma-separated fnmatch patterns), in the patterns' order (a pattern's
 * own matches in F's), so that figures added after the others come after
 * them; returns the count kept, -1 (err set) if a pattern matches none. */
int sens_select(struct sens_figure *f, int n, const char *patterns, struct sim_err *err);

/* Write to PATH a copy of machine file MACHINE (a name or a file) with each
 * of the N figures of F that belong to it set to VALUES[i] (rounded for a
 * whole-number figure); a cost is set through the file's "costs", a fitted
 * figure in its "fitted" entry. Returns 0, -1 with err set. */
int sens_write_machine(const char *machine, const struct sens_figure *f, int n,
		       const double *values, const char *path, struct sim_err *err);

/* The text sens_write_machine writes (malloc'd), NULL with err set. */
char *sens_machine_text(const char *machine, const struct sens_figure *f, int n,
			const double *values, struct sim_err *err);

/* The value of figure F at position U in [0, 1] of its range. */
double sens_at(const struct sens_figure *f, double u);

/* Morris' design: R trajectories of K+1 points each in [0, 1]^K on a grid
 * of LEVELS levels (even, >= 2); from one point to the next exactly one
 * factor moves, by +-LEVELS/(2(LEVELS-1)), each factor once a trajectory.
 * X gets R*(K+1)*K positions (point p of trajectory t at (t*(K+1)+p)*K),
 * MOVED R*K factor numbers (the one that moved into point p+1 at t*K+p).
 * SEED draws the start points, orders and directions (GSL's mt19937). */
void sens_morris_design(int k, int r, int levels, unsigned long seed, double *x, int *moved);

/* One output's elementary effects over a Morris design: Y has the output at
 * each of its R*(K+1) points; for each factor, MU_STAR the mean of the
 * effects' magnitudes, MU their mean and SIGMA their sd (0 with one
 * trajectory), each effect the output's change over the factor's move,
 * scaled to a move across its whole range. */
void sens_morris_effects(int k, int r, const double *x, const int *moved, const double *y,
			 double *mu_star, double *mu, double *sigma);

#endif
