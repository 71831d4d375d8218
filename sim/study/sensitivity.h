/* sensitivity.h - a sensitivity study of a validation case: how much its
 * checks depend on the estimated and fitted figures of its machines. Each
 * figure at both ends of its range (one at a time) and optionally a Morris
 * screening, each variant a `slabsim validate` of the case on a copy of the
 * machine files, kept in OUT/runs/VARIANT/ (or in another study's runs
 * folder of the same figures and parameters: V8 judges C1's runs); the
 * effects with their CIs go to OUT/table.txt, OUT/sensitivity.json and
 * OUT/tornado-N.png. */
#ifndef SIM_STUDY_SENSITIVITY_H
#define SIM_STUDY_SENSITIVITY_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/error.h"
#include "study/sensitivity_figures.h"
#include "study/validate.h"

/* What the study's calls return: the exit status of `slabsim sensitivity`. */
enum sens_status { SENS_DONE = 0, SENS_RUNS_FAILED = 1, SENS_BAD_INPUT = 2 };

/* Called before variant N of TOTAL (counting from 1) is run; a variant
 * whose runs are kept is counted but not announced. */
typedef void (*sens_progress_fn)(void *arg, int n, int total, const char *variant);

struct sens_opts {
	const char *casename;	/* a case name (C3, V1, ...) or a case file */
	char **sets;		/* NAME=VALUE: a parameter of every run */
	int nsets;
	const char *figures;	/* comma-separated patterns of figures, NULL for all */
	bool all;		/* measured figures too */
	int replicates;		/* replicates a point, 0 for the case's */
	int morris;		/* Morris trajectories, 0 for none */
	int levels;		/* the Morris grid's levels (even) */
	unsigned long seed;	/* the Morris design's seed */
	int limit;		/* figures a check in the table, 0 for all */
	int jobs;		/* runs at a time */
	const char *out;	/* the results folder, NULL for out/sensitivity-CASE */
	const char *runs;	/* the variants' runs, NULL for OUT/runs */
	bool no_plot;
	const char *exe;	/* the slabsim binary that runs each variant's validate */
	FILE *echo;		/* the tables are printed here too (NULL: only table.txt) */
	sens_progress_fn progress;	/* NULL: nothing announced */
	void *progress_arg;
};

/* A check's value at one variant: its mean, its 95% CI's half-width (NAN
 * without one) and each replicate's value (validate's summary "values"). */
#define SENS_MAX_VALUES 32
struct sens_value {
	double mean, half;
	double v[SENS_MAX_VALUES];
	int n;
};

/* A figure's one-at-a-time effect on a check, as shares of the check's
 * base value: at the low end, at the high end, high minus low and that
 * difference's 95% CI half-width (NAN without replicates). */
struct sens_effect {
	double low, high, effect, half;
};

/* The variants of a study, in the order they run: "base" (every figure at
 * its value), then "f%03d-low" and "f%03d-high" of each figure, then the
 * Morris design's points "morris-sS-LP-tTTT-pPPP". Variant v sets figure i
 * to values[v * nf + i]; x and moved are the Morris design of `morris`
 * trajectories (sens_morris_design), NULL without one. */
struct sens_plan {
	char (*names)[40];
	double *values;
	int n, nf, morris;
	double *x;
	int *moved;
};

struct sens_study {
	struct val_case vc;
	char target[600];	/* the file of the case whose runs are made */
	char *out;		/* the results folder (malloc'd) */
	char *runs;		/* the variants' runs folder (malloc'd) */
	struct sens_figure *f;
	int nf;
	struct sens_plan plan;
	struct sens_value *vals;	/* vals[variant * nchecks + check] */
	double *mu_star, *mu, *sigma;	/* Morris: [figure * nchecks + check], else NULL */
};

/* The case of O and the figures it varies into S (the --list of the
 * command), nothing run or written. SENS_DONE, or SENS_BAD_INPUT with err
 * set; sens_study_free(S) either way. */
int sens_study_open(const struct sens_opts *o, struct sens_study *s, struct sim_err *err);

/* The whole study: sens_study_open, the case files and the variants' runs
 * in S->out, the effects, table.txt, sensitivity.json and (unless no_plot)
 * the tornado plots. A variant whose summary in RUNS/NAME/out was made by
 * this model, with the case file and machine files this study gives it
 * (RUNS/NAME/case.json, RUNS/NAME/machines/), is read, not run again; one
 * made with others is refused (SENS_BAD_INPUT), never overwritten.
 * SENS_DONE, SENS_BAD_INPUT, or
 * SENS_RUNS_FAILED (a variant's runs or a result's file), err set;
 * sens_study_free(S) either way. */
int sens_study_run(const struct sens_opts *o, struct sens_study *s, struct sim_err *err);

/* The files variant V of S's plan is run with, as sens_run_variants writes
 * them: the case files in S->out, RUNS/NAME/machines/ and RUNS/NAME/case.json.
 * 0, or -1 with err set. */
int sens_variant_files(const struct sens_opts *o, const struct sens_study *s, int v,
		       struct sim_err *err);

/* Free what sens_study_open and sens_study_run allocated in S. */
void sens_study_free(struct sens_study *s);

/* Into P the variants of O's study of the NF figures F (in the order
 * struct sens_plan gives), and free them. */
void sens_plan_make(const struct sens_opts *o, const struct sens_figure *f, int nf,
		    struct sens_plan *p);
void sens_plan_free(struct sens_plan *p);

/* The case files in S->out and each variant of S's plan into S->vals (run,
 * or read from its kept summary). SENS_DONE, SENS_BAD_INPUT (a case file)
 * or SENS_RUNS_FAILED, err set. */
int sens_run_variants(const struct sens_opts *o, struct sens_study *s, struct sim_err *err);

/* The effect of figure FIG on check CH, from S's base and FIG's two ends. */
struct sens_effect sens_effect_at(const struct sens_study *s, int fig, int ch);

/* S's figures ranked by the size of their effect on check CH, the largest
 * first: ORDER gets nf figure numbers. */
void sens_rank(const struct sens_study *s, int ch, int *order);

/* The Morris measures of S's design from its variants' values: mu*, mu and
 * sigma of each figure on each check, in units of the check's base value
 * per move across the figure's range. */
void sens_morris_measures(struct sens_study *s);

/* Every check's table: its value, then its LIMIT (0: all) top figures. */
void sens_print_tables(FILE *f, const struct sens_study *s, int limit);

/* OUT/sensitivity.json: the figures, each check's base value and every effect. */
int sens_write_json(const struct sens_study *s, struct sim_err *err);

/* OUT/tornado-N.png of check CH: a bar a figure, the largest on top. */
int sens_plot_tornado(const struct sens_study *s, int ch, struct sim_err *err);

#endif
