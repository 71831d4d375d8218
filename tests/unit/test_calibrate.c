/* test_calibrate.c - calibrate without the host's speed: the distance
 * classes of a synthetic topology; a machine file fitted to given
 * measurements (cycles at the measured clock, the fabric of the nearest
 * modelled machine, the instruction costs of the host's vendor, every
 * figure's source) that loads as a machine; bad options, topologies and
 * measurements refused with one message; the real probes and topology only
 * for facts that hold on any host. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "study/calibrate.h"
#include "study/calibrate_probe.h"

/* A host of nodes x sockets (each node) x dies x cores x threads CPUs,
 * numbered in that order, with Genoa's caches. */
static struct host_topo *synthetic_host(int nodes, int sockets, int dies, int cores,
					int threads, const char *vendor, const char *model)
{
	struct host_topo *h = calloc(1, sizeof(*h));
	assert_non_null(h);
	*h = (struct host_topo){ .nodes = nodes, .sockets_per_node = sockets,
				 .dies_per_socket = dies, .cores_per_die = cores,
				 .threads_per_core = threads, .llc_kb = 32768, .llc_ways = 16,
				 .llc_level = 3, .l2_kb = 1024, .l1_kb = 32, .l1_ways = 8 };
	int n = 0;
	for (int core = 0; core < nodes * sockets * dies * cores; core++)
		for (int t = 0; t < threads; t++, n++) {
			int die = core / cores, socket = die / dies;
			h->cpu[n] = (struct host_cpu){ .os = n, .core = core, .die = die,
						       .socket = socket, .node = socket / sockets };
		}
	h->ncpus = n;
	snprintf(h->vendor, sizeof(h->vendor), "%s", vendor);
	snprintf(h->cpu_model, sizeof(h->cpu_model), "%s", model);
	return h;
}

/* One hand-off class: the median `ns` of 4 pairs, 0.2 ns either side. */
static void handoff(struct calibrate_measured *ms, enum hw_dist d, double ns)
{
	ms->handoff_ns[d] = ns;
	ms->handoff_lo[d] = ns - 0.2;
	ms->handoff_hi[d] = ns + 0.2;
	ms->handoff_pairs[d] = 4;
}

/* Genoa's hand-offs and memory in ns (its cycles at 2.4 GHz), on a host of
 * 3.2 GHz: its fabric is the nearest, every figure 4/3 its cycles. */
static struct calibrate_measured genoa_like(void)
{
	struct calibrate_measured ms = { .ghz = 3.2, .l1_ns = 1.25, .atomic_ns = 6.25,
					 .llc_ns = 15.625, .mem_local_ns = 264 / 2.4,
					 .mem_remote_ns = 190, .llc_bytes = 4 << 20,
					 .mem_bytes = 256 << 20 };
	handoff(&ms, DIST_SMT, 22 / 2.4);
	handoff(&ms, DIST_SAME_DIE, 56 / 2.4);
	handoff(&ms, DIST_SAME_SOCKET, 241 / 2.4);
	handoff(&ms, DIST_OTHER_SOCKET, 466 / 2.4);
	return ms;
}

static const struct calibrate_label label = { "testhost", "box", "2024-05-06" };

/* The number obj.key of a machine file (root.key when obj is NULL). */
static double number_at(const cJSON *root, const char *obj, const char *key)
{
	const cJSON *o = obj ? cJSON_GetObjectItemCaseSensitive(root, obj) : root;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	assert_true(cJSON_IsNumber(v));
	return v->valuedouble;
}

/* The string obj.key of a machine file (root.key when obj is NULL). */
static const char *string_at(const cJSON *root, const char *obj, const char *key)
{
	const cJSON *o = obj ? cJSON_GetObjectItemCaseSensitive(root, obj) : root;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	assert_true(cJSON_IsString(v));
	return v->valuestring;
}

/* Does sources.KEY begin with `how`? */
static void assert_source(const cJSON *root, const char *key, const char *how)
{
	const char *s = string_at(root, "sources", key);
	if (strncmp(s, how, strlen(how)))
		fail_msg("sources.%s: '%s', expected '%s...'", key, s, how);
}

static void test_cycles(void **state)
{
	(void)state;
	assert_int_equal(calibrate_cycles(10, 2.5), 25);
	assert_int_equal(calibrate_cycles(9.9, 2.0), 20);	/* 19.8 rounds up */
	assert_int_equal(calibrate_cycles(100.4, 1.0), 100);
	assert_int_equal(calibrate_cycles(100.6, 1.0), 101);
	assert_int_equal(calibrate_cycles(0.1, 1.0), 1);	/* at least one */
	assert_int_equal(calibrate_cycles(0, 3.0), 1);
}

static void test_medians(void **state)
{
	(void)state;
	double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 };
	assert_float_equal(probe_median(odd, 3), 2, 0);
	assert_float_equal(probe_median(even, 4), 2.5, 0);
	assert_float_equal(even[0], 1, 0);	/* sorted in place */
	assert_float_equal(even[3], 4, 0);
}

/* h has want[d] pairs of CPUs at each distance d but the same core. */
static void assert_pairs(const struct host_topo *h, const long want[NR_DIST])
{
	for (int d = DIST_SMT; d < NR_DIST; d++)
		assert_int_equal(host_pairs(h, (enum hw_dist)d), want[d]);
}

static void test_distance_classes(void **state)
{
	(void)state;
	/* one package per node: a CPU of the other node is another socket */
	struct host_topo *h = synthetic_host(2, 1, 2, 2, 2, "", "");
	assert_int_equal(h->ncpus, 16);
	assert_int_equal(host_dist(h, 3, 3), DIST_SAME_CORE);
	assert_int_equal(host_dist(h, 0, 1), DIST_SMT);
	assert_int_equal(host_dist(h, 0, 2), DIST_SAME_DIE);
	assert_int_equal(host_dist(h, 0, 4), DIST_SAME_SOCKET);
	assert_int_equal(host_dist(h, 0, 8), DIST_OTHER_SOCKET);
	assert_pairs(h, (const long[NR_DIST]){ [DIST_SMT] = 8, [DIST_SAME_DIE] = 16,
					       [DIST_SAME_SOCKET] = 32, [DIST_OTHER_SOCKET] = 64 });
	free(h);

	/* two packages per node, one die each: no SMT, no die to share */
	h = synthetic_host(2, 2, 1, 2, 1, "", "");
	assert_int_equal(host_dist(h, 0, 1), DIST_SAME_SOCKET);
	assert_int_equal(host_dist(h, 0, 2), DIST_OTHER_SOCKET);
	assert_int_equal(host_dist(h, 0, 4), DIST_OTHER_NODE);
	assert_pairs(h, (const long[NR_DIST]){ [DIST_SAME_SOCKET] = 4, [DIST_OTHER_SOCKET] = 8,
					       [DIST_OTHER_NODE] = 16 });
	free(h);
}

/* The measured figures in cycles at 3.2 GHz, the topology as given. */
static void assert_figures(const cJSON *m)
{
	assert_string_equal(string_at(m, NULL, "name"), "testhost");
	assert_string_equal(string_at(m, NULL, "description"),
			    "AMD Test 16-Core, 2 node(s) x 1 package(s) x 2 die(s) x 2 core(s) x "
			    "2 thread(s), 16 CPUs: measured on 'box' by slabsim calibrate, "
			    "2024-05-06");
	assert_float_equal(number_at(m, NULL, "clock_ghz"), 3.2, 0);
	assert_float_equal(number_at(m, "topology", "nodes"), 2, 0);
	assert_float_equal(number_at(m, "topology", "dies_per_socket"), 2, 0);
	assert_float_equal(number_at(m, "topology", "threads_per_core"), 2, 0);
	assert_float_equal(number_at(m, "handoff_cycles", "same_core"), 4, 0);
	assert_float_equal(number_at(m, "handoff_cycles", "smt"), 29, 0);	/* 29.3 */
	assert_float_equal(number_at(m, "handoff_cycles", "same_die"), 75, 0);	/* 74.7 */
	assert_float_equal(number_at(m, "handoff_cycles", "same_socket"), 321, 0);
	assert_float_equal(number_at(m, "handoff_cycles", "other_socket"), 621, 0);
	assert_null(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItem(m, "handoff_cycles"),
						      "other_node"));
	assert_float_equal(number_at(m, "memory_cycles", "local"), 352, 0);
	assert_float_equal(number_at(m, "memory_cycles", "remote"), 608, 0);
	assert_float_equal(number_at(m, NULL, "atomic_cycles"), 20, 0);
	assert_float_equal(number_at(m, "llc", "kb"), 32768, 0);
	assert_float_equal(number_at(m, "llc", "hit_cycles"), 50, 0);
	assert_float_equal(number_at(m, "l1", "ways"), 8, 0);
}

/* Genoa's fabric in ns at 3.2 GHz, AMD's costs, every figure's source. */
static void assert_borrowed(const cJSON *m)
{
	assert_string_equal(string_at(m, "fabric", "kind"), "home");
	assert_float_equal(number_at(m, "fabric", "home_occupancy_cycles"), 13, 0);	/* 10 */
	assert_float_equal(number_at(m, "fabric", "link_occupancy_cycles"), 7, 0);	/* 5 */
	assert_float_equal(number_at(m, "fabric", "line_occupancy_cycles"), 776, 0);	/* 582 */
	assert_string_equal(string_at(m, NULL, "cost_table"), "zen4");
	assert_source(m, "clock_ghz", "measured: chains of 320 million dependent adds");
	assert_source(m, "topology", "hwloc: NUMA nodes, packages, last-level (L3) caches");
	assert_source(m, "handoff_cycles.same_core", "measured: an L1 hit, 1.25 ns");
	assert_source(m, "handoff_cycles.smt", "measured: 9.2 ns one way, the median of 4 CPU "
		      "pair(s) (9.0-9.4 ns), each the median of 15 samples of 2000 lock cmpxchg");
	assert_source(m, "memory_cycles.local", "measured: 110.0 ns per load, the fastest of 3 "
		      "walks of 4000000 loads of a random pointer chase through 256 MB bound to "
		      "node 0");
	assert_source(m, "memory_cycles.remote", "measured: 190.0 ns");
	assert_source(m, "atomic_cycles", "measured: 6.25 ns per lock cmpxchg");
	assert_source(m, "llc.hit_cycles", "measured: 15.6 ns per load of a pointer chase "
		      "through 4096 KB, beyond the 1024 KB L2 and within the L3");
	assert_source(m, "llc.ways", "hwloc: the L3 cache, 16-way");
	assert_source(m, "l1.kb", "hwloc: the L1 data cache, 32 KB");
	assert_source(m, "fabric.line_occupancy_cycles", "not measurable from user space: "
		      "epyc-genoa-2s's 582 cycles at 2.40 GHz (242.5 ns");
	assert_string_equal(string_at(m, "_calibration", "host"), "box");
	assert_string_equal(string_at(m, "_calibration", "date"), "2024-05-06");
	assert_string_equal(string_at(m, "_calibration", "nearest_machine"), "epyc-genoa-2s");
	assert_string_equal(string_at(m, "_calibration", "cost_table"),
			    "not measurable from user space: the nearest modelled machine's");
	const cJSON *ns = cJSON_GetObjectItem(cJSON_GetObjectItem(m, "_calibration"), "handoff_ns");
	assert_float_equal(number_at(ns, NULL, "smt"), 9.17, 1e-9);
	assert_float_equal(number_at(ns, NULL, "other_socket"), 194.17, 1e-9);
}

/* The file as slabsim run reads it: a machine of h's CPUs at these
 * figures, with as many pairs of CPUs at each distance as h. */
static void assert_loads(const cJSON *m, const struct host_topo *h)
{
	char path[] = "/tmp/test_calibrate_XXXXXX.json";
	int fd = mkstemps(path, 5);
	assert_true(fd >= 0);
	char *text = cJSON_Print(m);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", text);
	assert_int_equal(fclose(f), 0);
	free(text);
	struct machine loaded;
	struct sim_err err;
	int rc = machine_load(&loaded, path, &err);
	unlink(path);
	if (rc < 0)
		fail_msg("the fitted machine does not load: %s", err.msg);
	assert_int_equal(loaded.ncpus, 16);
	assert_int_equal(loaded.fabric, FABRIC_HOME);
	assert_int_equal(loaded.handoff[DIST_SAME_SOCKET], 321);
	assert_int_equal(loaded.mem_remote, 608);
	assert_string_equal(loaded.cost_table, "zen4");
	long pairs[NR_DIST] = { 0 };
	for (int i = 0; i < loaded.ncpus; i++)
		for (int j = i + 1; j < loaded.ncpus; j++)
			pairs[machine_dist(&loaded, i, j)]++;
	assert_pairs(h, pairs);
	machine_free(&loaded);
}

static void test_fit(void **state)
{
	(void)state;
	struct host_topo *h = synthetic_host(2, 1, 2, 2, 2, "AuthenticAMD", "AMD Test 16-Core");
	struct calibrate_measured ms = genoa_like();
	struct calibrate_fitted fit;
	struct sim_err err;
	if (calibrate_fit(h, &ms, &label, &fit, &err) < 0)
		fail_msg("calibrate_fit: %s", err.msg);
	assert_string_equal(fit.nearest, "epyc-genoa-2s");
	assert_string_equal(fit.cost_table, "zen4");
	assert_figures(fit.machine);
	assert_borrowed(fit.machine);
	assert_loads(fit.machine, h);
	calibrate_fitted_free(&fit);
	assert_null(fit.machine);
	free(h);
}

/* One node, no level between the L2 and the LLC measured: no remote
 * memory, the LLC hit from the nearest machine; costs by vendor, else the
 * nearest machine's. */
static void test_fit_one_node(void **state)
{
	(void)state;
	struct host_topo *h = synthetic_host(1, 1, 1, 2, 2, "GenuineIntel", "Test CPU");
	struct calibrate_measured ms = { .ghz = 2.0, .l1_ns = 2, .atomic_ns = 10,
					 .mem_local_ns = 90, .mem_bytes = 256 << 20 };
	handoff(&ms, DIST_SMT, 10);
	handoff(&ms, DIST_SAME_SOCKET, 40);
	struct calibrate_fitted fit;
	struct sim_err err;
	if (calibrate_fit(h, &ms, &label, &fit, &err) < 0)
		fail_msg("calibrate_fit: %s", err.msg);
	const cJSON *m = fit.machine;
	assert_float_equal(number_at(m, "handoff_cycles", "smt"), 20, 0);
	assert_float_equal(number_at(m, "handoff_cycles", "same_socket"), 80, 0);
	assert_null(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "memory_cycles"), "remote"));
	assert_source(m, "memory_cycles.local", "measured: 90.0 ns per load, the fastest of 3 "
		      "walks of 4000000 loads of a random pointer chase through 256 MB");
	assert_source(m, "llc.hit_cycles", "not measured (no level between the L1 and the "
		      "last-level cache to step over)");
	assert_string_equal(fit.cost_table, "golden_cove");
	struct machine near;
	assert_int_equal(machine_load(&near, fit.nearest, &err), 0);
	assert_float_equal(number_at(m, "llc", "hit_cycles"),
			   calibrate_cycles(near.llc_hit / near.ghz, 2.0), 0);
	calibrate_fitted_free(&fit);

	snprintf(h->vendor, sizeof(h->vendor), "%s", "");
	assert_int_equal(calibrate_fit(h, &ms, &label, &fit, &err), 0);
	assert_string_equal(fit.cost_table, near.cost_table);
	machine_free(&near);
	calibrate_fitted_free(&fit);
	free(h);
}

/* calibrate_fit(h, ms) fails with exactly `msg` and fits nothing. */
static void assert_refused(const struct host_topo *h, const struct calibrate_measured *ms,
			   const char *msg)
{
	struct calibrate_fitted fit;
	struct sim_err err;
	assert_int_equal(calibrate_fit(h, ms, &label, &fit, &err), -1);
	assert_string_equal(err.msg, msg);
	assert_null(fit.machine);
}

static void test_bad_input(void **state)
{
	(void)state;
	struct host_topo *h = synthetic_host(1, 1, 1, 1, 1, "", "");
	struct calibrate_measured ms = genoa_like();
	assert_refused(h, &ms, "only one CPU is available to this process: there is no "
		       "core-to-core hand-off to measure");
	free(h);

	h = synthetic_host(2, 1, 2, 2, 2, "", "");
	h->cores_per_die = 3;
	assert_refused(h, &ms, "2 node(s) x 1 package(s) x 2 die(s) x 3 core(s) x 2 thread(s) "
		       "do not make the host's 16 CPUs");
	h->cores_per_die = 2;
	ms.ghz = 0;
	assert_refused(h, &ms, "the measured clock (GHz), 0, is not a positive number");
	ms = genoa_like();
	ms.mem_remote_ns = NAN;
	assert_refused(h, &ms, "the measured remote memory latency (ns), nan, is not a "
		       "positive number");
	ms = genoa_like();
	ms.handoff_ns[DIST_SAME_DIE] = -1;
	assert_refused(h, &ms, "the measured same_die hand-off (ns), -1, is not a positive "
		       "number");
	ms = genoa_like();
	ms.handoff_pairs[DIST_OTHER_SOCKET] = 0;
	assert_refused(h, &ms, "no hand-off measured at distance other_socket, and the host "
		       "has CPUs that far apart");
	ms = genoa_like();
	handoff(&ms, DIST_OTHER_NODE, 300);
	assert_refused(h, &ms, "a hand-off measured at distance other_node, and the host has "
		       "no CPUs that far apart");
	free(h);
}

/* calibrate_host(o) fails with exactly `msg` before it reads the host. */
static void assert_opts_refused(struct calibrate_opts o, const char *msg)
{
	struct calibrate_result r;
	struct sim_err err;
	assert_int_equal(calibrate_host(&o, &r, &err), -1);
	assert_string_equal(err.msg, msg);
	assert_null(r.host);
	assert_null(r.fitted.machine);
}

static void test_bad_opts(void **state)
{
	(void)state;
	assert_opts_refused((struct calibrate_opts){ .name = "host", .pairs = 0 },
			    "pairs 0: expected 1..64");
	assert_opts_refused((struct calibrate_opts){ .name = "host", .pairs = 65 },
			    "pairs 65: expected 1..64");
	assert_opts_refused((struct calibrate_opts){ .name = "", .pairs = 4 },
			    "name '': 1 to 60 characters");
	assert_opts_refused((struct calibrate_opts){ .name = NULL, .pairs = 4 },
			    "name '': 1 to 60 characters");
	char long_name[62];
	memset(long_name, 'x', 61);
	long_name[61] = '\0';
	char msg[128];
	snprintf(msg, sizeof(msg), "name '%s': 1 to 60 characters", long_name);
	assert_opts_refused((struct calibrate_opts){ .name = long_name, .pairs = 4 }, msg);
}

/* The real topology and probes, for what holds on any host: the CPUs fit
 * the counts and every pair has a class; the clock and a locked op take
 * time. */
static void test_this_host(void **state)
{
	(void)state;
	struct host_topo *h = calloc(1, sizeof(*h));
	assert_non_null(h);
	struct sim_err err;
	if (host_topo_read(h, &err) == 0) {
		assert_true(h->ncpus >= 1);
		assert_int_equal(h->nodes * h->sockets_per_node * h->dies_per_socket *
				 h->cores_per_die * h->threads_per_core, h->ncpus);
		long pairs = 0;
		for (int d = DIST_SMT; d < NR_DIST; d++)
			pairs += host_pairs(h, (enum hw_dist)d);
		assert_int_equal(pairs, (long)h->ncpus * (h->ncpus - 1) / 2);
	} else {
		assert_true(strlen(err.msg) > 0);	/* a host calibrate refuses, said why */
	}
	free(h);
	assert_true(probe_clock_ghz() > 0);
	assert_true(probe_atomic_ns() > 0);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cycles),
		cmocka_unit_test(test_medians),
		cmocka_unit_test(test_distance_classes),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_fit_one_node),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_bad_opts),
		cmocka_unit_test(test_this_host),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
