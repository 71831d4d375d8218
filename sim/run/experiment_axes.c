/* experiment_axes.c - the "axes" of an experiment file: a list of values
 * (labelled or not), a range with a step or doubling, several parameters
 * tied to one axis, or named variants that set parameters of their own. */
#include "experiment_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define EXP_MAX_VALUES 100000	/* values of one range axis */

/* An axis value: a number, a string, or {"label", "value"}. */
static int axis_value(struct ctx *c, struct exp_choice *ch, char **params, int nparams,
		      const cJSON *v, const char *where)
{
	const cJSON *val = v;
	if (cJSON_IsObject(v)) {
		if (exp_check_keys(c, v, where, "label value") < 0 ||
		    exp_get_string(c, v, "label", where, true, &ch->label) < 0)
			return -1;
		val = exp_get(v, "value");
		if (!val)
			return exp_bad(c, exp_fmt(c->e, "%s.value", where), "missing");
		where = exp_fmt(c->e, "%s.value", where);
	}
	char *text;
	if (exp_value_text(c, val, where, &text) < 0)
		return -1;
	if (!ch->label)
		ch->label = text;
	ch->numeric = cJSON_IsNumber(val);
	ch->x = ch->numeric ? val->valuedouble : 0;
	ch->set = exp_grow(c->e, nparams, sizeof(*ch->set));
	ch->nset = nparams;
	for (int i = 0; i < nparams; i++)
		ch->set[i] = (struct exp_assign){ params[i], text, exp_dup(c->e, where) };
	return 0;
}

/* The required number ax.KEY into *out. */
static int number_of(struct ctx *c, const cJSON *ax, const char *key, const char *where,
		     double *out)
{
	const cJSON *v = exp_get(ax, key);
	if (!v)
		return exp_bad(c, exp_fmt(c->e, "%s.%s", where, key), "missing (a number is required)");
	if (!cJSON_IsNumber(v))
		return exp_bad(c, exp_fmt(c->e, "%s.%s", where, key), "expected a number");
	*out = v->valuedouble;
	return 0;
}

/* {"from", "to", "step"} or {"from", "to", "double": true} -> values. */
static int axis_range(struct ctx *c, struct exp_dim *d, char **params, int nparams,
		      const cJSON *ax, const char *where)
{
	double from, to, step = 0;
	bool dbl = cJSON_IsTrue(exp_get(ax, "double"));
	const cJSON *dv = exp_get(ax, "double");
	if (dv && !cJSON_IsBool(dv))
		return exp_bad(c, exp_fmt(c->e, "%s.double", where), "expected true or false");
	if (number_of(c, ax, "from", where, &from) < 0 || number_of(c, ax, "to", where, &to) < 0)
		return -1;
	if (dbl == (exp_get(ax, "step") != NULL))
		return exp_bad(c, where, "a range needs either \"step\" or \"double\": true");
	if (!dbl && number_of(c, ax, "step", where, &step) < 0)
		return -1;
	if (to < from)
		return exp_bad(c, exp_fmt(c->e, "%s.to", where), "smaller than \"from\": an empty axis");
	if (!dbl && !(step > 0))
		return exp_bad(c, exp_fmt(c->e, "%s.step", where), "must be positive");
	if (dbl && !(from > 0))
		return exp_bad(c, exp_fmt(c->e, "%s.from", where), "must be positive to double");
	int n = 0;
	for (double x = from; x <= to * (1 + 1e-12) && n <= EXP_MAX_VALUES; n++)
		x = dbl ? x * 2 : from + step * (n + 1);
	if (n > EXP_MAX_VALUES)
		return exp_bad(c, where, "more than 100000 values");
	d->v = exp_grow(c->e, n, sizeof(*d->v));
	for (int i = 0; i < n; i++) {
		double x = dbl ? from * pow(2, i) : from + step * i;
		cJSON *num = cJSON_CreateNumber(x);
		int rc = axis_value(c, &d->v[d->n++], params, nparams, num, where);
		cJSON_Delete(num);
		if (rc < 0)
			return -1;
	}
	return 0;
}

int exp_parse_axis(struct ctx *c, const cJSON *ax, const char *where)
{
	struct experiment *e = c->e;
	if (exp_check_keys(c, ax, where, "name label param values from to step double variants") < 0)
		return -1;
	if (e->ndims == EXP_MAX_DIMS)
		return exp_bad(c, where, "too many axes (at most 7)");
	struct exp_dim *d = &e->dim[e->ndims++];
	d->kind = DIM_AXIS;
	if (exp_get_string(c, ax, "name", where, false, &d->name) < 0 ||
	    exp_get_string(c, ax, "label", where, false, &d->label) < 0)
		return -1;
	const cJSON *variants = exp_get(ax, "variants"), *param = exp_get(ax, "param");
	char *vw = exp_fmt(e, "%s.variants", where);
	if (variants) {
		if (!d->name)
			return exp_bad(c, exp_fmt(e, "%s.name", where), "missing (an axis of variants is named)");
		if (param || exp_get(ax, "values") || exp_get(ax, "from"))
			return exp_bad(c, where, "\"variants\" set their own parameters; no \"param\"");
		if (!cJSON_IsArray(variants))
			return exp_bad(c, vw, "expected a list");
		if (!cJSON_GetArraySize(variants))
			return exp_bad(c, vw, "empty axis");
		d->v = exp_grow(e, cJSON_GetArraySize(variants), sizeof(*d->v));
		for (const cJSON *x = variants->child; x; x = x->next) {
			struct exp_choice *ch = &d->v[d->n];
			char *w = exp_fmt(e, "%s[%d]", vw, d->n++);
			if (exp_check_keys(c, x, w, "label set") < 0 ||
			    exp_get_string(c, x, "label", w, true, &ch->label) < 0)
				return -1;
			if (!exp_get(x, "set"))
				return exp_bad(c, exp_fmt(e, "%s.set", w), "missing");
			if (exp_parse_set(c, exp_get(x, "set"), exp_fmt(e, "%s.set", w), &ch->set, &ch->nset) < 0)
				return -1;
		}
		return exp_unique_labels(c, d, vw);
	}
	char *params[8];
	int nparams = 0;
	char *pw = exp_fmt(e, "%s.param", where);
	if (!param)
		return exp_bad(c, pw, "missing (a parameter name, or a list of names)");
	if (cJSON_IsString(param) && *param->valuestring) {
		params[nparams++] = exp_dup(e, param->valuestring);
	} else if (cJSON_IsArray(param) && cJSON_GetArraySize(param) > 0 &&
		   cJSON_GetArraySize(param) <= 8) {
		for (const cJSON *p = param->child; p; p = p->next) {
			if (!cJSON_IsString(p) || !*p->valuestring)
				return exp_bad(c, pw, "expected parameter names (strings)");
			params[nparams++] = exp_dup(e, p->valuestring);
		}
	} else {
		return exp_bad(c, pw, "expected a parameter name or a list of 1 to 8 names");
	}
	if (!d->name)
		d->name = params[0];
	const cJSON *values = exp_get(ax, "values");
	if (values) {
		char *w = exp_fmt(e, "%s.values", where);
		if (exp_get(ax, "from") || exp_get(ax, "step") || exp_get(ax, "double"))
			return exp_bad(c, where, "either \"values\" or a range (\"from\", \"to\"), not both");
		if (!cJSON_IsArray(values))
			return exp_bad(c, w, "expected a list");
		if (!cJSON_GetArraySize(values))
			return exp_bad(c, w, "empty axis");
		d->v = exp_grow(e, cJSON_GetArraySize(values), sizeof(*d->v));
		for (const cJSON *x = values->child; x; x = x->next) {
			char *xw = exp_fmt(e, "%s[%d]", w, d->n);
			if (axis_value(c, &d->v[d->n++], params, nparams, x, xw) < 0)
				return -1;
		}
	} else if (exp_get(ax, "from") || exp_get(ax, "to")) {
		if (axis_range(c, d, params, nparams, ax, where) < 0)
			return -1;
	} else {
		return exp_bad(c, where, "an axis needs \"values\", a range (\"from\", \"to\", \"step\" "
			   "or \"double\"), or \"variants\"");
	}
	return exp_unique_labels(c, d, exp_fmt(e, "%s.values", where));
}
