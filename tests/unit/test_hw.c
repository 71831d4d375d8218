/* test_hw.c - the cache-line model: costs by distance, sharers, the fabric's
 * queues, and the feedback of spinners on a lock holder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/engine.h"
#include "engine/array_size.h"
#include "hw/hw.h"
#include "hw/machine.h"
#include "hw/spinlock.h"

static struct machine m;
static struct engine eng;
static struct hw hw;

static int setup(void **state)
{
	(void)state;
	struct sim_err err;
	if (machine_load(&m, "tigerton", &err) < 0 || engine_init(&eng, m.ncpus, 1) < 0 ||
	    hw_init(&hw, &eng, &m, &err) < 0)
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	hw_destroy(&hw);
	engine_destroy(&eng);
	machine_free(&m);
	return 0;
}

/* Outside a run no CPU is behind another: accesses never yield. Each access
 * here starts well after the previous one, so nothing is still in flight. */
static uint64_t now = 1000000;

static uint64_t cost(void (*op)(struct hw *, struct sim_cpu *, struct hw_line *), int cpu,
		     struct hw_line *l)
{
	struct sim_cpu *c = &eng.cpus[cpu];
	now += 10000;
	c->clock = now;
	op(&hw, c, l);
	return c->clock - now;
}

static void test_costs_by_distance(void **state)
{
	(void)state;
	struct hw_line l;
	hw_line_init(&hw, &l, 0);
	assert_int_equal(cost(hw_write, 0, &l), m.mem_local);	/* from DRAM */
	assert_int_equal(cost(hw_write, 0, &l), 0);		/* modified here: a hit */
	assert_int_equal(cost(hw_read, 1, &l), m.handoff[DIST_SAME_DIE]);
	assert_int_equal(cost(hw_read, 1, &l), 0);		/* shared: a hit */
	/* the write must invalidate CPU 1's copy */
	assert_int_equal(cost(hw_write, 0, &l), m.handoff[DIST_SAME_DIE]);
	assert_int_equal(cost(hw_read, 2, &l), m.handoff[DIST_SAME_SOCKET]);
	assert_int_equal(cost(hw_write, 4, &l), m.handoff[DIST_OTHER_SOCKET]);
	assert_int_equal(cost(hw_atomic, 4, &l), m.atomic);
}

/* Two transfers through one bus at the same time: the second waits for the
 * bus occupancy of the first. */
static void test_fabric_queueing(void **state)
{
	(void)state;
	struct hw_line a, b;
	hw_line_init(&hw, &a, 0);
	hw_line_init(&hw, &b, 0);
	struct sim_cpu *c0 = &eng.cpus[0], *c4 = &eng.cpus[4], *c5 = &eng.cpus[5];
	c0->clock = c4->clock = c5->clock = 5000000;
	hw_write(&hw, c4, &a);
	hw_write(&hw, c5, &b);
	c0->clock = c4->clock = c5->clock = 6000000;
	uint64_t t0 = c0->clock;
	uint64_t d1 = hw_transaction(&hw, 0, &a, 4, t0);
	uint64_t d2 = hw_transaction(&hw, 0, &b, 5, t0);
	assert_int_equal(d1 - t0, m.handoff[DIST_OTHER_SOCKET]);
	assert_true(d2 - t0 >= m.handoff[DIST_OTHER_SOCKET] + m.occ_bus);
	/* the same line again at the same time: it waits for the first
	 * transfer; being a conflict it then holds the line for the line
	 * occupancy, which a third request waits for */
	uint64_t d3 = hw_transaction(&hw, 8, &a, 0, t0);
	assert_int_equal(d3 - t0, 2 * m.handoff[DIST_OTHER_SOCKET]);
	uint64_t d4 = hw_transaction(&hw, 12, &a, 8, t0);
	assert_int_equal(d4 - t0, m.handoff[DIST_OTHER_SOCKET] + m.occ_line +
				  m.handoff[DIST_OTHER_SOCKET]);
}

/* Spinners re-read after every write: a holder's second store to the same
 * line lands only after their re-reads, so the line, and its CPU's unlock or
 * next locked op, waits for them. The stores themselves are posted (x86
 * TSO): the CPU goes on meanwhile. */
static void test_spinner_feedback(void **state)
{
	(void)state;
	uint64_t landed[2] = { 0 }, stalled[2] = { 0 }, unlocked[2] = { 0 }, atomic_at[2] = { 0 };
	for (int k = 0; k < 2; k++) {
		struct hw_line l, other, lock;
		hw_line_init(&hw, &l, 0);
		hw_line_init(&hw, &other, 0);
		hw_line_init(&hw, &lock, 0);
		int nspin = k ? 12 : 0;
		for (int i = 0; i < nspin; i++) {
			hw.waiter[4 + i].next = i + 1 < nspin ? &hw.waiter[5 + i] : NULL;
			hw.waiter[4 + i].cpu = 4 + i;
		}
		l.spin = nspin ? &hw.waiter[4] : NULL;
		struct sim_cpu *c = &eng.cpus[0];
		c->clock = 10000000 * (uint64_t)(k + 1);
		hw.sb[0].stores_done = 0;
		uint64_t t0 = c->clock;
		hw_write(&hw, c, &l);	/* e.g. n->nr_partial++ */
		hw_write(&hw, c, &l);	/* list head: needs the line again */
		stalled[k] = c->clock - t0;
		landed[k] = (k ? hw.sb[0].stores_done : c->clock) - t0;
		unlocked[k] = hw_store_posted(&hw, c, &lock) - t0;	/* the unlock */
		hw_atomic(&hw, c, &other);	/* a locked op drains the stores first */
		atomic_at[k] = c->clock - t0;
	}
	printf("  two writes to a lock's line land after %llu cycles alone, %llu with 12 "
	       "spinners (CPU stalled %llu, %llu)\n", (unsigned long long)landed[0],
	       (unsigned long long)landed[1], (unsigned long long)stalled[0],
	       (unsigned long long)stalled[1]);
	assert_true(landed[1] > landed[0] + 12 * m.occ_bus);
	assert_true(stalled[1] < landed[1]);		/* posted: the CPU went on */
	assert_true(unlocked[1] > landed[1]);		/* the unlock lands after them */
	assert_true(atomic_at[1] >= landed[1]);		/* ... until its locked op */
}

/* The spinners of one die share its last-level cache: after a write, the
 * first one's re-read brings the line to the die and the others hit it
 * there, adding no transfer the line is serialised on; spinners on two
 * dies each need a transfer. */
static void test_die_shares_reread(void **state)
{
	(void)state;
	int a = 4, same = -1, other = -1;	/* a spinner, one on its die, one elsewhere */
	for (int c = 0; c < m.ncpus; c++) {
		if (c != a && m.topo[c].die == m.topo[a].die && same < 0)
			same = c;
		if (m.topo[c].die != m.topo[a].die && m.topo[c].die != m.topo[0].die && other < 0)
			other = c;
	}
	assert_true(same >= 0 && other >= 0);
	uint64_t first[2], second[2], busy[2];
	for (int k = 0; k < 2; k++) {
		int b = k ? other : same;
		struct hw_line l;
		hw_line_init(&hw, &l, 0);
		struct sim_cpu *w = &eng.cpus[0];
		w->clock = 30000000 + 1000000 * (uint64_t)k;
		hw_write(&hw, w, &l);		/* the holder owns the line */
		w->clock += 100000;
		hw_write(&hw, w, &l);		/* a write: the spinners re-read */
		uint64_t t = w->clock;
		first[k] = hw_reread(&hw, a, &l, 0, t) - t;
		second[k] = hw_reread(&hw, b, &l, 0, t) - t;
		busy[k] = l.ready - t;
	}
	/* the die's second spinner: the first's copy plus a hit in the die's cache */
	assert_int_equal(second[0], first[0] + m.llc_hit);
	/* on another die: a transfer of its own, queued on the line */
	assert_true(second[1] >= first[1] + m.handoff[machine_dist(&m, 0, other)]);
	assert_true(busy[1] > busy[0]);
	/* a write in between starts afresh: the die's copy was invalidated */
	struct hw_line l;
	hw_line_init(&hw, &l, 0);
	struct sim_cpu *w = &eng.cpus[0];
	w->clock = 40000000;
	hw_write(&hw, w, &l);
	hw_reread(&hw, a, &l, 0, w->clock);
	w->clock += 100000;
	hw_write(&hw, w, &l);
	uint64_t t = w->clock;
	assert_true(hw_reread(&hw, same, &l, 0, t) - t >= m.handoff[DIST_OTHER_SOCKET]);
}

/* The sharers of a line on a machine of more than 64 CPUs (Genoa: 384),
 * in a line's own words while few, in its spill words beyond: a write
 * invalidates every copy and waits for the farthest sharer (the first in
 * CPU order of those as far), and every former sharer misses afterwards. */
static void test_many_cpu_sharers(void **state)
{
	(void)state;
	struct machine g;
	struct engine ge;
	struct hw gh;
	struct sim_err err;
	assert_int_equal(machine_load(&g, "epyc-genoa-2s", &err), 0);
	assert_int_equal(engine_init(&ge, g.ncpus, 1), 0);
	assert_int_equal(hw_init(&gh, &ge, &g, &err), 0);
	static const int sets[][8] = {
		{ 3, -1 }, { 100, 70, -1 }, { 70, 300, 200, -1 }, { 5, 70, 200, 300, 383, 100, -1 },
		{ 383, 255, 191, 64, 65, 66, -1 },
	};
	uint64_t t = 1000000;
	for (size_t k = 0; k < ARRAY_SIZE(sets); k++)
		for (int writer = 0; writer < g.ncpus; writer += 125) {
			struct hw_line l;
			hw_line_init(&gh, &l, 0);
			struct sim_cpu *w = &ge.cpus[writer];
			w->clock = t += 100000;
			hw_write(&gh, w, &l);
			int far = -1, fard = -1;
			for (int i = 0; sets[k][i] >= 0; i++) {
				struct sim_cpu *r = &ge.cpus[sets[k][i]];
				r->clock = t += 100000;
				hw_read(&gh, r, &l);
				uint64_t again = r->clock;
				hw_read(&gh, r, &l);	/* a sharer reads its own copy: a hit */
				assert_int_equal(r->clock, again);
				int d = (int)machine_dist(&g, writer, sets[k][i]);
				if (sets[k][i] != writer && (d > fard || (d == fard && sets[k][i] < far)))
					far = sets[k][i], fard = d;
			}
			for (int i = 0; sets[k][i] >= 0; i++) {	/* every copy is still there */
				struct sim_cpu *r = &ge.cpus[sets[k][i]];
				uint64_t r0 = r->clock = t += 100000;
				hw_read(&gh, r, &l);
				assert_int_equal(r->clock, r0);
			}
			w->clock = t += 100000;
			uint64_t t0 = w->clock;
			hw_write(&gh, w, &l);
			assert_int_equal(w->clock - t0, g.handoff[fard]);
			for (int i = 0; sets[k][i] >= 0; i++) {	/* every copy is gone */
				struct sim_cpu *r = &ge.cpus[sets[k][i]];
				r->clock = t += 100000;
				uint64_t r0 = r->clock;
				hw_read(&gh, r, &l);
				if (sets[k][i] != writer)
					assert_true(r->clock > r0);
				hw_write(&gh, w, &l);	/* (w's clock is behind: the write is a hit) */
			}
		}
	hw_destroy(&gh);
	engine_destroy(&ge);
	machine_free(&g);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_costs_by_distance),
		cmocka_unit_test(test_fabric_queueing),
		cmocka_unit_test(test_spinner_feedback),
		cmocka_unit_test(test_die_shares_reread),
		cmocka_unit_test(test_many_cpu_sharers),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
