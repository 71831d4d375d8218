/* json.c - the run as JSON (docs/json.md's contract), written atomically. */
#include "report.h"
#include "outfile.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* result.sample: what a sampled run simulated and what it extrapolated. */
static cJSON *sample_json(const struct steady_outcome *o)
{
	static const char *const modes[] = { "off", "auto", "observe" };
	cJSON *s = cJSON_CreateObject();
	cJSON_AddStringToObject(s, "mode", modes[o->mode]);
	cJSON_AddStringToObject(s, "method", "MSER-5 warm-up truncation; batch means (20 "
				"batches), Student t 95% CI; drift tests: slope, Welch step between "
				"halves, lag-1 autocorrelation; state test: the state gauge's trend "
				"over the rest within sample_state");
	cJSON_AddBoolToObject(s, "supported", o->planned);
	cJSON_AddBoolToObject(s, "settled", o->settled);
	cJSON_AddBoolToObject(s, "extrapolated", o->extrapolated);
	cJSON_AddStringToObject(s, "unit", o->planned ? o->unit : "");
	cJSON_AddNumberToObject(s, "units", (double)o->units);
	cJSON_AddNumberToObject(s, "units_simulated", (double)o->units_done);
	cJSON_AddNumberToObject(s, "simulated_fraction", o->simulated_fraction);
	cJSON_AddNumberToObject(s, "warmup_units", (double)o->warmup_units);
	cJSON_AddNumberToObject(s, "batches", o->batches);
	cJSON_AddNumberToObject(s, "measured_seconds", o->measured_seconds);
	cJSON_AddNumberToObject(s, "ci_seconds", o->ci_seconds);
	if (o->mode == STEADY_OBSERVE && o->settled) {
		cJSON_AddNumberToObject(s, "auto_fraction", o->would_fraction);
		cJSON_AddNumberToObject(s, "auto_seconds", o->would_seconds);
		cJSON_AddNumberToObject(s, "auto_ci_seconds", o->would_ci_seconds);
	}
	if (!o->settled)
		cJSON_AddStringToObject(s, "not_settled", o->why ? o->why : "");
	else if (o->held_why)	/* what held it back until it settled */
		cJSON_AddStringToObject(s, "held_back", o->held_why);
	if (o->gauge_name) {	/* the state test, as last judged */
		cJSON_AddStringToObject(s, "state_gauge", o->gauge_name);
		cJSON_AddNumberToObject(s, "state_tolerance", o->state_tol);
		if (o->state_drift >= 0)
			cJSON_AddNumberToObject(s, "state_drift", o->state_drift);
		cJSON_AddNumberToObject(s, "state_refusals", o->state_refusals);
	}
	if (o->series) {	/* observe: the rate over the run */
		cJSON_AddNumberToObject(s, "series_units", (double)o->series_units);
		cJSON *a = cJSON_AddArrayToObject(s, "series_cycles");
		for (int i = 0; i < o->nseries; i++)
			cJSON_AddItemToArray(a, cJSON_CreateNumber(o->series[i]));
		if (o->gauge) {	/* the state beside the rate */
			char name[64];
			snprintf(name, sizeof(name), "series_%s", o->gauge_name);
			cJSON *g = cJSON_AddArrayToObject(s, name);
			for (int i = 0; i < o->nseries; i++)
				cJSON_AddItemToArray(g, cJSON_CreateNumber(o->gauge[i]));
		}
	}
	return s;
}

/* A parameter set as an object: strings and enums as text, the others as numbers. */
static cJSON *params_json(const struct param_set *ps)
{
	cJSON *o = cJSON_CreateObject();
	for (int i = 0; i < ps->n; i++) {
		if (ps->defs[i].type == PT_ENUM || ps->defs[i].type == PT_STR)
			cJSON_AddStringToObject(o, ps->defs[i].name, ps->value[i]);
		else
			cJSON_AddNumberToObject(o, ps->defs[i].name, ps->num[i]);
	}
	return o;
}

/* The window's profile: every symbol that had cycles, most first, with its percent and cycles. */
static cJSON *profile_json(const struct run *r, const struct run_window *w)
{
	const struct profile *p = &r->eng.prof;
	struct prof_row v[PROFILE_MAX_SYMS];
	int n = report_profile_rows(r, w, v);
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; i < n; i++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "symbol", p->name[v[i].sym]);
		cJSON_AddNumberToObject(o, "percent", 100.0 * (double)v[i].cycles / (double)w->total);
		cJSON_AddNumberToObject(o, "cycles", (double)v[i].cycles);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* Every cache: its geometry, allocs and frees, the policy's statistics (none for an alias),
 * and its slabs at the peak and the end. */
static cJSON *caches_json(const struct run *r)
{
	const struct kernel *k = &r->k;
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; i < k->ncaches; i++) {
		struct kmem_cache *c = k->caches[i];
		struct cache_info ci;
		k->policy->cache_info(k->pstate, c->alias ? c->alias : c, &ci);
		cJSON *o = report_cache_geometry(k, c);
		cJSON_AddNumberToObject(o, "allocs", (double)c->allocs);
		cJSON_AddNumberToObject(o, "frees", (double)c->frees);
		cJSON *st = cJSON_AddObjectToObject(o, "stats");
		if (!c->alias)
			for (int s = 0; s < ci.nstats; s++)
				cJSON_AddNumberToObject(st, ci.stats[s].name, (double)ci.stats[s].value);
		cJSON_AddNumberToObject(o, "slabs_peak", (double)ci.slabs_peak);
		cJSON_AddNumberToObject(o, "slabs_end", (double)ci.slabs);
		cJSON_AddNumberToObject(o, "partial_end", (double)ci.partial);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* The lock table's totals: the allocator's own (to compare designs), the
 * workload's, the kernel's, and all. */
static cJSON *lock_totals_json(const struct run *r)
{
	struct lock_totals t[NR_LOCK_OWNERS + 1];
	report_lock_totals(r, t);
	cJSON *o = cJSON_CreateObject();
	for (int i = 0; i <= NR_LOCK_OWNERS; i++) {
		cJSON *x = cJSON_AddObjectToObject(o, i < NR_LOCK_OWNERS ? hw_lock_owner_name[i] : "all");
		cJSON_AddNumberToObject(x, "acquisitions", (double)t[i].acquisitions);
		cJSON_AddNumberToObject(x, "contentions", (double)t[i].contentions);
		cJSON_AddNumberToObject(x, "wait_cycles", (double)t[i].wait_cycles);
		cJSON_AddNumberToObject(x, "wait_share", t[i].wait_share);
	}
	return o;
}

/* lock_stat's contention or contending points of a class: the symbol, how
 * often, and (contention points) the cycles waited from there. */
static void add_lock_points(cJSON *o, const char *key, const struct hw_lock_point *p,
			    const struct profile *prof, bool wait)
{
	cJSON *a = cJSON_AddArrayToObject(o, key);
	for (int i = 0; i < LOCKSTAT_POINTS && p[i].sym >= 0; i++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "symbol", prof->name[p[i].sym]);
		cJSON_AddNumberToObject(e, "contentions", (double)p[i].contentions);
		if (wait)
			cJSON_AddNumberToObject(e, "wait_cycles", (double)p[i].wait);
		cJSON_AddItemToArray(a, e);
	}
}

/* Every lock class that was taken, in creation order, with lock_stat's figures and points. */
static cJSON *locks_json(const struct run *r)
{
	cJSON *a = cJSON_CreateArray();
	/* classes are kept newest first; report them in creation order */
	int n = r->hw.nclasses;
	const struct hw_lock_class **v = malloc((size_t)n * sizeof(*v));
	int i = n;
	for (const struct hw_lock_class *c = r->hw.classes; c; c = c->next)
		v[--i] = c;
	for (i = 0; i < n; i++) {
		const struct hw_lock_class *c = v[i];
		if (!c->acquisitions)
			continue;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", c->name);
		cJSON_AddStringToObject(o, "owner", hw_lock_owner_name[c->owner]);
		cJSON_AddNumberToObject(o, "acquisitions", (double)c->acquisitions);
		cJSON_AddNumberToObject(o, "contentions", (double)c->contentions);
		cJSON_AddNumberToObject(o, "wait_cycles", (double)c->wait_total);
		cJSON_AddNumberToObject(o, "wait_max_cycles", (double)c->wait_max);
		cJSON_AddNumberToObject(o, "hold_cycles", (double)c->hold_total);
		cJSON_AddNumberToObject(o, "hold_max_cycles", (double)c->hold_max);
		cJSON_AddNumberToObject(o, "acq_bounces", (double)c->acq_bounces);
		cJSON_AddNumberToObject(o, "con_bounces", (double)c->con_bounces);
		add_lock_points(o, "contention_points", c->contention_point, &r->eng.prof, true);
		add_lock_points(o, "contending_points", c->contending_point, &r->eng.prof, false);
		cJSON_AddItemToArray(a, o);
	}
	free(v);
	return a;
}

/* "faults": what fault injection failed and what the page allocator could
 * not satisfy, only when there is any (a default run has no such member). */
static void add_alloc_failures(cJSON *root, const struct run *r)
{
	const struct kernel *k = &r->k;
	uint64_t oom = page_alloc_failures(&k->pa);
	if (!k->failslab.enabled && !k->fail_page_alloc.enabled && !oom)
		return;
	cJSON *f = cJSON_AddObjectToObject(root, "faults");
	const struct fault_attr *a[] = { &k->failslab, &k->fail_page_alloc };
	for (int i = 0; i < 2; i++) {
		cJSON *o = cJSON_AddObjectToObject(f, a[i]->name);
		cJSON_AddBoolToObject(o, "enabled", a[i]->enabled);
		cJSON_AddNumberToObject(o, "calls", (double)a[i]->calls);
		cJSON_AddNumberToObject(o, "injected", (double)a[i]->injected);
		cJSON_AddBoolToObject(o, "ignore_gfp_wait", a[i]->ignore_gfp_wait);
		cJSON_AddNumberToObject(o, "spared", (double)a[i]->spared);
	}
	cJSON_AddNumberToObject(f, "page_alloc_failed", (double)oom);
}

/* A uint64 member as its exact digits: cJSON's numbers are doubles. */
cJSON *report_add_u64(cJSON *o, const char *name, uint64_t v)
{
	char digits[24];
	snprintf(digits, sizeof(digits), "%" PRIu64, v);
	return cJSON_AddRawToObject(o, name, digits);
}

cJSON *report_json(const struct run *r)
{
	struct run_window w;
	report_window(r, &w);
	cJSON *root = cJSON_CreateObject();
	cJSON *v = cJSON_AddObjectToObject(root, "slabsim");
	cJSON_AddStringToObject(v, "model_digest", report_model_digest());
	cJSON_AddStringToObject(v, "version", SLABSIM_VERSION);
	cJSON *m = cJSON_AddObjectToObject(root, "machine");
	cJSON_AddStringToObject(m, "name", r->m.name);
	cJSON_AddNumberToObject(m, "cpus", r->m.ncpus);
	cJSON_AddNumberToObject(m, "nodes", r->m.nodes);
	cJSON_AddNumberToObject(m, "clock_ghz", r->m.ghz);
	cJSON *kern = cJSON_AddObjectToObject(root, "kernel");
	cJSON_AddItemToObject(kern, "params", params_json(&r->kparams));
	cJSON *p = cJSON_AddObjectToObject(root, "policy");
	cJSON_AddStringToObject(p, "name", r->policy->name);
	cJSON_AddItemToObject(p, "params", params_json(&r->pparams));
	cJSON *wl = cJSON_AddObjectToObject(root, "workload");
	cJSON_AddStringToObject(wl, "name", r->wl->name);
	cJSON_AddItemToObject(wl, "params", params_json(&r->wparams));
	report_add_u64(root, "seed", r->cfg.seed);
	cJSON *res = cJSON_AddObjectToObject(root, "result");
	cJSON_AddBoolToObject(res, "finished", r->res.finished);
	cJSON_AddNumberToObject(res, "sim_seconds", r->res.sim_seconds);
	cJSON_AddStringToObject(res, "line", r->res.line);
	cJSON_AddNumberToObject(res, "wall_seconds", r->wall_seconds);
	cJSON_AddNumberToObject(res, "events", (double)r->eng.events);
	cJSON_AddNumberToObject(res, "events_per_second",
				r->wall_seconds > 0 ? (double)r->eng.events / r->wall_seconds : 0);
	cJSON_AddNumberToObject(res, "host_peak_rss_mb", r->host_peak_rss_mb);
	if (r->res.extra)
		for (cJSON *x = r->res.extra->child; x; x = x->next)
			cJSON_AddItemToObject(res, x->string, cJSON_Duplicate(x, 1));
	if (r->res.sample.mode != STEADY_OFF)
		cJSON_AddItemToObject(res, "sample", sample_json(&r->res.sample));
	cJSON *cpu = cJSON_AddObjectToObject(root, "cpu");
	cJSON_AddNumberToObject(cpu, "busy", w.busy);
	cJSON_AddNumberToObject(cpu, "slab", w.slab);
	cJSON_AddNumberToObject(cpu, "spin", w.spin);
	cJSON *sched = cJSON_AddObjectToObject(root, "sched");
	cJSON_AddNumberToObject(sched, "context_switches", (double)r->k.sched.context_switches);
	cJSON_AddNumberToObject(sched, "wakeups", (double)r->k.sched.wakeups);
	cJSON_AddNumberToObject(sched, "migrations", (double)r->k.sched.migrations);
	cJSON_AddNumberToObject(sched, "wakeups_sync", (double)r->k.sched.wakeups_sync);
	cJSON_AddNumberToObject(sched, "wakeups_migrate", (double)r->k.sched.wakeups_migrate);
	cJSON_AddItemToObject(root, "profile", profile_json(r, &w));
	cJSON_AddItemToObject(root, "caches", caches_json(r));
	cJSON_AddItemToObject(root, "locks", locks_json(r));
	cJSON_AddItemToObject(root, "lock_totals", lock_totals_json(r));
	cJSON_AddItemToObject(root, "kmem", report_kmem_json(r));
	cJSON *mem = cJSON_AddObjectToObject(root, "memory");
	cJSON_AddNumberToObject(mem, "slab_bytes_peak", (double)(r->k.pa.slab_pages_peak * PAGE_SIZE));
	cJSON_AddNumberToObject(mem, "slab_bytes_end", (double)(r->k.pa.slab_pages * PAGE_SIZE));
	add_alloc_failures(root, r);
	cJSON *fab = cJSON_AddObjectToObject(root, "hw");
	cJSON_AddNumberToObject(fab, "mem_loads", (double)r->hw.stats.mem_loads);
	cJSON_AddNumberToObject(fab, "rereads", (double)r->hw.stats.rereads);
	cJSON_AddNumberToObject(fab, "queue_cycles", (double)r->hw.stats.queue_cycles);
	cJSON *tr = cJSON_AddObjectToObject(fab, "transfers");
	for (int d = 0; d < NR_DIST; d++)
		cJSON_AddNumberToObject(tr, hw_dist_name[d], (double)r->hw.stats.transfers[d]);
	cJSON_AddStringToObject(root, "invariants", r->invariants_ok ? "ok" : r->invariants_msg);
	if (r->res.stopped[0])	/* only when the workload stopped early */
		cJSON_AddStringToObject(root, "stopped", r->res.stopped);
	if (r->cfg.check_interval_us || r->cfg.check_every_ops) {	/* only when asked */
		cJSON *ck = cJSON_AddObjectToObject(root, "checks");
		if (r->cfg.check_interval_us)
			cJSON_AddNumberToObject(ck, "interval_us", (double)r->cfg.check_interval_us);
		if (r->cfg.check_every_ops)
			cJSON_AddNumberToObject(ck, "every_ops", (double)r->cfg.check_every_ops);
		cJSON_AddNumberToObject(ck, "mid_run", (double)r->k.check.done);
		cJSON_AddNumberToObject(ck, "longest_wait_us",
					(double)r->k.check.longest_wait / (r->m.ghz * 1e3));
	}
	return root;
}

int report_write_json(const char *path, const cJSON *root, struct sim_err *err)
{
	char *text = cJSON_Print(root);
	if (!text)
		return sim_fail(err, "out of memory printing JSON");
	struct out_file o;
	FILE *f = out_open(&o, path, err);
	if (!f) {
		free(text);
		return -1;
	}
	bool ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF;
	free(text);
	return out_close(&o, ok, err);
}
