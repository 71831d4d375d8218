/* error.c - formatting of input errors. */
#include "error.h"

#include <stdio.h>

int sim_fail(struct sim_err *err, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -1;
}
