/* bench.c - engine micro-benchmarks: the hold model, fiber round trips and
 * the cost of the ordering rule's hand-over between CPUs. Increments come
 * from a table drawn before the clock starts, so the RNG is not measured. */
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "engine.h"

#define HOLD_TABLE 65536u
#define HOLD_SPACING 64.0	/* mean cycles between pending events */

/* The host's monotonic clock, in seconds. */
static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct hold_state {
	struct engine *eng;
	uint32_t *incr;
	uint32_t next;
	uint64_t left;
};

/* A hold-model event: push itself again a drawn increment later, until `left` events are
 * done; then stop the engine. */
static void hold_fire(struct sim_event *e)
{
	struct hold_state *h = e->arg;
	if (h->left == 0) {
		h->eng->stop = true;
		return;
	}
	h->left--;
	e->time += h->incr[h->next++ & (HOLD_TABLE - 1)];
	eq_push(&h->eng->q, e);
}

double bench_hold(unsigned int pending, uint64_t events)
{
	struct engine eng;
	if (engine_init(&eng, 1, 1) < 0)
		return 0;
	uint32_t *incr = malloc(HOLD_TABLE * sizeof(*incr));
	struct sim_event *ev = calloc(pending, sizeof(*ev));
	struct hold_state h = { &eng, incr, 0, events };
	/* Mean distance grows with the queue, so event density (and the share
	 * of equal times) is the same at every size. */
	double mean = HOLD_SPACING * (double)pending;
	for (unsigned int i = 0; i < HOLD_TABLE; i++)
		incr[i] = 1 + (uint32_t)(-mean * log(1.0 - gsl_rng_uniform(eng.rng)));
	for (unsigned int i = 0; i < pending; i++) {
		ev[i].time = incr[i & (HOLD_TABLE - 1)];
		ev[i].fn = hold_fire;
		ev[i].arg = &h;
		eq_push(&eng.q, &ev[i]);
	}
	double t0 = now_seconds();
	engine_run(&eng);
	double dt = now_seconds() - t0;
	uint64_t n = eng.events;
	free(incr);
	free(ev);
	engine_destroy(&eng);
	return dt > 0 ? (double)n / dt : 0;
}

static struct fiber rt_main, rt_f;

/* The round-trip fiber: switch straight back to the main fiber, forever. */
static void rt_body(void *arg)
{
	(void)arg;
	for (;;)
		fiber_switch(&rt_f, &rt_main);
}

double bench_fiber_roundtrip(uint64_t iterations)
{
	fiber_init_main(&rt_main);
	if (fiber_create(&rt_f, rt_body, NULL, 16384) < 0)
		return 0;
	double t0 = now_seconds();
	for (uint64_t i = 0; i < iterations; i++)
		fiber_switch(&rt_main, &rt_f);
	double dt = now_seconds() - t0;
	fiber_destroy(&rt_f);
	return dt * 1e9 / (double)iterations;
}

struct sync_ctx {
	struct sim_cpu *cpu;
	struct fiber f;
	uint64_t left;
	int *running;
};

/* A CPU of the sync benchmark: charge a step (a different one per CPU) and cpu_sync(), `left`
 * times; the last CPU to finish stops the engine. */
static void sync_body(void *arg)
{
	struct sync_ctx *c = arg;
	uint64_t step = 100 + 7 * (uint64_t)c->cpu->id;
	while (c->left--) {
		cpu_charge(c->cpu, step);
		cpu_sync(c->cpu);
	}
	if (--*c->running == 0)
		c->cpu->eng->stop = true;
	cpu_suspend(c->cpu);
	abort();
}

double bench_sync(int ncpus, uint64_t syncs_per_cpu)
{
	struct engine eng;
	if (engine_init(&eng, ncpus, 1) < 0)
		return 0;
	struct sync_ctx *ctx = calloc((size_t)ncpus, sizeof(*ctx));
	int running = ncpus;
	for (int i = 0; i < ncpus; i++) {
		ctx[i].cpu = &eng.cpus[i];
		ctx[i].left = syncs_per_cpu;
		ctx[i].running = &running;
		fiber_create(&ctx[i].f, sync_body, &ctx[i], 16384);
		eng_start_cpu(&eng, &eng.cpus[i], &ctx[i].f, 0);
	}
	double t0 = now_seconds();
	engine_run(&eng);
	double dt = now_seconds() - t0;
	uint64_t yields = eng.yields;
	for (int i = 0; i < ncpus; i++)
		fiber_destroy(&ctx[i].f);
	free(ctx);
	engine_destroy(&eng);
	return dt > 0 ? (double)yields / dt : 0;
}
