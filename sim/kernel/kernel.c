/* kernel.c - the kernel's parameters and presets, and building one kernel:
 * page allocator, scheduler, slab policy, kmalloc caches, skbuff cache. */
#include "kernel.h"
#include "engine/array_size.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/slab_policy.h"
#include "skbuff.h"
#include "slab.h"

const struct param_def kernel_param_defs[] = {
	{ "kernel", PT_ENUM, "2.6.25", 0, 0, "2.6.24|2.6.25-rc5|2.6.25|2.6.26|3.0|3.1|3.2|6.18|7.0",
	  "kernel version whose defaults (lock kind, SLUB era, scheduler) apply; 2.6.25-rc5 "
	  "is 2.6.25 with the scheduler and socket wake-ups from before 2.6.25-rc7" },
	{ "spinlock", PT_ENUM, "ticket", 0, 0, "byte|ticket|queued",
	  "x86 spinlock: byte (up to 2.6.24, unfair), ticket (2.6.25-4.1, FIFO) or "
	  "queued (4.2+, MCS)" },
	{ "node_mem_mb", PT_INT, "16384", 64, 1 << 22, NULL, "memory per NUMA node, MB" },
	{ "sched_latency_ns", PT_DOUBLE, "20000000", 1e5, 1e10, NULL,
	  "CFS target latency before scaling by 1+ilog2(ncpus)" },
	{ "sched_min_granularity_ns", PT_DOUBLE, "4000000", 1e4, 1e10, NULL,
	  "CFS minimum slice before scaling" },
	{ "sched_wakeup_granularity_ns", PT_DOUBLE, "5000000", 0, 1e10, NULL,
	  "a wakee preempts if owed this much more (before scaling)" },
	{ "sched_migration_cost_ns", PT_DOUBLE, "500000", 0, 1e10, NULL,
	  "below this average overlap a sync wake-up is affine" },
	{ "sched_balance_interval_us", PT_DOUBLE, "4000", 10, 1e7, NULL,
	  "how often a CPU looks for an imbalance" },
	{ "wake_affine", PT_BOOL, "1", 0, 1, NULL, "pull sync wakees to the waker's CPU" },
	{ "unix_scm_creds", PT_INT, "-1", -1, 1, NULL,
	  "AF_UNIX stream messages carry the writer's pid and cred references (SCM "
	  "credentials): -1 the era's (2.6.36 to 3.1 do, 3.2 stopped by default), 0 or 1" },
	{ "sizeof_sk_buff", PT_INT, "184", 64, 4096, NULL,
	  "sizeof(struct sk_buff): the skbuff_head_cache object and truesize" },
	{ "failslab", PT_STR, "", 0, 0, NULL,
	  "fail slab allocations: INTERVAL,PROBABILITY,SPACE,TIMES as the kernel's boot "
	  "parameter (e.g. 1,10,0,-1: 10% of them, no limit); empty: off" },
	{ "fail_page_alloc", PT_STR, "", 0, 0, NULL,
	  "fail page allocations of at least fail_page_alloc_min_order, the same four "
	  "figures; empty: off" },
	{ "fail_page_alloc_min_order", PT_INT, "1", 0, 10, NULL,
	  "fail_page_alloc's min-order: smaller allocations never fail (the kernel's "
	  "default, 1, spares single pages)" },
	{ "failslab_ignore_gfp_wait", PT_BOOL, "1", 0, 0, NULL,
	  "failslab's ignore-gfp-wait: Y (the kernel's default) fails only allocations that "
	  "cannot sleep (GFP_ATOMIC, GFP_NOWAIT); N fails GFP_KERNEL ones too" },
	{ "fail_page_alloc_ignore_gfp_wait", PT_BOOL, "1", 0, 0, NULL,
	  "fail_page_alloc's ignore-gfp-wait, as failslab_ignore_gfp_wait" },
	{ NULL },
};

int kernel_version_code(const char *v)
{
	int a = 0, b = 0, c = 0;
	if (sscanf(v, "%d.%d.%d", &a, &b, &c) < 2)
		return -1;
	return a * 10000 + b * 100 + c;
}

int kernel_release_candidate(const char *v)
{
	const char *rc = strstr(v, "-rc");
	return rc ? atoi(rc + 3) : 0;
}

int kernel_presets(struct param_set *ps, struct sim_err *err)
{
	struct fault_attr a;	/* refused here, before a run is built */
	if (fault_attr_parse(&a, "failslab", param_str(ps, "failslab"), err) < 0 ||
	    fault_attr_parse(&a, "fail_page_alloc", param_str(ps, "fail_page_alloc"), err) < 0)
		return -1;
	const char *version = param_str(ps, "kernel");
	int era = kernel_version_code(version), rc = kernel_release_candidate(version);
	const char *lock = era >= 40200 ? "queued" : era >= 20625 ? "ticket" : "byte";
	if (params_preset(ps, "spinlock", lock, err) < 0)
		return -1;
	/* sysctl_sched_wakeup_granularity: 10 ms, 5 ms from 2.6.25-rc7 (74e3cd7f480)
	 * to 2.6.25, 10 ms again */
	if (params_preset(ps, "sched_wakeup_granularity_ns",
			  era == 20625 && kernel_has_2625rc7_sched(era, rc) ? "5000000" : "10000000",
			  err) < 0)
		return -1;
	return 0;
}

const char *kernel_alloc_failures(const struct kernel *k, char *buf, size_t size)
{
	uint64_t oom = page_alloc_failures(&k->pa);
	snprintf(buf, size, "failslab had injected %llu failure%s, fail_page_alloc %llu, and the "
		 "page allocator had found no free block %llu times (node_mem_mb=%lld)",
		 (unsigned long long)k->failslab.injected, k->failslab.injected == 1 ? "" : "s",
		 (unsigned long long)k->fail_page_alloc.injected, (unsigned long long)oom,
		 (long long)param_int(&k->params, "node_mem_mb"));
	return buf;
}

void kernel_violation(struct kernel *k, const char *fmt, ...)
{
	if (k->violated)
		return;
	k->violated = true;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(k->violation, sizeof(k->violation), fmt, ap);
	va_end(ap);
	k->eng->stop = true;
}

/* The kernel's cycle costs (system call, socket and skb paths, copy, wake-up) from the
 * machine's cost table. */
static int load_costs(struct kernel *k, struct sim_err *err)
{
	const struct cost_ref costs[] = {
		{ "syscall", &k->cost.syscall }, { "sys_rw", &k->cost.sys_rw },
		{ "unix_stream_sendmsg", &k->cost.unix_sendmsg },
		{ "unix_stream_recvmsg", &k->cost.unix_recvmsg },
		{ "alloc_skb", &k->cost.alloc_skb }, { "kfree_skb", &k->cost.free_skb },
		{ "skb_queue", &k->cost.skb_queue }, { "copy_line", &k->cost.copy_line },
		{ "wake_up", &k->cost.wake_up }, { "sock_wfree", &k->cost.sock_wfree },
		{ "user_per_call", &k->cost.user_per_call },
		{ "syscall_cold_lines", &k->cost.syscall_cold_lines },
	};
	return machine_costs(k->m, costs, ARRAY_SIZE(costs), err);
}

/* The profile symbols the kernel's work is charged to, named after the kernel functions. */
static void register_symbols(struct kernel *k)
{
	struct profile *p = &k->eng->prof;
	k->sym_user = profile_sym(p, "[user]", SYM_USER);
	k->sym_syscall = profile_sym(p, "system_call", SYM_KERNEL);
	k->sym_sys_write = profile_sym(p, "sys_write", SYM_KERNEL);
	k->sym_sys_read = profile_sym(p, "sys_read", SYM_KERNEL);
	k->sym_sendmsg = profile_sym(p, "unix_stream_sendmsg", SYM_KERNEL);
	k->sym_recvmsg = profile_sym(p, "unix_stream_recvmsg", SYM_KERNEL);
	k->sym_alloc_skb = profile_sym(p, "__alloc_skb", SYM_KERNEL);
	k->sym_kfree_skb = profile_sym(p, "__kfree_skb", SYM_KERNEL);
	k->sym_copy = profile_sym(p, "copy_user_generic_string", SYM_KERNEL);
	k->sym_wake_up = profile_sym(p, "__wake_up_sync", SYM_KERNEL);
	k->sym_sock_wfree = profile_sym(p, "sock_wfree", SYM_KERNEL);
	k->sym_kmalloc = profile_sym(p, "__kmalloc", SYM_SLAB);
	k->sym_kmalloc_track = profile_sym(p, "__kmalloc_track_caller", SYM_SLAB);
	k->sym_kfree = profile_sym(p, "kfree", SYM_SLAB);
	k->sym_cache_alloc = profile_sym(p, "kmem_cache_alloc", SYM_SLAB);
	k->sym_cache_free = profile_sym(p, "kmem_cache_free", SYM_SLAB);
}

int kernel_init(struct kernel *k, struct engine *eng, struct hw *hw,
		const struct machine *m, const struct param_set *params,
		const struct slab_policy *policy, const struct param_set *policy_params,
		struct sim_err *err)
{
	memset(k, 0, sizeof(*k));
	k->eng = eng;
	k->hw = hw;
	k->m = m;
	k->params = *params;
	k->era = kernel_version_code(param_str(params, "kernel"));
	k->rc = kernel_release_candidate(param_str(params, "kernel"));
	k->lock_kind = (enum hw_lock_kind)hw_lock_kind_parse(param_str(params, "spinlock"));
	k->policy = policy;
	if (fault_attr_parse(&k->failslab, "failslab", param_str(params, "failslab"), err) < 0 ||
	    fault_attr_parse(&k->fail_page_alloc, "fail_page_alloc",
			     param_str(params, "fail_page_alloc"), err) < 0)
		return -1;
	k->fail_page_alloc_min_order = (unsigned int)param_int(params, "fail_page_alloc_min_order");
	k->failslab.ignore_gfp_wait = param_int(params, "failslab_ignore_gfp_wait");
	k->fail_page_alloc.ignore_gfp_wait = param_int(params, "fail_page_alloc_ignore_gfp_wait");
	k->gfp_context = malloc((size_t)eng->ncpus * sizeof(*k->gfp_context));
	if (!k->gfp_context)
		return sim_fail(err, "out of memory");
	for (int c = 0; c < eng->ncpus; c++)
		k->gfp_context[c] = GFP_KERNEL;
	register_symbols(k);
	if (kmem_stat_init(&k->kmem, eng->ncpus) < 0)
		return sim_fail(err, "out of memory");
	if (load_costs(k, err) < 0)
		return -1;
	uint64_t pages = (uint64_t)param_int(params, "node_mem_mb") << (20 - PAGE_SHIFT);
	if (page_alloc_init(&k->pa, k, pages, err) < 0 || sched_init(&k->sched, k, err) < 0)
		return -1;
	/* the caches hold lines of this memory only: their tags can be narrow */
	uint64_t node_lines = k->pa.total_pages / (uint64_t)k->pa.nodes << (PAGE_SHIFT - 6);
	int node_shift = 0;
	while ((1ull << node_shift) < node_lines)
		node_shift++;
	if (hw_caches_layout(hw, (uint32_t)k->pa.nodes,
			     (1ull << node_shift) == node_lines ? node_shift : 64) < 0)
		return sim_fail(err, "out of memory for the caches");
	int owner = hw_lock_owner_set(hw, LOCK_OWNER_ALLOCATOR);	/* the policy's locks */
	int rc = policy->create(k, policy_params, &k->pstate, err);
	hw_lock_owner_set(hw, owner);
	if (rc < 0)
		return -1;
	k->skb = calloc(1, sizeof(*k->skb));
	if (!k->skb)
		return sim_fail(err, "out of memory");
	if (kmem_cache_init(k, err) < 0 || skb_init(k, k->skb, err) < 0)
		return -1;
	return 0;
}

int kernel_caches_ready(struct kernel *k, struct sim_err *err)
{
	if (k->policy->init_done && k->policy->init_done(k->pstate, err) < 0)
		return -1;
	return 0;
}

void kernel_destroy(struct kernel *k)
{
	sched_destroy(&k->sched);
	if (k->pstate)
		k->policy->destroy(k->pstate);
	for (int i = 0; i < k->ncaches; i++)
		free(k->caches[i]);
	free(k->caches);
	free(k->skb);
	free(k->gfp_context);
	kmem_stat_destroy(&k->kmem);
	page_alloc_destroy(&k->pa);
	steady_destroy(&k->steady);
}

void kernel_mark(struct kernel *k, bool start)
{
	int w = start ? 0 : 1;
	struct engine *eng = k->eng;
	uint64_t now = eng->running ? eng->running->clock : eng->now;
	k->win.marked[w] = true;
	k->win.time[w] = now;
	k->win.busy[w] = k->win.slab[w] = k->win.spin[w] = k->win.ahead[w] = 0;
	memcpy(k->win.cycles[w], eng->prof.cycles, sizeof(k->win.cycles[w]));
	for (int c = 0; c < eng->ncpus; c++) {
		const struct sim_cpu *cpu = &eng->cpus[c];
		k->win.busy[w] += cpu->busy;
		k->win.slab[w] += cpu->in_region;	/* slab.c tallies the allocator */
		k->win.spin[w] += cpu->spin;
		if (cpu->clock > now) {
			k->win.ahead[w] += cpu->clock - now;	/* charged past the mark */
		} else if (cpu->asleep && !cpu->idle_wait) {
			/* spinning since its clock: the wait is charged when it ends,
			 * so the mark counts its part up to now */
			uint64_t gap = now - cpu->clock;
			k->win.busy[w] += gap;
			k->win.spin[w] += gap;
			k->win.slab[w] += cpu->region ? gap : 0;
			k->win.cycles[w][k->hw->waiter[c].sym] += gap;
		}
	}
}

/* The measured window's books: no CPU share over 100%. Each count over the
 * window (busy, in the allocator, spinning, each profile symbol) is at most
 * the CPUs' cycles in it, give or take what CPUs had run on past either
 * mark (they charge work before they sync). */
static int window_check(const struct kernel *k, struct sim_err *err)
{
	if (!k->win.marked[0] || !k->win.marked[1])
		return 0;
	if (k->win.time[1] < k->win.time[0])
		return sim_fail(err, "the measured window ends before it starts");
	const struct engine *eng = k->eng;
	uint64_t span = k->win.time[1] - k->win.time[0], total = span * (uint64_t)eng->ncpus;
	uint64_t most = total + k->win.ahead[0] + k->win.ahead[1];
	const struct {
		const char *what;
		uint64_t n;
	} c[] = { { "busy", k->win.busy[1] - k->win.busy[0] },
		  { "in the slab allocator", k->win.slab[1] - k->win.slab[0] },
		  { "spinning on locks", k->win.spin[1] - k->win.spin[0] } };
	for (size_t i = 0; i < ARRAY_SIZE(c); i++)
		if (c[i].n > most)
			return sim_fail(err, "the measured window: %.2f%% of the CPU time %s",
					100.0 * (double)c[i].n / (double)total, c[i].what);
	for (int s = 0; s < eng->prof.nsyms; s++) {
		uint64_t n = k->win.cycles[1][s] - k->win.cycles[0][s];
		if (eng->prof.kind[s] != SYM_IDLE && n > most)	/* idle: what busy leaves */
			return sim_fail(err, "the measured window: %.2f%% of the CPU time in %s",
					100.0 * (double)n / (double)total, eng->prof.name[s]);
	}
	return 0;
}

int kernel_check(struct kernel *k, struct sim_err *err)
{
	return kernel_check_state(k, true, err);
}

/* Whether the allocators' books are whole at this moment: no CPU inside the
 * slab allocator, no delayed work half-way (both may yield with objects in
 * hand) and nobody holding a zone's lock in the page allocator. */
static bool allocators_idle(const struct kernel *k)
{
	if (k->works_running || k->pa.zone_lock_class.held)
		return false;
	for (int c = 0; c < k->eng->ncpus; c++)
		if (k->eng->cpus[c].region)
			return false;
	return true;
}

void kernel_check_every(struct kernel *k, uint64_t cycles)
{
	k->check.every = cycles;
	k->check.due = cycles;
}

void kernel_check_every_ops(struct kernel *k, uint64_t ops)
{
	k->check.every_ops = ops;
	k->check.due_ops = ops;
}

void kernel_check_due(struct kernel *k, struct sim_cpu *cpu)
{
	if (!allocators_idle(k))
		return;	/* the next CPU to leave the allocator tries again */
	if (k->check.every) {
		uint64_t waited = cpu->clock > k->check.due ? cpu->clock - k->check.due : 0;
		if (waited > k->check.longest_wait)
			k->check.longest_wait = waited;
		k->check.due = cpu->clock + k->check.every;
	}
	k->check.done++;
	k->check.due_ops = k->check.ops + k->check.every_ops;
	struct sim_err err;
	if (kernel_check_state(k, false, &err) < 0)
		kernel_violation(k, "mid-run check at %.6f s: %s",
				 (double)cpu->clock / (k->m->ghz * 1e9), err.msg);
}

int kernel_check_state(struct kernel *k, bool at_end, struct sim_err *err)
{
	if (k->violated)
		return sim_fail(err, "%s", k->violation);
	if (page_alloc_check(&k->pa, err) < 0 || hw_locks_check(k->hw, at_end, err) < 0 ||
	    (at_end && window_check(k, err) < 0))
		return -1;
	for (int i = 0; i < k->ncaches; i++)
		if (k->policy->check(k->pstate, k->caches[i], err) < 0)
			return -1;
	uint64_t slab_pages = 0;
	for (int i = 0; i < k->ncaches; i++) {
		struct cache_info ci;
		if (k->caches[i]->alias)
			continue;
		k->policy->cache_info(k->pstate, k->caches[i], &ci);
		slab_pages += ci.pages ? ci.pages : ci.slabs << ci.order;
	}
	if (slab_pages != k->pa.slab_pages)
		return sim_fail(err, "slab pages: caches hold %llu but the page allocator "
				"counts %llu in NR_SLAB", (unsigned long long)slab_pages,
				(unsigned long long)k->pa.slab_pages);
	return 0;
}
