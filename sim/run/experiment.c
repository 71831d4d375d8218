/* experiment.c - reading an experiment file: every key checked against the
 * schema (configs/README.md), every mistake named by its key path. */
#include "experiment_int.h"
#include "engine/array_size.h"
#include "engine/json_in.h"
#include "run_core.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "machines", "policies" or "workloads": a non-empty list of names or objects. */
static int parse_list(struct ctx *c, const cJSON *root, const char *key, enum exp_dim_kind kind)
{
	static const char *const valid[] = { "name label", "name label set",
					     "cmd label machines" };
	static const char *const dim_name[] = { "machine", "policy", "workload" };
	const cJSON *a = exp_get(root, key);
	if (!a)
		return exp_bad(c, key, "missing (a list is required)");
	if (!cJSON_IsArray(a))
		return exp_bad(c, key, "expected a list");
	int n = cJSON_GetArraySize(a);
	if (!n)
		return exp_bad(c, key, "empty list");
	struct exp_dim *d = &c->e->dim[c->e->ndims++];
	d->kind = kind;
	d->name = exp_dup(c->e, dim_name[kind]);
	d->v = exp_grow(c->e, n, sizeof(*d->v));
	const char *namekey = kind == DIM_WORKLOAD ? "cmd" : "name";
	for (const cJSON *x = a->child; x; x = x->next) {
		struct exp_choice *ch = &d->v[d->n];
		char *where = exp_fmt(c->e, "%s[%d]", key, d->n++);
		if (cJSON_IsString(x)) {
			if (!*x->valuestring)
				return exp_bad(c, where, "empty string");
			ch->name = exp_dup(c->e, x->valuestring);
		} else {
			if (exp_check_keys(c, x, where, valid[kind]) < 0 ||
			    exp_get_string(c, x, namekey, where, true, &ch->name) < 0 ||
			    exp_get_string(c, x, "label", where, false, &ch->label) < 0)
				return -1;
			const cJSON *set = exp_get(x, "set");
			if (set && exp_parse_set(c, set, exp_fmt(c->e, "%s.set", where), &ch->set,
					     &ch->nset) < 0)
				return -1;
			const cJSON *ms = exp_get(x, "machines");
			if (ms) {
				char *mw = exp_fmt(c->e, "%s.machines", where);
				if (!cJSON_IsArray(ms) || !cJSON_GetArraySize(ms))
					return exp_bad(c, mw, "expected a non-empty list of machine names");
				ch->machines = exp_grow(c->e, cJSON_GetArraySize(ms), sizeof(char *));
				for (const cJSON *m = ms->child; m; m = m->next) {
					if (!cJSON_IsString(m))
						return exp_bad(c, mw, "expected machine names (strings)");
					ch->machines[ch->nmachines++] = exp_dup(c->e, m->valuestring);
				}
			}
		}
		if (!ch->label)
			ch->label = ch->name;
	}
	return exp_unique_labels(c, d, key);
}

/* The name becomes a folder (results/NAME): letters, digits, . _ - only. */
static int check_name(struct ctx *c, const char *name)
{
	if (name[0] == '.' || strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				     "0123456789._-") != strlen(name))
		return exp_bad(c, "name", "use letters, digits, '.', '_' and '-' (it names the "
			   "results folder), not starting with '.'");
	return 0;
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
	{ "simulated", "result.sample.simulated_fraction",
	  "work simulated, the rest extrapolated (sample=auto; %)", 100 },
};
#define NR_DEFAULT_METRICS ARRAY_SIZE(default_metrics)

/* "metrics": the experiment's own (name, path, label, scale; names unique), then each
 * default metric it does not name. */
static int parse_metrics(struct ctx *c, const cJSON *root)
{
	struct experiment *e = c->e;
	const cJSON *ms = exp_get(root, "metrics");
	if (ms && (!cJSON_IsArray(ms) || !cJSON_GetArraySize(ms)))
		return exp_bad(c, "metrics", "expected a non-empty list");
	int i = 0;
	for (const cJSON *m = ms ? ms->child : NULL; m; m = m->next, i++) {
		char *w = exp_fmt(e, "metrics[%d]", i);
		if (e->nmetrics >= EXP_MAX_METRICS - NR_DEFAULT_METRICS)
			return exp_bad(c, w, "too many metrics (at most 10)");
		struct exp_metric *x = &e->metric[e->nmetrics++];
		x->scale = 1;
		if (exp_check_keys(c, m, w, "name path label scale") < 0 ||
		    exp_get_string(c, m, "name", w, true, &x->name) < 0 ||
		    exp_get_string(c, m, "path", w, true, &x->path) < 0 ||
		    exp_get_string(c, m, "label", w, false, &x->label) < 0)
			return -1;
		if (!x->label)
			x->label = x->name;
		const cJSON *s = exp_get(m, "scale");
		if (s && (!cJSON_IsNumber(s) || s->valuedouble == 0))
			return exp_bad(c, exp_fmt(e, "%s.scale", w), "expected a non-zero number");
		if (s)
			x->scale = s->valuedouble;
		for (int j = 0; j < e->nmetrics - 1; j++)
			if (!strcmp(e->metric[j].name, x->name))
				return exp_bad(c, w, "a metric of that name is already listed");
	}
	for (int d = 0; d < NR_DEFAULT_METRICS; d++) {
		bool have = false;
		for (int j = 0; j < e->nmetrics; j++)
			have |= !strcmp(e->metric[j].name, default_metrics[d].name);
		if (!have)
			e->metric[e->nmetrics++] = default_metrics[d];
	}
	return 0;
}

/* An optional integer key in [min, max] into *out, left as it is when the key is absent. */
static int parse_int(struct ctx *c, const cJSON *root, const char *key, double min, double max,
		     double *out)
{
	const cJSON *v = exp_get(root, key);
	if (!v)
		return 0;
	if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
	    v->valuedouble < min || v->valuedouble > max)
		return exp_bad(c, key, exp_fmt(c->e, "expected an integer in [%.0f, %.0f]", min, max));
	*out = v->valuedouble;
	return 0;
}

/* The optional ci_target: a share of the mean in (0, 1), 0 when absent. */
static int parse_ci_target(struct ctx *c, const cJSON *root)
{
	const cJSON *v = exp_get(root, "ci_target");
	if (!v)
		return 0;
	if (!cJSON_IsNumber(v) || !(v->valuedouble > 0 && v->valuedouble < 1))
		return exp_bad(c, "ci_target", "expected a share of the mean between 0 and 1 "
			       "(0.05: the 95% CI within +-5%)");
	c->e->ci_target = v->valuedouble;
	return 0;
}

int experiment_parse(struct experiment *e, const char *path, const char *text,
		     struct sim_err *err)
{
	memset(e, 0, sizeof(*e));
	struct ctx c = { e, err };
	e->path = exp_dup(e, path);
	e->text = exp_dup(e, text);
	cJSON *root = cJSON_Parse(text);
	if (!root)
		return json_parse_error(err, path, text, strlen(text));
	int rc = -1;
	double reps = 1, seed = 1;
	if (exp_check_keys(&c, root, "", "name question machines policies workloads fixed axes "
		       "replicates ci_target seed metrics plot") < 0 ||
	    exp_get_string(&c, root, "name", "", true, &e->name) < 0 || check_name(&c, e->name) < 0 ||
	    exp_get_string(&c, root, "question", "", false, &e->question) < 0 ||
	    parse_list(&c, root, "machines", DIM_MACHINE) < 0 ||
	    parse_list(&c, root, "policies", DIM_POLICY) < 0 ||
	    parse_list(&c, root, "workloads", DIM_WORKLOAD) < 0 ||
	    parse_int(&c, root, "replicates", 1, 10000, &reps) < 0 ||
	    parse_ci_target(&c, root) < 0 ||
	    parse_int(&c, root, "seed", 0, (double)SEED_MAX, &seed) < 0 ||
	    parse_metrics(&c, root) < 0)
		goto out;
	e->replicates = (int)reps;
	e->seed = (uint64_t)seed;
	const cJSON *fixed = exp_get(root, "fixed");
	if (fixed && exp_parse_set(&c, fixed, "fixed", &e->fixed, &e->nfixed) < 0)
		goto out;
	const cJSON *axes = exp_get(root, "axes");
	if (axes && !cJSON_IsArray(axes)) {
		exp_bad(&c, "axes", "expected a list of axes");
		goto out;
	}
	int i = 0;
	for (const cJSON *ax = axes ? axes->child : NULL; ax; ax = ax->next, i++)
		if (exp_parse_axis(&c, ax, exp_fmt(e, "axes[%d]", i)) < 0)
			goto out;
	for (int a = 0; a < e->ndims; a++)
		for (int b = 0; b < a; b++)
			if (!strcmp(e->dim[a].name, e->dim[b].name)) {
				exp_bad(&c, "axes", exp_fmt(e, "two dimensions are named '%s' (give an axis "
						    "a \"name\")", e->dim[a].name));
				goto out;
			}
	const cJSON *plot = exp_get(root, "plot");
	if (plot) {
		if (exp_check_keys(&c, plot, "plot", "x logx logy") < 0 ||
		    exp_get_string(&c, plot, "x", "plot", false, &e->plot_x) < 0)
			goto out;
		const cJSON *lx = exp_get(plot, "logx"), *ly = exp_get(plot, "logy");
		if ((lx && !cJSON_IsBool(lx)) || (ly && !cJSON_IsBool(ly))) {
			exp_bad(&c, lx && !cJSON_IsBool(lx) ? "plot.logx" : "plot.logy",
			    "expected true or false");
			goto out;
		}
		e->plot_logx = cJSON_IsTrue(lx);
		e->plot_logy = cJSON_IsTrue(ly);
		bool found = !e->plot_x;
		for (int a = 0; a < e->ndims && !found; a++)
			found = !strcmp(e->dim[a].name, e->plot_x);
		if (!found) {
			exp_bad(&c, "plot.x", exp_fmt(e, "no dimension named '%s'", e->plot_x));
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
	size_t len;
	char *text = file_read_text(path, &len);
	if (!text)
		return sim_fail(err, "cannot read experiment %s: %s", path, strerror(errno));
	int rc = experiment_parse(e, path, text, err);
	free(text);
	return rc;
}

int experiment_override(struct experiment *e, const char *assign, struct sim_err *err)
{
	const char *eq = strchr(assign, '=');
	if (!eq || eq == assign)
		return sim_fail(err, "'%s' is not NAME=VALUE", assign);
	struct exp_assign *n = exp_grow(e, e->noverrides + 1, sizeof(*n));
	if (e->noverrides)
		memcpy(n, e->overrides, (size_t)e->noverrides * sizeof(*n));
	n[e->noverrides++] = (struct exp_assign){ exp_fmt(e, "%.*s", (int)(eq - assign), assign),
						   exp_dup(e, eq + 1), exp_fmt(e, "command line '%s'", assign) };
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
