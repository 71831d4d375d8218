/* tune_rank.c - the tuner's statistics of its values: each one's mean and
 * 95% confidence interval, the cut of a round, the best, the knee and the
 * front of time against memory. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

#include "study/tune.h"

/* The mean of x[0..n), and in *ci its 95% CI half-width (Student's t; infinite for one). */
static double mean_ci(const double *x, int n, double *ci)
{
	double m = 0, ss = 0;
	for (int i = 0; i < n; i++)
		m += x[i];
	m /= n;
	for (int i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*ci = n > 1 ? gsl_cdf_tdist_Pinv(0.975, n - 1) * sqrt(ss / (n - 1)) / sqrt(n) : INFINITY;
	return m;
}

/* A point's mean and CI: of its times, or of its peak slab memory with
 * `memory`; mem_mean always, as the table shows it for every objective. */
void tune_point_stats(struct tune_point *p, bool memory)
{
	double ci;
	p->mem_mean = mean_ci(p->mem, p->reps, &ci);
	p->mean = memory ? p->mem_mean : mean_ci(p->t, p->reps, &p->ci);
	if (memory)
		p->ci = ci;
}

/* Points (by pointer) by mean, lowest first: the order of a round's cut. */
static int by_mean(const void *a, const void *b)
{
	const struct tune_point *x = *(struct tune_point *const *)a;
	const struct tune_point *y = *(struct tune_point *const *)b;
	return x->mean < y->mean ? -1 : x->mean > y->mean;
}

/* Keep the better half of the alive points, and from 4 replicates on those
 * within the best's 95% CI (with 2, Student's t makes every CI too wide to
 * tell anything apart). */
int tune_halve(struct tune_point *p, int n, bool memory)
{
	struct tune_point *alive[TUNE_MAX_GRID];
	int nalive = 0;
	for (int i = 0; i < n; i++)
		if (p[i].alive) {
			tune_point_stats(&p[i], memory);
			alive[nalive++] = &p[i];
		}
	qsort(alive, (size_t)nalive, sizeof(alive[0]), by_mean);
	int keep = (nalive + 1) / 2, left = 0;
	for (int i = 0; i < nalive; i++) {
		bool near = alive[0]->reps >= 4 && alive[i]->mean <= alive[0]->mean + alive[0]->ci;
		alive[i]->alive = i < keep || near;
		left += alive[i]->alive;
	}
	return left;
}

/* The point run (and alive, with alive_only) with the lowest mean: the answer. */
const struct tune_point *tune_best(const struct tune_point *p, int n, bool alive_only)
{
	const struct tune_point *best = NULL;
	for (int i = 0; i < n; i++)
		if ((!alive_only || p[i].alive) && p[i].reps && (!best || p[i].mean < best->mean))
			best = &p[i];
	return best;
}

/* The smallest value within the best's 95% CI: as good, within the noise, for less. */
const struct tune_point *tune_knee(const struct tune_point *p, int n,
				   const struct tune_point *best)
{
	for (int i = 0; i < n && best; i++)
		if (p[i].reps && p[i].mean <= best->mean + best->ci)
			return &p[i];
	return best;
}

/* Whether no other point run is at least as fast and as small and better in
 * one: the values worth choosing when both time and memory count. */
bool tune_on_front(const struct tune_point *p, int n, const struct tune_point *x)
{
	for (int i = 0; i < n; i++) {
		const struct tune_point *q = &p[i];
		if (q == x || !q->reps)
			continue;
		if (q->mean <= x->mean && q->mem_mean <= x->mem_mean &&
		    (q->mean < x->mean || q->mem_mean < x->mem_mean))
			return false;
	}
	return true;
}
