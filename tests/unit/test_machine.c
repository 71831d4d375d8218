/* test_machine.c - machine files: the seed machine loads with sourced
 * figures, and every kind of mistake gives one message naming file and field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "hw/machine.h"

static void test_tigerton_loads(void **state)
{
	(void)state;
	struct machine m;
	struct sim_err err;
	assert_int_equal(machine_load(&m, "tigerton", &err), 0);
	assert_int_equal(m.ncpus, 16);
	assert_int_equal(m.nodes, 1);
	assert_int_equal(m.nsockets, 4);
	assert_true(m.ghz > 2.9 && m.ghz < 3.0);
	/* CPUs 0 and 1 share a die (an L2), 0 and 2 a package, 0 and 4 nothing */
	assert_int_equal(machine_dist(&m, 0, 0), DIST_SAME_CORE);
	assert_int_equal(machine_dist(&m, 0, 1), DIST_SAME_DIE);
	assert_int_equal(machine_dist(&m, 0, 2), DIST_SAME_SOCKET);
	assert_int_equal(machine_dist(&m, 0, 4), DIST_OTHER_SOCKET);
	assert_int_equal(machine_dist(&m, 15, 12), DIST_SAME_SOCKET);
	assert_true(m.handoff[DIST_SAME_DIE] < m.handoff[DIST_SAME_SOCKET]);
	assert_int_equal(m.fabric, FABRIC_FSB);
	uint32_t c;
	assert_int_equal(machine_cost(&m, "slub.alloc_fastpath", &c, &err), 0);
	assert_true(c > 0);
	assert_int_equal(machine_cost(&m, "no.such.cost", &c, &err), -1);
	assert_non_null(strstr(err.msg, "no.such.cost"));
	machine_free(&m);
}

static const char good[] =
	"{ \"name\": \"t\", \"description\": \"test\", \"clock_ghz\": 2.0,\n"
	"  \"topology\": { \"nodes\": 2, \"sockets_per_node\": 1, \"dies_per_socket\": 1,\n"
	"                \"cores_per_die\": 2, \"threads_per_core\": 2 },\n"
	"  \"handoff_cycles\": { \"same_core\": 1, \"smt\": 10, \"same_socket\": 50, \"other_socket\": 200 },\n"
	"  \"memory_cycles\": { \"local\": 150, \"remote\": 250 },\n"
	"  \"atomic_cycles\": 20,\n"
	"  \"llc\": { \"kb\": 4096, \"ways\": 16, \"hit_cycles\": 14 },\n"
	"  \"l1\": { \"kb\": 32, \"ways\": 8 },\n"
	"  \"fabric\": { \"kind\": \"home\", \"home_occupancy_cycles\": 10,\n"
	"              \"link_occupancy_cycles\": 10, \"line_occupancy_cycles\": 50 },\n"
	"  \"cost_table\": \"core2\",\n"
	"  \"sources\": { \"clock_ghz\": \"s\", \"topology\": \"s\",\n"
	"    \"handoff_cycles.same_core\": \"s\", \"handoff_cycles.smt\": \"s\",\n"
	"    \"handoff_cycles.same_socket\": \"s\", \"handoff_cycles.other_socket\": \"s\",\n"
	"    \"memory_cycles.local\": \"s\", \"memory_cycles.remote\": \"s\",\n"
	"    \"atomic_cycles\": \"s\", \"llc.kb\": \"s\", \"llc.ways\": \"s\",\n"
	"    \"llc.hit_cycles\": \"s\", \"l1.kb\": \"s\", \"l1.ways\": \"s\",\n"
	"    \"fabric.home_occupancy_cycles\": \"s\",\n"
	"    \"fabric.link_occupancy_cycles\": \"s\", \"fabric.line_occupancy_cycles\": \"est: s\" } }\n";

/* Write `text` with `from` replaced by `to` to a temporary .json file. */
static char *write_variant(const char *from, const char *to)
{
	static char path[64];
	char *buf = malloc(sizeof(good) + 256);
	const char *at = from ? strstr(good, from) : NULL;
	if (from)
		assert_non_null(at);
	if (at)
		snprintf(buf, sizeof(good) + 256, "%.*s%s%s", (int)(at - good), good, to,
			 at + strlen(from));
	else
		snprintf(buf, sizeof(good) + 256, "%s", good);
	snprintf(path, sizeof(path), "/tmp/slabsim-test-%d.json", (int)getpid());
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(buf, f);
	fclose(f);
	free(buf);
	return path;
}

/* A variant must be refused with a message that contains `needle`. */
static void expect_refused(const char *from, const char *to, const char *needle)
{
	struct machine m;
	struct sim_err err;
	char *path = write_variant(from, to);
	int rc = machine_load(&m, path, &err);
	if (rc == 0 || !strstr(err.msg, needle) || !strstr(err.msg, path)) {
		printf("variant '%s' -> '%s': rc %d, message '%s' (wanted '%s')\n", from, to, rc,
		       rc ? err.msg : "", needle);
		fail();
	}
	unlink(path);
}

static void test_user_file_loads(void **state)
{
	(void)state;
	struct machine m;
	struct sim_err err;
	char *path = write_variant(NULL, NULL);
	assert_int_equal(machine_load(&m, path, &err), 0);
	assert_int_equal(m.ncpus, 8);
	assert_int_equal(m.nodes, 2);
	/* threads are numbered after all cores: cpu 4 is cpu 0's sibling; one
	 * die per socket and one socket per node name the classes */
	assert_int_equal(machine_dist(&m, 0, 4), DIST_SMT);
	assert_int_equal(machine_dist(&m, 0, 1), DIST_SAME_SOCKET);
	assert_int_equal(machine_dist(&m, 0, 2), DIST_OTHER_SOCKET);
	assert_int_equal(m.mem_remote, 250);
	machine_free(&m);
	unlink(path);
}

static void test_bad_files(void **state)
{
	(void)state;
	/* malformed JSON, with its line */
	expect_refused("\"atomic_cycles\": 20,", "\"atomic_cycles\": 20,,", "not valid JSON");
	/* a missing field */
	expect_refused("\"atomic_cycles\": 20,", "", "missing field 'atomic_cycles'");
	expect_refused("\"remote\": 250", "\"remotes\": 250", "memory_cycles.remote");
	/* a wrong type */
	expect_refused("\"clock_ghz\": 2.0", "\"clock_ghz\": \"fast\"", "'clock_ghz' must be a number");
	expect_refused("\"nodes\": 2", "\"nodes\": 2.5", "must be an integer");
	/* inconsistent topology and figures */
	expect_refused("\"nodes\": 2", "\"nodes\": 0", "topology.nodes");
	expect_refused("\"cores_per_die\": 2, \"threads_per_core\": 2", "\"cores_per_die\": 1024, \"threads_per_core\": 8", "CPUs, more than");
	expect_refused("\"same_socket\": 50", "\"same_socket\": 5", "must not get cheaper");
	expect_refused("\"smt\": 10, ", "", "handoff_cycles.smt");
	expect_refused("\"remote\": 250", "\"remote\": 100", "is less than 'memory_cycles.local'");
	expect_refused("\"threads_per_core\": 2", "\"threads_per_core\": 1", "'handoff_cycles.smt': the topology has no two CPUs");
	/* a misspelt field is refused, not ignored */
	expect_refused("\"atomic_cycles\": 20,", "\"atomic_cycle\": 20,", "unknown field 'atomic_cycle'");
	expect_refused("\"smt\": 10,", "\"smt\": 10, \"other_sockets\": 300,", "unknown field 'handoff_cycles.other_sockets'");
	expect_refused("\"nodes\": 2,", "\"nodes\": 2, \"numa\": 2,", "unknown field 'topology.numa'");
	expect_refused("\"local\": 150,", "\"local\": 150, \"far\": 400,", "unknown field 'memory_cycles.far'");
	expect_refused("\"kind\": \"home\",", "\"kind\": \"home\", \"bus_occupancy_cycles\": 5,", "unknown field 'fabric.bus_occupancy_cycles'");
	expect_refused("\"ways\": 16", "\"ways\": 7", "is not a whole number of 7-way sets");
	expect_refused("\"llc\": { \"kb\": 4096, \"ways\": 16, \"hit_cycles\": 14 },", "", "missing field 'llc'");
	expect_refused("\"l1\": { \"kb\": 32, \"ways\": 8 },", "", "missing field 'l1'");
	expect_refused("\"l1\": { \"kb\": 32,", "\"l1\": { \"kb\": 8192,", "must be smaller than 'llc.kb'");
	expect_refused("\"ways\": 8 }", "\"ways\": 8, \"hit_cycles\": 3 }", "unknown field 'l1.hit_cycles'");
	expect_refused(", \"hit_cycles\": 14 }", " }", "missing field 'llc.hit_cycles'");
	/* a figure out of range */
	expect_refused("\"atomic_cycles\": 20,", "\"atomic_cycles\": -20,", "atomic_cycles");
	expect_refused("\"clock_ghz\": 2.0", "\"clock_ghz\": 0", "clock_ghz");
	/* a figure without a source, or with an empty one */
	expect_refused("\"atomic_cycles\": \"s\",", "", "has no entry in 'sources'");
	expect_refused("\"atomic_cycles\": \"s\",", "\"atomic_cycles\": \"\",", "has no entry in 'sources'");
	expect_refused("\"sources\": {", "\"sourced\": {", "missing field 'sources'");
	/* a source that cites nothing: misspelt, or for a distance not there */
	expect_refused("\"sources\": {", "\"sources\": { \"clock_gz\": \"s\",", "'sources.clock_gz' cites no figure");
	expect_refused("\"sources\": {", "\"sources\": { \"handoff_cycles.same_die\": \"s\",", "'sources.handoff_cycles.same_die' cites no figure");
	/* an override of a cost the core's table does not have */
	expect_refused("\"cost_table\": \"core2\",", "\"cost_table\": \"core2\", \"costs\": { \"spin_lokc\": 5 },", "has no entry in 'sources'");
	expect_refused("\"sources\": {", "\"sources\": { \"costs.spin_lokc\": \"s\",", "'sources.costs.spin_lokc' cites no figure");
	expect_refused("\"cost_table\": \"core2\",\n  \"sources\": {",
		       "\"cost_table\": \"core2\", \"costs\": { \"spin_lokc\": 5 },\n"
		       "  \"sources\": { \"costs.spin_lokc\": \"s\",", "'costs.spin_lokc': cost table 'core2' has no such cost");
	expect_refused("\"cost_table\": \"core2\",\n  \"sources\": {",
		       "\"cost_table\": \"core2\", \"costs\": { \"spin_lock\": 5 },\n"
		       "  \"sources\": { \"costs.spin_lock\": \"s\", \"bogus\": 1,", "'sources.bogus' must be a string");
	/* unknown choices */
	expect_refused("\"kind\": \"home\"", "\"kind\": \"bus\"", "fabric.kind");
	expect_refused("\"cost_table\": \"core2\"", "\"cost_table\": \"vax\"", "cost_table");
	/* not an object at all */
	struct machine m;
	struct sim_err err;
	FILE *f = fopen("/tmp/slabsim-test-array.json", "w");
	fputs("[1, 2]", f);
	fclose(f);
	assert_int_equal(machine_load(&m, "/tmp/slabsim-test-array.json", &err), -1);
	assert_non_null(strstr(err.msg, "JSON object"));
	unlink("/tmp/slabsim-test-array.json");
	/* unknown machine names list the valid ones */
	assert_int_equal(machine_load(&m, "vax-11", &err), -1);
	assert_non_null(strstr(err.msg, "unknown machine 'vax-11'"));
	assert_non_null(strstr(err.msg, "tigerton"));
	assert_int_equal(machine_load(&m, "./nonexistent.json", &err), -1);
	assert_non_null(strstr(err.msg, "not found"));
}

/* A cost table that "inherits" another takes every entry it does not set
 * itself (so a new cost key is one edit, in the base table); a table that
 * inherits itself is refused by name. */
static void test_cost_table_inherits(void **state)
{
	(void)state;
	char dir[] = "/tmp/slabsim-costs-XXXXXX", path[128];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/costs", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/costs/mine.json", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("{ \"name\": \"mine\", \"description\": \"test\", \"inherits\": \"core2\",\n"
	      "  \"cycles\": { \"spin_lock\": 99 }, \"sources\": { \"spin_lock\": \"test\" } }\n", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/costs/loop.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{ \"name\": \"loop\", \"description\": \"test\", \"inherits\": \"loop\",\n"
	      "  \"cycles\": {}, \"sources\": {} }\n", f);
	fclose(f);
	const char *tables[] = { "mine", "loop" };
	for (int t = 0; t < 2; t++) {
		char *text = strdup(good), *at = strstr(text, "\"core2\"");
		assert_non_null(at);
		snprintf(path, sizeof(path), "%s/m.json", dir);
		f = fopen(path, "w");
		assert_non_null(f);
		fprintf(f, "%.*s\"%s\"%s", (int)(at - text), text, tables[t], at + 7);
		fclose(f);
		free(text);
		struct machine m, base;
		struct sim_err err;
		uint32_t c, b;
		if (t == 0) {
			assert_int_equal(machine_load(&m, path, &err), 0);
			assert_int_equal(machine_cost(&m, "spin_lock", &c, &err), 0);
			assert_int_equal(c, 99);
			assert_int_equal(machine_load(&base, "tigerton", &err), 0);
			assert_int_equal(machine_cost(&m, "slub.alloc_fastpath", &c, &err), 0);
			assert_int_equal(machine_cost(&base, "slub.alloc_fastpath", &b, &err), 0);
			assert_int_equal(c, b);	/* core2's own (fitted) figure */
			assert_int_equal(machine_cost(&m, "tcp_send_ack", &c, &err), 0);
			assert_true(c > 0);	/* and what core2 takes from its base */
			assert_int_equal(m.ncosts, base.ncosts);
			machine_free(&m);
			machine_free(&base);
		} else {
			assert_int_equal(machine_load(&m, path, &err), -1);
			assert_non_null(strstr(err.msg, "goes round in a circle"));
		}
	}
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tigerton_loads),
		cmocka_unit_test(test_user_file_loads),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_cost_table_inherits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
