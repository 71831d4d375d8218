/* validate_int.h - what the files of the validation study share among
 * themselves: the runs of a case, the fitted figures' digests, the table,
 * summary.json and the plot. */
#ifndef SIM_VALIDATE_INT_H
#define SIM_VALIDATE_INT_H

#include "study/validate_study.h"

/* Run every run of case VC into OUT/RUNS.jsonl and runs[] (forked workers, as
 * a sweep does), with o->resume only those the file does not hold yet; the
 * runs are made with the fitted figures of DIGEST. 1 if a run failed, 0, or
 * -1 with a message. */
int val_runs_make(const struct val_case *vc, const struct validate_opts *o, const char *digest,
		  cJSON **runs, struct sim_err *err);

/* Load every run of case VC from o->from's RUNS.jsonl into runs[], copied to
 * o->out when that is another folder; 1 if a run failed, 0, or -1 with a
 * message when one is missing or belongs to other runs. */
int val_runs_from(const struct val_case *vc, const struct validate_opts *o, cJSON **runs,
		  struct sim_err *err);

/* The digest of the fitted figures DIR's runs were made with, as its
 * summary.json keeps it; -1 with a message if it cannot be read. */
int val_summary_digest(const char *dir, char was[17], struct sim_err *err);

/* --from DIR: the fitted figures must be DIGEST, those DIR's runs were made
 * with; -1 with a message if not. */
int val_check_from_digest(const char *dir, const char *digest, struct sim_err *err);

/* The rows that are judged (not informative), and those of them inside their band. */
int val_judged_rows(const struct val_row *rows, int n);
int val_passed_rows(const struct val_row *rows, int n);

/* PATH: the table as validate_print_table prints it, written whole or not at all. */
int val_write_table(const char *path, const struct validate_result *res, struct sim_err *err);

/* summary.json's whole: the cases and their checks, the model and the fitted
 * figures, the counts. */
cJSON *val_summary_json(const struct validate_result *res);

/* DIR/validation.png (with its .dat and .gp): simulated against published. */
int val_plot(const char *dir, const struct val_row *rows, int n, struct sim_err *err);

#endif
