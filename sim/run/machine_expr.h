/* machine_expr.h - integer expressions over a machine's shape, for
 * experiment values such as slub_min_objects = 2 x CPUs per node. */
#ifndef SIM_MACHINE_EXPR_H
#define SIM_MACHINE_EXPR_H

#include "hw/machine.h"

#define MACHINE_EXPR_VARS "cpus nodes cpus_per_node sockets cores threads_per_core dies"

/* Evaluate TEXT ("2*cpus_per_node"); -1 with a message on a bad one. */
int machine_expr_eval(const char *text, const struct machine *m, long long *out,
		      struct sim_err *err);

#endif
