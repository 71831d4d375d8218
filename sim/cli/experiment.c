/* experiment.c - reading an experiment file: every key checked against the
 * schema (configs/README.md), every mistake named by its key path. */
#include "experiment.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXP_MAX_POINTS 100000

struct ctx {
	struct experiment *e;
	struct sim_err *err;
};

/* Keep an allocation to free with the experiment. */
static void *own(struct experiment *e, void *p)
{
	if (!p)
		abort();
	if (e->nowned == e->capowned) {
		e->capowned = e->capowned ? 2 * e->capowned : 64;
		e->owned = realloc(e->owned, (size_t)e->capowned * sizeof(*e->owned));
		if (!e->owned)
			abort();
	}
	return e->owned[e->nowned++] = p;
}

static char *dup(struct experiment *e, const char *s)
{
	return own(e, strdup(s));
}

static char *fmt(struct experiment *e, const char *f, ...) __attribute__((format(printf, 2, 3)));
static char *fmt(struct experiment *e, const char *f, ...)
{
	char *s;
	va_list ap;
	va_start(ap, f);
	if (vasprintf(&s, f, ap) < 0)
		abort();
	va_end(ap);
	return own(e, s);
}

static void *grow(struct experiment *e, int n, size_t size)
{
	return own(e, calloc((size_t)(n ? n : 1), size));
}

static int bad(struct ctx *c, const char *where, const char *what)
{
	return sim_fail(c->err, "%s: %s: %s", c->e->path, where, what);
}

/* Refuse keys of OBJ not in the space-separated VALID list. */
static int check_keys(struct ctx *c, const cJSON *obj, const char *where, const char *valid)
{
	if (!cJSON_IsObject(obj))
		return bad(c, where, "expected an object");
	for (const cJSON *k = obj->child; k; k = k->next) {
		const char *p = strstr(valid, k->string);
		size_t len = strlen(k->string);
		while (p && !((p == valid || p[-1] == ' ') && (p[len] == ' ' || !p[len])))
			p = strstr(p + 1, k->string);
		if (!p)
			return sim_fail(c->err, "%s: %s%s%s: unknown key (valid keys: %s)", c->e->path,
					where, *where ? "." : "", k->string, valid);
	}
	return 0;
}

static const cJSON *get(const cJSON *obj, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

static int get_string(struct ctx *c, const cJSON *obj, const char *key, const char *where,
		      bool required, char **out)
{
	const cJSON *v = get(obj, key);
	char *path = fmt(c->e, "%s%s%s", where, *where ? "." : "", key);
	if (!v)
		return required ? bad(c, path, "missing (a string is required)") : 0;
	if (!cJSON_IsString(v))
		return bad(c, path, "expected a string");
	if (!*v->valuestring)
		return bad(c, path, "empty string");
	*out = dup(c->e, v->valuestring);
	return 0;
}

/* A parameter's value as the command line would spell it. */
static int value_text(struct ctx *c, const cJSON *v, const char *where, char **out)
{
	if (cJSON_IsString(v) && *v->valuestring)
		*out = dup(c->e, v->valuestring);
	else if (cJSON_IsBool(v))
		*out = dup(c->e, cJSON_IsTrue(v) ? "1" : "0");
	else if (cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) &&
		 fabs(v->valuedouble) < 1e15)
		*out = fmt(c->e, "%.0f", v->valuedouble);
	else if (cJSON_IsNumber(v))
		*out = fmt(c->e, "%.17g", v->valuedouble);
	else
		return bad(c, where, "expected a number, a string or a boolean");
	return 0;
}

/* {"NAME": VALUE, ...} -> assignments. */
static int parse_set(struct ctx *c, const cJSON *obj, const char *where, struct exp_assign **out,
		     int *n)
{
	if (!cJSON_IsObject(obj))
		return bad(c, where, "expected an object of NAME: VALUE");
	int cnt = cJSON_GetArraySize(obj);
	*out = grow(c->e, cnt, sizeof(**out));
	*n = 0;
	for (const cJSON *k = obj->child; k; k = k->next) {
		struct exp_assign *a = &(*out)[(*n)++];
		a->name = dup(c->e, k->string);
		a->where = fmt(c->e, "%s.%s", where, k->string);
		if (value_text(c, k, a->where, &a->value) < 0)
			return -1;
	}
	return 0;
}

static int unique_labels(struct ctx *c, const struct exp_dim *d, const char *where)
{
	for (int i = 0; i < d->n; i++)
		for (int j = 0; j < i; j++)
			if (!strcmp(d->v[i].label, d->v[j].label))
				return bad(c, fmt(c->e, "%s[%d]", where, i),
					   fmt(c->e, "label '%s' repeats %s[%d] (give each a "
					       "different \"label\")", d->v[i].label, where, j));
	return 0;
}

/* "machines", "policies" or "workloads": a non-empty list of names or objects. */
static int parse_list(struct ctx *c, const cJSON *root, const char *key, enum exp_dim_kind kind)
{
	static const char *const valid[] = { "name label", "name label set",
					     "cmd label machines" };
	static const char *const dim_name[] = { "machine", "policy", "workload" };
	const cJSON *a = get(root, key);
	if (!a)
		return bad(c, key, "missing (a list is required)");
	if (!cJSON_IsArray(a))
		return bad(c, key, "expected a list");
	int n = cJSON_GetArraySize(a);
	if (!n)
		return bad(c, key, "empty list");
	struct exp_dim *d = &c->e->dim[c->e->ndims++];
	d->kind = kind;
	d->name = dup(c->e, dim_name[kind]);
	d->v = grow(c->e, n, sizeof(*d->v));
	const char *namekey = kind == DIM_WORKLOAD ? "cmd" : "name";
	for (const cJSON *x = a->child; x; x = x->next) {
		struct exp_choice *ch = &d->v[d->n];
		char *where = fmt(c->e, "%s[%d]", key, d->n++);
		if (cJSON_IsString(x)) {
			if (!*x->valuestring)
				return bad(c, where, "empty string");
			ch->name = dup(c->e, x->valuestring);
		} else {
			if (check_keys(c, x, where, valid[kind]) < 0 ||
			    get_string(c, x, namekey, where, true, &ch->name) < 0 ||
			    get_string(c, x, "label", where, false, &ch->label) < 0)
				return -1;
			const cJSON *set = get(x, "set");
			if (set && parse_set(c, set, fmt(c->e, "%s.set", where), &ch->set,
					     &ch->nset) < 0)
				return -1;
			const cJSON *ms = get(x, "machines");
			if (ms) {
				char *mw = fmt(c->e, "%s.machines", where);
				if (!cJSON_IsArray(ms) || !cJSON_GetArraySize(ms))
					return bad(c, mw, "expected a non-empty list of machine names");
				ch->machines = grow(c->e, cJSON_GetArraySize(ms), sizeof(char *));
				for (const cJSON *m = ms->child; m; m = m->next) {
					if (!cJSON_IsString(m))
						return bad(c, mw, "expected machine names (strings)");
					ch->machines[ch->nmachines++] = dup(c->e, m->valuestring);
				}
			}
		}
		if (!ch->label)
			ch->label = ch->name;
	}
	return unique_labels(c, d, key);
}

/* The name becomes a folder (results/NAME): letters, digits, . _ - only. */
static int check_name(struct ctx *c, const char *name)
{
	if (name[0] == '.' || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				     "0123456789._-") != strlen(name))
		return bad(c, "name", "use letters, digits, '.', '_' and '-' (it names the "
			   "results folder), not starting with '.'");
	return 0;
}

/* An axis value: a number, a string, or {"label", "value"}. */
static int axis_value(struct ctx *c, struct exp_choice *ch, char **params, int nparams,
		      const cJSON *v, const char *where)
{
	const cJSON *val = v;
	if (cJSON_IsObject(v)) {
		if (check_keys(c, v, where, "label value") < 0 ||
		    get_string(c, v, "label", where, true, &ch->label) < 0)
			return -1;
		val = get(v, "value");
		if (!val)
			return bad(c, fmt(c->e, "%s.value", where), "missing");
		where = fmt(c->e, "%s.value", where);
	}
	char *text;
	if (value_text(c, val, where, &text) < 0)
		return -1;
	if (!ch->label)
		ch->label = text;
	ch->numeric = cJSON_IsNumber(val);
	ch->x = ch->numeric ? val->valuedouble : 0;
	ch->set = grow(c->e, nparams, sizeof(*ch->set));
	ch->nset = nparams;
	for (int i = 0; i < nparams; i++)
		ch->set[i] = (struct exp_assign){ params[i], text, dup(c->e, where) };
	return 0;
}

static int number_of(struct ctx *c, const cJSON *ax, const char *key, const char *where,
		     double *out)
{
	const cJSON *v = get(ax, key);
	if (!v)
		return bad(c, fmt(c->e, "%s.%s", where, key), "missing (a number is required)");
	if (!cJSON_IsNumber(v))
		return bad(c, fmt(c->e, "%s.%s", where, key), "expected a number");
	*out = v->valuedouble;
	return 0;
}

/* {"from", "to", "step"} or {"from", "to", "double": true} -> values. */
static int axis_range(struct ctx *c, struct exp_dim *d, char **params, int nparams,
		      const cJSON *ax, const char *where)
{
	double from, to, step = 0;
	bool dbl = cJSON_IsTrue(get(ax, "double"));
	const cJSON *dv = get(ax, "double");
	if (dv && !cJSON_IsBool(dv))
		return bad(c, fmt(c->e, "%s.double", where), "expected true or false");
	if (number_of(c, ax, "from", where, &from) < 0 || number_of(c, ax, "to", where, &to) < 0)
		return -1;
	if (dbl == (get(ax, "step") != NULL))
		return bad(c, where, "a range needs either \"step\" or \"double\": true");
	if (!dbl && number_of(c, ax, "step", where, &step) < 0)
		return -1;
	if (to < from)
		return bad(c, fmt(c->e, "%s.to", where), "smaller than \"from\": an empty axis");
	if (!dbl && !(step > 0))
		return bad(c, fmt(c->e, "%s.step", where), "must be positive");
	if (dbl && !(from > 0))
		return bad(c, fmt(c->e, "%s.from", where), "must be positive to double");
	int n = 0;
	for (double x = from; x <= to * (1 + 1e-12) && n <= EXP_MAX_POINTS; n++)
		x = dbl ? x * 2 : from + step * (n + 1);
	if (n > EXP_MAX_POINTS)
		return bad(c, where, "more than 100000 values");
	d->v = grow(c->e, n, sizeof(*d->v));
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

static int parse_axis(struct ctx *c, const cJSON *ax, const char *where)
{
	struct experiment *e = c->e;
	if (check_keys(c, ax, where, "name label param values from to step double variants") < 0)
		return -1;
	if (e->ndims == EXP_MAX_DIMS)
		return bad(c, where, "too many axes (at most 7)");
	struct exp_dim *d = &e->dim[e->ndims++];
	d->kind = DIM_AXIS;
	if (get_string(c, ax, "name", where, false, &d->name) < 0 ||
	    get_string(c, ax, "label", where, false, &d->label) < 0)
		return -1;
	const cJSON *variants = get(ax, "variants"), *param = get(ax, "param");
	char *vw = fmt(e, "%s.variants", where);
	if (variants) {
		if (!d->name)
			return bad(c, fmt(e, "%s.name", where), "missing (an axis of variants is named)");
		if (param || get(ax, "values") || get(ax, "from"))
			return bad(c, where, "\"variants\" set their own parameters; no \"param\"");
		if (!cJSON_IsArray(variants))
			return bad(c, vw, "expected a list");
		if (!cJSON_GetArraySize(variants))
			return bad(c, vw, "empty axis");
		d->v = grow(e, cJSON_GetArraySize(variants), sizeof(*d->v));
		for (const cJSON *x = variants->child; x; x = x->next) {
			struct exp_choice *ch = &d->v[d->n];
			char *w = fmt(e, "%s[%d]", vw, d->n++);
			if (check_keys(c, x, w, "label set") < 0 ||
			    get_string(c, x, "label", w, true, &ch->label) < 0)
				return -1;
			if (!get(x, "set"))
				return bad(c, fmt(e, "%s.set", w), "missing");
			if (parse_set(c, get(x, "set"), fmt(e, "%s.set", w), &ch->set, &ch->nset) < 0)
				return -1;
		}
		return unique_labels(c, d, vw);
	}
	char *params[8];
	int nparams = 0;
	char *pw = fmt(e, "%s.param", where);
	if (!param)
		return bad(c, pw, "missing (a parameter name, or a list of names)");
	if (cJSON_IsString(param) && *param->valuestring) {
		params[nparams++] = dup(e, param->valuestring);
	} else if (cJSON_IsArray(param) && cJSON_GetArraySize(param) > 0 &&
		   cJSON_GetArraySize(param) <= 8) {
		for (const cJSON *p = param->child; p; p = p->next) {
			if (!cJSON_IsString(p) || !*p->valuestring)
				return bad(c, pw, "expected parameter names (strings)");
			params[nparams++] = dup(e, p->valuestring);
		}
	} else {
		return bad(c, pw, "expected a parameter name or a list of 1 to 8 names");
	}
	if (!d->name)
		d->name = params[0];
	const cJSON *values = get(ax, "values");
	if (values) {
		char *w = fmt(e, "%s.values", where);
		if (get(ax, "from") || get(ax, "step") || get(ax, "double"))
			return bad(c, where, "either \"values\" or a range (\"from\", \"to\"), not both");
		if (!cJSON_IsArray(values))
			return bad(c, w, "expected a list");
		if (!cJSON_GetArraySize(values))
			return bad(c, w, "empty axis");
		d->v = grow(e, cJSON_GetArraySize(values), sizeof(*d->v));
		for (const cJSON *x = values->child; x; x = x->next) {
			char *xw = fmt(e, "%s[%d]", w, d->n);
			if (axis_value(c, &d->v[d->n++], params, nparams, x, xw) < 0)
				return -1;
		}
	} else if (get(ax, "from") || get(ax, "to")) {
		if (axis_range(c, d, params, nparams, ax, where) < 0)
			return -1;
	} else {
		return bad(c, where, "an axis needs \"values\", a range (\"from\", \"to\", \"step\" "
			   "or \"double\"), or \"variants\"");
	}
	return unique_labels(c, d, fmt(e, "%s.values", where));
}

/* The metrics every summary has; an experiment's own come first. */
static const struct exp_metric default_metrics[] = {
	{ "time", "result.sim_seconds", "time (simulated s)", 1 },
	{ "spin", "cpu.spin", "CPU time spinning on locks (%)", 100 },
	{ "slab", "cpu.slab", "CPU time in the slab allocator (%)", 100 },
	{ "slab_mb_peak", "memory.slab_bytes_peak", "slab memory, peak (MB)", 1.0 / 1048576 },
	{ "slab_mb_end", "memory.slab_bytes_end", "slab memory at the end (MB)", 1.0 / 1048576 },
	{ "throughput", "result.messages_per_second", "hackbench throughput (million messages/s)",
	  1e-6 },
};

static int parse_metrics(struct ctx *c, const cJSON *root)
{
	struct experiment *e = c->e;
	const cJSON *ms = get(root, "metrics");
	if (ms && (!cJSON_IsArray(ms) || !cJSON_GetArraySize(ms)))
		return bad(c, "metrics", "expected a non-empty list");
	int i = 0;
	for (const cJSON *m = ms ? ms->child : NULL; m; m = m->next, i++) {
		char *w = fmt(e, "metrics[%d]", i);
		if (e->nmetrics >= EXP_MAX_METRICS - 6)
			return bad(c, w, "too many metrics (at most 10)");
		struct exp_metric *x = &e->metric[e->nmetrics++];
		x->scale = 1;
		if (check_keys(c, m, w, "name path label scale") < 0 ||
		    get_string(c, m, "name", w, true, &x->name) < 0 ||
		    get_string(c, m, "path", w, true, &x->path) < 0 ||
		    get_string(c, m, "label", w, false, &x->label) < 0)
			return -1;
		if (!x->label)
			x->label = x->name;
		const cJSON *s = get(m, "scale");
		if (s && (!cJSON_IsNumber(s) || s->valuedouble == 0))
			return bad(c, fmt(e, "%s.scale", w), "expected a non-zero number");
		if (s)
			x->scale = s->valuedouble;
		for (int j = 0; j < e->nmetrics - 1; j++)
			if (!strcmp(e->metric[j].name, x->name))
				return bad(c, w, "a metric of that name is already listed");
	}
	for (size_t d = 0; d < sizeof(default_metrics) / sizeof(default_metrics[0]); d++) {
		bool have = false;
		for (int j = 0; j < e->nmetrics; j++)
			have |= !strcmp(e->metric[j].name, default_metrics[d].name);
		if (!have)
			e->metric[e->nmetrics++] = default_metrics[d];
	}
	return 0;
}

static int parse_int(struct ctx *c, const cJSON *root, const char *key, double min, double max,
		     double *out)
{
	const cJSON *v = get(root, key);
	if (!v)
		return 0;
	if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
	    v->valuedouble < min || v->valuedouble > max)
		return bad(c, key, fmt(c->e, "expected an integer in [%.0f, %.0f]", min, max));
	*out = v->valuedouble;
	return 0;
}

int experiment_parse(struct experiment *e, const char *path, const char *text,
		     struct sim_err *err)
{
	memset(e, 0, sizeof(*e));
	struct ctx c = { e, err };
	e->path = dup(e, path);
	e->text = dup(e, text);
	cJSON *root = cJSON_Parse(text);
	if (!root) {
		const char *at = cJSON_GetErrorPtr();
		int line = 1;
		for (const char *p = text; at && p < at; p++)
			line += *p == '\n';
		return sim_fail(err, "%s: line %d: not valid JSON", path, line);
	}
	int rc = -1;
	double reps = 1, seed = 1;
	if (check_keys(&c, root, "", "name question machines policies workloads fixed axes "
		       "replicates seed metrics plot") < 0 ||
	    get_string(&c, root, "name", "", true, &e->name) < 0 || check_name(&c, e->name) < 0 ||
	    get_string(&c, root, "question", "", false, &e->question) < 0 ||
	    parse_list(&c, root, "machines", DIM_MACHINE) < 0 ||
	    parse_list(&c, root, "policies", DIM_POLICY) < 0 ||
	    parse_list(&c, root, "workloads", DIM_WORKLOAD) < 0 ||
	    parse_int(&c, root, "replicates", 1, 10000, &reps) < 0 ||
	    parse_int(&c, root, "seed", 0, 9007199254740991.0, &seed) < 0 ||
	    parse_metrics(&c, root) < 0)
		goto out;
	e->replicates = (int)reps;
	e->seed = (uint64_t)seed;
	const cJSON *fixed = get(root, "fixed");
	if (fixed && parse_set(&c, fixed, "fixed", &e->fixed, &e->nfixed) < 0)
		goto out;
	const cJSON *axes = get(root, "axes");
	if (axes && !cJSON_IsArray(axes)) {
		bad(&c, "axes", "expected a list of axes");
		goto out;
	}
	int i = 0;
	for (const cJSON *ax = axes ? axes->child : NULL; ax; ax = ax->next, i++)
		if (parse_axis(&c, ax, fmt(e, "axes[%d]", i)) < 0)
			goto out;
	for (int a = 0; a < e->ndims; a++)
		for (int b = 0; b < a; b++)
			if (!strcmp(e->dim[a].name, e->dim[b].name)) {
				bad(&c, "axes", fmt(e, "two dimensions are named '%s' (give an axis "
						    "a \"name\")", e->dim[a].name));
				goto out;
			}
	const cJSON *plot = get(root, "plot");
	if (plot) {
		if (check_keys(&c, plot, "plot", "x logx logy") < 0 ||
		    get_string(&c, plot, "x", "plot", false, &e->plot_x) < 0)
			goto out;
		const cJSON *lx = get(plot, "logx"), *ly = get(plot, "logy");
		if ((lx && !cJSON_IsBool(lx)) || (ly && !cJSON_IsBool(ly))) {
			bad(&c, lx && !cJSON_IsBool(lx) ? "plot.logx" : "plot.logy",
			    "expected true or false");
			goto out;
		}
		e->plot_logx = cJSON_IsTrue(lx);
		e->plot_logy = cJSON_IsTrue(ly);
		bool found = !e->plot_x;
		for (int a = 0; a < e->ndims && !found; a++)
			found = !strcmp(e->dim[a].name, e->plot_x);
		if (!found) {
			bad(&c, "plot.x", fmt(e, "no dimension named '%s'", e->plot_x));
			goto out;
		}
	}
	rc = 0;
out:
	cJSON_Delete(root);
	return rc;
}

int experiment_load(struct experiment *e, const char *path, struct sim_err *err)
{
	memset(e, 0, sizeof(*e));
	FILE *f = fopen(path, "r");
	if (!f)
		return sim_fail(err, "cannot read experiment %s: %s", path, strerror(errno));
	char *text = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			cap = cap ? 2 * cap : 65536;
			char *t = realloc(text, cap);
			if (!t)
				abort();
			text = t;
		}
		size_t got = fread(text + len, 1, 4096, f);
		len += got;
		if (got < 4096)
			break;
	}
	fclose(f);
	text[len] = 0;
	int rc = experiment_parse(e, path, text, err);
	free(text);
	return rc;
}

int experiment_override(struct experiment *e, const char *assign, struct sim_err *err)
{
	const char *eq = strchr(assign, '=');
	if (!eq || eq == assign)
		return sim_fail(err, "'%s' is not NAME=VALUE", assign);
	struct exp_assign *n = grow(e, e->noverrides + 1, sizeof(*n));
	if (e->noverrides)
		memcpy(n, e->overrides, (size_t)e->noverrides * sizeof(*n));
	n[e->noverrides++] = (struct exp_assign){ fmt(e, "%.*s", (int)(eq - assign), assign),
						   dup(e, eq + 1), fmt(e, "command line '%s'", assign) };
	e->overrides = n;
	return 0;
}

void experiment_free(struct experiment *e)
{
	for (int i = 0; i < e->npoints; i++)
		free(e->points[i].key);
	free(e->points);
	for (int i = 0; i < e->nowned; i++)
		free(e->owned[i]);
	free(e->owned);
	memset(e, 0, sizeof(*e));
}
