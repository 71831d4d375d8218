/* validate_judge.c - judging one check of a validation case on its runs: the
 * simulated value (a mean over the replicates, or a ratio of two means), its
 * 95% confidence interval (Student's t; the delta method for a ratio), each
 * replicate's value, the verdict against the band, and what the run waited
 * on most. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "engine/oom.h"
#include "report/summary.h"
#include "study/validate_study.h"

/* The most waited-on lock and the top profile symbol of a point's first run. */
static void describe(const cJSON *run, struct val_row *r)
{
	const cJSON *locks = cJSON_GetObjectItemCaseSensitive(run, "locks"), *best = NULL;
	double most = 0;
	for (const cJSON *l = locks ? locks->child : NULL; l; l = l->next) {
		const cJSON *w = cJSON_GetObjectItemCaseSensitive(l, "wait_cycles");
		if (cJSON_IsNumber(w) && w->valuedouble > most) {
			most = w->valuedouble;
			best = l;
		}
	}
	const char *name = best ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(best, "name"))
		: NULL;
	snprintf(r->lock, sizeof(r->lock), "%s", name ? name : "-");
	const cJSON *top = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(run, "profile"), 0);
	const char *sym = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(top, "symbol"));
	const cJSON *pct = cJSON_GetObjectItemCaseSensitive(top, "percent");
	if (sym && cJSON_IsNumber(pct))
		snprintf(r->sym, sizeof(r->sym), "%s %.0f%%", sym, pct->valuedouble);
	else
		snprintf(r->sym, sizeof(r->sym), "-");
}

/* The replicates where x (and y, if given) are numbers: their values packed into px (and
 * py); how many. */
static int pack(const double *x, const double *y, int n, double *px, double *py)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		if (!isnan(x[i]) && (!y || !isnan(y[i]))) {
			px[k] = x[i];
			if (y)
				py[k] = y[i];
			k++;
		}
	return k;
}

/* The mean of the numbers among x[0..n) (NAN if none), as the checks have always summed
 * them. */
static double finite_mean(const double *x, int n)
{
	int k = 0;
	double sum = 0;
	for (int i = 0; i < n; i++)
		if (!isnan(x[i])) {
			sum += x[i];
			k++;
		}
	return k ? sum / k : NAN;
}

/* Half the 95% confidence interval of a / b, the means of x and y over their replicates
 * (summary_stats: Student's t), by the delta method, with their covariance where one run
 * gave both (`paired`); NAN with fewer than two replicates on either side. */
static double ratio_ci95(const double *x, const double *y, int n, bool paired, double a,
			 double b, double *scratch)
{
	double *px = scratch, *py = scratch + n;
	struct stat_summary sx, sy;
	summary_stats(px, pack(x, NULL, n, px, NULL), &sx);
	summary_stats(py, pack(y, NULL, n, py, NULL), &sy);
	if (sx.n < 2 || sy.n < 2)
		return NAN;
	double cov = 0;
	int k = paired ? pack(x, y, n, px, py) : 0;
	if (k >= 2)
		cov = gsl_stats_covariance(px, 1, py, 1, (size_t)k) / k;
	double r = a / b, var = r * r * (sx.sd * sx.sd / sx.n / (a * a) +
					 sy.sd * sy.sd / sy.n / (b * b) - 2 * cov / (a * b));
	int dof = (sx.n < sy.n ? sx.n : sy.n) - 1;
	return gsl_cdf_tdist_Pinv(0.975, dof) * sqrt(var > 0 ? var : 0);
}

/* Each replicate's value of a check into r->values: the number at its point, or for a
 * ratio of means the jackknife pseudo-value n a/b - (n-1) a_r/b_r (a_r, b_r: the means
 * without replicate r), whose mean estimates a/b and whose spread gives its CI; two
 * variants of a case that share its seeds are compared replicate by replicate. */
static void replicate_values(const double *xa, const double *xb, int reps, bool ratio,
			     struct val_row *r)
{
	r->nvalues = reps <= VAL_MAX_VALUES ? reps : 0;
	double sa = 0, sb = 0;
	int n = 0;
	for (int i = 0; i < r->nvalues; i++)
		if (!isnan(xa[i]) && (!ratio || !isnan(xb[i]))) {
			sa += xa[i];
			sb += ratio ? xb[i] : 0;
			n++;
		}
	for (int i = 0; i < r->nvalues; i++) {
		bool have = !isnan(xa[i]) && (!ratio || !isnan(xb[i]));
		r->values[i] = !have ? NAN : !ratio ? xa[i]
			: n < 2 || sb == xb[i] ? NAN
			: n * (sa / sb) - (n - 1) * ((sa - xa[i]) / (sb - xb[i]));
	}
}

/* Half the 95% confidence interval of r->sim from the replicates' values XA (over XB for a
 * ratio, whose means are A and B); NAN without one. */
static double half_ci95(const struct val_check *ch, const double *xa, const double *xb,
			int reps, double a, double b, double *scratch)
{
	if (ch->over_point >= 0)
		return ratio_ci95(xa, xb, reps, ch->over_point == ch->at_point, a, b, scratch);
	struct stat_summary st;
	summary_stats(scratch, pack(xa, NULL, reps, scratch, NULL), &st);
	return st.n >= 2 ? st.ci95 : NAN;
}

void val_judge(const struct val_case *vc, const struct val_check *ch, cJSON *const *runs,
	       struct val_row *r)
{
	*r = (struct val_row){ .vc = vc, .ch = ch };
	int reps = vc->e.replicates;
	double *xa = xcalloc((size_t)reps * 4, sizeof(*xa)), *xb = xa + reps, *scratch = xb + reps;
	const char *over = ch->over_path ? ch->over_path : ch->path;
	bool ratio = ch->over_point >= 0;
	int na = val_point_values(vc, ch, ch->at_point, ch->path, runs, xa);
	int nb = ratio ? val_point_values(vc, ch, ch->over_point, over, runs, xb) : 0;
	double a = finite_mean(xa, reps), b = ratio ? finite_mean(xb, reps) : 1;
	r->have = na > 0 && (!ratio || (nb > 0 && b != 0));
	r->n = ratio && nb < na ? nb : na;
	r->sim = r->have ? a / b : NAN;
	r->ratio = r->sim / ch->published;
	r->pass = r->have && r->ratio >= ch->low && r->ratio <= ch->high;
	double half = r->have ? half_ci95(ch, xa, xb, reps, a, b, scratch) : NAN;
	if (!isnan(half)) {
		r->lo = r->sim - half;
		r->hi = r->sim + half;
		r->have_ci = true;
	}
	if (r->have)
		replicate_values(xa, xb, reps, ratio, r);
	free(xa);
	describe(runs[ch->at_point * vc->e.replicates], r);
}
