/* params.h - NAME=VALUE parameters: the tables that policies, workloads and
 * the kernel declare, and the values a run uses.
 *
 * Each table lists its parameters with type, default, range or choices and a
 * one-line doc. A `kernel=VERSION` preset may change defaults; what the user
 * sets on the command line always wins. Bad names and values are refused with
 * the valid choices. */
#ifndef SIM_PARAMS_H
#define SIM_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

enum param_type { PT_INT, PT_DOUBLE, PT_BOOL, PT_ENUM, PT_STR };

struct param_def {
	const char *name;
	enum param_type type;
	const char *def;	/* default value, as text */
	double min, max;	/* PT_INT / PT_DOUBLE range */
	const char *choices;	/* PT_ENUM: "a|b|c" */
	const char *doc;
};

#define PARAM_MAX 64
#define PARAM_NAME_MAX 48	/* longest parameter name */
#define PARAM_TEXT 256	/* a value's canonical text, with its NUL */

struct param_set {
	const char *owner;			/* "policy slub", "workload hackbench" */
	const struct param_def *defs;
	int n;
	char value[PARAM_MAX][PARAM_TEXT];	/* canonical text of each value */
	double num[PARAM_MAX];			/* numeric value (enum: index) */
	bool user[PARAM_MAX];			/* set on the command line */
};

/* A table from elsewhere (a policy module): every name unique and short, a
 * known type, a sane range, a default that parses. -1 with what is wrong. */
int params_check_defs(const struct param_def *defs, const char *owner, struct sim_err *err);

/* Fill with the defaults of `defs` (a table ending with { NULL }). */
void params_init(struct param_set *ps, const char *owner, const struct param_def *defs);

/* Index of `name`, or -1. */
int params_find(const struct param_set *ps, const char *name);

/* Set `name` to `value` (checked). `user` marks a command-line value, which
 * presets will not override. Returns -1 with a message on a bad value. */
int params_set(struct param_set *ps, const char *name, const char *value, bool user,
	       struct sim_err *err);

/* Apply a preset default unless the user set the parameter. */
int params_preset(struct param_set *ps, const char *name, const char *value,
		  struct sim_err *err);

long long param_int(const struct param_set *ps, const char *name);
double param_double(const struct param_set *ps, const char *name);
bool param_bool(const struct param_set *ps, const char *name);
const char *param_str(const struct param_set *ps, const char *name);

/* Describe a definition's accepted values ("an integer in [1, 1024]"). */
void param_describe(const struct param_def *d, char *buf, int size);

#endif
