/* steady.h - steady-state sampling: when a run's rate of work has settled,
 * stop simulating and extrapolate the rest, with a confidence interval.
 *
 * A workload reports its units of work as they complete (hackbench: each
 * message read). Every `batch_units` units close one observation: the
 * simulated cycles those units took. From time to time the series is
 * judged:
 *
 *  - warm-up: the MSER-5 rule (White 1997; White, Cobb & Spratt 2000)
 *    truncates the start-up transient: over means of 5 observations, the
 *    truncation d that minimises the squared standard error of the rest,
 *    sum (z_j - mean)^2 / (m - d)^2, searched over the first half; a
 *    minimum at the end of that half means the transient is not over;
 *  - batch means: what follows the warm-up, in STEADY_BATCHES batches; the
 *    95% CI of the cycles per unit is the Student t interval of their mean;
 *  - drift: the batch means must show no trend (the least-squares slope
 *    within its own 95% interval of zero), no step between the first and
 *    the second half (Welch's t-test at 5%), and no lag-1 autocorrelation
 *    beyond what 95% of independent batches show;
 *  - state: if the workload names a state gauge (hackbench: the slab pages
 *    in use), its least-squares trend over the same batches, carried over
 *    the rest of the run, must move it by no more than `state_tol` of its
 *    mean.
 *    A rate can stay flat while the state under it ages (slabs filling,
 *    pages going back), and skipped work does not age it: the rate the rest
 *    of the run sees is then not the one measured.
 *
 * The run settles when the CI's half-width is within `ci` of the mean and
 * every drift test passes, with at least STEADY_MIN_FRACTION of the run's
 * units after the warm-up. A run whose rate changes (a lock collapse that
 * comes and goes) fails them and goes on simulating, up to its full size. */
#ifndef SIM_STEADY_H
#define SIM_STEADY_H

#include <stdbool.h>
#include <stdint.h>

#define STEADY_OBSERVATIONS 1000	/* observations over a whole run */
#define STEADY_BATCHES 20		/* batch means after the warm-up */
#define STEADY_MIN_FRACTION 0.10	/* of the units, after the warm-up */
#define STEADY_JUDGE_EVERY 10		/* observations between two judgements */

enum steady_mode {
	STEADY_OFF,		/* simulate everything, record nothing */
	STEADY_AUTO,		/* stop once settled and extrapolate */
	STEADY_OBSERVE,		/* simulate everything, and say where auto would
				 * have stopped and what it would have said */
};

struct steady_verdict {
	bool settled;
	uint64_t units;		/* units done when judged */
	uint64_t time;		/* cycles of the run then (since its start) */
	int warmup_obs;		/* observations the warm-up took */
	int batches, batch_obs;	/* batches and observations per batch */
	double per_unit;	/* mean cycles per unit after the warm-up */
	double half_width;	/* 95% CI half-width of per_unit */
	double slope_t, step_t, lag1;	/* the drift tests' statistics */
	double state_drift;	/* the gauge's trend over the rest, relative to
				 * its mean (-1: no gauge, or not judged) */
	const char *why;	/* what kept it from settling */
};

/* What a sampled run says about itself (the JSON's result.sample). */
struct steady_outcome {
	enum steady_mode mode;
	bool planned;			/* the workload reported its units */
	const char *unit;		/* what they are ("messages") */
	bool settled;			/* the rate settled (auto: and it stopped) */
	bool extrapolated;		/* the figure includes units not simulated */
	uint64_t units, units_done;	/* of the whole run; simulated */
	uint64_t warmup_units;		/* the warm-up MSER-5 cut */
	int batches, batch_obs;
	double simulated_fraction;	/* units_done / units */
	double measured_seconds;	/* what was simulated */
	double seconds, ci_seconds;	/* the figure and its 95% CI half-width */
	/* observe: where auto would have stopped, and what it would have said */
	double would_fraction, would_seconds, would_ci_seconds;
	const char *why;		/* why it did not settle */
	const char *gauge_name;		/* the state gauge, if the workload has one: */
	double state_drift, state_tol;	/* its trend over the rest (-1: not judged)
					 * and the most it may move (sample_state) */
	const char *held_why;		/* settled: what held it back until then */
	double held_state_drift;	/* and the state's drift then (-1: none) */
	int state_refusals;		/* judgements the state test alone failed */
	const double *series;		/* observe: seconds per observation */
	int nseries;
	uint64_t series_units;		/* units per observation */
	const double *gauge;		/* observe: the state gauge as each
					 * observation closed */
	int warmup_obs, stop_obs;	/* observe: where the warm-up ended, where
					 * auto would have stopped (observations) */
};

struct steady {
	enum steady_mode mode;
	double ci;			/* target relative half-width */
	double state_tol;		/* the most the gauge may move over the rest */
	uint64_t total_units;		/* units of the whole run (0: not planned) */
	const char *unit;		/* what a unit is ("messages") */
	uint64_t batch_units;		/* units per observation */
	uint64_t start;			/* cycle count at unit 0 */
	uint64_t units;			/* units done */
	uint64_t next_at;		/* the observation open closes at this unit */
	uint64_t last;			/* cycles when the last one closed */
	double *obs;			/* cycles of each closed observation */
	int nobs, cap;
	const char *gauge_name;		/* the workload's state gauge ("slab_pages"), */
	const uint64_t *gauge_src;	/* where its value lives, */
	double *gauge;			/* recorded as each observation closes */
	struct steady_verdict verdict;	/* the latest judgement */
	struct steady_verdict stop;	/* the one that settled (observe: would have) */
	struct steady_verdict held;	/* the last one before that did not */
	int state_refusals;		/* judgements the state test alone failed */
	bool settled;			/* auto: stop now */
};

/* Sampling as the run asks for it (mode off: nothing happens): the CI's
 * target half-width `ci` relative to the rate, and `state_tol`, the most the
 * state gauge may move over the rest of the run, relative to its mean. */
void steady_init(struct steady *s, enum steady_mode mode, double ci, double state_tol);
void steady_destroy(struct steady *s);

/* The workload's units of work: `total_units` in the whole run, each named
 * `unit` ("messages"). Only a workload that calls this is sampled. */
int steady_plan(struct steady *s, uint64_t total_units, const char *unit);

/* Name the workload's state gauge (hackbench: "slab_pages"), a figure of
 * its state that the rate may not show moving, read from `*value` as each
 * observation closes; observe reports it beside the rate, as `series_NAME`. */
void steady_plan_gauge(struct steady *s, const char *name, const uint64_t *value);

/* Unit 0 starts at cycle `now` (the workload's clock starts). */
void steady_start(struct steady *s, uint64_t now);

void steady_close(struct steady *s, uint64_t now);

/* `n` more units are done at cycle `now`. Returns true once the run has
 * settled and mode is auto: the workload should stop starting new work. */
static inline bool steady_note(struct steady *s, uint64_t n, uint64_t now)
{
	if (!s->total_units)
		return false;
	s->units += n;
	if (s->units >= s->next_at)
		steady_close(s, now);
	return s->settled;
}

/* Judge the series as it stands (steady_note does, every few observations). */
void steady_judge(struct steady *s, struct steady_verdict *v);

/* The run simulated `done` units in `cycles` (at `hz`): its figure for the
 * whole run, extrapolated at the settled rate if it stopped early, and what
 * the JSON and the text say about it. Returns the figure in seconds. */
double steady_outcome(const struct steady *s, uint64_t done, double cycles, double hz,
		      struct steady_outcome *out);

#endif
