/* engine.c - the event loop, per-CPU clocks and fiber hand-over.
 *
 * A CPU that must wait (cpu_sync found someone behind it) puts itself in the
 * ready heap and hands the host thread straight to the earliest CPU, without
 * a trip through the loop; only timers are dispatched by the loop itself.
 * Of the waiting, at equal times timers go first, then CPUs in CPU order; a
 * CPU already running at that time goes on (cpu_sync yields only to an
 * earlier time). */
#include "engine.h"
#include "engine/host_limit.h"
#include "engine/oom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ENGINE_POOL_EVENTS 4096

int engine_init(struct engine *eng, int ncpus, uint64_t seed)
{
	memset(eng, 0, sizeof(*eng));
	eng->host_limit = host_limit_get();
	if (eq_init(&eng->q) < 0)
		return -1;
	if (event_pool_init(&eng->pool, ENGINE_POOL_EVENTS) < 0)
		return -1;
	eng->leaves = 1;
	while (eng->leaves < ncpus)
		eng->leaves *= 2;
	eng->cpus = calloc((size_t)ncpus, sizeof(*eng->cpus));
	eng->resume_at = malloc(2 * (size_t)eng->leaves * sizeof(*eng->resume_at));
	eng->rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!eng->cpus || !eng->resume_at || !eng->rng || ncpus > (1 << ENGINE_CPU_BITS))
		return -1;
	for (int n = 1; n < 2 * eng->leaves; n++)
		eng->resume_at[n] = UINT64_MAX;
	gsl_rng_set(eng->rng, seed);
	eng->ncpus = ncpus;
	eng->horizon = UINT64_MAX;
	fiber_init_main(&eng->main);
	profile_init(&eng->prof);
	int sym_kernel = profile_sym(&eng->prof, "[kernel]", SYM_KERNEL);
	eng->sym_idle = profile_sym(&eng->prof, "cpu_idle", SYM_IDLE);
	for (int i = 0; i < ncpus; i++) {
		struct sim_cpu *c = &eng->cpus[i];
		c->id = i;
		c->eng = eng;
		c->sym = sym_kernel;
		c->asleep = true;
	}
	return 0;
}

void engine_destroy(struct engine *eng)
{
	eq_destroy(&eng->q);
	event_pool_destroy(&eng->pool);
	free(eng->cpus);
	free(eng->resume_at);
	if (eng->rng)
		gsl_rng_free(eng->rng);
	memset(eng, 0, sizeof(*eng));
}

/* --- the ready CPUs: a tournament tree --- */

/* Set a CPU's leaf to `key` and replay the matches on its path to the
 * root, up to the first whose winner does not change: each node holds the
 * smaller key of its two children. Keys hold the CPU number under the time,
 * so equal times go to the lower CPU, the one on the left. */
static inline void set_leaf(struct engine *eng, int cpu, uint64_t k)
{
	uint64_t *key = eng->resume_at;
	unsigned int n = (unsigned int)eng->leaves + (unsigned int)cpu;
	key[n] = k;
	while (n > 1) {
		uint64_t ks = key[n ^ 1];
		k = ks < k ? ks : k;
		n >>= 1;
		if (key[n] == k)
			break;	/* this match's winner is unchanged: so are the rest */
		key[n] = k;
	}
}

/* A CPU's key in the tournament tree: its clock above its CPU number. */
static inline uint64_t cpu_key(const struct sim_cpu *cpu)
{
	return cpu->clock << ENGINE_CPU_BITS | (uint64_t)cpu->id;
}

/* The clock of the earliest ready CPU, or UINT64_MAX if none is ready. */
static inline uint64_t first_ready_time(const struct engine *eng)
{
	uint64_t k = eng->resume_at[1];
	return k == UINT64_MAX ? UINT64_MAX : k >> ENGINE_CPU_BITS;
}

/* Recompute the horizon: the earlier of the first timer and the first ready CPU. */
static inline void update_horizon(struct engine *eng)
{
	uint64_t t = eq_min_time(&eng->q);
	uint64_t c = first_ready_time(eng);
	eng->horizon = c < t ? c : t;
}

/* Put a CPU in the ready tree at its clock (a clock past ENGINE_TIME_MAX is fatal) and lower
 * the horizon to it if earlier. */
static void ready_push(struct engine *eng, struct sim_cpu *cpu)
{
	cpu->queued = true;
	if (cpu->clock > ENGINE_TIME_MAX) {
		eng->fatal = "a CPU's clock passed 2^52 cycles, the engine's limit";
		eng->stop = true;
		cpu->clock = ENGINE_TIME_MAX;
	}
	set_leaf(eng, cpu->id, cpu_key(cpu));
	if (cpu->clock < eng->horizon)
		eng->horizon = cpu->clock;
}

/* Every 2^22 events (a second or so of host time): the run's host memory
 * against its limit. Over it, the run stops (the model's state grows with
 * the simulated objects, and the host's OOM killer would end it mute). */
#define HOST_CHECK_MASK ((1ull << 22) - 1)

/* Stop the run, fatally, if the host's resident memory is over the limit. */
static void __attribute__((noinline)) host_check(struct engine *eng)
{
	uint64_t rss = host_rss_bytes();
	if (rss <= eng->host_limit)
		return;
	snprintf(eng->fatal_buf, sizeof(eng->fatal_buf),
		 "out of host memory: the simulation holds %.1f MB, over the %.1f MB allowed "
		 "(--host-memory); shrink the workload (groups, loops, tasks), node_mem_mb "
		 "or the machine, or raise --host-memory",
		 (double)rss / (1 << 20), (double)eng->host_limit / (1 << 20));
	eng->fatal = eng->fatal_buf;
	eng->stop = true;
}

/* Take the earliest ready CPU off the tree and advance `now` to its time; counts an event,
 * checking host memory every 2^22. */
static struct sim_cpu *ready_pop(struct engine *eng)
{
	uint64_t k = eng->resume_at[1];
	int id = (int)(k & ((1u << ENGINE_CPU_BITS) - 1));
	struct sim_cpu *cpu = &eng->cpus[id];
	eng->now = k >> ENGINE_CPU_BITS;
	set_leaf(eng, id, UINT64_MAX);
	cpu->queued = false;
	if (!(++eng->events & HOST_CHECK_MASK) && eng->host_limit)
		host_check(eng);
	update_horizon(eng);
	return cpu;
}

/* Is the earliest pending item a CPU (rather than a timer or nothing)? */
static inline bool cpu_is_next(struct engine *eng)
{
	uint64_t c = first_ready_time(eng);
	return c != UINT64_MAX && c < eq_min_time(&eng->q);
}

/* --- the loop --- */

void engine_run(struct engine *eng)
{
	while (!eng->stop) {
		if (eng->tick && ++eng->turns >= eng->tick_at) {
			eng->tick_at = eng->turns + ENGINE_TICK;
			eng->tick(eng->tick_arg);
		}
		if (cpu_is_next(eng)) {
			struct sim_cpu *cpu = ready_pop(eng);
			eng->running = cpu;
			fiber_switch(&eng->main, cpu->cur);
			eng->running = NULL;
			continue;
		}
		struct sim_event *e = eq_pop(&eng->q);
		if (!e)
			break;
		update_horizon(eng);
		eng->now = e->time;
		eng->events++;
		e->fn(e);
		if (e->pooled)
			event_pool_put(&eng->pool, e);
	}
}

void eng_start_cpu(struct engine *eng, struct sim_cpu *cpu, struct fiber *f, uint64_t t)
{
	cpu->cur = f;
	cpu->clock = t;
	cpu->asleep = false;
	ready_push(eng, cpu);
}

struct sim_event *eng_timer_at(struct engine *eng, uint64_t t, sim_event_fn fn,
			       void *arg, uint64_t data)
{
	struct sim_event *e = event_pool_get(&eng->pool);
	if (!e)
		host_oom(__func__);
	e->time = t;
	e->fn = fn;
	e->arg = arg;
	e->data = data;
	e->pooled = true;
	eq_push(&eng->q, e);
	if (t < eng->horizon)
		eng->horizon = t;
	return e;
}

void eng_timer_cancel(struct engine *eng, struct sim_event *ev)
{
	if (eq_remove(&eng->q, ev)) {
		event_pool_put(&eng->pool, ev);
		update_horizon(eng);
	}
}

/* Leave the running fiber of `cpu` (already queued or suspended): hand the
 * host thread to the earliest CPU, or to the loop if a timer comes first. */
static void switch_away(struct sim_cpu *cpu)
{
	struct engine *eng = cpu->eng;
	/* straight to the next CPU, or through the loop when a tick is due
	 * (the loop takes the same CPU next: the same run) */
	if (!eng->stop && cpu_is_next(eng) && !(eng->tick && ++eng->turns >= eng->tick_at)) {
		struct sim_cpu *next = ready_pop(eng);
		eng->running = next;
		if (next != cpu)
			fiber_switch(cpu->cur, next->cur);
		eng->running = cpu;
		return;
	}
	fiber_switch(cpu->cur, &eng->main);
	eng->running = cpu;
}

void cpu_yield(struct sim_cpu *cpu)
{
	struct engine *eng = cpu->eng;
	eng->yields++;
	ready_push(eng, cpu);
	switch_away(cpu);
}

void cpu_suspend(struct sim_cpu *cpu)
{
	cpu->asleep = true;
	switch_away(cpu);
}

void eng_wake_cpu(struct sim_cpu *cpu, uint64_t t, int spin_sym)
{
	struct engine *eng = cpu->eng;
	if (!cpu->asleep)
		return;
	if (t > cpu->clock) {
		uint64_t gap = t - cpu->clock;
		if (spin_sym >= 0) {
			cpu_charge_spin(cpu, spin_sym, gap);
		} else {
			cpu->clock = t;
			eng->prof.cycles[eng->sym_idle] += gap;
		}
	}
	cpu->asleep = false;
	ready_push(eng, cpu);
}

void cpu_switch_fiber(struct sim_cpu *cpu, struct fiber *to)
{
	struct fiber *from = cpu->cur;
	if (from == to)
		return;
	cpu->cur = to;
	fiber_switch(from, to);
}
