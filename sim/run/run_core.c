/* run_core.c - configure, build, run and check one simulation. */
#include "run_core.h"
#include "engine/host_limit.h"
#include "engine/suggest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The host's monotonic clock in seconds, for wall times. */
static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const struct param_def run_param_defs[] = {
	{ "sample", PT_ENUM, "off", 0, 0, "off|auto|observe",
	  "steady-state sampling: off simulates all of the work; auto stops once the rate has "
	  "settled (MSER-5 warm-up, batch means, drift tests) and extrapolates the rest with a "
	  "95% CI; observe simulates all and reports where auto would have stopped" },
	{ "sample_ci", PT_DOUBLE, "0.01", 0.0001, 0.5, NULL,
	  "sample=auto: the 95% CI half-width, relative to the rate, to stop at" },
	{ "sample_state", PT_DOUBLE, "0.2", 0.001, 1000, NULL,
	  "sample=auto: the most the workload's state gauge (hackbench: the slab pages in use) "
	  "may move over the rest of the run at its trend, relative to its mean, to stop at" },
	{ NULL },
};

/* "name a b c" -> argv (in buf); returns argc. */
static int split_words(char *buf, char **argv, int max)
{
	int argc = 0;
	for (char *save = NULL, *w = strtok_r(buf, " \t", &save); w && argc < max;
	     w = strtok_r(NULL, " \t", &save))
		argv[argc++] = w;
	return argc;
}

/* Append a name to a space-separated list. */
static void append_name(char *out, size_t size, const char *name)
{
	size_t len = strlen(out);
	snprintf(out + len, size - len, "%s%s", len ? " " : "", name);
}

/* Every parameter name of the n sets, space-separated, into out. */
static void list_names(char *out, size_t size, const struct param_set *const *sets, int n)
{
	out[0] = 0;
	for (int s = 0; s < n; s++)
		for (int i = 0; i < sets[s]->n; i++)
			append_name(out, size, sets[s]->defs[i].name);
}

/* CACHE.ATTR=VALUE: a per-cache sysfs attribute, as writing
 * /sys/kernel/slab/CACHE/ATTR does; it joins the policy's per-cache list
 * ATTR_caches (SLUB's cpu_partial_caches, sheaf_capacity_caches), later
 * settings winning. */
static int assign_cache_attr(struct run *r, const char *name, const char *value,
			     struct sim_err *err)
{
	const char *dot = strrchr(name, '.');
	char list_param[80];
	snprintf(list_param, sizeof(list_param), "%s_caches", dot + 1);
	int li = params_find(&r->pparams, list_param);
	if (li < 0 || r->pparams.defs[li].type != PT_STR) {
		/* what it has: ATTR_caches lists, and other lists naming caches */
		char attrs[512] = "", lists[512] = "";
		for (int i = 0; i < r->pparams.n; i++) {
			const struct param_def *d = &r->pparams.defs[i];
			size_t len = strlen(d->name);
			if (d->type != PT_STR || !d->choices || !strchr(d->choices, ':'))
				continue;
			char *out = len > 7 && !strcmp(d->name + len - 7, "_caches") ? attrs : lists;
			size_t used = strlen(out);
			if (out == attrs)
				snprintf(out + used, sizeof(attrs) - used, "%sCACHE.%.*s=N",
					 used ? ", " : "", (int)(len - 7), d->name);
			else
				snprintf(out + used, sizeof(lists) - used, "%s%s=%s", used ? ", " : "",
					 d->name, d->choices);
		}
		return sim_fail(err, "unknown per-cache attribute '%s' of policy %s (%s%s%s%s)",
				name, r->policy->name, *attrs ? "per cache it has " : "it has no "
				"per-cache attribute", attrs, *lists ? "; lists of caches: " : "", lists);
	}
	const char *old = param_str(&r->pparams, list_param);
	char list[PARAM_TEXT * 2];
	snprintf(list, sizeof(list), "%s%s%.*s:%s", old, *old ? "," : "", (int)(dot - name), name,
		 value);
	if (strlen(list) > PARAM_TEXT - 1)
		return sim_fail(err, "%s=%s: the per-cache %s settings pass %d characters", name,
				value, dot + 1, PARAM_TEXT - 1);
	return params_set(&r->pparams, list_param, list, true, err);
}

/* NAME=VALUE: the kernel's, the policy's or the workload's parameter, or
 * CACHE.ATTR=VALUE for one cache. */
static int assign(struct run *r, const char *a, struct sim_err *err)
{
	const char *eq = strchr(a, '=');
	if (!eq || eq == a)
		return sim_fail(err, "'%s' is not NAME=VALUE", a);
	char name[64];
	snprintf(name, sizeof(name), "%.*s", (int)(eq - a), a);
	const char *dot = strrchr(name, '.');
	if (dot && dot != name && dot[1])
		return assign_cache_attr(r, name, eq + 1, err);
	struct param_set *sets[] = { &r->kparams, &r->pparams, &r->wparams, &r->rparams };
	for (int s = 0; s < 4; s++)
		if (params_find(sets[s], name) >= 0)
			return params_set(sets[s], name, eq + 1, true, err);
	char names[2048];
	const struct param_set *const csets[] = { &r->kparams, &r->pparams, &r->wparams,
						  &r->rparams };
	list_names(names, sizeof(names), csets, 4);
	for (int i = 0; slab_policies[i]; i++)	/* another policy's parameter? */
		for (const struct param_def *d = slab_policies[i]->params; d && d->name; d++)
			if (!strcmp(d->name, name))
				return sim_fail(err, "%s is a parameter of policy %s, not of %s "
						"(-p %s)", name, slab_policies[i]->name,
						r->policy->name, slab_policies[i]->name);
	char near[96];
	return sim_fail(err, "unknown parameter '%s'%s; valid names: %s", name,
			suggest_near(name, names, near, sizeof(near)), names);
}

const char *run_policy_note(const struct run *r)
{
	int era = kernel_version_code(param_str(&r->kparams, "kernel"));
	if (!strcmp(r->policy->name, "slab") && era >= 60800)
		return "SLAB left the kernel in 6.8; this kernel= sets only its locks and "
		       "scheduler around the SLAB of 2.6.2x";
	if (!strcmp(r->policy->name, "slqb") && era > 20626)
		return "SLQB was posted for 2.6.29 and never merged; this kernel= sets only "
		       "the locks and scheduler around it";
	return "";
}

int run_configure(struct run *r, const struct run_config *cfg, struct sim_err *err)
{
	memset(r, 0, sizeof(*r));
	r->cfg = *cfg;
	if (!cfg->machine || !cfg->policy)
		return sim_fail(err, "a run needs -m MACHINE, -p POLICY and -w WORKLOAD");
	if (machine_load(&r->m, cfg->machine, err) < 0)
		return -1;
	r->policy = slab_policy_lookup(cfg->policy, err);
	if (!r->policy)
		return -1;
	char names[256] = "";
	char buf[512];
	snprintf(buf, sizeof(buf), "%s", cfg->workload ? cfg->workload : "hackbench");
	char *argv[32];
	int argc = split_words(buf, argv, 32);
	r->wl = argc ? workload_find(argv[0]) : NULL;
	if (!r->wl) {
		for (int i = 0; workloads[i]; i++)
			append_name(names, sizeof(names), workloads[i]->name);
		char near[96];
		return sim_fail(err, "unknown workload '%s'%s; valid workloads: %s",
				argc ? argv[0] : "", suggest_near(argc ? argv[0] : "", names, near,
								  sizeof(near)), names);
	}
	snprintf(r->policy_owner, sizeof(r->policy_owner), "policy %s", r->policy->name);
	snprintf(r->workload_owner, sizeof(r->workload_owner), "workload %s", r->wl->name);
	params_init(&r->kparams, "the kernel", kernel_param_defs);
	params_init(&r->pparams, r->policy_owner, r->policy->params);
	params_init(&r->wparams, r->workload_owner, r->wl->params);
	params_init(&r->rparams, "the run", run_param_defs);
	/* -w 'hackbench 100 process loops=200': NAME=VALUE words inside the
	 * workload's command line are parameters like any other */
	char *words[32];
	int nwords = 0;
	for (int i = 0; i < argc; i++) {
		if (i && strchr(argv[i], '=')) {
			if (assign(r, argv[i], err) < 0)
				return -1;
		} else {
			words[nwords++] = argv[i];
		}
	}
	if (r->wl->parse_cmdline(&r->wparams, nwords, words, err) < 0)
		return -1;
	for (int i = 0; i < cfg->nassign; i++)
		if (assign(r, cfg->assign[i], err) < 0)
			return -1;
	if (kernel_presets(&r->kparams, err) < 0)
		return -1;
	int era = kernel_version_code(param_str(&r->kparams, "kernel"));
	if (r->policy->presets && r->policy->presets(&r->pparams, era, err) < 0)
		return -1;
	return 0;
}

int run_build(struct run *r, struct sim_err *err)
{
	if (r->policy->costs && machine_cost_defaults(&r->m, r->policy->costs, err) < 0)
		return -1;	/* the policy's own entries, where the table has none */
	if (engine_init(&r->eng, r->m.ncpus, r->cfg.seed) < 0)
		return sim_fail(err, "out of memory for the engine");
	r->built = true;
	if (hw_init(&r->hw, &r->eng, &r->m, err) < 0 ||
	    kernel_init(&r->k, &r->eng, &r->hw, &r->m, &r->kparams, r->policy, &r->pparams, err) < 0)
		return -1;
	if (!r->workload_caches && kernel_caches_ready(&r->k, err) < 0)
		return -1;
	return 0;
}

/* Where the run is now, from the engine's clock and the workload's units. */
static void run_progress_now(struct run *r, double t0, bool done, struct run_progress *p)
{
	memset(p, 0, sizeof(*p));
	p->sim_seconds = (double)r->eng.now / (r->m.ghz * 1e9);
	p->wall_seconds = now_seconds() - t0;
	p->sampling = r->k.steady.mode == STEADY_AUTO;
	p->done_run = done;
	run_units(r, &p->done, &p->total, &p->unit);
}

void run_units(const struct run *r, uint64_t *done, uint64_t *total, const char **unit)
{
	*done = *total = 0;
	*unit = NULL;
	if (r->wl && r->wl->progress && r->wstate)
		r->wl->progress(r->wstate, done, total, unit);
	if (!*unit)
		*unit = "units";
}

struct run_ticker {
	struct run *r;
	double t0;
};

/* The engine's tick: hand the caller where the run is. */
static void run_tick(void *arg)
{
	struct run_ticker *tk = arg;
	run_timeline_tick(tk->r);
	if (!tk->r->cfg.progress)
		return;
	struct run_progress p;
	run_progress_now(tk->r, tk->t0, false, &p);
	tk->r->cfg.progress(&p, tk->r->cfg.progress_arg);
}

int run_execute(struct run *r, struct sim_err *err)
{
	r->workload_caches = true;	/* the workload creates caches of its own */
	if (run_build(r, err) < 0)
		return -1;
	r->k.kmem.recording = r->cfg.record;
	r->k.kmem.rec_from = (uint64_t)(r->cfg.record_from_s * r->m.ghz * 1e9);
	r->k.kmem.rec_to = (uint64_t)(r->cfg.record_to_s * r->m.ghz * 1e9);
	steady_init(&r->k.steady, (enum steady_mode)param_int(&r->rparams, "sample"),
		    param_double(&r->rparams, "sample_ci"), param_double(&r->rparams, "sample_state"));
	int owner = hw_lock_owner_set(&r->hw, LOCK_OWNER_WORKLOAD);	/* its own locks */
	int rc = r->wl->start(&r->k, &r->wparams, &r->wstate, err);
	hw_lock_owner_set(&r->hw, owner);
	if (rc < 0 || kernel_caches_ready(&r->k, err) < 0)
		return -1;
	kernel_check_every(&r->k, (uint64_t)((double)r->cfg.check_interval_us * r->m.ghz * 1e3));
	kernel_check_every_ops(&r->k, r->cfg.check_every_ops);
	double t0 = now_seconds();
	struct run_ticker ticker = { r, t0 };
	run_timeline_init(&r->timeline, r->cfg.timeline_every_us, r->m.ghz);
	run_timeline_tick(r);	/* the row at the start */
	if (r->cfg.progress || r->timeline.every) {
		r->eng.tick = run_tick;
		r->eng.tick_arg = &ticker;
	}
	engine_run(&r->eng);
	r->eng.tick = NULL;
	run_timeline_end(r);
	r->wall_seconds = now_seconds() - t0;
	if (r->cfg.progress) {
		struct run_progress p;
		run_progress_now(r, t0, true, &p);
		r->cfg.progress(&p, r->cfg.progress_arg);
	}
	r->host_peak_rss_mb = (double)(host_peak_rss_bytes() >> 10) / 1024;
	r->wl->result(r->wstate, &r->res);
	if (r->k.steady.mode != STEADY_OFF && !r->k.steady.total_units)	/* no units: in full */
		steady_outcome(&r->k.steady, 0, r->res.sim_seconds * r->m.ghz * 1e9, r->m.ghz * 1e9,
			       &r->res.sample);
	struct sim_err e;
	r->invariants_ok = true;
	if (r->eng.fatal) {
		r->invariants_ok = false;
		snprintf(r->invariants_msg, sizeof(r->invariants_msg), "the run stopped: %s",
			 r->eng.fatal);
	} else if (!r->res.finished && !r->k.violated && !r->res.stopped[0]) {
		r->invariants_ok = false;
		snprintf(r->invariants_msg, sizeof(r->invariants_msg),
			 "the workload did not finish: every task is blocked (%llu of %llu exited)",
			 (unsigned long long)r->k.sched.nr_exited,
			 (unsigned long long)r->k.sched.nr_tasks);
	} else if (kernel_check(&r->k, &e) < 0 || r->wl->check(r->wstate, &e) < 0) {
		r->invariants_ok = false;
		snprintf(r->invariants_msg, sizeof(r->invariants_msg), "%s", e.msg);
	}
	return r->invariants_ok && !r->res.stopped[0] ? 0 : 1;
}

void run_free(struct run *r)
{
	if (r->res.extra)
		cJSON_Delete(r->res.extra);
	if (r->wstate)
		r->wl->destroy(r->wstate);
	if (r->built) {
		kernel_destroy(&r->k);
		hw_destroy(&r->hw);
		engine_destroy(&r->eng);
	}
	machine_free(&r->m);
	run_timeline_free(&r->timeline);
	memset(r, 0, sizeof(*r));
}
