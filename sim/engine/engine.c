/* engine.c - event loop, per-CPU clocks and fiber hand-over.
 *
 * The engine pops the earliest event; a CPU-resume event continues that CPU's
 * fiber. A fiber that must wait (cpu_sync found a CPU behind it) queues its
 * own resume event and hands the host thread straight to the next CPU when
 * that is the earliest event, skipping a trip through the loop. */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

#define ENGINE_POOL_EVENTS 4096

static void cpu_resume_fn(struct sim_event *e);

int engine_init(struct engine *eng, int ncpus, uint64_t seed)
{
	memset(eng, 0, sizeof(*eng));
	if (eq_init(&eng->q) < 0)
		return -1;
	if (event_pool_init(&eng->pool, ENGINE_POOL_EVENTS) < 0)
		return -1;
	eng->cpus = calloc((size_t)ncpus, sizeof(*eng->cpus));
	eng->rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!eng->cpus || !eng->rng)
		return -1;
	gsl_rng_set(eng->rng, seed);
	eng->ncpus = ncpus;
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
		c->resume.fn = cpu_resume_fn;
		c->resume.arg = c;
	}
	return 0;
}

void engine_destroy(struct engine *eng)
{
	eq_destroy(&eng->q);
	event_pool_destroy(&eng->pool);
	free(eng->cpus);
	if (eng->rng)
		gsl_rng_free(eng->rng);
	memset(eng, 0, sizeof(*eng));
}

static void cpu_resume_fn(struct sim_event *e)
{
	struct sim_cpu *cpu = e->arg;
	struct engine *eng = cpu->eng;
	cpu->queued = false;
	eng->running = cpu;
	fiber_switch(&eng->main, cpu->cur);
	eng->running = NULL;
}

void engine_run(struct engine *eng)
{
	while (!eng->stop) {
		struct sim_event *e = eq_pop(&eng->q);
		if (!e)
			break;
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
	cpu->queued = true;
	cpu->resume.time = t;
	eq_push(&eng->q, &cpu->resume);
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
	return e;
}

void eng_timer_cancel(struct engine *eng, struct sim_event *ev)
{
	if (eq_remove(&eng->q, ev))
		event_pool_put(&eng->pool, ev);
}

void eng_event_free(struct engine *eng, struct sim_event *ev)
{
	event_pool_put(&eng->pool, ev);
}

/* Leave the running fiber of `cpu`: hand over directly to the next CPU if it
 * is the earliest event, else return to the engine loop. */
static void switch_away(struct sim_cpu *cpu)
{
	struct engine *eng = cpu->eng;
	struct sim_event *e = eng->stop ? NULL : eq_peek(&eng->q);
	if (e && e->fn == cpu_resume_fn) {
		eq_pop(&eng->q);
		eng->now = e->time;
		eng->events++;
		struct sim_cpu *next = e->arg;
		next->queued = false;
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
	cpu->queued = true;
	cpu->resume.time = cpu->clock;
	eq_push(&eng->q, &cpu->resume);
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
	cpu->queued = true;
	cpu->resume.time = cpu->clock;
	eq_push(&eng->q, &cpu->resume);
}

void cpu_switch_fiber(struct sim_cpu *cpu, struct fiber *to)
{
	struct fiber *from = cpu->cur;
	if (from == to)
		return;
	cpu->cur = to;
	fiber_switch(from, to);
}
