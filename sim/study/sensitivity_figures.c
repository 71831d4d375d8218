/* sensitivity_figures.c - the figures a prediction rests on, their ranges, the
 * machine files that vary them, and the designs that vary them. */
#include "sensitivity_figures.h"

#include <errno.h>
#include <fnmatch.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/json_in.h"
#include "engine/oom.h"
#include "hw/machine.h"
#include "policies/policy.h"

struct collect {
	struct sens_figure *f;
	int n, cap;
	const char *machine, *policies;
	bool all;
	struct sim_err *err;
};

/* Where a source puts a figure: fitted ("fit:"), an estimate ("est:") or measured. */
static enum sens_origin origin_of(const char *source)
{
	if (!strncmp(source, "fit:", 4))
		return SENS_FITTED;
	return !strncmp(source, "est:", 4) ? SENS_ESTIMATE : SENS_MEASURED;
}

/* Is NAME already collected? */
static bool have(const struct collect *c, const char *name)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->f[i].name, name))
			return true;
	return false;
}

/* Add figure NAME = VALUE of the given origin, unless it is measured and
 * only estimates are wanted, or already there. */
static void add(struct collect *c, const char *name, double value, enum sens_origin o)
{
	if ((!c->all && o == SENS_MEASURED) || have(c, name))
		return;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 32;
		c->f = realloc(c->f, (size_t)c->cap * sizeof(*c->f));
		if (!c->f)
			host_oom(__func__);
	}
	struct sens_figure *f = &c->f[c->n++];
	memset(f, 0, sizeof(*f));
	snprintf(f->machine, sizeof(f->machine), "%s", c->machine);
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->value = value;
	f->origin = o;
	f->integer = value == floor(value);
	double share = o == SENS_MEASURED ? SENS_MEASURED_SHARE : SENS_ESTIMATE_SHARE;
	f->lo = value * (1 - share);
	f->hi = value * (1 + share);
	if (f->integer) {	/* whole numbers; at least one step from the value */
		f->lo = fmin(round(f->lo), value >= 1 ? value - 1 : 0);
		f->hi = fmax(round(f->hi), value + 1);
	}
}

/* The number at dotted PATH of ROOT ("fabric.bus_occupancy_cycles"), NULL if none. */
static const cJSON *at_path(const cJSON *root, const char *path)
{
	char buf[128];
	snprintf(buf, sizeof(buf), "%s", path);
	const cJSON *o = root;
	for (char *save = NULL, *seg = strtok_r(buf, ".", &save); seg && o;
	     seg = strtok_r(NULL, ".", &save)) {
		if (!strcmp(seg, "costs") && o == root) {	/* cost names have dots */
			o = cJSON_GetObjectItemCaseSensitive(o, "costs");
			return o ? cJSON_GetObjectItemCaseSensitive(o, path + 6) : NULL;
		}
		o = cJSON_GetObjectItemCaseSensitive(o, seg);
	}
	return cJSON_IsNumber(o) ? o : NULL;
}

/* A figure of the run, not of the machine's shape: a latency, an
 * occupancy, a cost (sizes, ways, the clock and the topology are shape). */
static bool is_figure(const char *name)
{
	return !strncmp(name, "costs.", 6) || strstr(name, "cycles");
}

/* Is cost NAME one of a policy the case does not run ("slab.refill" for SLUB)? */
static bool other_policy_cost(const char *name, const char *policies)
{
	const char *dot = strchr(name, '.');
	if (!dot || !policies)
		return false;
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "%.*s", (int)(dot - name), name);
	if (!slab_policy_find(prefix))
		return false;
	for (const char *p = policies; *p;) {
		size_t len = strcspn(p, ",");
		if (len == strlen(prefix) && !strncmp(p, prefix, len))
			return false;
		p += len + (p[len] == ',');
	}
	return true;
}

/* machine_cost_walk's callback: each cost-table entry as "costs.NAME". */
static void add_cost(const char *name, double cycles, const char *file, const char *source,
		     void *arg)
{
	struct collect *c = arg;
	char full[96];
	snprintf(full, sizeof(full), "costs.%s", name);
	if (!other_policy_cost(name, c->policies))
		add(c, full, cycles, origin_of(source));
}

/* The machine file's own figures: its fitted ones, then every sourced figure. */
static void add_machine_figures(struct collect *c, const cJSON *root)
{
	const cJSON *e, *fit = cJSON_GetObjectItemCaseSensitive(root, "fitted");
	cJSON_ArrayForEach(e, fit) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, "value");
		if (cJSON_IsNumber(v))
			add(c, e->string, v->valuedouble, SENS_FITTED);
	}
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(root, "sources")) {
		const cJSON *v = at_path(root, e->string);
		if (v && cJSON_IsString(e) && is_figure(e->string))
			add(c, e->string, v->valuedouble, origin_of(e->valuestring));
	}
}

/* The file's "ranges": {"NAME": [LO, HI]} replace the default ranges; one
 * that names no figure, or is not 0 <= LO <= value <= HI, is refused. */
static int apply_ranges(struct collect *c, const cJSON *root, const char *path)
{
	const cJSON *e, *ranges = cJSON_GetObjectItemCaseSensitive(root, "ranges");
	cJSON_ArrayForEach(e, ranges) {
		const cJSON *lo = cJSON_GetArrayItem(e, 0), *hi = cJSON_GetArrayItem(e, 1);
		struct sens_figure *f = NULL;
		for (int i = 0; i < c->n && !f; i++)
			if (!strcmp(c->f[i].name, e->string))
				f = &c->f[i];
		bool named = f || at_path(root, e->string) || !strncmp(e->string, "costs.", 6);
		if (!named)
			return sim_fail(c->err, "%s: ranges.%s names no figure of the machine", path,
					e->string);
		if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) != 2 || !cJSON_IsNumber(lo) ||
		    !cJSON_IsNumber(hi) || lo->valuedouble < 0 || lo->valuedouble >= hi->valuedouble)
			return sim_fail(c->err, "%s: ranges.%s must be [LO, HI] with 0 <= LO < HI",
					path, e->string);
		if (!f)
			continue;	/* a measured figure, not asked for */
		if (f->value < lo->valuedouble || f->value > hi->valuedouble)
			return sim_fail(c->err, "%s: ranges.%s [%g, %g] does not hold its value %g",
					path, e->string, lo->valuedouble, hi->valuedouble, f->value);
		f->lo = lo->valuedouble;
		f->hi = hi->valuedouble;
		f->range_given = true;
	}
	return 0;
}

/* A hand-off may not be cheaper than a nearer class's (machine_load refuses
 * it): each hand-off figure's range stays within its neighbours' values. */
static void clamp_handoffs(struct collect *c, const cJSON *root)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(root, "handoff_cycles");
	for (int i = 0; i < c->n; i++) {
		struct sens_figure *f = &c->f[i];
		if (strncmp(f->name, "handoff_cycles.", 15))
			continue;
		int d = 0;
		while (d < NR_DIST && strcmp(hw_dist_name[d], f->name + 15))
			d++;
		for (int e = 0; e < NR_DIST; e++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(h, hw_dist_name[e]);
			if (!cJSON_IsNumber(v) || e == d)
				continue;
			double lo = e < d ? fmax(f->lo, v->valuedouble) : f->lo;
			double hi = e > d ? fmin(f->hi, v->valuedouble) : f->hi;
			f->clamped |= lo != f->lo || hi != f->hi;
			f->lo = lo;
			f->hi = hi;
		}
	}
}

int sens_figures(const char *machine, const char *policies, bool all, struct sens_figure **out,
		 struct sim_err *err)
{
	struct collect c = { .machine = machine, .policies = policies, .all = all, .err = err };
	struct machine m;
	if (machine_load(&m, machine, err) < 0)
		return -1;
	c.machine = m.name;
	cJSON *root = json_read_file(m.path, err);
	int rc = root ? 0 : -1;
	if (root) {
		add_machine_figures(&c, root);
		rc = machine_cost_walk(&m, add_cost, &c, err);
	}
	if (rc == 0)
		rc = apply_ranges(&c, root, m.path);
	if (rc == 0)
		clamp_handoffs(&c, root);
	cJSON_Delete(root);
	machine_free(&m);
	if (rc < 0) {
		free(c.f);
		return -1;
	}
	*out = c.f;
	return c.n;
}

/* Does figure F match the fnmatch PATTERN, by its NAME or MACHINE:NAME? */
static bool matches(const struct sens_figure *f, const char *pattern)
{
	char full[200];
	snprintf(full, sizeof(full), "%s:%s", f->machine, f->name);
	return !fnmatch(pattern, f->name, 0) || !fnmatch(pattern, full, 0);
}

int sens_select(struct sens_figure *f, int n, const char *patterns, struct sim_err *err)
{
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", patterns);
	bool *taken = calloc((size_t)n + 1, sizeof(*taken));
	struct sens_figure *kept = malloc(((size_t)n + 1) * sizeof(*kept));
	if (!taken || !kept)
		host_oom(__func__);
	int nk = 0;
	for (char *save = NULL, *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		bool any = false;
		for (int i = 0; i < n; i++)
			if (matches(&f[i], p)) {
				any = true;
				if (!taken[i])
					kept[nk++] = f[i];
				taken[i] = true;
			}
		if (!any) {
			free(taken);
			free(kept);
			return sim_fail(err, "--figures: '%s' matches no figure (--list lists them)", p);
		}
	}
	memcpy(f, kept, (size_t)nk * sizeof(*f));
	free(taken);
	free(kept);
	return nk;
}

double sens_at(const struct sens_figure *f, double u)
{
	double v = f->lo + u * (f->hi - f->lo);
	return f->integer ? round(v) : v;
}

/* Set figure NAME of machine file ROOT to V: in "fitted" if fitted there,
 * else at its path, a cost through "costs" (with its source). */
static int set_figure(cJSON *root, const char *name, double v, const char *path,
		      struct sim_err *err)
{
	cJSON *fit = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root,
								"fitted"), name);
	if (fit)
		return cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(fit, "value"), v), 0;
	if (!strncmp(name, "costs.", 6)) {
		cJSON *costs = cJSON_GetObjectItemCaseSensitive(root, "costs");
		if (!costs)
			costs = cJSON_AddObjectToObject(root, "costs");
		cJSON_DeleteItemFromObjectCaseSensitive(costs, name + 6);
		cJSON_AddNumberToObject(costs, name + 6, v);
		cJSON *src = cJSON_GetObjectItemCaseSensitive(root, "sources");
		if (!cJSON_GetObjectItemCaseSensitive(src, name))
			cJSON_AddStringToObject(src, name, "est: a sensitivity variant");
		return 0;
	}
	cJSON *o = (cJSON *)at_path(root, name);
	if (!o)
		return sim_fail(err, "%s: no figure %s to set", path, name);
	cJSON_SetNumberValue(o, v);
	return 0;
}

char *sens_machine_text(const char *machine, const struct sens_figure *f, int n,
			const double *values, struct sim_err *err)
{
	char from[1024];
	if (machine_resolve(machine, from, sizeof(from), err) < 0)
		return NULL;
	cJSON *root = json_read_file(from, err);
	if (!root)
		return NULL;
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
	int rc = 0;
	for (int i = 0; i < n && rc == 0; i++)
		if (cJSON_IsString(name) && !strcmp(f[i].machine, name->valuestring))
			rc = set_figure(root, f[i].name, f[i].integer ? round(values[i]) : values[i],
					from, err);
	char *text = rc == 0 ? cJSON_Print(root) : NULL;
	if (rc == 0 && !text)
		host_oom(__func__);
	cJSON_Delete(root);
	return text;
}

int sens_write_machine(const char *machine, const struct sens_figure *f, int n,
		       const double *values, const char *path, struct sim_err *err)
{
	char *text = sens_machine_text(machine, f, n, values, err);
	if (!text)
		return -1;
	FILE *o = fopen(path, "w");
	bool ok = o && fputs(text, o) >= 0;
	if (o && fclose(o) != 0)
		ok = false;
	free(text);
	return ok ? 0 : sim_fail(err, "cannot write %s: %s", path, strerror(errno));
}

void sens_morris_design(int k, int r, int levels, unsigned long seed, double *x, int *moved)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, seed);
	double step = 1.0 / (levels - 1), delta = levels / (2.0 * (levels - 1));
	int *order = malloc((size_t)k * sizeof(*order));
	if (!order)
		host_oom(__func__);
	for (int t = 0; t < r; t++) {
		double *p = x + (size_t)t * (k + 1) * k;
		for (int j = 0; j < k; j++)	/* a start from which +delta stays inside */
			p[j] = step * (double)gsl_rng_uniform_int(rng, (unsigned long)(levels / 2));
		for (int j = 0; j < k; j++)
			order[j] = j;
		for (int j = k - 1; j > 0; j--) {
			int s = (int)gsl_rng_uniform_int(rng, (unsigned long)j + 1), tmp = order[j];
			order[j] = order[s];
			order[s] = tmp;
		}
		for (int j = 0; j < k; j++)	/* a random half start from the top */
			if (gsl_rng_uniform(rng) < 0.5)
				p[j] += delta;
		for (int s = 0; s < k; s++) {
			double *next = p + (size_t)(s + 1) * k;
			memcpy(next, p + (size_t)s * k, (size_t)k * sizeof(*next));
			int j = order[s];
			next[j] += next[j] + delta <= 1 + 1e-9 ? delta : -delta;
			moved[t * k + s] = j;
		}
	}
	free(order);
	gsl_rng_free(rng);
}

void sens_morris_effects(int k, int r, const double *x, const int *moved, const double *y,
			 double *mu_star, double *mu, double *sigma)
{
	for (int j = 0; j < k; j++)
		mu_star[j] = mu[j] = sigma[j] = 0;
	double *ee = malloc((size_t)k * r * sizeof(*ee));
	if (!ee)
		host_oom(__func__);
	for (int t = 0; t < r; t++)
		for (int s = 0; s < k; s++) {
			int j = moved[t * k + s];
			size_t a = (size_t)t * (k + 1) + s;
			double dx = x[(a + 1) * k + j] - x[a * k + j];
			ee[j * r + t] = (y[a + 1] - y[a]) / dx;
		}
	for (int j = 0; j < k; j++) {
		for (int t = 0; t < r; t++) {
			mu_star[j] += fabs(ee[j * r + t]) / r;
			mu[j] += ee[j * r + t] / r;
		}
		for (int t = 0; r > 1 && t < r; t++)
			sigma[j] += (ee[j * r + t] - mu[j]) * (ee[j * r + t] - mu[j]) / (r - 1);
		sigma[j] = sqrt(sigma[j]);
	}
	free(ee);
}
