/* experiment_read.c - the experiment parser's checked readers: every value
 * read with its key path, so a mistake is named where it is; allocations
 * kept with the experiment and freed by experiment_free(). */
#include "experiment_int.h"
#include "engine/oom.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Keep an allocation to free with the experiment. */
void *exp_own(struct experiment *e, void *p)
{
	if (!p)
		host_oom(__func__);
	if (e->nowned == e->capowned) {
		e->capowned = e->capowned ? 2 * e->capowned : 64;
		e->owned = realloc(e->owned, (size_t)e->capowned * sizeof(*e->owned));
		if (!e->owned)
			host_oom(__func__);
	}
	return e->owned[e->nowned++] = p;
}

/* A copy kept with the experiment. */
char *exp_dup(struct experiment *e, const char *s)
{
	return exp_own(e, strdup(s));
}

/* A formatted string kept with the experiment (key paths, messages). */
char *exp_fmt(struct experiment *e, const char *f, ...)
{
	char *s;
	va_list ap;
	va_start(ap, f);
	if (vasprintf(&s, f, ap) < 0)
		host_oom(__func__);
	va_end(ap);
	return exp_own(e, s);
}

/* A zeroed array of N (at least one) kept with the experiment. */
void *exp_grow(struct experiment *e, int n, size_t size)
{
	return exp_own(e, calloc((size_t)(n ? n : 1), size));
}

/* "FILE: WHERE: WHAT", the one message a mistake gets; returns -1. */
int exp_bad(struct ctx *c, const char *where, const char *what)
{
	return sim_fail(c->err, "%s: %s: %s", c->e->path, where, what);
}

/* Refuse keys of OBJ not in the space-separated VALID list. */
int exp_check_keys(struct ctx *c, const cJSON *obj, const char *where, const char *valid)
{
	if (!cJSON_IsObject(obj))
		return exp_bad(c, where, "expected an object");
	for (const cJSON *k = obj->child; k; k = k->next) {
		if (!json_key_listed(valid, k->string))
			return sim_fail(c->err, "%s: %s%s%s: unknown key (valid keys: %s)", c->e->path,
					where, *where ? "." : "", k->string, valid);
	}
	return 0;
}

/* OBJ's member KEY, case-sensitive as JSON is. */
const cJSON *exp_get(const cJSON *obj, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

/* KEY of OBJ as a non-empty string (0 and nothing set if absent and not
 * required). */
int exp_get_string(struct ctx *c, const cJSON *obj, const char *key, const char *where,
		      bool required, char **out)
{
	const cJSON *v = exp_get(obj, key);
	char *path = exp_fmt(c->e, "%s%s%s", where, *where ? "." : "", key);
	if (!v)
		return required ? exp_bad(c, path, "missing (a string is required)") : 0;
	if (!cJSON_IsString(v))
		return exp_bad(c, path, "expected a string");
	if (!*v->valuestring)
		return exp_bad(c, path, "empty string");
	*out = exp_dup(c->e, v->valuestring);
	return 0;
}

/* A parameter's value as the command line would spell it. */
int exp_value_text(struct ctx *c, const cJSON *v, const char *where, char **out)
{
	if (cJSON_IsString(v) && *v->valuestring)
		*out = exp_dup(c->e, v->valuestring);
	else if (cJSON_IsBool(v))
		*out = exp_dup(c->e, cJSON_IsTrue(v) ? "1" : "0");
	else if (cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) &&
		 fabs(v->valuedouble) < 1e15)
		*out = exp_fmt(c->e, "%.0f", v->valuedouble);
	else if (cJSON_IsNumber(v))
		*out = exp_fmt(c->e, "%.17g", v->valuedouble);
	else
		return exp_bad(c, where, "expected a number, a string or a boolean");
	return 0;
}

/* {"NAME": VALUE, ...} -> assignments. */
int exp_parse_set(struct ctx *c, const cJSON *obj, const char *where, struct exp_assign **out,
		     int *n)
{
	if (!cJSON_IsObject(obj))
		return exp_bad(c, where, "expected an object of NAME: VALUE");
	int cnt = cJSON_GetArraySize(obj);
	*out = exp_grow(c->e, cnt, sizeof(**out));
	*n = 0;
	for (const cJSON *k = obj->child; k; k = k->next) {
		struct exp_assign *a = &(*out)[(*n)++];
		a->name = exp_dup(c->e, k->string);
		a->where = exp_fmt(c->e, "%s.%s", where, k->string);
		if (exp_value_text(c, k, a->where, &a->value) < 0)
			return -1;
	}
	return 0;
}

/* Labels name points in keys, tables and plots: no two alike. */
int exp_unique_labels(struct ctx *c, const struct exp_dim *d, const char *where)
{
	for (int i = 0; i < d->n; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(d->v[i].label, d->v[j].label))
				return exp_bad(c, exp_fmt(c->e, "%s[%d]", where, i),
					   exp_fmt(c->e, "label '%s' repeats %s[%d] (give each a "
					       "different \"label\")", d->v[i].label, where, j));
	return 0;
}
