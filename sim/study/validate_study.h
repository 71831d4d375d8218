/* validate_study.h - the validation study: run (or reload) the runs of the
 * validation cases, judge each check against its published figure with a
 * 95% confidence interval, and write DIR/table.txt, DIR/summary.json,
 * DIR/CASE.jsonl and the plot of simulated against published. */
#ifndef SIM_VALIDATE_STUDY_H
#define SIM_VALIDATE_STUDY_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "study/validate.h"

/* Replicates whose values a check's summary lists (sensitivity pairs them). */
#define VAL_MAX_VALUES 32

/* One check judged. */
struct val_row {
	const struct val_case *vc;
	const struct val_check *ch;
	double sim, ratio;	/* the simulated value, and it over the published one */
	int n;			/* replicates that gave a value */
	double lo, hi;		/* the 95% confidence interval of sim (n >= 2) */
	double values[VAL_MAX_VALUES];	/* each replicate's value (a ratio's jackknife
					 * pseudo-value), NAN where it gave none */
	int nvalues;		/* 0 with more replicates than VAL_MAX_VALUES */
	bool have, pass, have_ci;
	char lock[96], sym[64];	/* the run's most waited-on lock and top profile symbol */
};

/* A line for the user while the cases run: progress, or (`failure`) a run
 * that failed. */
typedef void (*validate_note_fn)(void *ctx, bool failure, const char *line);

struct validate_opts {
	const char *const *names;	/* case names or case files; none: every case */
	int nnames;
	bool quick;		/* only the cases marked quick */
	bool resume;		/* keep the runs an interrupted validate left in `out` */
	bool no_plot;
	int jobs;		/* runs at a time */
	double ci_target;	/* > 0: every case's, instead of its file's */
	const char *out;	/* the results folder */
	const char *from;	/* run nothing: judge the runs an earlier validate left here */
	validate_note_fn note;	/* NULL: say nothing */
	void *note_ctx;
};

struct validate_result {
	struct val_case *cases;
	int ncases;
	cJSON ***runs;		/* runs[i][r]: case i's run r, NULL if it gave none */
	struct val_row *rows;	/* every case's checks, case by case */
	int nrows;
	bool judged;		/* every row is judged: the table can be printed */
	int failed_runs;	/* the cases with a failed run */
	char plot_error[1024];	/* why the plot was not made, or "" */
};

/* The cases o names (every case without names), only the quick ones with
 * o->quick, each with o->ci_target if given; how many, -1 with a message
 * (also when none is left). */
int validate_load_cases(const struct validate_opts *o, struct val_case **cases,
			struct sim_err *err);

/* Judge check CH of case VC on the case's runs (runs[i]: run i's JSON, or
 * NULL) into R: the mean over the replicates at its point (over the mean at
 * its "over" point for a ratio), its 95% CI, the verdict, the top lock and
 * symbol of the point's first run. */
void val_judge(const struct val_case *vc, const struct val_check *ch, cJSON *const *runs,
	       struct val_row *r);

/* Load the cases, run their runs (or load them from o->from, or keep those
 * an interrupted validate left with o->resume), judge every check into RES
 * and write the results folder. Returns 0 when every judged check is inside
 * its band and no run failed, 1 otherwise, -1 with a message on bad input or
 * a file that cannot be written. RES is filled in as far as it got; free it
 * with validate_result_free in every case. */
int validate_cases(const struct validate_opts *o, struct validate_result *res,
		   struct sim_err *err);
void validate_result_free(struct validate_result *res);

/* The table of RES's rows (as table.txt holds it) to F; the count of checks
 * inside their bands. */
int validate_print_table(FILE *f, const struct validate_result *res);

/* Every machine file's figures fitted to a published result, one string
 * each ("C1 tigerton.json fabric.line_occupancy_cycles = 450"), sorted, and
 * their digest; NULL with a message if a machine file cannot be read. */
cJSON *validate_fitted(char digest[17], struct sim_err *err);

#endif
