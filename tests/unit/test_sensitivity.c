/* test_sensitivity.c - the figures a sensitivity study varies and their
 * ranges, the machine files of its variants, and Morris' design and effects. */
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

#include "hw/machine.h"
#include "study/sensitivity_figures.h"

/* Figure NAME of the N in F, or NULL. */
static const struct sens_figure *find(const struct sens_figure *f, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return &f[i];
	return NULL;
}

/* Tigerton's estimates and fits, with their ranges; its measured figures
 * only with `all`; no shape; another policy's costs left out. */
static void test_tigerton_figures(void **state)
{
	(void)state;
	struct sens_figure *f;
	struct sim_err err;
	int n = sens_figures("tigerton", "slub", false, &f, &err);
	assert_true(n > 10);
	const struct sens_figure *occ = find(f, n, "fabric.line_occupancy_cycles");
	assert_non_null(occ);
	assert_int_equal(occ->origin, SENS_FITTED);
	/* the range tigerton.json gives (the fit's explored 450-650) */
	assert_true(occ->range_given && occ->lo == 450 && occ->hi == 650);
	/* an estimate without one: +-25%, in whole cycles */
	const struct sens_figure *bus = find(f, n, "fabric.bus_occupancy_cycles");
	assert_non_null(bus);
	assert_int_equal(bus->origin, SENS_ESTIMATE);
	assert_false(bus->range_given);
	assert_true(bus->lo == round(bus->value * (1 - SENS_ESTIMATE_SHARE)) &&
		    bus->hi == round(bus->value * (1 + SENS_ESTIMATE_SHARE)));
	const struct sens_figure *cold = find(f, n, "costs.syscall_cold_lines");
	assert_non_null(cold);
	assert_int_equal(cold->origin, SENS_FITTED);
	/* a hand-off stays within its neighbours: same_socket <= other_socket */
	const struct sens_figure *ss = find(f, n, "handoff_cycles.same_socket");
	const struct sens_figure *os = find(f, n, "handoff_cycles.other_socket");
	assert_non_null(ss);
	assert_non_null(os);
	assert_true(ss->clamped && ss->hi <= os->value);
	assert_true(os->clamped && os->lo >= ss->value);
	assert_null(find(f, n, "handoff_cycles.same_core"));	/* measured */
	assert_null(find(f, n, "llc.kb"));			/* shape */
	assert_null(find(f, n, "costs.slab.alloc_fastpath"));	/* SLAB's */
	assert_non_null(find(f, n, "costs.slub.alloc_slowpath"));
	free(f);
	n = sens_figures("tigerton", "slub", true, &f, &err);
	const struct sens_figure *sc = find(f, n, "handoff_cycles.same_core");
	assert_non_null(sc);
	assert_int_equal(sc->origin, SENS_MEASURED);
	assert_true(sc->lo == sc->value - 1 && sc->hi == sc->value + 1);	/* one step */
	/* in the patterns' order, each figure once */
	assert_int_equal(sens_select(f, n, "costs.syscall_cold_lines,fabric.line_*,"
				     "tigerton:fabric.line_occupancy_cycles", &err), 2);
	assert_string_equal(f[0].name, "costs.syscall_cold_lines");
	assert_string_equal(f[1].name, "fabric.line_occupancy_cycles");
	free(f);
	n = sens_figures("tigerton", "slub", true, &f, &err);
	assert_int_equal(sens_select(f, n, "tigerton:handoff_cycles.*", &err), 4);
	assert_int_equal(sens_select(f, n, "no_such_*", &err), -1);
	assert_non_null(strstr(err.msg, "no_such_*"));
	free(f);
}

/* A copy of tigerton.json with TEXT spliced in after its first brace, in a
 * scratch folder; its path in PATH. */
static void write_copy(const char *text, char *path, size_t size)
{
	char from[1024];
	struct sim_err err;
	assert_int_equal(machine_resolve("tigerton", from, sizeof(from), &err), 0);
	FILE *in = fopen(from, "r");
	assert_non_null(in);
	static char buf[1 << 16];
	size_t len = fread(buf, 1, sizeof(buf) - 1, in);
	fclose(in);
	buf[len] = 0;
	char dir[] = "/tmp/slabsim-sens.XXXXXX";
	assert_non_null(mkdtemp(dir));
	snprintf(path, size, "%s/tigerton.json", dir);
	FILE *o = fopen(path, "w");
	assert_non_null(o);
	fprintf(o, "{ %s%s", text, strchr(buf, '{') + 1);
	fclose(o);
}

/* A machine file's "ranges" replace the default; one that names no figure
 * or does not hold the value is refused. */
static void test_ranges(void **state)
{
	(void)state;
	char path[512];
	struct sens_figure *f;
	struct sim_err err;
	write_copy("\"ranges\": { \"memory_cycles.local\": [322, 381] },", path, sizeof(path));
	int n = sens_figures(path, NULL, false, &f, &err);
	assert_true(n > 0);
	const struct sens_figure *mem = find(f, n, "memory_cycles.local");
	assert_true(mem->range_given && mem->lo == 322 && mem->hi == 381);
	free(f);
	write_copy("\"ranges\": { \"memory_cycles.locale\": [322, 381] },", path, sizeof(path));
	assert_int_equal(sens_figures(path, NULL, false, &f, &err), -1);
	assert_non_null(strstr(err.msg, "names no figure"));
	write_copy("\"ranges\": { \"memory_cycles.local\": [400, 500] },", path, sizeof(path));
	assert_int_equal(sens_figures(path, NULL, false, &f, &err), -1);
	assert_non_null(strstr(err.msg, "does not hold its value"));
	write_copy("\"ranges\": { \"memory_cycles.local\": [381, 322] },", path, sizeof(path));
	assert_int_equal(sens_figures(path, NULL, false, &f, &err), -1);
	assert_non_null(strstr(err.msg, "LO < HI"));
}

/* A variant's machine file loads with the figures set: a latency at its
 * path, a fitted figure in "fitted", a cost through "costs". */
static void test_variant_file(void **state)
{
	(void)state;
	struct sens_figure *f;
	struct sim_err err;
	int n = sens_figures("tigerton", "slub", false, &f, &err);
	double *v = calloc((size_t)n, sizeof(*v));
	for (int i = 0; i < n; i++)
		v[i] = f[i].value;
	const char *names[] = { "memory_cycles.local", "fabric.line_occupancy_cycles",
				"costs.slub.alloc_slowpath" };
	double want[] = { 401, 612, 117 };
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 3; k++)
			if (!strcmp(f[i].name, names[k]))
				v[i] = want[k];
	char dir[] = "/tmp/slabsim-sens.XXXXXX", path[600];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/tigerton.json", dir);
	assert_int_equal(sens_write_machine("tigerton", f, n, v, path, &err), 0);
	struct machine m, orig;
	assert_int_equal(machine_load(&m, path, &err), 0);
	assert_int_equal(machine_load(&orig, "tigerton", &err), 0);
	assert_int_equal(m.mem_local, 401);
	assert_int_equal(m.occ_line, 612);
	uint32_t c, o;
	assert_int_equal(machine_cost(&m, "slub.alloc_slowpath", &c, &err), 0);
	assert_int_equal(c, 117);
	assert_int_equal(machine_cost(&m, "slub.alloc_fastpath", &c, &err), 0);
	assert_int_equal(machine_cost(&orig, "slub.alloc_fastpath", &o, &err), 0);
	assert_int_equal(c, o);
	assert_int_equal(m.handoff[DIST_OTHER_SOCKET], orig.handoff[DIST_OTHER_SOCKET]);
	machine_free(&m);
	machine_free(&orig);
	free(v);
	free(f);
}

/* Morris' design: every point on the grid in [0, 1]; from one point to the
 * next one factor moves by delta, each factor once a trajectory. */
static void test_morris_design(void **state)
{
	(void)state;
	enum { K = 5, R = 7, P = 4 };
	double x[R * (K + 1) * K], delta = P / (2.0 * (P - 1));
	int moved[R * K];
	sens_morris_design(K, R, P, 42, x, moved);
	for (int t = 0; t < R; t++) {
		int seen[K] = { 0 };
		for (int s = 0; s < K; s++) {
			const double *a = x + (t * (K + 1) + s) * K, *b = a + K;
			int j = moved[t * K + s], changed = 0;
			seen[j]++;
			for (int i = 0; i < K; i++) {
				assert_true(b[i] >= -1e-9 && b[i] <= 1 + 1e-9);
				double g = b[i] * (P - 1);
				assert_true(fabs(g - round(g)) < 1e-9);
				changed += a[i] != b[i];
			}
			assert_int_equal(changed, 1);
			assert_true(fabs(fabs(b[j] - a[j]) - delta) < 1e-9);
		}
		for (int i = 0; i < K; i++)
			assert_int_equal(seen[i], 1);
	}
}

/* On y = 3 x0 - 2 x2 + x1 x3 the effects are 3 and -2 exactly (sd 0), the
 * product's spread over the trajectories shows in sigma, and x4 is inert. */
static void test_morris_effects(void **state)
{
	(void)state;
	enum { K = 5, R = 10, P = 4 };
	double x[R * (K + 1) * K], y[R * (K + 1)], ms[K], mu[K], sd[K];
	int moved[R * K];
	sens_morris_design(K, R, P, 7, x, moved);
	for (int p = 0; p < R * (K + 1); p++) {
		const double *a = x + p * K;
		y[p] = 3 * a[0] - 2 * a[2] + a[1] * a[3];
	}
	sens_morris_effects(K, R, x, moved, y, ms, mu, sd);
	assert_true(fabs(ms[0] - 3) < 1e-9 && fabs(mu[0] - 3) < 1e-9 && sd[0] < 1e-9);
	assert_true(fabs(ms[2] - 2) < 1e-9 && fabs(mu[2] + 2) < 1e-9 && sd[2] < 1e-9);
	assert_true(ms[1] > 0 && sd[1] > 0);
	assert_true(ms[4] == 0 && sd[4] == 0);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tigerton_figures),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_variant_file),
		cmocka_unit_test(test_morris_design),
		cmocka_unit_test(test_morris_effects),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
