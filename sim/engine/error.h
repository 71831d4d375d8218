/* error.h - one clear message for bad input, carried back to the command line
 * (which prints it and exits with status 2). */
#ifndef SIM_ERROR_H
#define SIM_ERROR_H

#include <stdarg.h>

struct sim_err {
	char msg[1024];
};

/* Set the message (printf-style); always returns -1 for `return sim_fail(...)`. */
int sim_fail(struct sim_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
