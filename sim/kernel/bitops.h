/* bitops.h - fls() and ilog2() as include/linux/bitops.h and log2.h define
 * them, for the policies' geometry formulas. */
#ifndef SIM_BITOPS_H
#define SIM_BITOPS_H

/* The position of the most significant set bit, 1-based; fls(0) = 0. */
static inline int fls(unsigned long x)
{
	int r = 0;
	while (x) {
		r++;
		x >>= 1;
	}
	return r;
}

/* floor(log2(x)) for x > 0. */
static inline int ilog2(unsigned long x)
{
	return fls(x) - 1;
}

#endif
