/* test_lockbench.c - the lockbench workload against the Markov chain of
 * docs/calibration.md C4, the queued lock's flat hand-off, and the cost of
 * waiters that span sockets. Each case is a whole `slabsim run` built through
 * run_core, so the kernel's lock kinds and pinned tasks are what is tested. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run/run_core.h"
#include "hw/markov.h"

struct lb_out {
	double aps, wait, handoff, acquisitions;
};

/* One lockbench run; every invariant must hold. */
static struct lb_out lockbench(const char *machine, const char *spinlock, const char *params,
			       uint64_t seed)
{
	static struct run r;
	char wl[512], lock[64];
	snprintf(wl, sizeof(wl), "lockbench %s", params);
	snprintf(lock, sizeof(lock), "spinlock=%s", spinlock);
	const char *assign[] = { lock };
	struct run_config cfg = { .machine = machine, .policy = "slub", .workload = wl,
				  .seed = seed, .assign = assign, .nassign = 1 };
	struct sim_err err;
	if (run_configure(&r, &cfg, &err) < 0)
		fail_msg("%s", err.msg);
	int rc = run_execute(&r, &err);
	if (rc != 0)
		fail_msg("lockbench %s: %s", params, rc < 0 ? err.msg : r.invariants_msg);
	struct lb_out o = {
		cJSON_GetObjectItem(r.res.extra, "acquisitions_per_second")->valuedouble,
		cJSON_GetObjectItem(r.res.extra, "mean_wait_cycles")->valuedouble,
		cJSON_GetObjectItem(r.res.extra, "mean_handoff_cycles")->valuedouble,
		cJSON_GetObjectItem(r.res.extra, "acquisitions")->valuedouble,
	};
	run_free(&r);
	return o;
}

#define UNIFORM16 "validation/machines/uniform16.json"
#define C_HANDOFF 100.0		/* uniform16's hand-off: c of the chain */

/* C4: exponential think and hold on uniform16 (an ideal fabric, 1 cycle =
 * 1 ns); the chain with the same a, s and c. Within 5% for n = 1..16 and
 * three pairs, from no contention to the collapse to about half the peak. */
static void test_ticket_matches_markov(void **state)
{
	(void)state;
	const double pairs[3][2] = { { 10000, 400 }, { 5000, 400 }, { 1000, 400 } };
	for (int p = 0; p < 3; p++) {
		double a = pairs[p][0], s = pairs[p][1], peak = 0, x16 = 0;
		for (int n = 1; n <= 16; n++) {
			char params[256];
			/* ~20000 acquisitions or more in the window */
			long us = (long)(20000 * (a + s + C_HANDOFF * n) / 1000);
			snprintf(params, sizeof(params), "cpus=%d think=%g hold=%g think_dist=exp "
				 "hold_dist=exp duration_us=%ld warmup_us=%ld", n, a, s, us, us / 50);
			struct lb_out o = lockbench(UNIFORM16, "ticket", params, (uint64_t)(n * 7 + p));
			double sim = o.aps / 1e9;	/* per cycle */
			double mk = markov_ticket_throughput(n, a, s, C_HANDOFF);
			double err = (sim - mk) / mk;
			printf("  a=%-6g s=%-4g n=%-2d lockbench %.4e/cycle  chain %.4e  (%+.1f%%)\n",
			       a, s, n, sim, mk, 100 * err);
			assert_true(err < 0.05 && err > -0.05);
			if (sim > peak)
				peak = sim;
			x16 = sim;
		}
		if (p == 2)	/* the collapse: 16 cores get about half the peak */
			assert_true(x16 < 0.6 * peak);
	}
}

/* The queued (MCS) lock hands over to one waiter whatever their number; the
 * ticket lock's hand-off grows with the waiters re-reading the line. */
static void test_queued_handoff_flat(void **state)
{
	(void)state;
	const char *p = "think=1000 hold=400 duration_us=3000";
	char params[256];
	double q[17], t[17];
	int ns[] = { 2, 4, 8, 16 };
	for (int i = 0; i < 4; i++) {
		snprintf(params, sizeof(params), "cpus=%d %s", ns[i], p);
		q[ns[i]] = lockbench(UNIFORM16, "queued", params, 1).handoff;
		t[ns[i]] = lockbench(UNIFORM16, "ticket", params, 1).handoff;
		printf("  %2d CPUs: hand-off queued %.0f cycles, ticket %.0f\n", ns[i], q[ns[i]],
		       t[ns[i]]);
	}
	for (int i = 0; i < 4; i++)	/* flat: one transfer (100) plus the atomic */
		assert_true(q[ns[i]] > 90 && q[ns[i]] < 130);
	assert_true(t[16] > 5 * t[2]);	/* O(k): ~k/2 re-reads of 100 */
}

/* On a multi-socket machine the same number of waiters costs more when
 * they span sockets: each hand-off crosses the interconnect. */
static void test_spanning_sockets_drops(void **state)
{
	(void)state;
	const char *kinds[] = { "ticket", "queued", "byte" };
	for (int i = 0; i < 3; i++) {
		struct lb_out in = lockbench("nehalem-ex", kinds[i],
					     "cpus=8 think=2000 hold=200 place=packed", 1);
		struct lb_out across = lockbench("nehalem-ex", kinds[i],
						 "cpus=8 think=2000 hold=200 place=spread", 1);
		printf("  %s: one socket %.3g/s (hand-off %.0f), four sockets %.3g/s (%.0f)\n",
		       kinds[i], in.aps, in.handoff, across.aps, across.handoff);
		assert_true(across.aps < 0.8 * in.aps);
		assert_true(across.handoff > 1.5 * in.handoff);
	}
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ticket_matches_markov),
		cmocka_unit_test(test_queued_handoff_flat),
		cmocka_unit_test(test_spanning_sockets_drops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
