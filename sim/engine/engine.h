/* engine.h - the discrete-event engine: one clock per simulated CPU, fibers,
 * timers, and the ordering rule.
 *
 * Ordering rule (docs/model.md): a CPU touches state other CPUs can see only when
 * no other CPU can still act at an earlier simulated time. Code running on a
 * simulated CPU calls cpu_sync() before such an access; if another CPU (or a
 * timer) is behind, the fiber yields and resumes once its clock is the
 * earliest. Private work only advances the CPU's own clock.
 *
 * Pending work is kept in two places: CPUs waiting to resume in a tournament
 * tree with one leaf per CPU (the hot path: a yield updates two leaf-to-root
 * paths and switches fibers once), and timers in the calendar queue.
 * `horizon` caches the earliest of both. CPUs resuming at the same cycle run
 * in CPU order; timers at that cycle run before them (a CPU already running
 * at that cycle goes on: cpu_sync yields only to an earlier time). */
#ifndef SIM_ENGINE_H
#define SIM_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "event_queue.h"
#include "fiber.h"
#include "profile.h"

struct engine;

/* A tree key: a resume time above the bits of a CPU number, so that one
 * unsigned compare orders by time and then by CPU. Times must stay below
 * 2^52 cycles (about two weeks of simulated time at 4 GHz). */
#define ENGINE_CPU_BITS 12		/* machine.c allows up to 4096 CPUs */
#define ENGINE_TIME_MAX ((1ull << (64 - ENGINE_CPU_BITS)) - 1)

struct sim_cpu {
	uint64_t clock;		/* this CPU's simulated time, in cycles */
	int id;
	int sym;		/* profile symbol being charged */
	int region;		/* > 0 while inside an upper layer's tallied region
				 * (cpu_region_enter/exit; the kernel's: the slab
				 * allocator) */
	bool queued;		/* waiting in the engine's ready heap */
	bool asleep;		/* suspended, waiting for eng_wake_cpu */
	bool idle_wait;		/* suspended in the idle loop (not spinning) */
	struct fiber *cur;	/* the fiber running on this CPU */
	struct engine *eng;
	uint64_t busy;		/* cycles charged (all but idle) */
	uint64_t in_region;	/* of which inside the tallied region */
	uint64_t spin;		/* of which spinning on a lock */
};

#define ENGINE_TICK 65536u	/* CPU switches between two ticks */

struct engine {
	struct event_queue q;		/* timers */
	uint64_t *resume_at;		/* tournament tree: node keys, each a resume
					 * time and the CPU that resumes then packed
					 * into one word (ENGINE_KEY), UINT64_MAX if
					 * none; leaves are the CPUs */
	int leaves;			/* a power of two >= ncpus */
	uint64_t horizon;		/* earliest queued CPU or timer */
	struct event_pool pool;
	struct sim_cpu *cpus;
	int ncpus;
	struct fiber main;	/* the engine loop's own stack */
	struct sim_cpu *running;
	uint64_t now;		/* time of the last event dispatched */
	uint64_t events;	/* events dispatched */
	uint64_t yields;	/* cpu_sync calls that had to yield */
	bool stop;
	const char *fatal;	/* why the run had to stop (an engine limit), or NULL */
	char fatal_buf[256];	/* a fatal message built at run time */
	uint64_t host_limit;	/* host memory the run may take (bytes; 0: none) */
	gsl_rng *rng;		/* the run's one generator (mt19937, seeded) */
	/* Optional: called about every ENGINE_TICK switches from one CPU to
	 * another, on the engine's own stack, to look at the run (progress on
	 * a terminal); it must not change the simulation. */
	void (*tick)(void *arg);
	void *tick_arg;
	uint64_t turns, tick_at;	/* CPU switches counted while tick is set */
	struct profile prof;
	int sym_idle;
};

int engine_init(struct engine *eng, int ncpus, uint64_t seed);
void engine_destroy(struct engine *eng);

/* Dispatch events until none is left or eng->stop is set. */
void engine_run(struct engine *eng);

/* Start `f` on an idle CPU at time `t` (used to boot each CPU's idle fiber). */
void eng_start_cpu(struct engine *eng, struct sim_cpu *cpu, struct fiber *f, uint64_t t);

/* A timer: fn(ev) runs on the engine's stack at time t. */
struct sim_event *eng_timer_at(struct engine *eng, uint64_t t, sim_event_fn fn,
			       void *arg, uint64_t data);
void eng_timer_cancel(struct engine *eng, struct sim_event *ev);

/* Give way to every CPU or timer that is behind this CPU's clock. */
void cpu_yield(struct sim_cpu *cpu);

/* The ordering rule: call before touching state other CPUs can see. */
static inline void cpu_sync(struct sim_cpu *cpu)
{
	if (cpu->eng->horizon < cpu->clock)
		cpu_yield(cpu);
}

/* Charge cycles of work to the current symbol. */
static inline void cpu_charge(struct sim_cpu *cpu, uint64_t cycles)
{
	cpu->clock += cycles;
	cpu->busy += cycles;
	if (cpu->region)
		cpu->in_region += cycles;
	cpu->eng->prof.cycles[cpu->sym] += cycles;
}

/* Charge cycles spent spinning on a lock to symbol `sym`. */
static inline void cpu_charge_spin(struct sim_cpu *cpu, int sym, uint64_t cycles)
{
	cpu->clock += cycles;
	cpu->busy += cycles;
	cpu->spin += cycles;
	if (cpu->region)
		cpu->in_region += cycles;
	cpu->eng->prof.cycles[sym] += cycles;
}

/* Open and close a tallied region: the cycles charged while one is open
 * (regions nest) are counted apart in cpu->in_region; the layer above says
 * what the region is (the kernel: inside the slab allocator). */
static inline void cpu_region_enter(struct sim_cpu *cpu)
{
	cpu->region++;
}

static inline void cpu_region_exit(struct sim_cpu *cpu)
{
	cpu->region--;
}

/* Enter a kernel-named symbol; returns the previous one for sym_exit. */
static inline int sym_enter(struct sim_cpu *cpu, int sym)
{
	int prev = cpu->sym;
	cpu->sym = sym;
	return prev;
}

static inline void sym_exit(struct sim_cpu *cpu, int prev)
{
	cpu->sym = prev;
}

/* Suspend this CPU until someone calls eng_wake_cpu (the CPU is idle or
 * spinning on a lock whose hand-off time is not known yet). */
void cpu_suspend(struct sim_cpu *cpu);

/* Resume a suspended CPU at time t; `spin_sym` >= 0 charges the gap as
 * spinning on that symbol, otherwise it is idle time. */
void eng_wake_cpu(struct sim_cpu *cpu, uint64_t t, int spin_sym);

/* Switch the CPU from its current fiber to `to` (a context switch). */
void cpu_switch_fiber(struct sim_cpu *cpu, struct fiber *to);

#endif
