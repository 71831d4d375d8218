/* steady.c - MSER-5 warm-up truncation, batch means and drift tests over a
 * run's series of cycles per batch of units (the rules: steady.h). */
#include "steady.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_statistics_double.h>

#define MSER_GROUP 5

void steady_init(struct steady *s, enum steady_mode mode, double ci, double state_tol)
{
	memset(s, 0, sizeof(*s));
	s->mode = mode;
	s->ci = ci;
	s->state_tol = state_tol;
	s->verdict.state_drift = -1;
	s->held.state_drift = -1;
	s->verdict.why = "the workload reports no units of work";
	s->stop = s->verdict;
}

int steady_plan(struct steady *s, uint64_t total_units, const char *unit)
{
	if (s->mode == STEADY_OFF || !total_units)
		return 0;
	s->total_units = total_units;
	s->unit = unit;
	s->batch_units = total_units / STEADY_OBSERVATIONS;
	if (s->batch_units < 1)
		s->batch_units = 1;
	s->next_at = s->batch_units;
	s->verdict.why = "too few observations";
	s->stop = s->verdict;
	s->cap = STEADY_OBSERVATIONS + 16;
	s->obs = malloc((size_t)s->cap * sizeof(*s->obs));
	s->gauge = malloc((size_t)s->cap * sizeof(*s->gauge));
	return s->obs && s->gauge ? 0 : -1;
}

void steady_plan_gauge(struct steady *s, const char *name, const uint64_t *value)
{
	s->gauge_name = s->total_units ? name : NULL;
	s->gauge_src = value;
}

void steady_destroy(struct steady *s)
{
	free(s->obs);
	free(s->gauge);
	memset(s, 0, sizeof(*s));
}

void steady_start(struct steady *s, uint64_t now)
{
	s->start = now;
	s->last = now;
}

/* Observations that closed at `now` (several if a note covered them). */
void steady_close(struct steady *s, uint64_t now)
{
	if (now < s->last)	/* CPUs' clocks differ a little: keep time monotonic */
		now = s->last;
	int closed = 0;
	while (s->units >= s->next_at) {
		closed++;
		s->next_at += s->batch_units;
	}
	double each = (double)(now - s->last) / closed;
	s->last = now;
	for (int i = 0; i < closed; i++) {
		if (s->nobs == s->cap) {
			int cap = 2 * s->cap;
			double *o = realloc(s->obs, (size_t)cap * sizeof(*o));
			if (o)
				s->obs = o;
			double *g = o ? realloc(s->gauge, (size_t)cap * sizeof(*g)) : NULL;
			if (g)
				s->gauge = g;
			if (!o || !g)
				return;	/* keep the series it has; judging goes on */
			s->cap = cap;
		}
		s->gauge[s->nobs] = s->gauge_name ? (double)*s->gauge_src : 0;
		s->obs[s->nobs++] = each;
		if (s->nobs % STEADY_JUDGE_EVERY)
			continue;
		steady_judge(s, &s->verdict);
		if (!s->verdict.settled && !s->stop.settled)
			s->held = s->verdict;	/* what held it back, last */
		if (s->verdict.settled && !s->stop.settled) {
			s->stop = s->verdict;
			if (s->mode == STEADY_AUTO)
				s->settled = true;
		}
	}
}

/* MSER-5: the truncation (in groups of 5 observations) over the first half
 * that minimises the squared standard error of what remains. */
static int mser5(const double *x, int n)
{
	int m = n / MSER_GROUP;
	double *z = malloc((size_t)m * sizeof(*z));
	if (!z)
		return m;
	for (int j = 0; j < m; j++)
		z[j] = gsl_stats_mean(x + j * MSER_GROUP, 1, MSER_GROUP);
	double s1 = 0, s2 = 0, best = INFINITY;
	int best_d = 0;
	for (int j = m - 1; j >= 0; j--) {	/* suffix sums: d = j keeps z[j..m) */
		s1 += z[j];
		s2 += z[j] * z[j];
		if (j > m / 2)
			continue;
		double k = (double)(m - j), sse = s2 - s1 * s1 / k;
		double mser = (sse > 0 ? sse : 0) / (k * k);
		if (mser <= best) {	/* ties: the earlier truncation */
			best = mser;
			best_d = j;
		}
	}
	free(z);
	return best_d;
}

/* The state test: the gauge's least-squares trend over the `k` batches of
 * `b` observations from `gauge`, carried over the `rest` observations still
 * to come, relative to its mean (0 for a gauge at zero). */
static double state_drift(const double *gauge, int k, int b, double rest)
{
	double y[STEADY_BATCHES], x[STEADY_BATCHES];
	for (int i = 0; i < k; i++) {
		y[i] = gsl_stats_mean(gauge + i * b, 1, (size_t)b);
		x[i] = (double)i * b;
	}
	double mean = gsl_stats_mean(y, 1, (size_t)k);
	double c0, c1, cov00, cov01, cov11, sumsq;
	gsl_fit_linear(x, 1, y, 1, (size_t)k, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
	return mean > 0 ? fabs(c1) * rest / mean : 0;
}

void steady_judge(struct steady *s, struct steady_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->state_drift = -1;
	v->units = s->units;
	v->time = s->last - s->start;
	int n = s->nobs, m = n / MSER_GROUP;
	if (m < 2 * STEADY_BATCHES / MSER_GROUP + 2) {
		v->why = "too few observations";
		return;
	}
	int d = mser5(s->obs, n);
	v->warmup_obs = d * MSER_GROUP;
	if (d >= m / 2) {
		v->why = "the warm-up transient is not over (MSER-5 truncates half the run)";
		return;
	}
	int post = n - v->warmup_obs;
	double need = STEADY_MIN_FRACTION * (double)s->total_units / (double)s->batch_units;
	int b = post / STEADY_BATCHES;
	v->batches = STEADY_BATCHES;
	v->batch_obs = b;
	if (post < need || b < 1) {
		v->why = "too little of the run after the warm-up";
		return;
	}
	double y[STEADY_BATCHES], x[STEADY_BATCHES];
	const double *from = s->obs + n - STEADY_BATCHES * b;
	for (int i = 0; i < STEADY_BATCHES; i++) {
		y[i] = gsl_stats_mean(from + i * b, 1, (size_t)b);
		x[i] = i;
	}
	const int k = STEADY_BATCHES, h = k / 2;
	double mean = gsl_stats_mean(y, 1, k), sd = gsl_stats_sd_m(y, 1, k, mean);
	v->per_unit = mean / (double)s->batch_units;
	v->half_width = gsl_cdf_tdist_Pinv(0.975, k - 1) * sd / sqrt(k) / (double)s->batch_units;
	/* drift: a trend, a step between the halves, correlated batches */
	double c0, c1, cov00, cov01, cov11, sumsq;
	gsl_fit_linear(x, 1, y, 1, k, &c0, &c1, &cov00, &cov01, &cov11, &sumsq);
	v->slope_t = cov11 > 0 ? c1 / sqrt(cov11) : 0;
	double m1 = gsl_stats_mean(y, 1, h), m2 = gsl_stats_mean(y + h, 1, k - h);
	double v1 = gsl_stats_variance_m(y, 1, h, m1) / h;
	double v2 = gsl_stats_variance_m(y + h, 1, k - h, m2) / (k - h);
	v->step_t = v1 + v2 > 0 ? (m1 - m2) / sqrt(v1 + v2) : 0;
	double welch_dof = v1 + v2 > 0 ? (v1 + v2) * (v1 + v2) /
		(v1 * v1 / (h - 1) + v2 * v2 / (k - h - 1)) : k - 2;
	v->lag1 = sd > 0 ? gsl_stats_lag1_autocorrelation_m(y, 1, k, mean) : 0;
	if (mean <= 0 || v->half_width * (double)s->batch_units > s->ci * mean)
		v->why = "the confidence interval is wider than sample_ci";
	else if (fabs(v->slope_t) > gsl_cdf_tdist_Pinv(0.975, k - 2))
		v->why = "the rate drifts (a trend across the batches)";
	else if (fabs(v->step_t) > gsl_cdf_tdist_Pinv(0.975, welch_dof))
		v->why = "the rate drifts (the two halves differ)";
	else if (v->lag1 > -1.0 / k + 1.645 / sqrt(k))
		v->why = "the batches are correlated";
	else
		v->settled = true;
	if (v->settled && s->gauge_name) {
		double rest = (double)(s->total_units - s->units) / (double)s->batch_units;
		v->state_drift = state_drift(s->gauge + n - STEADY_BATCHES * b, k, b, rest);
		if (v->state_drift > s->state_tol) {
			v->settled = false;
			s->state_refusals++;
			v->why = "the state drifts (its trend would move the state gauge by more "
				 "than sample_state over the rest)";
		}
	}
	if (v->settled)
		v->why = NULL;
}

double steady_outcome(const struct steady *s, uint64_t done, double cycles, double hz,
		      struct steady_outcome *out)
{
	memset(out, 0, sizeof(*out));
	out->mode = s->mode;
	out->planned = s->total_units > 0;
	out->unit = s->unit ? s->unit : "units";
	out->units = s->total_units;
	out->units_done = done;
	out->simulated_fraction = s->total_units ? (double)done / (double)s->total_units : 1;
	out->measured_seconds = cycles / hz;
	out->seconds = out->measured_seconds;
	const struct steady_verdict *v = s->stop.settled ? &s->stop : &s->verdict;
	out->settled = v->settled;
	out->warmup_units = (uint64_t)v->warmup_obs * s->batch_units;
	out->batches = v->batches;
	out->batch_obs = v->batch_obs;
	out->why = v->why;
	out->gauge_name = s->gauge_name;
	out->state_drift = v->state_drift;
	out->state_tol = s->state_tol;
	out->held_why = v->settled ? s->held.why : NULL;
	out->held_state_drift = s->held.state_drift;
	out->state_refusals = s->state_refusals;
	if (s->mode == STEADY_OBSERVE) {
		out->series = s->obs;
		out->nseries = s->nobs;
		out->series_units = s->batch_units;
		out->gauge = s->gauge_name ? s->gauge : NULL;
		out->warmup_obs = v->warmup_obs;
		out->stop_obs = v->settled ? (int)(v->units / s->batch_units) : 0;
	}
	if (!v->settled || !s->total_units)
		return out->seconds;
	if (s->mode == STEADY_OBSERVE) {
		double rest = (double)(s->total_units - v->units);
		out->would_fraction = (double)v->units / (double)s->total_units;
		out->would_seconds = ((double)v->time + rest * v->per_unit) / hz;
		out->would_ci_seconds = rest * v->half_width / hz;
		return out->seconds;
	}
	if (done < s->total_units) {
		double rest = (double)(s->total_units - done);
		out->extrapolated = true;
		out->seconds = (cycles + rest * v->per_unit) / hz;
		out->ci_seconds = rest * v->half_width / hz;
	}
	return out->seconds;
}
