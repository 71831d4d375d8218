/* mix_spec.c - reading a cache-mix description: every key checked, every
 * mistake one message naming the file and the key path, and the lifetime
 * distributions drawn with GSL. */
#include "mix_spec.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "engine/json_in.h"

#define MIX_MAX_US 1e9		/* longest time parameter: 1000 s */
#define MIX_MAX_SIGMA 10.0

const char *const mix_dist_names[MIX_NDIST] = { "fixed", "exponential", "lognormal", "pareto" };

/* The keys each distribution takes, and its parameters' names. */
static const char *const dist_keys[MIX_NDIST] = {
	"dist us", "dist mean_us", "dist median_us sigma", "dist shape min_us",
};
static const char *const dist_a[MIX_NDIST] = { "us", "mean_us", "median_us", "shape" };
static const char *const dist_b[MIX_NDIST] = { NULL, NULL, "sigma", "min_us" };

#define DIST_CHOICES "fixed|exponential|lognormal|pareto"
#define CACHE_KEYS "name size kmalloc rate lifetime remote_cpu remote_node"
#define TOP_KEYS "description tasks caches"

struct rd {
	const char *file;
	struct sim_err *err;
};

static int bad(const struct rd *c, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "FILE: WHERE: WHAT", the one message a mistake gets (no WHERE when it is empty); returns -1. */
static int bad(const struct rd *c, const char *where, const char *fmt, ...)
{
	char what[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (*where)
		return sim_fail(c->err, "%s: %s: %s", c->file, where, what);
	return sim_fail(c->err, "%s: %s", c->file, what);
}

/* WHERE.KEY (or KEY at the top) into buf. */
static const char *join(char *buf, size_t size, const char *where, const char *key)
{
	if (snprintf(buf, size, "%s%s%s", where, *where ? "." : "", key) < 0)
		buf[0] = 0;
	return buf;
}

/* Refuse members of obj that are not in `valid`, or that repeat. */
static int check_keys(const struct rd *c, const cJSON *obj, const char *where, const char *valid)
{
	char path[256];
	if (!cJSON_IsObject(obj))
		return bad(c, where, "expected an object");
	for (const cJSON *k = obj->child; k; k = k->next) {
		if (!json_key_listed(valid, k->string))
			return bad(c, join(path, sizeof(path), where, k->string),
				   "unknown key (valid keys: %s)", valid);
		for (const cJSON *j = obj->child; j != k; j = j->next)
			if (!strcmp(j->string, k->string))
				return bad(c, join(path, sizeof(path), where, k->string),
					   "repeated key");
	}
	return 0;
}

/* A number member; `need` says what a missing one means (NULL: optional). */
static int get_number(const struct rd *c, const cJSON *obj, const char *where, const char *key,
		      const char *need, bool integer, double *out)
{
	char path[256];
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	join(path, sizeof(path), where, key);
	if (!v)
		return need ? bad(c, path, "missing (%s)", need) : 0;
	if (!cJSON_IsNumber(v))
		return bad(c, path, "expected %s", integer ? "an integer" : "a number");
	if (integer && v->valuedouble != floor(v->valuedouble))
		return bad(c, path, "expected an integer, not %g", v->valuedouble);
	*out = v->valuedouble;
	return 0;
}

/* A string member copied into buf (at most size - 1 characters). */
static int get_string(const struct rd *c, const cJSON *obj, const char *where, const char *key,
		      const char *need, char *buf, size_t size)
{
	char path[256];
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	join(path, sizeof(path), where, key);
	if (!v)
		return need ? bad(c, path, "missing (%s)", need) : 0;
	if (!cJSON_IsString(v))
		return bad(c, path, "expected a string");
	if (strlen(v->valuestring) > size - 1)
		return bad(c, path, "longer than %zu characters", size - 1);
	snprintf(buf, size, "%s", v->valuestring);
	return 0;
}

/* "lifetime": {"dist": NAME, its parameters}. */
static int read_lifetime(const struct rd *c, const cJSON *o, const char *where,
			 struct mix_lifetime *l)
{
	char path[256], dist[32] = "";
	if (!cJSON_IsObject(o))
		return bad(c, where, "expected an object {\"dist\": \"%s\", ...}", DIST_CHOICES);
	if (get_string(c, o, where, "dist", "one of " DIST_CHOICES " is required", dist,
		       sizeof(dist)) < 0)
		return -1;
	int d = 0;
	while (d < MIX_NDIST && strcmp(dist, mix_dist_names[d]))
		d++;
	if (d == MIX_NDIST)
		return bad(c, join(path, sizeof(path), where, "dist"),
			   "unknown distribution '%s' (%s)", dist, DIST_CHOICES);
	l->dist = (enum mix_dist)d;
	if (check_keys(c, o, where, dist_keys[d]) < 0)
		return -1;
	char need[96];
	snprintf(need, sizeof(need), "%s needs %s%s%s", dist, dist_a[d], dist_b[d] ? " and " : "",
		 dist_b[d] ? dist_b[d] : "");
	if (get_number(c, o, where, dist_a[d], need, false, &l->a) < 0)
		return -1;
	if (dist_b[d] && get_number(c, o, where, dist_b[d], need, false, &l->b) < 0)
		return -1;
	return 0;
}

/* One element of "caches" (types only; values are checked by check_cache). */
static int read_cache(const struct rd *c, const cJSON *o, const char *where,
		      struct mix_cache_spec *cs)
{
	char path[256];
	double size = 0;
	if (check_keys(c, o, where, CACHE_KEYS) < 0 ||
	    get_string(c, o, where, "name", "a string is required", cs->name, sizeof(cs->name)) < 0 ||
	    get_number(c, o, where, "size", "the object size in bytes is required", true,
		       &size) < 0 ||
	    get_number(c, o, where, "rate", "allocations per second is required", false,
		       &cs->rate) < 0 ||
	    get_number(c, o, where, "remote_cpu", NULL, false, &cs->remote_cpu) < 0 ||
	    get_number(c, o, where, "remote_node", NULL, false, &cs->remote_node) < 0)
		return -1;
	const cJSON *km = cJSON_GetObjectItemCaseSensitive(o, "kmalloc");
	if (km && !cJSON_IsBool(km))
		return bad(c, join(path, sizeof(path), where, "kmalloc"), "expected true or false");
	cs->kmalloc = cJSON_IsTrue(km);
	if (size < 1 || size > MIX_MAX_SIZE)
		return bad(c, join(path, sizeof(path), where, "size"),
			   "must be 1 to %u bytes (4 MiB), not %.0f", MIX_MAX_SIZE, size);
	cs->size = (unsigned int)size;
	const cJSON *lt = cJSON_GetObjectItemCaseSensitive(o, "lifetime");
	join(path, sizeof(path), where, "lifetime");
	if (!lt)
		return bad(c, path, "missing (an object {\"dist\": \"%s\", ...} is required)",
			   DIST_CHOICES);
	return read_lifetime(c, lt, path, &cs->life);
}

/* A time parameter of a lifetime: finite, in (0, MIX_MAX_US] (or from 0). */
static int check_time(const struct rd *c, const char *where, const char *key, double v,
		      bool zero_ok)
{
	char path[256];
	if (!(zero_ok ? v >= 0 : v > 0) || v > MIX_MAX_US)
		return bad(c, join(path, sizeof(path), where, key), "must be %s and at most %g "
			   "microseconds, not %g", zero_ok ? ">= 0" : "> 0", MIX_MAX_US, v);
	return 0;
}

/* The parameters of a lifetime, in range for its distribution. */
static int check_lifetime(const struct rd *c, const char *where, const struct mix_lifetime *l)
{
	char path[256];
	switch (l->dist) {
	case MIX_FIXED:
		return check_time(c, where, "us", l->a, true);
	case MIX_EXPONENTIAL:
		return check_time(c, where, "mean_us", l->a, false);
	case MIX_LOGNORMAL:
		if (check_time(c, where, "median_us", l->a, false) < 0)
			return -1;
		if (!(l->b >= 0 && l->b <= MIX_MAX_SIGMA))
			return bad(c, join(path, sizeof(path), where, "sigma"),
				   "must be in [0, %g], not %g", MIX_MAX_SIGMA, l->b);
		return 0;
	case MIX_PARETO:
		if (!(l->a > 0 && l->a <= 1000))
			return bad(c, join(path, sizeof(path), where, "shape"),
				   "must be in (0, 1000], not %g", l->a);
		return check_time(c, where, "min_us", l->b, false);
	default:
		return bad(c, where, "unknown distribution %d", (int)l->dist);
	}
}

/* Whether a name is one the kernel would give a cache (and sysfs show). */
static bool name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') &&
		    !(*s >= '0' && *s <= '9') && *s != '_' && *s != '-')
			return false;
	return true;
}

/* The values of cache i: name, size, rate, shares, lifetime. */
static int check_cache(const struct rd *c, const struct mix_spec *s, int i)
{
	const struct mix_cache_spec *cs = &s->cache[i];
	char where[32], path[256];
	snprintf(where, sizeof(where), "caches[%d]", i);
	if (!name_ok(cs->name))
		return bad(c, join(path, sizeof(path), where, "name"), "'%s': use letters, digits, "
			   "'_' and '-' (1 to %d characters)", cs->name, MIX_NAME - 1);
	for (int j = 0; j < i; j++)
		if (!strcmp(s->cache[j].name, cs->name))
			return bad(c, join(path, sizeof(path), where, "name"),
				   "'%s' repeats caches[%d].name", cs->name, j);
	if (cs->size < 1 || cs->size > MIX_MAX_SIZE)
		return bad(c, join(path, sizeof(path), where, "size"),
			   "must be 1 to %u bytes (4 MiB), not %u", MIX_MAX_SIZE, cs->size);
	if (!(cs->rate > 0) || !isfinite(cs->rate) || cs->rate > 1e12)
		return bad(c, join(path, sizeof(path), where, "rate"),
			   "must be > 0 allocations per second (and at most 1e12), not %g", cs->rate);
	if (!(cs->remote_cpu >= 0 && cs->remote_cpu <= 1))
		return bad(c, join(path, sizeof(path), where, "remote_cpu"),
			   "must be a share in [0, 1], not %g", cs->remote_cpu);
	if (!(cs->remote_node >= 0 && cs->remote_node <= 1))
		return bad(c, join(path, sizeof(path), where, "remote_node"),
			   "must be a share in [0, 1], not %g", cs->remote_node);
	if (cs->remote_cpu + cs->remote_node > 1 + 1e-9)
		return bad(c, where, "remote_cpu + remote_node = %g: the shares freed elsewhere "
			   "cannot pass 1", cs->remote_cpu + cs->remote_node);
	return check_lifetime(c, join(path, sizeof(path), where, "lifetime"), &cs->life);
}

/* The values of a whole description (types were checked on reading). */
static int check_spec(const struct rd *c, const struct mix_spec *s)
{
	if (s->tasks < 0 || s->tasks > MIX_MAX_TASKS)
		return bad(c, "tasks", "must be 1 to %d (or left out: one per CPU), not %d",
			   MIX_MAX_TASKS, s->tasks);
	if (s->ncaches < 1)
		return bad(c, "caches", "empty (describe at least one cache)");
	for (int i = 0; i < s->ncaches; i++)
		if (check_cache(c, s, i) < 0)
			return -1;
	return 0;
}

int mix_spec_check(const struct mix_spec *s, const char *who, struct sim_err *err)
{
	struct rd c = { who, err };
	return check_spec(&c, s);
}

/* The top level: description, tasks, caches. */
static int read_spec(const struct rd *c, const cJSON *root, struct mix_spec *s)
{
	double tasks = 0;
	if (check_keys(c, root, "", TOP_KEYS) < 0 ||
	    get_string(c, root, "", "description", NULL, s->description,
		       sizeof(s->description)) < 0 ||
	    get_number(c, root, "", "tasks", NULL, true, &tasks) < 0)
		return -1;
	if (cJSON_GetObjectItemCaseSensitive(root, "tasks") && (tasks < 1 || tasks > MIX_MAX_TASKS))
		return bad(c, "tasks", "must be 1 to %d (or left out: one per CPU), not %g",
			   MIX_MAX_TASKS, tasks);
	s->tasks = (int)tasks;
	const cJSON *caches = cJSON_GetObjectItemCaseSensitive(root, "caches");
	if (!caches)
		return bad(c, "caches", "missing (a list of caches is required)");
	if (!cJSON_IsArray(caches))
		return bad(c, "caches", "expected a list of caches");
	int n = cJSON_GetArraySize(caches);
	if (n > MIX_MAX_CACHES)
		return bad(c, "caches", "%d caches; at most %d", n, MIX_MAX_CACHES);
	int i = 0;
	for (const cJSON *o = caches->child; o; o = o->next, i++) {
		char where[32];
		snprintf(where, sizeof(where), "caches[%d]", i);
		if (read_cache(c, o, where, &s->cache[i]) < 0)
			return -1;
	}
	s->ncaches = n;
	return check_spec(c, s);
}

int mix_spec_parse(struct mix_spec *s, const char *file, const char *text, size_t len,
		   struct sim_err *err)
{
	struct rd c = { file, err };
	memset(s, 0, sizeof(*s));
	if (!len)
		return bad(&c, "", "empty (expected a JSON object {\"caches\": [...]})");
	cJSON *root = cJSON_ParseWithLength(text, len);
	if (!root)
		return json_parse_error(err, file, text, len);
	int rc = cJSON_IsObject(root) ? read_spec(&c, root, s)
		: bad(&c, "", "expected a JSON object {\"caches\": [...]} at the top level");
	cJSON_Delete(root);
	return rc;
}

int mix_spec_read(struct mix_spec *s, const char *path, struct sim_err *err)
{
	size_t len = 0;
	char *text = file_read_text(path, &len);
	if (!text)
		return sim_fail(err, "%s: cannot read the mix description: %s", path,
				strerror(errno));
	int rc = mix_spec_parse(s, path, text, len, err);
	free(text);
	return rc;
}

double mix_lifetime_us(const struct mix_lifetime *l, gsl_rng *r)
{
	switch (l->dist) {
	case MIX_EXPONENTIAL:
		return gsl_ran_exponential(r, l->a);
	case MIX_LOGNORMAL:
		return gsl_ran_lognormal(r, log(l->a), l->b);
	case MIX_PARETO:
		return gsl_ran_pareto(r, l->a, l->b);
	default:
		return l->a;
	}
}

double mix_lifetime_mean_us(const struct mix_lifetime *l)
{
	switch (l->dist) {
	case MIX_EXPONENTIAL:
		return l->a;
	case MIX_LOGNORMAL:
		return l->a * exp(l->b * l->b / 2);
	case MIX_PARETO:
		return l->a > 1 ? l->a * l->b / (l->a - 1) : INFINITY;
	default:
		return l->a;
	}
}

void mix_lifetime_describe(const struct mix_lifetime *l, char *buf, size_t size)
{
	switch (l->dist) {
	case MIX_EXPONENTIAL:
		snprintf(buf, size, "exponential mean %g us", l->a);
		break;
	case MIX_LOGNORMAL:
		snprintf(buf, size, "lognormal median %g us sigma %g", l->a, l->b);
		break;
	case MIX_PARETO:
		snprintf(buf, size, "pareto shape %g min %g us", l->a, l->b);
		break;
	default:
		snprintf(buf, size, "fixed %g us", l->a);
		break;
	}
}
