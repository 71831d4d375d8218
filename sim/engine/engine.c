/* engine.c - the event loop, per-CPU clocks and fiber hand-over.
 *
 * A CPU that must wait (cpu_sync found someone behind it) puts itself in the
 * ready heap and hands the host thread straight to the earliest CPU, without
 * a trip through the loop; only timers are dispatched by the loop itself.
 * At equal times timers go first, then CPUs in the order they were queued. */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

#define ENGINE_POOL_EVENTS 4096

int engine_init(struct engine *eng, int ncpus, uint64_t seed)
{
	memset(eng, 0, sizeof(*eng));
	if (eq_init(&eng->q) < 0)
		return -1;
	if (event_pool_init(&eng->pool, ENGINE_POOL_EVENTS) < 0)
		return -1;
	eng->cpus = calloc((size_t)ncpus, sizeof(*eng->cpus));
	eng->ready = calloc((size_t)ncpus, sizeof(*eng->ready));
	eng->rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!eng->cpus || !eng->ready || !eng->rng)
		return -1;
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
	free(eng->ready);
	if (eng->rng)
		gsl_rng_free(eng->rng);
	memset(eng, 0, sizeof(*eng));
}

/* --- the ready heap --- */

static inline bool slot_before(const struct cpu_slot *a, const struct cpu_slot *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void sift_down(struct engine *eng, int i)
{
	struct cpu_slot *h = eng->ready;
	int n = eng->nready;
	struct cpu_slot x = h[i];
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		const struct cpu_slot *best = &x;
		if (l < n && slot_before(&h[l], best))
			m = l, best = &h[l];
		if (r < n && slot_before(&h[r], best))
			m = r;
		if (m == i)
			break;
		h[i] = h[m];
		i = m;
	}
	h[i] = x;
}

static void sift_up(struct engine *eng, int i)
{
	struct cpu_slot *h = eng->ready;
	struct cpu_slot x = h[i];
	while (i > 0) {
		int p = (i - 1) / 2;
		if (!slot_before(&x, &h[p]))
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = x;
}

static inline void update_horizon(struct engine *eng)
{
	uint64_t t = eq_min_time(&eng->q);
	if (eng->nready && eng->ready[0].time < t)
		t = eng->ready[0].time;
	eng->horizon = t;
}

static void ready_push(struct engine *eng, struct sim_cpu *cpu)
{
	cpu->queued = true;
	eng->ready[eng->nready] = (struct cpu_slot){ cpu->clock, eng->seq++, cpu };
	sift_up(eng, eng->nready++);
	if (cpu->clock < eng->horizon)
		eng->horizon = cpu->clock;
}

static struct sim_cpu *ready_pop(struct engine *eng)
{
	struct sim_cpu *cpu = eng->ready[0].cpu;
	eng->now = eng->ready[0].time;
	eng->ready[0] = eng->ready[--eng->nready];
	if (eng->nready)
		sift_down(eng, 0);
	cpu->queued = false;
	eng->events++;
	update_horizon(eng);
	return cpu;
}

/* Is the earliest pending item a CPU (rather than a timer or nothing)? */
static inline bool cpu_is_next(struct engine *eng)
{
	return eng->nready && eng->ready[0].time < eq_min_time(&eng->q);
}

/* --- the loop --- */

void engine_run(struct engine *eng)
{
	while (!eng->stop) {
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
		abort();	/* out of memory: nothing sensible to simulate */
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

void eng_event_free(struct engine *eng, struct sim_event *ev)
{
	event_pool_put(&eng->pool, ev);
}

/* Leave the running fiber of `cpu` (already queued or suspended): hand the
 * host thread to the earliest CPU, or to the loop if a timer comes first. */
static void switch_away(struct sim_cpu *cpu)
{
	struct engine *eng = cpu->eng;
	if (!eng->stop && cpu_is_next(eng)) {
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
	if (!eng->stop && eng->nready && eng->ready[0].time < cpu->clock &&
	    eng->ready[0].time < eq_min_time(&eng->q)) {
		/* Another CPU is earliest: take its place in the heap and run it. */
		struct cpu_slot next = eng->ready[0];
		eng->ready[0] = (struct cpu_slot){ cpu->clock, eng->seq++, cpu };
		cpu->queued = true;
		sift_down(eng, 0);
		next.cpu->queued = false;
		eng->now = next.time;
		eng->events++;
		update_horizon(eng);
		eng->running = next.cpu;
		fiber_switch(cpu->cur, next.cpu->cur);
		eng->running = cpu;
		return;
	}
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
