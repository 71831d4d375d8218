/* test_kmem_stat.c - perf kmem stat's books: call sites by symbol and by
 * name, per-cache rows that grow with new caches, ping-pong and remote-node
 * frees, and the totals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/kmem_stat.h"
#include "engine/engine.h"
#include "policies/policy.h"

static void test_sites(void **state)
{
	(void)state;
	struct kmem_stat s;
	struct profile p;
	profile_init(&p);
	int sym_a = profile_sym(&p, "__alloc_skb", SYM_KERNEL);
	int sym_b = profile_sym(&p, "getname", SYM_KERNEL);
	assert_int_equal(kmem_stat_init(&s, 4), 0);
	struct sim_cpu cpu = { .id = 2, .sym = sym_a };
	uint16_t a = kmem_site_current(&s, &p, &cpu);
	assert_int_equal(a, kmem_site_current(&s, &p, &cpu));	/* the same site again */
	cpu.sym = sym_b;
	uint16_t b = kmem_site_current(&s, &p, &cpu);
	assert_int_not_equal(a, b);
	assert_string_equal(s.site_name[a], "__alloc_skb");
	assert_string_equal(s.site_name[b], "getname");
	/* a replay's call site wins over the symbol, on its CPU only */
	uint16_t t = kmem_site_named(&s, "c104dd2f");
	assert_int_equal(kmem_site_named(&s, "c104dd2f"), t);
	s.cpu_site[2] = t;
	assert_int_equal(kmem_site_current(&s, &p, &cpu), t);
	cpu.id = 1;
	assert_int_equal(kmem_site_current(&s, &p, &cpu), b);
	kmem_stat_destroy(&s);
}

static void test_books(void **state)
{
	(void)state;
	struct kmem_stat s;
	assert_int_equal(kmem_stat_init(&s, 2), 0);
	uint16_t site = kmem_site_named(&s, "site");
	struct kmem_cache c0 = { .id = 0 }, c70 = { .id = 70 };	/* beyond the first rows */
	kmem_stat_alloc(&s, &c0, site, 184, 192);
	kmem_stat_alloc(&s, &c0, site, 184, 192);
	kmem_stat_alloc(&s, &c70, site, 440, 512);
	kmem_stat_alloc(&s, NULL, site, 5000, 8192);	/* kmalloc_large */
	kmem_stat_free(&s, &c0, site, 192, false, false);
	kmem_stat_free(&s, &c0, site, 192, true, false);
	kmem_stat_free(&s, &c70, site, 512, true, true);
	assert_true(s.caches_cap > 70);
	assert_int_equal(s.cache[0].allocs, 2);
	assert_int_equal(s.cache[0].frees, 2);
	assert_int_equal(s.cache[0].pingpong, 1);
	assert_int_equal(s.cache[0].bytes_req, 368);
	assert_int_equal(s.cache[70].remote_node, 1);
	assert_int_equal(s.cache[5].allocs, 0);
	assert_int_equal(s.large_allocs, 1);
	assert_int_equal(s.site[site].allocs, 4);
	assert_int_equal(s.site[site].pingpong, 2);
	assert_int_equal(s.total.allocs, 4);
	assert_int_equal(s.total.bytes_alloc, 192 + 192 + 512 + 8192);
	assert_int_equal(s.total.bytes_freed, 192 + 192 + 512);
	assert_int_equal(s.total.remote_node, 1);
	kmem_stat_destroy(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sites),
		cmocka_unit_test(test_books),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
