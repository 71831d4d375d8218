/* params.c - parsing and checking NAME=VALUE parameters. */
#include "params.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void param_describe(const struct param_def *d, char *buf, int size)
{
	switch (d->type) {
	case PT_INT:
		snprintf(buf, (size_t)size, "an integer in [%.0f, %.0f]", d->min, d->max);
		break;
	case PT_DOUBLE:
		snprintf(buf, (size_t)size, "a number in [%g, %g]", d->min, d->max);
		break;
	case PT_BOOL:
		snprintf(buf, (size_t)size, "0 or 1 (or Y or N)");
		break;
	case PT_ENUM:
		snprintf(buf, (size_t)size, "one of: %s", d->choices);
		break;
	case PT_STR:
		snprintf(buf, (size_t)size, "text of up to %d characters%s%s", PARAM_TEXT - 1,
			 d->choices ? ", like " : "", d->choices ? d->choices : "");
		break;
	}
}

/* Position of `v` in "a|b|c", or -1. */
static int enum_index(const char *choices, const char *v)
{
	int idx = 0;
	size_t len = strlen(v);
	for (const char *p = choices; *p; idx++) {
		const char *bar = strchr(p, '|');
		size_t n = bar ? (size_t)(bar - p) : strlen(p);
		if (n == len && strncmp(p, v, n) == 0)
			return idx;
		if (!bar)
			break;
		p = bar + 1;
	}
	return -1;
}

/* Check text v against d's type and range: *num gets its value (an enum's index), canon its
 * canonical text; a bad value's message names d and `owner`. */
static int parse_value(const struct param_def *d, const char *v, char *canon, double *num,
		       const char *owner, struct sim_err *err)
{
	char want[160];
	param_describe(d, want, sizeof(want));
	char *end = NULL;
	errno = 0;
	switch (d->type) {
	case PT_INT: {
		long long x = strtoll(v, &end, 10);
		if (!*v || *end || errno)
			return sim_fail(err, "%s=%s: not an integer (%s of %s expects %s)",
					d->name, v, d->name, owner, want);
		if ((double)x < d->min || (double)x > d->max)
			return sim_fail(err, "%s=%s: out of range (%s of %s expects %s)",
					d->name, v, d->name, owner, want);
		*num = (double)x;
		snprintf(canon, PARAM_TEXT, "%lld", x);
		return 0;
	}
	case PT_DOUBLE: {
		double x = strtod(v, &end);
		if (!*v || *end || errno || !isfinite(x))
			return sim_fail(err, "%s=%s: not a number (%s of %s expects %s)",
					d->name, v, d->name, owner, want);
		if (x < d->min || x > d->max)
			return sim_fail(err, "%s=%s: out of range (%s of %s expects %s)",
					d->name, v, d->name, owner, want);
		*num = x;
		snprintf(canon, PARAM_TEXT, "%.17g", x);
		return 0;
	}
	case PT_BOOL:
		/* and Y/N, as the kernel's kstrtobool() takes a debugfs bool */
		if (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "on") || !strcmp(v, "yes") ||
		    !strcasecmp(v, "y"))
			*num = 1;
		else if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "off") ||
			 !strcmp(v, "no") || !strcasecmp(v, "n"))
			*num = 0;
		else
			return sim_fail(err, "%s=%s: not a boolean (%s of %s expects %s)",
					d->name, v, d->name, owner, want);
		snprintf(canon, PARAM_TEXT, "%d", (int)*num);
		return 0;
	case PT_ENUM: {
		int i = enum_index(d->choices, v);
		if (i < 0)
			return sim_fail(err, "%s=%s: not a valid choice (%s of %s expects %s)",
					d->name, v, d->name, owner, want);
		*num = i;
		snprintf(canon, PARAM_TEXT, "%s", v);
		return 0;
	}
	case PT_STR:
		if (strlen(v) > PARAM_TEXT - 1 || strchr(v, ' '))
			return sim_fail(err, "%s=%s: too long or has spaces (%s of %s expects %s)",
					d->name, v, d->name, owner, want);
		*num = 0;
		snprintf(canon, PARAM_TEXT, "%s", v);
		return 0;
	}
	return sim_fail(err, "%s: unknown parameter type", d->name);
}

int params_check_defs(const struct param_def *defs, const char *owner, struct sim_err *err)
{
	if (!defs)
		return sim_fail(err, "%s: no parameter table (an empty one is { { NULL } })", owner);
	int n = 0;
	for (; defs[n].name; n++) {
		const struct param_def *d = &defs[n];
		if (n == PARAM_MAX)
			return sim_fail(err, "%s: more than %d parameters", owner, PARAM_MAX);
		size_t len = strlen(d->name);
		if (len == 0 || len > PARAM_NAME_MAX || strspn(d->name, "abcdefghijklmnopqrstuvwxyz"
				"0123456789_") != len)
			return sim_fail(err, "%s: parameter %d is named '%s' (1 to %d characters "
					"of a-z, 0-9 and _)", owner, n, d->name, PARAM_NAME_MAX);
		for (int j = 0; j < n; j++)
			if (!strcmp(defs[j].name, d->name))
				return sim_fail(err, "%s: parameter '%s' is declared twice", owner,
						d->name);
		if (d->type < PT_INT || d->type > PT_STR)
			return sim_fail(err, "%s: parameter '%s' has an unknown type %d", owner,
					d->name, (int)d->type);
		if ((d->type == PT_INT || d->type == PT_DOUBLE) && !(d->min <= d->max))
			return sim_fail(err, "%s: parameter '%s' has min %g above max %g", owner,
					d->name, d->min, d->max);
		if (d->type == PT_ENUM && (!d->choices || !*d->choices))
			return sim_fail(err, "%s: enum parameter '%s' lists no choices", owner,
					d->name);
		if (!d->def || !d->doc)
			return sim_fail(err, "%s: parameter '%s' needs a default and a doc line",
					owner, d->name);
		char canon[PARAM_TEXT];
		double num;
		struct sim_err e;
		if (parse_value(d, d->def, canon, &num, owner, &e) < 0)
			return sim_fail(err, "%s: the default of '%s' is invalid: %s", owner, d->name,
					e.msg);
	}
	return 0;
}

void params_init(struct param_set *ps, const char *owner, const struct param_def *defs)
{
	int n = 0;
	while (defs && defs[n].name)
		n++;
	memset(ps, 0, sizeof(*ps));
	ps->owner = owner;
	ps->defs = defs;
	ps->n = n > PARAM_MAX ? PARAM_MAX : n;
	for (int i = 0; i < ps->n; i++) {
		struct sim_err e;
		if (parse_value(&defs[i], defs[i].def, ps->value[i], &ps->num[i], owner, &e) < 0) {
			fprintf(stderr, "slabsim: internal error: default of %s: %s\n",
				defs[i].name, e.msg);
			abort();
		}
	}
}

int params_find(const struct param_set *ps, const char *name)
{
	for (int i = 0; i < ps->n; i++)
		if (strcmp(ps->defs[i].name, name) == 0)
			return i;
	return -1;
}

int params_set(struct param_set *ps, const char *name, const char *value, bool user,
	       struct sim_err *err)
{
	int i = params_find(ps, name);
	if (i < 0)
		return sim_fail(err, "%s has no parameter '%s'", ps->owner, name);
	char canon[PARAM_TEXT];
	double num;
	if (parse_value(&ps->defs[i], value, canon, &num, ps->owner, err) < 0)
		return -1;
	memcpy(ps->value[i], canon, sizeof(canon));
	ps->num[i] = num;
	if (user)
		ps->user[i] = true;
	return 0;
}

int params_preset(struct param_set *ps, const char *name, const char *value,
		  struct sim_err *err)
{
	int i = params_find(ps, name);
	if (i < 0)
		return sim_fail(err, "preset names unknown parameter '%s' of %s", name, ps->owner);
	if (ps->user[i])
		return 0;
	return params_set(ps, name, value, false, err);
}

/* params_find() for a name the code asks for itself: a missing one is an internal error. */
static int must_find(const struct param_set *ps, const char *name)
{
	int i = params_find(ps, name);
	if (i < 0) {
		fprintf(stderr, "slabsim: internal error: %s has no parameter '%s'\n",
			ps->owner, name);
		abort();
	}
	return i;
}

long long param_int(const struct param_set *ps, const char *name)
{
	return (long long)ps->num[must_find(ps, name)];
}

double param_double(const struct param_set *ps, const char *name)
{
	return ps->num[must_find(ps, name)];
}

bool param_bool(const struct param_set *ps, const char *name)
{
	return ps->num[must_find(ps, name)] != 0;
}

const char *param_str(const struct param_set *ps, const char *name)
{
	return ps->value[must_find(ps, name)];
}
