/* test_steady.c - steady-state sampling (sim/engine/steady.c) on series
 * whose truth is known: a warm-up transient then a stationary rate settles,
 * past the transient, with a CI that holds the true rate; a rate with a
 * trend, a step or long regimes that come and go never settles; sample=off
 * records nothing; the extrapolation adds the units not simulated at the
 * settled rate; a flat rate over a state that keeps moving does not settle
 * until the state holds still. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/steady.h"

/* xorshift64 and a Box-Muller normal: the test's own repeatable noise */
static uint64_t rng = 88172645463325252ull;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(6.283185307179586 * uniform());
}

static uint64_t gauge;		/* the state gauge, as the workload keeps it */
static double (*gauge_of)(uint64_t, uint64_t);	/* its value at unit i of n */

/* Feed `units` units one at a time, unit i taking cost(i) cycles; stop
 * early if the sampler says so (auto). Returns the units fed. */
static uint64_t feed(struct steady *s, uint64_t units, double (*cost)(uint64_t, uint64_t),
		     double *cycles)
{
	double t = 1e6;
	steady_start(s, (uint64_t)t);
	for (uint64_t i = 0; i < units; i++) {
		t += cost(i, units);
		gauge = gauge_of ? (uint64_t)gauge_of(i + 1, units) : 0;
		if (steady_note(s, 1, (uint64_t)t)) {
			*cycles = t - 1e6;
			return i + 1;
		}
	}
	*cycles = t - 1e6;
	return units;
}

/* 1000 cycles a unit with 30% noise, after a transient three times slower
 * that decays over the first 5% */
static double warmup_then_flat(uint64_t i, uint64_t n)
{
	double x = (double)i / (double)n;
	return 1000 * (1 + 2 * exp(-x / 0.0125)) * (1 + 0.3 * normal());
}

static double trend(uint64_t i, uint64_t n)
{
	return 1000 * (1 + 0.5 * (double)i / (double)n) * (1 + 0.3 * normal());
}

static double step_early(uint64_t i, uint64_t n)
{
	return (i < n / 12 ? 1000 : 1300) * (1 + 0.3 * normal());
}

/* a state that settles with the warm-up: 100000 falling to 50000 */
static double state_settles(uint64_t i, uint64_t n)
{
	return 50000 * (1 + exp(-(double)i / (double)n / 0.0125));
}

/* a state that keeps sinking, 50000 to 10000 over the run */
static double state_sinks(uint64_t i, uint64_t n)
{
	return 50000 - 40000 * (double)i / (double)n;
}

/* a state that sinks over the first 40% of the run, then holds */
static double state_sinks_then_holds(uint64_t i, uint64_t n)
{
	double x = (double)i / (double)n;
	return 50000 - 25000 * (x < 0.4 ? x / 0.4 : 1);
}

/* a collapse that comes and goes: regimes of 3% of the run, 4x apart */
static double regimes(uint64_t i, uint64_t n)
{
	uint64_t len = n * 3 / 100;
	return ((i / len) % 2 ? 4000 : 1000) * (1 + 0.3 * normal());
}

static void test_settles_after_warmup(void **state)
{
	(void)state;
	struct steady s;
	steady_init(&s, STEADY_AUTO, 0.01, 0.2);
	assert_int_equal(steady_plan(&s, 2000000, "messages"), 0);
	double cycles;
	uint64_t done = feed(&s, 2000000, warmup_then_flat, &cycles);
	assert_true(s.settled);
	assert_true(done < 2000000 / 2);		/* it saved at least half */
	assert_true(s.stop.warmup_obs >= 25);	/* the transient (5%) is cut */
	assert_true(s.stop.warmup_obs <= 150);
	struct steady_outcome o;
	double secs = steady_outcome(&s, done, cycles, 1e9, &o);
	assert_true(o.extrapolated && o.settled);
	/* the truth: the integral of the cost, 2e9 plus the transient's 25 units
	 * of 2000 extra cycles... about 2e9 + 2 * 1000 * 25000 cycles */
	double truth = (2e9 + 2 * 1000 * 0.0125 * 2000000) / 1e9;
	assert_true(fabs(secs - truth) < 0.02 * truth);
	assert_true(fabs(s.stop.per_unit - 1000) <= 3 * s.stop.half_width + 1);
	assert_true(o.ci_seconds > 0 && o.ci_seconds < 0.02 * secs);
	steady_destroy(&s);
}

static void never_settles(double (*cost)(uint64_t, uint64_t), const char *what)
{
	struct steady s;
	steady_init(&s, STEADY_AUTO, 0.01, 0.2);
	assert_int_equal(steady_plan(&s, 1000000, "units"), 0);
	double cycles;
	uint64_t done = feed(&s, 1000000, cost, &cycles);
	if (s.settled)
		fail_msg("%s settled at %llu units of 1000000", what, (unsigned long long)done);
	struct steady_outcome o;
	double secs = steady_outcome(&s, done, cycles, 1e9, &o);
	assert_false(o.extrapolated);
	assert_true(secs == cycles / 1e9);
	assert_non_null(o.why);
	steady_destroy(&s);
}

static void test_trend_does_not_settle(void **state)
{
	(void)state;
	never_settles(trend, "a trend");
}

/* A step it has seen: the rate before it is never the one extrapolated
 * (what comes after a point it has not reached, no rule can know: that is
 * what STEADY_MIN_FRACTION is for). */
static void test_step_is_cut_as_warmup(void **state)
{
	(void)state;
	struct steady s;
	steady_init(&s, STEADY_AUTO, 0.01, 0.2);
	steady_plan(&s, 2000000, "units");
	double cycles;
	feed(&s, 2000000, step_early, &cycles);
	assert_true(s.settled);		/* after the step the rate is flat */
	assert_true(s.stop.warmup_obs >= 1000 / 12 - 5);
	assert_true(fabs(s.stop.per_unit - 1300) <= 3 * s.stop.half_width + 1);
	steady_destroy(&s);
}

static void test_regimes_do_not_settle(void **state)
{
	(void)state;
	never_settles(regimes, "regimes that come and go");
}

static void test_off_records_nothing(void **state)
{
	(void)state;
	struct steady s;
	steady_init(&s, STEADY_OFF, 0.01, 0.2);
	assert_int_equal(steady_plan(&s, 1000000, "messages"), 0);
	assert_int_equal(s.total_units, 0);
	assert_false(steady_note(&s, 1000000, 5));
	assert_null(s.obs);
	struct steady_outcome o;
	assert_true(steady_outcome(&s, 10, 3e9, 1e9, &o) == 3.0);
	assert_false(o.planned || o.extrapolated);
	steady_destroy(&s);
}

/* observe simulates everything but says where auto would have stopped */
static void test_observe_runs_to_the_end(void **state)
{
	(void)state;
	struct steady s;
	steady_init(&s, STEADY_OBSERVE, 0.01, 0.2);
	steady_plan(&s, 2000000, "messages");
	steady_plan_gauge(&s, "slab_pages", &gauge);
	gauge_of = state_settles;
	double cycles;
	uint64_t done = feed(&s, 2000000, warmup_then_flat, &cycles);
	gauge_of = NULL;
	assert_int_equal(done, 2000000);
	assert_false(s.settled);
	assert_true(s.stop.settled);
	struct steady_outcome o;
	double secs = steady_outcome(&s, done, cycles, 1e9, &o);
	assert_true(secs == cycles / 1e9);	/* the figure is the exact one */
	assert_true(o.would_fraction > 0 && o.would_fraction < 0.5);
	assert_true(fabs(o.would_seconds - secs) < 0.02 * secs);
	assert_int_equal(o.nseries, 1000);
	/* the gauge, as the workload kept it, at each observation's close */
	assert_string_equal(o.gauge_name, "slab_pages");
	assert_true(o.gauge[0] == (double)(uint64_t)state_settles(2000, 2000000));
	assert_true(o.gauge[999] == 50000);
	assert_true(o.state_drift >= 0 && o.state_drift <= 0.2);	/* it held still */
	assert_true(o.stop_obs > o.warmup_obs && o.stop_obs < 1000);
	steady_destroy(&s);
}

/* Sample the flat rate over `state`, with the state test at `tol`, for the
 * first `upto` of 2000000 units; returns the units done when it stopped (all
 * `upto` if it did not settle). */
static uint64_t over_state(double (*state)(uint64_t, uint64_t), double tol, uint64_t upto,
			   struct steady_outcome *o)
{
	struct steady s;
	steady_init(&s, STEADY_AUTO, 0.01, tol);
	steady_plan(&s, 2000000, "messages");
	steady_plan_gauge(&s, "slab_pages", &gauge);
	gauge_of = state;
	double cycles;
	uint64_t done = feed(&s, upto, warmup_then_flat, &cycles);
	gauge_of = NULL;
	steady_outcome(&s, done, cycles, 1e9, o);
	o->why = o->why ? o->why : "";	/* the strings are static; the series is not kept */
	o->gauge = o->series = NULL;
	steady_destroy(&s);
	return done;
}

/* The rate is flat, but the state under it keeps sinking: it must not settle
 * while the state would move far over the rest (the skipped work would not
 * age it), and says why; near the end, with little left to extrapolate, it
 * may. With the test off it settles as early as a flat rate does. */
static void test_state_drift_does_not_settle(void **state)
{
	(void)state;
	struct steady_outcome o;
	assert_int_equal(over_state(state_sinks, 0.2, 1600000, &o), 1600000);
	assert_false(o.settled || o.extrapolated);
	assert_non_null(strstr(o.why, "state drifts"));
	assert_string_equal(o.gauge_name, "slab_pages");
	assert_true(o.state_drift > 0.2 && o.state_tol == 0.2);
	assert_true(o.state_refusals > 0);	/* the rate alone had settled */
	assert_true(over_state(state_sinks, 1000, 2000000, &o) < 2000000 / 2);
	assert_true(o.settled && o.extrapolated && o.state_refusals == 0);
}

/* A state that sinks and then holds: it settles, but only once the batches
 * see the state holding, not while it moves. */
static void test_state_settles_once_it_holds(void **state)
{
	(void)state;
	struct steady_outcome o;
	uint64_t free_of_it = over_state(state_sinks_then_holds, 1000, 2000000, &o);
	uint64_t done = over_state(state_sinks_then_holds, 0.2, 2000000, &o);
	assert_true(o.settled && o.extrapolated);
	assert_true(o.state_drift >= 0 && o.state_drift <= 0.2);
	assert_true(free_of_it < 2000000 * 3 / 10);
	assert_true(done > 2000000 * 3 / 10 && done < 2000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_settles_after_warmup),
		cmocka_unit_test(test_trend_does_not_settle),
		cmocka_unit_test(test_step_is_cut_as_warmup),
		cmocka_unit_test(test_regimes_do_not_settle),
		cmocka_unit_test(test_off_records_nothing),
		cmocka_unit_test(test_observe_runs_to_the_end),
		cmocka_unit_test(test_state_drift_does_not_settle),
		cmocka_unit_test(test_state_settles_once_it_holds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
