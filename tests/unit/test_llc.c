/* test_llc.c - the die caches (sim/hw/llc.c) against a reference LRU cache
 * (a 64-bit timestamp per way, the least recent way goes, empty ways fill
 * first): the same hit or miss on every access and the same answer from
 * llc_present, for each cache shape the machines use (16 ways and a power
 * of two of sets, 24 ways, 15 ways and a set count that is not a power of
 * two, 12, 8 and 4 ways). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "engine/hostmem.h"
#include "hw/llc.h"

struct ref_cache {
	uint32_t nsets, ways;
	uint64_t *line;		/* [set][way], UINT64_MAX empty */
	uint64_t *stamp;
	uint64_t clock;
};

static void ref_init(struct ref_cache *r, uint32_t kb, uint32_t ways)
{
	r->ways = ways;
	r->nsets = kb * 1024 / 64 / ways;
	r->line = malloc((size_t)r->nsets * ways * sizeof(*r->line));
	r->stamp = calloc((size_t)r->nsets * ways, sizeof(*r->stamp));
	for (size_t i = 0; i < (size_t)r->nsets * ways; i++)
		r->line[i] = UINT64_MAX;
	r->clock = 0;
}

static void ref_free(struct ref_cache *r)
{
	free(r->line);
	free(r->stamp);
}

/* Lines alias when their low 32 bits agree, as in the model. */
static int ref_find(const struct ref_cache *r, uint64_t line)
{
	size_t s = (size_t)(line % r->nsets) * r->ways;
	for (uint32_t w = 0; w < r->ways; w++)
		if (r->line[s + w] != UINT64_MAX && (uint32_t)r->line[s + w] == (uint32_t)line)
			return (int)w;
	return -1;
}

static bool ref_access(struct ref_cache *r, uint64_t line)
{
	size_t s = (size_t)(line % r->nsets) * r->ways;
	int w = ref_find(r, line);
	r->clock++;
	if (w >= 0) {
		r->stamp[s + (uint32_t)w] = r->clock;
		return true;
	}
	uint32_t victim = 0;
	for (uint32_t i = 0; i < r->ways; i++) {
		if (r->line[s + i] == UINT64_MAX) {
			victim = i;
			break;
		}
		if (r->stamp[s + i] < r->stamp[s + victim])
			victim = i;
	}
	r->line[s + victim] = line;
	r->stamp[s + victim] = r->clock;
	return false;
}

/* xorshift64: the test's own repeatable numbers */
static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* `n` accesses to lines drawn from a pool a few times the cache's size,
 * with runs of consecutive lines (objects of several lines) and repeats
 * (the most recent lines again), checked access by access. */
/* Narrow tags (span_bits > 0) for `nodes` nodes of 2^node_shift lines. */
static void compare_shape_as(uint32_t kb, uint32_t ways, int span_bits, int nodes, int node_shift,
			     uint64_t n, uint64_t seed)
{
	struct hw_llc c;
	struct ref_cache r;
	bool narrow = span_bits > 0;
	size_t bytes = llc_bytes(kb, ways, narrow);
	assert_int_equal(bytes % 64, 0);
	void *mem = hostmem_alloc(bytes);
	assert_non_null(mem);
	llc_init(&c, kb, ways, span_bits, node_shift, mem);
	ref_init(&r, kb, ways);
	assert_int_equal(c.nsets, r.nsets);
	/* lines from a pool 3 times the cache, within what narrow tags tell
	 * apart: the first 2^span_bits lines of each node (any line, wide) */
	uint64_t x = seed, pool = (uint64_t)kb * 1024 / 64 * 3, recent[8] = { 0 };
	uint64_t span = narrow ? 1ull << span_bits : 1ull << 32;
	uint64_t base = 0x3fffe200000000ull;	/* the direct map's first line */
	for (uint64_t i = 0; i < n;) {
		uint64_t v = rnd(&x);
		uint64_t line;
		if (v % 4 == 0)
			line = recent[(v >> 8) % 8];
		else
			line = base + ((v >> 16) % pool * 0x9e3779b1ull) % (span - 8) +
			       (narrow ? ((v >> 48) % (uint64_t)nodes << node_shift) : 0);
		int run = 1 + (int)((v >> 40) % 8);
		for (int k = 0; k < run && i < n; k++, i++) {
			uint64_t l = line + (uint64_t)k;
			bool want_present = ref_find(&r, l) >= 0;
			assert_int_equal(llc_present(&c, l), want_present);
			bool want = ref_access(&r, l);
			if (llc_access(&c, l) != want)
				fail_msg("access %llu (line %#llx): model %s, reference %s",
					 (unsigned long long)i, (unsigned long long)l,
					 want ? "missed" : "hit", want ? "hit" : "missed");
		}
		recent[(v >> 24) % 8] = line;
	}
	/* with a power of two of sets, lines 2^32 apart are the same line to
	 * the model (documented) */
	llc_access(&c, base + 5);
	ref_access(&r, base + 5);
	if (!narrow && !(c.nsets & (c.nsets - 1)))
		assert_true(llc_present(&c, base + 5 + (1ull << 32)));
	if (narrow) {	/* widened, it holds the same lines in the same order */
		struct hw_llc w;
		size_t wbytes = llc_bytes(kb, ways, false);
		void *wmem = hostmem_alloc(wbytes);
		llc_widen(&c, &w, wmem);
		assert_int_equal(w.span_bits, 0);
		for (uint64_t i = 0; i < 20000; i++) {
			uint64_t v = rnd(&x);
			uint64_t l = base + ((v >> 16) % pool * 0x9e3779b1ull) % (span - 8) +
				     ((v >> 48) % (uint64_t)nodes << node_shift);
			assert_int_equal(llc_present(&w, l), ref_find(&r, l) >= 0);
			assert_int_equal(llc_access(&w, l), ref_access(&r, l));
		}
		hostmem_free(wmem, wbytes);
	}
	ref_free(&r);
	hostmem_free(mem, bytes);
}

/* Both tag widths where the shape allows narrow tags: one node whose every
 * line they tell apart, and four nodes whose first 2^span_bits lines they do. */
static void compare_shape(uint32_t kb, uint32_t ways, uint64_t n, uint64_t seed)
{
	compare_shape_as(kb, ways, 0, 1, 0, n, seed);
	uint32_t nsets = kb * 1024 / 64 / ways;
	int set_bits = 0;
	while ((1u << set_bits) < nsets)
		set_bits++;
	if (!(nsets & (nsets - 1))) {
		assert_int_equal(llc_narrow_span(kb, ways, 1, set_bits + 16), set_bits + 16);
		assert_int_equal(llc_narrow_span(kb, ways, 1, set_bits + 10), set_bits + 10);
		assert_int_equal(llc_narrow_span(kb, ways, 4, set_bits + 16), set_bits + 14);
		assert_int_equal(llc_narrow_span(kb, ways, 1, 32), 0);	/* 256 GB a node */
		compare_shape_as(kb, ways, set_bits + 16, 1, set_bits + 16, n, seed + 100);
		compare_shape_as(kb, ways, set_bits + 14, 4, set_bits + 16, n, seed + 200);
	} else {
		assert_int_equal(llc_narrow_span(kb, ways, 1, 20), 0);
	}
}

static void test_tigerton_l2(void **state)
{
	(void)state;
	compare_shape(4096, 16, 400000, 1);
}

static void test_nehalem_ex_l3(void **state)
{
	(void)state;
	compare_shape(24576, 24, 300000, 2);
}

static void test_non_power_of_two_sets(void **state)
{
	(void)state;
	compare_shape(1920, 15, 300000, 3);	/* 2048 sets of 15 ways */
	compare_shape(960, 15, 300000, 4);	/* 1024 */
	compare_shape(720, 15, 300000, 5);	/* 768: set = line % 768 */
}

static void test_l1_shapes(void **state)
{
	(void)state;
	compare_shape(32, 8, 300000, 6);
	compare_shape(48, 12, 300000, 7);
	compare_shape(8, 4, 300000, 8);
}

/* A set fills its ways in order, then drops the least recently used. */
static void test_fill_then_evict(void **state)
{
	(void)state;
	struct hw_llc c;
	size_t bytes = llc_bytes(4, 4, false);	/* 16 sets of 4 ways */
	void *mem = hostmem_alloc(bytes);
	llc_init(&c, 4, 4, 0, 0, mem);
	for (uint64_t w = 0; w < 4; w++)
		assert_false(llc_access(&c, 16 * w));	/* four lines of set 0 */
	assert_true(llc_access(&c, 0));		/* 0 is now the most recent */
	assert_false(llc_access(&c, 64));	/* a fifth: 16, the least recent, goes */
	assert_false(llc_present(&c, 16));
	assert_true(llc_present(&c, 0) && llc_present(&c, 32) && llc_present(&c, 48));
	assert_false(llc_present(&c, 1));	/* set 1 untouched */
	hostmem_free(mem, bytes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tigerton_l2),
		cmocka_unit_test(test_nehalem_ex_l3),
		cmocka_unit_test(test_non_power_of_two_sets),
		cmocka_unit_test(test_l1_shapes),
		cmocka_unit_test(test_fill_then_evict),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
