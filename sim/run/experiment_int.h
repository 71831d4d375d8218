/* experiment_int.h - what the experiment parser's files share: the parse
 * context, allocations freed with the experiment, and the checked readers
 * that name a mistake by its key path. */
#ifndef SIM_EXPERIMENT_INT_H
#define SIM_EXPERIMENT_INT_H

#include "experiment.h"
#include "engine/json_in.h"

struct ctx {
	struct experiment *e;
	struct sim_err *err;
};

void *exp_own(struct experiment *e, void *p);
char *exp_dup(struct experiment *e, const char *s);
char *exp_fmt(struct experiment *e, const char *f, ...) __attribute__((format(printf, 2, 3)));
void *exp_grow(struct experiment *e, int n, size_t size);
/* "FILE: WHERE: WHAT"; returns -1. */
int exp_bad(struct ctx *c, const char *where, const char *what);
/* Refuse keys of OBJ not in the space-separated VALID list. */
int exp_check_keys(struct ctx *c, const cJSON *obj, const char *where, const char *valid);
const cJSON *exp_get(const cJSON *obj, const char *key);
int exp_get_string(struct ctx *c, const cJSON *obj, const char *key, const char *where,
		   bool required, char **out);
/* A parameter's value as the command line would spell it. */
int exp_value_text(struct ctx *c, const cJSON *v, const char *where, char **out);
/* {"NAME": VALUE, ...} -> assignments. */
int exp_parse_set(struct ctx *c, const cJSON *obj, const char *where, struct exp_assign **out,
		  int *n);
int exp_unique_labels(struct ctx *c, const struct exp_dim *d, const char *where);
/* One entry of "axes" (experiment_axes.c). */
int exp_parse_axis(struct ctx *c, const cJSON *ax, const char *where);

#endif
