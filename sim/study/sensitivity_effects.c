/* sensitivity_effects.c - what a sensitivity study's variants say: each
 * figure's one-at-a-time effect on each check with its paired 95% CI, the
 * figures ranked by it, and the Morris measures of the screening. */
#include "sensitivity.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

#include "engine/oom.h"

/* The effect between LOW and HIGH on a check whose base value is BASE:
 * its CI from the replicates' paired differences where both ends list them
 * (the variants share the case's seeds, so much of the seeds' noise
 * cancels), else from the two ends' own CIs. */
static struct sens_effect effect_of(const struct sens_value *base, const struct sens_value *low,
				    const struct sens_value *high)
{
	struct sens_effect e;
	double b = base->mean;
	e.low = (low->mean - b) / b;
	e.high = (high->mean - b) / b;
	e.effect = e.high - e.low;
	e.half = sqrt(low->half * low->half + high->half * high->half) / fabs(b);
	double d[SENS_MAX_VALUES], sum = 0, ss = 0;
	int n = low->n == high->n ? low->n : 0;
	for (int r = 0; r < n; r++) {	/* the same seeds at both ends: replicate by replicate */
		d[r] = (high->v[r] - low->v[r]) / b;
		if (!isfinite(d[r]))
			n = 0;
		sum += d[r];
	}
	for (int r = 0; n >= 2 && r < n; r++)
		ss += (d[r] - sum / n) * (d[r] - sum / n);
	if (n >= 2)
		e.half = gsl_cdf_tdist_Pinv(0.975, n - 1) * sqrt(ss / (n - 1) / n);
	return e;
}

struct sens_effect sens_effect_at(const struct sens_study *s, int fig, int ch)
{
	size_t nc = (size_t)s->vc.nchecks, low = 1 + 2 * (size_t)fig;
	return effect_of(&s->vals[ch], &s->vals[low * nc + ch], &s->vals[(low + 1) * nc + ch]);
}

struct ranked {
	int fig;
	double size;
};

/* qsort order: the largest effect first. */
static int by_size(const void *a, const void *b)
{
	double x = ((const struct ranked *)a)->size, y = ((const struct ranked *)b)->size;
	return (x < y) - (x > y);
}

void sens_rank(const struct sens_study *s, int ch, int *order)
{
	struct ranked *r = malloc((size_t)(s->nf + 1) * sizeof(*r));
	if (!r)
		host_oom(__func__);
	for (int i = 0; i < s->nf; i++) {
		struct sens_effect e = sens_effect_at(s, i, ch);
		r[i].fig = i;
		r[i].size = isfinite(e.effect) ? fabs(e.effect) : -1;
	}
	qsort(r, (size_t)s->nf, sizeof(*r), by_size);
	for (int i = 0; i < s->nf; i++)
		order[i] = r[i].fig;
	free(r);
}

/* A zeroed array of N doubles. */
static double *zeroed(size_t n)
{
	double *a = calloc(n, sizeof(*a));
	if (!a)
		host_oom(__func__);
	return a;
}

void sens_morris_measures(struct sens_study *s)
{
	const struct sens_plan *p = &s->plan;
	int k = s->nf, r = p->morris, nc = s->vc.nchecks, npts = r * (k + 1), first = 1 + 2 * k;
	if (!r)
		return;
	s->mu_star = zeroed((size_t)k * nc);
	s->mu = zeroed((size_t)k * nc);
	s->sigma = zeroed((size_t)k * nc);
	double *y = zeroed((size_t)npts), *ms = zeroed((size_t)k), *m = zeroed((size_t)k);
	double *sd = zeroed((size_t)k);
	for (int ch = 0; ch < nc; ch++) {
		for (int pt = 0; pt < npts; pt++)
			y[pt] = s->vals[(size_t)(first + pt) * nc + ch].mean / s->vals[ch].mean;
		sens_morris_effects(k, r, p->x, p->moved, y, ms, m, sd);
		for (int i = 0; i < k; i++) {
			s->mu_star[i * nc + ch] = ms[i];
			s->mu[i * nc + ch] = m[i];
			s->sigma[i * nc + ch] = sd[i];
		}
	}
	free(y);
	free(ms);
	free(m);
	free(sd);
}
