/* report.h - what a run shows: hackbench's own line, a slabinfo-style cache
 * table with the policy's statistics, a lock_stat-style lock table, a
 * perf-report-style profile by kernel-named symbol, and the JSON of the
 * command-line contract (docs/json.md). */
#ifndef SIM_REPORT_H
#define SIM_REPORT_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "run/run_core.h"

#define SLABSIM_VERSION "0.1.0"

/* The model this binary runs: 16 hex digits that change whenever anything
 * that can move a run's JSON changes (model_digest.c). */
const char *report_model_digest(void);

/* The model digest the done runs of runs[0..n) (NULL: not done) were made
 * with: theirs if they all agree, "mixed" if they do not, "unknown" if a
 * run predates the digest or none is done. */
const char *report_runs_model_digest(cJSON *const *runs, int n);

/* CPU shares and the profile over the workload's measured window. */
struct run_window {
	double seconds;			/* simulated */
	double busy, slab, spin;	/* fractions of all CPU time */
	uint64_t total;			/* CPU cycles in the window (all CPUs) */
	uint64_t cycles[PROFILE_MAX_SYMS];
};

void report_window(const struct run *r, struct run_window *w);

/* The window's symbols, most cycles first; returns how many. */
struct prof_row {
	int sym;
	uint64_t cycles;
};
int report_profile_rows(const struct run *r, const struct run_window *w,
			struct prof_row rows[PROFILE_MAX_SYMS]);

/* A cache's geometry and tunables as JSON (for `show policy` and runs). */
cJSON *report_cache_geometry(const struct kernel *k, struct kmem_cache *c);

/* The lock table's totals by owner (enum hw_lock_owner) and over all
 * classes ([NR_LOCK_OWNERS]), the whole run: acquisitions, contentions,
 * cycles waited, and that wait as a share of the CPU time of the measured
 * window (the timers that run on after the workload would dilute it). */
struct lock_totals {
	uint64_t acquisitions, contentions, wait_cycles;
	double wait_share;
};
void report_lock_totals(const struct run *r, struct lock_totals t[NR_LOCK_OWNERS + 1]);

void report_text(FILE *out, const struct run *r, int profile_rows);

/* The workload's own output lines; with `compare` (run --compare), the
 * published figures of the run's policy beside them (published.c). */
void report_workload_print(FILE *out, const struct run *r, bool compare);

/* perf kmem stat: the top `rows` call sites and caches, and the SUMMARY. */
void report_kmem_text(FILE *out, const struct run *r, int rows);
cJSON *report_kmem_json(const struct run *r);
cJSON *report_json(const struct run *r);
/* Add NAME: V to O as exact decimal digits (a double would print a seed
 * above 10^15 as 3.77940459187348e+15, which --seed cannot take back). */
cJSON *report_add_u64(cJSON *o, const char *name, uint64_t v);

/* Write JSON to PATH as outfile.h says ("-": standard output). */
int report_write_json(const char *path, const cJSON *root, struct sim_err *err);

/* Write the run's timeline (slabsim run --timeline) to PATH as outfile.h
 * writes a file: 0, or -1 with a message. */
int report_timeline_write(const char *path, const struct run *r, struct sim_err *err);

/* `run --timeline-plot PATH`: the timeline drawn by gnuplot in five panels
 * (PATH.dat holds the table, PATH.gp the script, beside the PNG). */
int report_timeline_plot(const char *path, const struct run *r, struct sim_err *err);

#endif
