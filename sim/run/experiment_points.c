/* experiment_points.c - an experiment's points (the cross product of its
 * dimensions), each point's parameters, and each run's seed. Every point is
 * configured once before anything runs, so a bad parameter is found before a
 * results folder exists. */
#include "experiment.h"
#include "engine/oom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine_expr.h"
#include "run_core.h"

#define EXP_MAX_ASSIGNS 256

/* The index of the dimension of `kind`, or -1 if there is none. */
static int dim_of(const struct experiment *e, enum exp_dim_kind kind)
{
	for (int d = 0; d < e->ndims; d++)
		if (e->dim[d].kind == kind)
			return d;
	return -1;
}

/* The point's choice in the dimension of `kind` (machine, policy or workload). */
static const struct exp_choice *choice(const struct experiment *e, const struct exp_point *p,
				       enum exp_dim_kind kind)
{
	int d = dim_of(e, kind);
	return &e->dim[d].v[p->choice[d]];
}

const char *experiment_machine(const struct experiment *e, const struct exp_point *p)
{
	return choice(e, p, DIM_MACHINE)->name;
}

const char *experiment_policy(const struct experiment *e, const struct exp_point *p)
{
	return choice(e, p, DIM_POLICY)->name;
}

const char *experiment_workload(const struct experiment *e, const struct exp_point *p)
{
	return choice(e, p, DIM_WORKLOAD)->name;
}

/* The assignments of a point in the order they apply: fixed, then each
 * dimension's, then the command line's (the last setting wins). */
static int collect(const struct experiment *e, const struct exp_point *p,
		   const struct exp_assign **out)
{
	int n = 0;
	for (int i = 0; i < e->nfixed && n < EXP_MAX_ASSIGNS; i++)
		out[n++] = &e->fixed[i];
	for (int d = 0; d < e->ndims; d++) {
		const struct exp_choice *ch = &e->dim[d].v[p->choice[d]];
		for (int i = 0; i < ch->nset && n < EXP_MAX_ASSIGNS; i++)
			out[n++] = &ch->set[i];
	}
	for (int i = 0; i < e->noverrides && n < EXP_MAX_ASSIGNS; i++)
		out[n++] = &e->overrides[i];
	return n;
}

/* Evaluate the assignments on the point's machine; `where` gets the key
 * path of each. */
static int resolve(const struct experiment *e, const struct exp_point *p, const char **out,
		   const char **where, int max, char *buf, int size, struct sim_err *err)
{
	const struct exp_assign *as[EXP_MAX_ASSIGNS];
	int n = collect(e, p, as);
	if (n > max)
		return sim_fail(err, "%s: more than %d parameters in one point", e->path, max);
	struct machine m;
	bool loaded = false;
	int used = 0;
	for (int i = 0; i < n; i++) {
		char value[64];
		const char *v = as[i]->value;
		if (v[0] == '=') {
			long long x;
			struct sim_err e2;
			if (!loaded && machine_load(&m, experiment_machine(e, p), &e2) < 0)
				return sim_fail(err, "%s: %s", e->path, e2.msg);
			loaded = true;
			if (machine_expr_eval(v + 1, &m, &x, &e2) < 0) {
				machine_free(&m);
				return sim_fail(err, "%s: %s: %s", e->path, as[i]->where, e2.msg);
			}
			snprintf(value, sizeof(value), "%lld", x);
			v = value;
		}
		int len = snprintf(buf + used, (size_t)(size - used), "%s=%s", as[i]->name, v);
		if (len < 0 || used + len + 1 > size) {
			if (loaded)
				machine_free(&m);
			return sim_fail(err, "%s: %s: parameters too long", e->path, as[i]->where);
		}
		out[i] = buf + used;
		if (where)
			where[i] = as[i]->where;
		used += len + 1;
	}
	if (loaded)
		machine_free(&m);
	return n;
}

int experiment_assigns(const struct experiment *e, const struct exp_point *p,
		       const char **out, int max, char *buf, int size, struct sim_err *err)
{
	return resolve(e, p, out, NULL, max, buf, size, err);
}

/* Where a failing configuration went wrong: the dimension choice (machine,
 * policy, workload) or the first assignment whose addition fails. */
static int check_point(const struct experiment *e, const struct exp_point *p,
		       struct sim_err *err)
{
	const char *assign[EXP_MAX_ASSIGNS], *where[EXP_MAX_ASSIGNS];
	char buf[EXP_MAX_ASSIGNS * 96];
	int n = resolve(e, p, assign, where, EXP_MAX_ASSIGNS, buf, sizeof(buf), err);
	if (n < 0)
		return -1;
	static struct run r;
	struct sim_err e2;
	struct run_config cfg = { .machine = experiment_machine(e, p),
				  .policy = experiment_policy(e, p),
				  .workload = experiment_workload(e, p), .seed = 1,
				  .assign = assign, .nassign = n };
	int rc = run_configure(&r, &cfg, &e2);
	run_free(&r);
	if (rc == 0)
		return 0;
	for (int k = 0; k <= n; k++) {
		cfg.nassign = k;
		rc = run_configure(&r, &cfg, &e2);
		run_free(&r);
		if (rc < 0 && k == 0) {
			static const char *const keys[] = { "machines", "policies", "workloads" };
			for (int kind = DIM_MACHINE; kind <= DIM_WORKLOAD; kind++) {
				int d = dim_of(e, kind);
				/* the first dimension whose choice alone fails is the culprit */
				struct run_config one = { .machine = "tigerton", .policy = "slub",
							  .workload = "hackbench", .seed = 1 };
				if (kind == DIM_MACHINE)
					one.machine = cfg.machine;
				else if (kind == DIM_POLICY)
					one.policy = cfg.policy;
				else
					one.workload = cfg.workload;
				struct sim_err e3;
				int bad = run_configure(&r, &one, &e3);
				run_free(&r);
				if (bad < 0)
					return sim_fail(err, "%s: %s[%d]: %s", e->path, keys[kind],
							p->choice[d], e3.msg);
			}
			return sim_fail(err, "%s: %s", e->path, e2.msg);
		}
		if (rc < 0)
			return sim_fail(err, "%s: %s: %s", e->path, where[k - 1], e2.msg);
	}
	return sim_fail(err, "%s: %s", e->path, e2.msg);
}

/* Whether a workload choice may run on `machine`: its "machines" names it, or it has none. */
static bool machine_allowed(const struct exp_choice *wl, const char *machine)
{
	if (!wl->nmachines)
		return true;
	for (int i = 0; i < wl->nmachines; i++)
		if (!strcmp(wl->machines[i], machine))
			return true;
	return false;
}

/* The point's key, "DIM=LABEL" for every dimension, space-separated (malloc'ed). */
static char *point_key(const struct experiment *e, const struct exp_point *p)
{
	size_t size = 64;
	for (int d = 0; d < e->ndims; d++)
		size += strlen(e->dim[d].name) + strlen(e->dim[d].v[p->choice[d]].label) + 3;
	char *key = malloc(size);
	if (!key)
		host_oom(__func__);
	size_t len = 0;
	for (int d = 0; d < e->ndims; d++)
		len += (size_t)snprintf(key + len, size - len, "%s%s=%s", d ? " " : "",
					e->dim[d].name, e->dim[d].v[p->choice[d]].label);
	return key;
}

int experiment_expand(struct experiment *e, struct sim_err *err)
{
	long long total = 1;
	for (int d = 0; d < e->ndims; d++)
		total *= e->dim[d].n;
	if (total * e->replicates > 1000000)
		return sim_fail(err, "%s: %lld points x %d replicates: more than a million runs",
				e->path, total, e->replicates);
	e->points = calloc((size_t)total, sizeof(*e->points));
	if (!e->points)
		host_oom(__func__);
	int wd = dim_of(e, DIM_WORKLOAD), md = dim_of(e, DIM_MACHINE);
	int idx[EXP_MAX_DIMS] = { 0 };
	for (long long t = 0; t < total; t++) {
		const struct exp_choice *wl = &e->dim[wd].v[idx[wd]];
		if (machine_allowed(wl, e->dim[md].v[idx[md]].name)) {
			struct exp_point *p = &e->points[e->npoints++];
			memcpy(p->choice, idx, sizeof(idx));
			p->key = point_key(e, p);
		}
		for (int d = e->ndims - 1; d >= 0; d--) {	/* the last dimension varies fastest */
			if (++idx[d] < e->dim[d].n)
				break;
			idx[d] = 0;
		}
	}
	if (!e->npoints)
		return sim_fail(err, "%s: workloads[].machines leave no point to run", e->path);
	for (int d = 0; d < e->ndims; d++)
		if (e->dim[d].kind == DIM_WORKLOAD)
			for (int i = 0; i < e->dim[d].n; i++)
				for (int j = 0; j < e->dim[d].v[i].nmachines; j++) {
					struct machine m;
					struct sim_err e2;
					if (machine_load(&m, e->dim[d].v[i].machines[j], &e2) < 0)
						return sim_fail(err, "%s: workloads[%d].machines[%d]: %s",
								e->path, i, j, e2.msg);
					machine_free(&m);
				}
	for (int i = 0; i < e->npoints; i++)
		if (check_point(e, &e->points[i], err) < 0)
			return -1;
	return 0;
}

/* splitmix64's mixing step. */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* FNV-1a of s, continuing from h (0: from the offset basis). */
static uint64_t hash_str(uint64_t h, const char *s)
{
	if (!h)
		h = 0xcbf29ce484222325ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

uint64_t experiment_run_seed(const struct experiment *e, int run)
{
	const struct exp_point *p = &e->points[run / e->replicates];
	uint64_t h = mix(e->seed ^ mix(hash_str(0, p->key)) ^ mix((uint64_t)(run % e->replicates)));
	return h >> 11;		/* 53 bits: exact in JSON numbers */
}

uint64_t experiment_digest(const struct experiment *e)
{
	char reps[64];
	snprintf(reps, sizeof(reps), "\nreplicates=%d", e->replicates);
	uint64_t h = hash_str(hash_str(0, e->text), reps);
	for (int i = 0; i < e->noverrides; i++) {
		h = hash_str(h, "\n");
		h = hash_str(h, e->overrides[i].name);
		h = hash_str(h, "=");
		h = hash_str(h, e->overrides[i].value);
	}
	return mix(h) >> 11;
}

void experiment_short_key(const struct experiment *e, const struct exp_point *p, char *out,
			  size_t size)
{
	size_t len = 0;
	out[0] = 0;
	for (int d = 0; d < e->ndims && len < size; d++) {
		if (e->dim[d].n < 2)
			continue;
		const char *label = e->dim[d].v[p->choice[d]].label;
		if (e->dim[d].kind == DIM_AXIS)
			len += (size_t)snprintf(out + len, size - len, "%s%s=%s", len ? " " : "",
						e->dim[d].name, label);
		else
			len += (size_t)snprintf(out + len, size - len, "%s%s", len ? " " : "", label);
	}
	if (!len)
		snprintf(out, size, "%s", e->name);
}

void experiment_digest_hex(const struct experiment *e, char out[EXP_DIGEST_HEX])
{
	snprintf(out, EXP_DIGEST_HEX, "%016llx", (unsigned long long)experiment_digest(e));
}

cJSON *experiment_overrides_json(const struct experiment *e)
{
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; i < e->noverrides; i++) {
		char *s;
		if (asprintf(&s, "%s=%s", e->overrides[i].name, e->overrides[i].value) < 0)
			host_oom(__func__);
		cJSON_AddItemToArray(a, cJSON_CreateString(s));
		free(s);
	}
	return a;
}
