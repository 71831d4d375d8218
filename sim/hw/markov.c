/* markov.c - the ticket-lock chain solved with GSL (a reference for tests). */
#include "markov.h"

#include <gsl/gsl_linalg.h>

double markov_ticket_throughput(int n, double a, double s, double c)
{
	size_t m = (size_t)n + 1;
	gsl_matrix *A = gsl_matrix_calloc(m, m);
	gsl_vector *b = gsl_vector_calloc(m);
	gsl_vector *pi = gsl_vector_alloc(m);
	gsl_permutation *perm = gsl_permutation_alloc(m);
	/* row j of Q^T: the probability flow into state j */
	for (int k = 0; k <= n; k++) {
		double up = k < n ? (n - k) / a : 0;
		double down = k > 0 ? 1.0 / (s + c * k / 2.0) : 0;
		gsl_matrix_set(A, (size_t)k, (size_t)k, -(up + down));
		if (k < n)
			gsl_matrix_set(A, (size_t)k + 1, (size_t)k, up);
		if (k > 0)
			gsl_matrix_set(A, (size_t)k - 1, (size_t)k, down);
	}
	for (int k = 0; k <= n; k++)	/* the last equation becomes sum = 1 */
		gsl_matrix_set(A, (size_t)n, (size_t)k, 1.0);
	gsl_vector_set(b, (size_t)n, 1.0);
	int sign;
	gsl_linalg_LU_decomp(A, perm, &sign);
	gsl_linalg_LU_solve(A, perm, b, pi);
	double x = 0;
	for (int k = 0; k < n; k++)
		x += gsl_vector_get(pi, (size_t)k) * (n - k) / a;
	gsl_matrix_free(A);
	gsl_vector_free(b);
	gsl_vector_free(pi);
	gsl_permutation_free(perm);
	return x;
}
