/* text.c - the text report: hackbench's line, slabinfo, lock_stat, perf. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

/* The first line: version, machine, policy (and the file it came from), kernel, spinlock,
 * the workload as given with its own NAME=VALUEs, and the seed. */
static void print_header(FILE *out, const struct run *r)
{
	/* a module is named by the file it came from too (-p ./mine.so) */
	char from[300] = "";
	if (r->cfg.policy && strcmp(r->cfg.policy, r->policy->name))
		snprintf(from, sizeof(from), " (%s)", r->cfg.policy);
	/* the workload as given, with the NAME=VALUE of its own given beside
	 * it (trace replay's file=) */
	char wl[1024];
	snprintf(wl, sizeof(wl), "%s", r->cfg.workload ? r->cfg.workload : "");
	for (int i = 0; i < r->cfg.nassign; i++) {
		const char *a = r->cfg.assign[i], *eq = strchr(a, '=');
		char name[64];
		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - a) : 0, a);
		size_t len = strlen(wl);
		if (eq && params_find(&r->wparams, name) >= 0 && len + strlen(a) + 2 < sizeof(wl))
			snprintf(wl + len, sizeof(wl) - len, " %s", a);
	}
	fprintf(out, "slabsim %s: %s (%d CPUs, %d node%s), policy %s%s, kernel=%s spinlock=%s, "
		"workload '%s', seed %llu\n", SLABSIM_VERSION, r->m.name, r->m.ncpus, r->m.nodes,
		r->m.nodes > 1 ? "s" : "", r->policy->name, from, param_str(&r->kparams, "kernel"),
		param_str(&r->kparams, "spinlock"), wl,
		(unsigned long long)r->cfg.seed);
}

/* The counter named NAME among a cache's statistics (0 if it has none). */
static uint64_t stat_value(const struct cache_info *ci, const char *name)
{
	for (int s = 0; s < ci->nstats; s++)
		if (!strcmp(ci->stats[s].name, name))
			return ci->stats[s].value;
	return 0;
}

/* slabinfo -AD's %Fast: the shares of allocations and frees that took the
 * fast path, where the policy counts both paths (SLUB's statistics). */
static void print_fast_share(FILE *out, const struct cache_info *ci)
{
	uint64_t af = stat_value(ci, "ALLOC_FASTPATH"), as = stat_value(ci, "ALLOC_SLOWPATH");
	uint64_t ff = stat_value(ci, "FREE_FASTPATH"), fs = stat_value(ci, "FREE_SLOWPATH");
	if (af + as && ff + fs)
		fprintf(out, " | %%Fast alloc/free %.0f/%.0f", 100.0 * (double)af / (double)(af + as),
			100.0 * (double)ff / (double)(ff + fs));
}

/* slabinfo of the caches that were used (a used merged cache as a line naming its target),
 * then each cache's non-zero statistics. */
static void print_caches(FILE *out, const struct run *r)
{
	const struct kernel *k = &r->k;
	fprintf(out, "\n# Slab caches (slabinfo): caches that were used\n");
	fprintf(out, "%-20s %9s %7s %9s %12s %5s %2s %10s %9s\n", "Name", "Objects", "Objsize",
		"Space", "Slabs/Part", "O/S", "O", "Peak-slabs", "Peak-mem");
	for (int i = 0; i < k->ncaches; i++) {
		struct kmem_cache *c = k->caches[i];
		struct cache_info ci;
		k->policy->cache_info(k->pstate, c->alias ? c->alias : c, &ci);
		if (c->alias) {
			if (c->allocs)
				fprintf(out, "%-20s -> %s (merged)\n", c->name, c->alias->name);
			continue;
		}
		bool used = c->allocs > 0 || ci.slabs_peak > 0;
		for (int j = 0; j < k->ncaches && !used; j++)
			used = k->caches[j]->alias == c && k->caches[j]->allocs > 0;
		if (!used)
			continue;
		uint64_t bytes = ci.slabs * (PAGE_SIZE << ci.order);
		uint64_t peak = ci.slabs_peak * (PAGE_SIZE << ci.order);
		char slabs[32];
		snprintf(slabs, sizeof(slabs), "%llu/%llu", (unsigned long long)ci.slabs,
			 (unsigned long long)ci.partial);
		fprintf(out, "%-20s %9llu %7u %8.1fK %12s %5u %2u %10llu %8.1fK\n", c->name,
			(unsigned long long)ci.active, c->size, (double)bytes / 1024, slabs,
			ci.objs_per_slab, ci.order, (unsigned long long)ci.slabs_peak,
			(double)peak / 1024);
	}
	fprintf(out, "\n# %s statistics (non-zero counters)\n", r->policy->name);
	for (int i = 0; i < k->ncaches; i++) {
		struct kmem_cache *c = k->caches[i];
		if (c->alias)
			continue;
		struct cache_info ci;
		k->policy->cache_info(k->pstate, c, &ci);
		bool any = false;
		for (int s = 0; s < ci.nstats; s++)
			if (ci.stats[s].value) {
				if (!any)
					fprintf(out, "%s:", c->name);
				any = true;
				fprintf(out, " %s=%llu", ci.stats[s].name,
					(unsigned long long)ci.stats[s].value);
			}
		if (any) {
			print_fast_share(out, &ci);
			fprintf(out, "\n");
		}
	}
}

/* Lock classes by wait time, then acquisitions, most first; ties in name order. */
static int cmp_class(const void *a, const void *b)
{
	const struct hw_lock_class *x = *(const struct hw_lock_class *const *)a;
	const struct hw_lock_class *y = *(const struct hw_lock_class *const *)b;
	if (x->wait_total != y->wait_total)
		return x->wait_total < y->wait_total ? 1 : -1;
	if (x->acquisitions != y->acquisitions)
		return x->acquisitions < y->acquisitions ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* lock_stat's contention (or contending) points under a class's row: the
 * call sites that waited for it (that held it when another waited), with
 * the count, and for contention points the time waited from there. */
static void print_points(FILE *out, const struct hw_lock_class *c, const struct hw_lock_point *p,
			 const struct profile *prof, double us, bool wait)
{
	fprintf(out, "%38s\n", "-------------------------");
	for (int i = 0; i < LOCKSTAT_POINTS && p[i].sym >= 0; i++) {
		fprintf(out, "%38s %11llu  %s", c->name, (unsigned long long)p[i].contentions,
			prof->name[p[i].sym]);
		if (wait)
			fprintf(out, " (waittime-total %.2f)", (double)p[i].wait / us);
		fprintf(out, "\n");
	}
}

/* lock_stat's table of every class taken, most waited-on first, then a line on the
 * allocator's own locks against all of them. */
static void print_locks(FILE *out, const struct run *r)
{
	const struct hw *hw = &r->hw;
	double us = r->m.ghz * 1e3;	/* cycles per microsecond */
	fprintf(out, "\n# Locks (lock_stat; times in us, whole run; under a contended class, the\n"
		"# first %d call sites that waited for it, then the first %d that held it then)\n",
		LOCKSTAT_POINTS, LOCKSTAT_POINTS);
	fprintf(out, "%-38s %11s %11s %12s %12s %14s %12s %11s %12s %12s %12s %14s %12s\n",
		"class name", "con-bounces", "contentions", "waittime-min", "waittime-max",
		"waittime-total", "waittime-avg", "acq-bounces", "acquisitions", "holdtime-min",
		"holdtime-max", "holdtime-total", "holdtime-avg");
	const struct hw_lock_class **v = malloc((size_t)hw->nclasses * sizeof(*v));
	int n = 0;
	for (const struct hw_lock_class *c = hw->classes; c; c = c->next)
		if (c->acquisitions)
			v[n++] = c;
	qsort(v, (size_t)n, sizeof(*v), cmp_class);
	for (int i = 0; i < n; i++) {
		const struct hw_lock_class *c = v[i];
		double con = (double)c->contentions, acq = (double)c->acquisitions;
		fprintf(out, "%-38s %11llu %11llu %12.2f %12.2f %14.2f %12.2f %11llu %12llu %12.2f "
			"%12.2f %14.2f %12.2f\n",
			c->name, (unsigned long long)c->con_bounces,
			(unsigned long long)c->contentions,
			c->contentions ? (double)c->wait_min / us : 0.0, (double)c->wait_max / us,
			(double)c->wait_total / us,
			con > 0 ? (double)c->wait_total / con / us : 0.0,
			(unsigned long long)c->acq_bounces, (unsigned long long)c->acquisitions,
			c->hold_min != UINT64_MAX ? (double)c->hold_min / us : 0.0,
			(double)c->hold_max / us, (double)c->hold_total / us,
			(double)c->hold_total / acq / us);
		if (c->contentions) {
			print_points(out, c, c->contention_point, &r->eng.prof, us, true);
			print_points(out, c, c->contending_point, &r->eng.prof, us, false);
		}
	}
	free(v);
	struct lock_totals t[NR_LOCK_OWNERS + 1];
	report_lock_totals(r, t);
	const struct lock_totals *a = &t[LOCK_OWNER_ALLOCATOR], *all = &t[NR_LOCK_OWNERS];
	fprintf(out, "# the allocator's own locks: %llu acquisitions (%.1f%% of all), %llu contended, "
		"%.2f ms waited = %.1f%% of all CPU time (all locks: %.1f%%)\n",
		(unsigned long long)a->acquisitions,
		all->acquisitions ? 100.0 * (double)a->acquisitions / (double)all->acquisitions : 0.0,
		(unsigned long long)a->contentions, (double)a->wait_cycles / us / 1e3,
		100 * a->wait_share, 100 * all->wait_share);
}

/* perf report over the measured window: the first `rows` symbols, most cycles first. */
static void print_profile(FILE *out, const struct run *r, const struct run_window *w, int rows)
{
	const struct profile *p = &r->eng.prof;
	fprintf(out, "\n# Profile (perf report -a over the measured %.3f s; %d CPUs)\n",
		w->seconds, r->m.ncpus);
	fprintf(out, "# Overhead  Symbol\n");
	struct prof_row v[PROFILE_MAX_SYMS];
	int n = report_profile_rows(r, w, v);
	for (int i = 0; i < n && i < rows; i++) {
		const char *tag = p->kind[v[i].sym] == SYM_USER ? "[.]" : "[k]";
		fprintf(out, "  %7.2f%%  %s %s\n", 100.0 * (double)v[i].cycles / (double)w->total,
			tag, p->name[v[i].sym]);
	}
}

/* Why sampling was held back: the state test with its figures, or the
 * rule that failed. */
static void print_held(FILE *out, const struct steady_outcome *o, const char *why, double drift)
{
	if (o->gauge_name && drift > o->state_tol)
		fprintf(out, "the state drifts: at its trend, %s would move %.1f%% over the rest of "
			"the run, more than sample_state=%g", o->gauge_name, 100 * drift,
			o->state_tol);
	else
		fputs(why ? why : "", out);
}

/* What sample= did: how much was simulated, what was extrapolated. */
static void print_sample(FILE *out, const struct steady_outcome *o)
{
	if (o->mode == STEADY_OFF)
		return;
	const char *mode = o->mode == STEADY_AUTO ? "auto" : "observe";
	if (!o->planned) {
		fprintf(out, "Sampling (sample=%s): this workload reports no units of work; "
			"simulated in full\n", mode);
	} else if (o->extrapolated) {
		fprintf(out, "Sampling (sample=auto): settled after a warm-up of %llu %s; simulated "
			"%llu of %llu %s (%.1f%%, %.3f s), the rest extrapolated at the rate of %d "
			"batch means (95%% CI +-%.3f s)\n", (unsigned long long)o->warmup_units,
			o->unit, (unsigned long long)o->units_done, (unsigned long long)o->units,
			o->unit, 100 * o->simulated_fraction, o->measured_seconds, o->batches,
			o->ci_seconds);
	} else if (o->mode == STEADY_AUTO && o->settled) {
		fprintf(out, "Sampling (sample=auto): settled (warm-up %llu %s), but too near the end "
			"to skip any", (unsigned long long)o->warmup_units, o->unit);
		if (o->held_why) {
			fputs(" (until then: ", out);
			print_held(out, o, o->held_why, o->held_state_drift);
			fputc(')', out);
		}
		fputs("; simulated in full\n", out);
	} else if (o->mode == STEADY_OBSERVE && o->settled) {
		fprintf(out, "Sampling (sample=observe): simulated in full; auto would have stopped "
			"at %.1f%% of the %s (warm-up %llu) and said %.3f s (95%% CI +-%.3f s)\n",
			100 * o->would_fraction, o->unit, (unsigned long long)o->warmup_units,
			o->would_seconds, o->would_ci_seconds);
	} else {
		fprintf(out, "Sampling (sample=%s): did not settle (", mode);
		print_held(out, o, o->why, o->state_drift);
		if (o->state_refusals && !(o->state_drift > o->state_tol))
			fprintf(out, "; before that the rate settled %d times over a state still "
				"drifting", o->state_refusals);
		fputs("); simulated in full\n", out);
	}
	if (o->gauge && o->nseries > 0 && o->warmup_obs < o->nseries) {
		/* what the rate may not show: a skip would not age the state */
		fprintf(out, "Sampling (sample=observe): %s %.0f when the warm-up ended", o->gauge_name,
			o->gauge[o->warmup_obs]);
		int from = 0;
		if (o->stop_obs > 0 && o->stop_obs <= o->nseries) {
			fprintf(out, ", %.0f where auto would have stopped", o->gauge[o->stop_obs - 1]);
			from = o->stop_obs;
		}
		fprintf(out, ", %.0f halfway through the rest (series_%s in the JSON)\n",
			o->gauge[(from + o->nseries) / 2], o->gauge_name);
	}
}

/* What ignore-gfp-wait let through: the kernel's default spares every
 * allocation that may sleep, which surprises whoever expected failures. */
static void print_spared(FILE *out, const struct fault_attr *a, const char *param)
{
	if (a->spared)
		fprintf(out, "  (and %llu that may sleep spared: ignore-gfp-wait is Y, the "
			"kernel's default; %s=N fails them too)\n",
			(unsigned long long)a->spared, param);
}

/* The allocation failures section: what failslab= and fail_page_alloc= injected and what
 * the page allocator could not satisfy; only with fault injection on or such a failure. */
static void print_alloc_failures(FILE *out, const struct run *r)
{
	const struct kernel *k = &r->k;
	uint64_t oom = page_alloc_failures(&k->pa);
	if (!k->failslab.enabled && !k->fail_page_alloc.enabled && !oom)
		return;
	fprintf(out, "\n# Allocation failures\n");
	if (k->failslab.enabled)
		fprintf(out, "failslab=%s: %llu of %llu slab allocations failed\n",
			param_str(&k->params, "failslab"), (unsigned long long)k->failslab.injected,
			(unsigned long long)k->failslab.calls);
	print_spared(out, &k->failslab, "failslab_ignore_gfp_wait");
	if (k->fail_page_alloc.enabled)
		fprintf(out, "fail_page_alloc=%s: %llu of %llu page allocations of order >= %u "
			"failed\n", param_str(&k->params, "fail_page_alloc"),
			(unsigned long long)k->fail_page_alloc.injected,
			(unsigned long long)k->fail_page_alloc.calls, k->fail_page_alloc_min_order);
	print_spared(out, &k->fail_page_alloc, "fail_page_alloc_ignore_gfp_wait");
	fprintf(out, "page allocator: no free block %llu times (node_mem_mb=%lld)\n",
		(unsigned long long)oom, (long long)param_int(&k->params, "node_mem_mb"));
}

void report_text(FILE *out, const struct run *r, int profile_rows)
{
	struct run_window w;
	report_window(r, &w);
	print_header(out, r);
	fprintf(out, "%s\n", r->res.line);
	report_workload_print(out, r, r->cfg.compare);
	double total = 0;
	for (int c = 0; c < r->eng.ncpus; c++)
		if ((double)r->eng.cpus[c].clock > total)
			total = (double)r->eng.cpus[c].clock;
	total /= r->m.ghz * 1e9;
	/* the workload's own time first: timers (SLAB's cache_reap, the
	 * scheduler's) may keep the clock running after it ended */
	if (total > r->res.sim_seconds * 1.01 + 1e-3)
		fprintf(out, "Simulated %.3f s measured by the workload (%.3f s in all, with its "
			"set-up and the timers that ran on after it)", r->res.sim_seconds, total);
	else
		fprintf(out, "Simulated %.3f s", total);
	fprintf(out, " in %.2f s of wall time: %.2f simulated "
		"s per wall s, %llu events (%.1f M/s), %.0f MB of host memory at the peak\n",
		r->wall_seconds, r->wall_seconds > 0 ? total / r->wall_seconds : 0,
		(unsigned long long)r->eng.events,
		r->wall_seconds > 0 ? (double)r->eng.events / r->wall_seconds / 1e6 : 0,
		r->host_peak_rss_mb);
	print_sample(out, &r->res.sample);
	fprintf(out, "CPU time in the measured window: busy %.1f%%, slab allocator %.1f%%, "
		"spinning on locks %.1f%%\n", 100 * w.busy, 100 * w.slab, 100 * w.spin);
	/* a workload that never allocates (pingpong, lockbench) gets no empty
	 * slabinfo and perf kmem tables */
	bool allocated = r->k.kmem.total.allocs > 0;
	if (allocated)
		print_caches(out, r);
	print_locks(out, r);
	print_profile(out, r, &w, profile_rows);
	if (allocated)
		report_kmem_text(out, r, 10);
	else
		fprintf(out, "\n# No slab allocations in this run: no slabinfo, allocator "
			"statistics or perf kmem stat\n");
	print_alloc_failures(out, r);
	if (r->res.stopped[0])
		fprintf(out, "\nstopped early: %s\n", r->res.stopped);
	fprintf(out, "%sinvariants: %s\n", r->res.stopped[0] ? "" : "\n",
		r->invariants_ok ? "ok" : r->invariants_msg);
	if (r->cfg.check_interval_us)
		fprintf(out, "  checked %llu times mid-run (every %llu us, as a CPU left the "
			"allocator with none half-way; the longest wait for that %.1f us) and at "
			"the end\n", (unsigned long long)r->k.check.done,
			(unsigned long long)r->cfg.check_interval_us,
			(double)r->k.check.longest_wait / (r->m.ghz * 1e3));
	else if (r->cfg.check_every_ops)
		fprintf(out, "  checked %llu times mid-run (every %llu slab operations, as a CPU "
			"left the allocator with none half-way) and at the end\n",
			(unsigned long long)r->k.check.done,
			(unsigned long long)r->cfg.check_every_ops);
}
