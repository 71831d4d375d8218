/* test_trace_load.c - the kmem trace reader: every line format (ftrace,
 * trace-cmd report, perf script; old and 6.x events), headers, other events
 * and bad lines with their reasons, matching of frees to allocations with
 * each problem, the two real captures, and a fuzz of random and mutated
 * lines and texts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "workloads/trace_load.h"
#include "engine/array_size.h"

/* Parse a NUL-terminated line (copied into a buffer of exactly its length,
 * so that a read past len is caught by the sanitizers and valgrind). */
static enum trace_line_kind parse(const char *s, struct trace_event *ev, char *why, size_t n)
{
	size_t len = strlen(s);
	char *buf = malloc(len ? len : 1);
	enum trace_line_kind k;
	assert_non_null(buf);
	memcpy(buf, s, len);
	k = trace_parse_line(buf, len, ev, why, n);
	free(buf);
	return k;
}

/* Parse a line that must be a kmem event. */
static void parse_event(const char *s, struct trace_event *ev)
{
	char why[128];
	enum trace_line_kind k = parse(s, ev, why, sizeof(why));
	if (k != TRACE_LINE_EVENT)
		fail_msg("not an event (%d, '%s'): %s", (int)k, why, s);
}

/* The reason a line is bad (asserting that it is). */
static const char *bad_reason(const char *s, char *why, size_t n)
{
	struct trace_event ev;
	enum trace_line_kind k = parse(s, &ev, why, n);
	if (k != TRACE_LINE_BAD)
		fail_msg("not bad (%d): %s", (int)k, s);
	return why;
}

/* Load a text that must load. */
static void load(const char *text, struct trace *tr)
{
	struct sim_err err = { "" };
	if (trace_load_text("test", text, strlen(text), tr, &err) != 0)
		fail_msg("load failed: %s", err.msg);
}

/* Every line is accounted for once, and every index is in range. */
static void check_accounting(const struct trace *tr)
{
	uint64_t both = tr->problems[TP_NULL_FREE] + tr->problems[TP_UNKNOWN_FREE] +
			tr->problems[TP_LIVE_REALLOC], sum = 0, kinds = 0;
	assert_int_equal((uint64_t)tr->header_lines + tr->nops + tr->ndiags - both, tr->nlines);
	for (int p = 0; p < TP_NPROBLEMS; p++)
		sum += tr->problems[p];
	assert_int_equal(sum, tr->ndiags);
	for (int k = 0; k < TR_NKINDS; k++)
		kinds += tr->kind_count[k];
	assert_int_equal(kinds, tr->nops);
	for (uint32_t i = 0; i < tr->nops; i++) {
		const struct trace_op *op = &tr->ops[i];
		assert_true(op->line >= 1 && op->line <= tr->nlines);
		assert_true(i == 0 || op->line > tr->ops[i - 1].line);
		assert_true(op->obj == TRACE_NO_OBJ || op->obj < tr->nobjs);
		assert_true(op->site < tr->nsites);
		assert_true(op->kind < TR_NKINDS);
		assert_true((int)op->cpu <= tr->max_cpu);
	}
	for (uint32_t i = 0; i < tr->ndiags; i++) {
		assert_true(tr->diags[i].line >= 1 && tr->diags[i].line <= tr->nlines);
		assert_true(i == 0 || tr->diags[i].line > tr->diags[i - 1].line);
		assert_true(tr->diags[i].problem < TP_NPROBLEMS);
	}
	for (uint32_t i = 0; i < tr->nobjs; i++)
		assert_true(tr->objs[i].cache == TRACE_KMALLOC || tr->objs[i].cache < tr->ncaches);
}

static void test_ftrace_line(void **state)
{
	(void)state;
	struct trace_event ev;
	parse_event("            init-1     [000] .N..     0.150000: kmalloc: call_site=c104dd2f "
		    "ptr=c147dd20 bytes_req=29 bytes_alloc=32 gfp_flags=GFP_KERNEL", &ev);
	assert_int_equal(ev.kind, TR_KMALLOC);
	assert_false(ev.node_variant);
	assert_int_equal(ev.cpu, 0);
	assert_int_equal(ev.pid, 1);
	assert_int_equal(ev.ts_ns, 150000000);
	assert_int_equal(ev.ptr, 0xc147dd20);
	assert_int_equal(ev.bytes_req, 29);
	assert_int_equal(ev.bytes_alloc, 32);
	assert_int_equal(ev.node, -1);
	assert_string_equal(ev.comm, "init");
	assert_string_equal(ev.call_site, "c104dd2f");
	assert_string_equal(ev.name, "");

	parse_event("  kworker/0:1-11    [003] d..1    12.000001: kmem_cache_free: "
		    "call_site=c10b8f0e ptr=c1610c08", &ev);
	assert_int_equal(ev.kind, TR_CACHE_FREE);
	assert_int_equal(ev.cpu, 3);
	assert_int_equal(ev.pid, 11);
	assert_int_equal(ev.ts_ns, 12000001000ull);
	assert_int_equal(ev.ptr, 0xc1610c08);
	assert_string_equal(ev.comm, "kworker/0:1");
	assert_string_equal(ev.call_site, "c10b8f0e");
}

static void test_flagsless_and_comm(void **state)
{
	(void)state;
	struct trace_event ev;
	parse_event("init-1 [000]  0.150000: kmalloc: call_site=c104dd2f ptr=c147dd20 "
		    "bytes_req=29 bytes_alloc=32 gfp_flags=GFP_KERNEL", &ev);
	assert_int_equal(ev.pid, 1);
	assert_int_equal(ev.ts_ns, 150000000);
	assert_string_equal(ev.comm, "init");

	parse_event("  Web Content-1234  [002] dNs2.  5.123456789: kfree: call_site=ffffffff8123 "
		    "ptr=ffff88810a2b3c00", &ev);
	assert_int_equal(ev.kind, TR_KFREE);
	assert_int_equal(ev.pid, 1234);
	assert_int_equal(ev.cpu, 2);
	assert_int_equal(ev.ts_ns, 5123456789ull);
	assert_int_equal(ev.ptr, 0xffff88810a2b3c00ull);
	assert_string_equal(ev.comm, "Web Content");

	/* dashes in the comm: the pid follows the last one; long comm truncated */
	parse_event("a-b-c-d-very-long-task-name-77 [001] 1.5: kfree: call_site=x ptr=10", &ev);
	assert_int_equal(ev.pid, 77);
	assert_int_equal(ev.ts_ns, 1500000000);
	assert_string_equal(ev.comm, "a-b-c-d-very-lo");

	parse_event("<idle>-0 [001] ..s. 1: kfree: ptr=10", &ev);
	assert_string_equal(ev.comm, "<idle>");
	assert_int_equal(ev.pid, 0);
	assert_int_equal(ev.ts_ns, 1000000000);
	assert_string_equal(ev.call_site, "");
}

static void test_null_pointers(void **state)
{
	(void)state;
	static const char *const forms[] = {
		"ptr=  (null)", "ptr=(null)", "ptr=0000000000000000", "ptr=0x0", "ptr=00000000",
		"ptr=0",
	};
	char line[200];
	struct trace_event ev;
	for (size_t i = 0; i < ARRAY_SIZE(forms); i++) {
		snprintf(line, sizeof(line), "init-1 [000] .N.. 0.150000: kfree: call_site=c10bf31a %s",
			 forms[i]);
		parse_event(line, &ev);
		assert_int_equal(ev.ptr, 0);
		assert_string_equal(ev.call_site, "c10bf31a");
		/* also when the null pointer is not the last field */
		snprintf(line, sizeof(line), "init-1 [000] .N.. 0.150000: kfree: %s call_site=c1",
			 forms[i]);
		parse_event(line, &ev);
		assert_int_equal(ev.ptr, 0);
		assert_string_equal(ev.call_site, "c1");
	}
	parse_event("x-1 [000] 0.1: kfree: ptr=0X00000000DEADBEEF", &ev);
	assert_int_equal(ev.ptr, 0xdeadbeef);
}

static void test_perf_script(void **state)
{
	(void)state;
	struct trace_event ev;
	parse_event("         swapper     0 [000]  1234.567890: kmem:kmalloc: "
		    "call_site=ffffffff81234567 ptr=0xffff88810a2b3c00 bytes_req=224 bytes_alloc=256 "
		    "gfp_flags=GFP_ATOMIC", &ev);
	assert_int_equal(ev.kind, TR_KMALLOC);
	assert_int_equal(ev.pid, 0);
	assert_int_equal(ev.cpu, 0);
	assert_int_equal(ev.ts_ns, 1234567890000ull);
	assert_int_equal(ev.ptr, 0xffff88810a2b3c00ull);
	assert_int_equal(ev.bytes_req, 224);
	assert_int_equal(ev.bytes_alloc, 256);
	assert_string_equal(ev.comm, "swapper");
	assert_string_equal(ev.call_site, "ffffffff81234567");

	parse_event("  Web Content  4321 [007]   77.000000001: kmem:kfree: call_site=__alloc_skb+0x4f "
		    "ptr=0xffff88810a2b3c00", &ev);
	assert_int_equal(ev.kind, TR_KFREE);
	assert_int_equal(ev.pid, 4321);
	assert_int_equal(ev.cpu, 7);
	assert_int_equal(ev.ts_ns, 77000000001ull);
	assert_string_equal(ev.comm, "Web Content");
	assert_string_equal(ev.call_site, "__alloc_skb+0x4f");

	/* perf script -F comm,pid,tid,...: the tid */
	parse_event("bash 100/101 [001] 1.000000: kmem:kmem_cache_free: call_site=f ptr=0x40", &ev);
	assert_int_equal(ev.kind, TR_CACHE_FREE);
	assert_int_equal(ev.pid, 101);
	assert_string_equal(ev.comm, "bash");
}

static void test_6x_format(void **state)
{
	(void)state;
	struct trace_event ev;
	parse_event("   kworker/u8:2-123   [001] ..... 100.000100: kmem_cache_alloc: "
		    "call_site=__alloc_skb+0x4f/0x1f0 ptr=000000003c1d2e4f bytes_req=232 "
		    "bytes_alloc=256 gfp_flags=0x400dc0(GFP_KERNEL|__GFP_ZERO) node=-1 "
		    "accounted=false name=skbuff_head_cache", &ev);
	assert_int_equal(ev.kind, TR_CACHE_ALLOC);
	assert_false(ev.node_variant);
	assert_int_equal(ev.cpu, 1);
	assert_int_equal(ev.pid, 123);
	assert_int_equal(ev.ts_ns, 100000100000ull);
	assert_int_equal(ev.ptr, 0x3c1d2e4f);
	assert_int_equal(ev.bytes_req, 232);
	assert_int_equal(ev.bytes_alloc, 256);
	assert_int_equal(ev.node, -1);
	assert_string_equal(ev.comm, "kworker/u8:2");
	assert_string_equal(ev.call_site, "__alloc_skb+0x4f/0x1f0");
	assert_string_equal(ev.name, "skbuff_head_cache");

	/* fields in another order, a module symbol, an unknown key */
	parse_event("sh-9 [000] d..2. 1.000000: kmem_cache_free: name=ext4_inode_cache "
		    "future=1 call_site=ext4_free+0x10/0x20 [ext4] ptr=ffff888004000040", &ev);
	assert_int_equal(ev.kind, TR_CACHE_FREE);
	assert_int_equal(ev.ptr, 0xffff888004000040ull);
	assert_string_equal(ev.name, "ext4_inode_cache");
	assert_string_equal(ev.call_site, "ext4_free+0x10/0x20 [ext4]");

	/* a name longer than the field is truncated */
	parse_event("sh-9 [000] 1.0: kmem_cache_free: call_site=x ptr=40 "
		    "name=a_cache_name_much_longer_than_thirty_two_bytes", &ev);
	assert_string_equal(ev.name, "a_cache_name_much_longer_than_t");
}

static void test_trace_cmd(void **state)
{
	(void)state;
	struct trace_event ev;
	char why[64];
	assert_int_equal(parse("cpus=2", &ev, why, sizeof(why)), TRACE_LINE_HEADER);
	assert_int_equal(parse("version = 6", &ev, why, sizeof(why)), TRACE_LINE_HEADER);
	parse_event("            init-1     [000]     0.150000: kmalloc:              "
		    "call_site=c104dd2f ptr=0xc147dd20 bytes_req=29 bytes_alloc=32 "
		    "gfp_flags=GFP_KERNEL", &ev);
	assert_int_equal(ev.kind, TR_KMALLOC);
	assert_int_equal(ev.ptr, 0xc147dd20);
	assert_int_equal(ev.bytes_req, 29);
	assert_int_equal(ev.bytes_alloc, 32);
	assert_string_equal(ev.call_site, "c104dd2f");
	parse_event("  sh-15 [000]  0.5: kfree:                call_site=c10bf31a ptr=  (null)\t",
		    &ev);
	assert_int_equal(ev.kind, TR_KFREE);
	assert_int_equal(ev.ptr, 0);
}

static void test_node_variants(void **state)
{
	(void)state;
	struct trace_event ev;
	parse_event("kthreadd-2 [001] .... 2.000000: kmalloc_node: call_site=c1 ptr=c2000000 "
		    "bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL node=1", &ev);
	assert_int_equal(ev.kind, TR_KMALLOC);
	assert_true(ev.node_variant);
	assert_int_equal(ev.node, 1);
	assert_int_equal(ev.bytes_req, 100);
	assert_int_equal(ev.bytes_alloc, 128);
	parse_event("kthreadd-2 [001] .... 2.000000: kmem:kmem_cache_alloc_node: call_site=c1 "
		    "ptr=c2000000 bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL node=-1", &ev);
	assert_int_equal(ev.kind, TR_CACHE_ALLOC);
	assert_true(ev.node_variant);
	assert_int_equal(ev.node, -1);
}

/* gfp_flags= as the model's flags: whether the allocation may sleep, for
 * fault injection's ignore-gfp-wait; GFP_KERNEL when the trace omits it. */
static void test_gfp_flags(void **state)
{
	(void)state;
	static const struct {
		const char *flags;
		gfp_t want;
	} cases[] = {
		{ "GFP_KERNEL", GFP_KERNEL },
		{ "GFP_KERNEL|GFP_ZERO", GFP_KERNEL },
		{ "GFP_KERNEL_ACCOUNT|__GFP_ZERO", GFP_KERNEL },
		{ "GFP_USER|GFP_ZERO", GFP_KERNEL },
		{ "GFP_NOFS", GFP_NOFS },
		{ "GFP_NOIO|__GFP_NOWARN", GFP_NOIO },
		{ "__GFP_HIGH|__GFP_DIRECT_RECLAIM", GFP_KERNEL },
		{ "GFP_ATOMIC", GFP_ATOMIC },
		{ "GFP_ATOMIC|GFP_ZERO", GFP_ATOMIC },
		{ "__GFP_HIGH|__GFP_ATOMIC|__GFP_KSWAPD_RECLAIM", GFP_ATOMIC },
		{ "GFP_NOWAIT|__GFP_NOWARN", GFP_NOWAIT },
		{ "GFP_NOWARN", GFP_NOWAIT },
		{ "0xd0", GFP_KERNEL },	/* a number: its bits differ by era */
	};
	struct trace_event ev;
	char line[256];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(line, sizeof(line), "a-1 [000] .... 1.000000: kmalloc: call_site=c1 "
			 "ptr=c2000000 bytes_req=8 bytes_alloc=8 gfp_flags=%s", cases[i].flags);
		parse_event(line, &ev);
		if (ev.gfp != cases[i].want)
			fail_msg("gfp_flags=%s: %#x, want %#x", cases[i].flags, ev.gfp,
				 cases[i].want);
	}
	parse_event("a-1 [000] .... 1.000000: kmalloc: call_site=c1 ptr=c2000000 bytes_req=8 "
		    "bytes_alloc=8", &ev);
	assert_int_equal(ev.gfp, GFP_KERNEL);
	assert_true(gfpflags_allow_blocking(GFP_NOFS) && !gfpflags_allow_blocking(GFP_ATOMIC));
}

static void test_headers(void **state)
{
	(void)state;
	static const char *const headers[] = {
		"", "   ", "\t", "\r", "# tracer: nop", "   #   TASK-PID", "#", "cpus=4",
		"version = 6", "version=6", "CPU 0 is empty", "CPU:1 [LOST 12 EVENTS]",
	};
	struct trace_event ev;
	char why[64];
	for (size_t i = 0; i < ARRAY_SIZE(headers); i++)
		if (parse(headers[i], &ev, why, sizeof(why)) != TRACE_LINE_HEADER)
			fail_msg("not a header: '%s'", headers[i]);
	assert_int_equal(trace_parse_line(NULL, 0, &ev, why, sizeof(why)), TRACE_LINE_HEADER);
}

static void test_other_events(void **state)
{
	(void)state;
	struct trace_event ev;
	char why[64];
	assert_int_equal(parse("init-1 [000] .... 0.1: mm_page_alloc: page=c1 pfn=1 order=0",
			       &ev, why, sizeof(why)), TRACE_LINE_OTHER);
	assert_string_equal(why, "mm_page_alloc");
	assert_int_equal(parse("swapper 0 [000] 1.0: kmem:mm_page_free: page=0x1 order=0",
			       &ev, why, sizeof(why)), TRACE_LINE_OTHER);
	assert_string_equal(why, "kmem:mm_page_free");
	assert_int_equal(parse("bash-5 [001] d..3 9.9: sched_switch: prev_comm=bash prev_pid=5 "
			       "==> next_comm=swapper/1", &ev, why, sizeof(why)),
			 TRACE_LINE_OTHER);
	assert_string_equal(why, "sched_switch");
	assert_int_equal(parse("bash-5 [001] 9.9: tracing_mark_write:", &ev, why, sizeof(why)),
			 TRACE_LINE_OTHER);
	assert_string_equal(why, "tracing_mark_write");
	/* a kmalloc of another system is another event */
	assert_int_equal(parse("bash-5 [001] 9.9: probe:kmalloc: ptr=1", &ev, why, sizeof(why)),
			 TRACE_LINE_OTHER);
	assert_string_equal(why, "probe:kmalloc");
}

static void test_bad_lines(void **state)
{
	(void)state;
	static const struct {
		const char *line, *why;
	} cases[] = {
		{ "init-1 [000] .N.. 0.150000: kmalloc: call_site=c1 ptr=c2 bytes_req=29 "
		  "gfp_flags=GFP_KERNEL", "kmalloc: no bytes_alloc= field" },
		{ "init-1 [000] 0.1: kmem_cache_alloc_node: ptr=c2 bytes_alloc=2",
		  "kmem_cache_alloc_node: no bytes_req= field" },
		{ "init-1 [000] .N.. 0.1x5: kfree: ptr=c2", "bad timestamp '0.1x5'" },
		{ "init-1 [000] 0.150000 kfree: ptr=c2", "bad timestamp '0.150000'" },
		{ "init-1 [000] 0.1234567890: kfree: ptr=c2", "bad timestamp '0.1234567890'" },
		{ "init-1 [000] 99999999999999999999.0: kfree: ptr=c2",
		  "bad timestamp '99999999999999999999.0'" },
		{ "init-1 [000] .: kfree: ptr=c2", "bad timestamp 'kfree'" },
		{ "init-1 [000] .N..", "no timestamp" },
		{ "init-1 [000]", "no timestamp" },
		{ "init-1 0.150000: kfree: ptr=c2", "no [CPU] column" },
		{ "init-1 [0x1] 0.1: kfree: ptr=c2", "no [CPU] column" },
		{ "hello world", "no [CPU] column" },
		{ "init [000] 0.1: kfree: ptr=c2", "no pid before the CPU column" },
		{ "init-99999999999 [000] 0.1: kfree: ptr=c2", "bad pid" },
		{ "12 [000] 0.1: kfree: ptr=c2", "no task-pid before the CPU column" },
		{ "init-1 [99999] 0.1: kfree: ptr=c2", "bad CPU '[99999]'" },
		{ "init-1 [000] 0.1: do_IRQ <-common_interrupt", "no event name after the timestamp" },
		{ "init-1 [000] 0.1:", "no event name after the timestamp" },
		{ "init-1 [000] 0.1: kfree:ptr=1", "no event name after the timestamp" },
		{ "init-1 [000] 0.1: kfree: call_site=c1", "kfree: no ptr= field" },
		{ "init-1 [000] 0.1: kfree: call_site=c1 ptr=xyz", "kfree: bad ptr= 'xyz'" },
		{ "init-1 [000] 0.1: kfree: ptr=", "kfree: bad ptr= ''" },
		{ "init-1 [000] 0.1: kfree: ptr=0x", "kfree: bad ptr= '0x'" },
		{ "init-1 [000] 0.1: kfree: ptr=1ffffffffffffffff",
		  "kfree: bad ptr= '1ffffffffffffffff'" },
		{ "init-1 [000] 0.1: kmalloc: ptr=1 bytes_req=99999999999999999999 bytes_alloc=1",
		  "kmalloc: bad bytes_req= '99999999999999999999'" },
		{ "init-1 [000] 0.1: kmalloc: ptr=1 bytes_req=1 bytes_alloc=4294967296",
		  "kmalloc: bad bytes_alloc= '4294967296'" },
		{ "init-1 [000] 0.1: kmalloc: ptr=1 bytes_req=-1 bytes_alloc=1",
		  "kmalloc: bad bytes_req= '-1'" },
		{ "init-1 [000] 0.1: kmalloc_node: ptr=1 bytes_req=1 bytes_alloc=1 node=x",
		  "kmalloc_node: bad node= 'x'" },
		{ "init-1 [000] 0.1: kfree: ptr=1 ptr=2", "kfree: two ptr= fields" },
		{ "init-1 [000] 0.1: kfree: ptr=1 call_site=a call_site=b",
		  "kfree: two call_site= fields" },
		{ "init-1 [000] 0.1: kfree: ptr=123456789012345678901234567890",
		  "kfree: bad ptr= '123456789012345678901234...'" },
		{ "init-1 [000] 0.1: kfree: ptr=\x01\x7f", "kfree: bad ptr= '?\?'" },
	};
	char why[128];
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		bad_reason(cases[i].line, why, sizeof(why));
		if (strcmp(why, cases[i].why))
			fail_msg("'%s': reason '%s', expected '%s'", cases[i].line, why, cases[i].why);
	}
	/* a short reason buffer gets a truncated, terminated reason */
	char small[9];
	memset(small, 'x', sizeof(small));
	bad_reason("hello world", small, 8);
	assert_string_equal(small, "no [CPU");
	assert_int_equal(small[8], 'x');
}

static void test_bounds(void **state)
{
	(void)state;
	static const char line[] = "init-1 [000] 0.150000: kfree: call_site=c1 ptr=c2 junk";
	struct trace_event ev;
	char why[64];
	/* only len bytes are read: the line ends inside the pointer */
	size_t len = strlen("init-1 [000] 0.150000: kfree: call_site=c1 ptr=c");
	char *buf = malloc(len);
	assert_non_null(buf);
	memcpy(buf, line, len);
	assert_int_equal(trace_parse_line(buf, len, &ev, why, sizeof(why)), TRACE_LINE_EVENT);
	assert_int_equal(ev.ptr, 0xc);
	free(buf);
	/* an embedded NUL is one more byte, not the end */
	static const char nul[] = "init-1 [000] 0.1: kfree: call_site=c\0x ptr=c2";
	assert_int_equal(trace_parse_line(nul, sizeof(nul) - 1, &ev, why, sizeof(why)),
			 TRACE_LINE_EVENT);
	assert_int_equal(ev.ptr, 0xc2);
	assert_string_equal(ev.call_site, "c");
	static const char nul2[] = "init-1 [000] 0.1: kfree: ptr=c\0002";
	assert_int_equal(trace_parse_line(nul2, sizeof(nul2) - 1, &ev, why, sizeof(why)),
			 TRACE_LINE_BAD);
	assert_string_equal(why, "kfree: bad ptr= 'c?2'");
	/* no why buffer, no event */
	assert_int_equal(trace_parse_line(line, 10, NULL, NULL, 0), TRACE_LINE_BAD);
	assert_int_equal(trace_parse_line(line, sizeof(line) - 1, NULL, why, 0), TRACE_LINE_EVENT);
	/* \r\n endings and trailing blanks */
	parse_event("init-1 [000] 0.1: kfree: ptr=c2 \r\n", &ev);
	assert_int_equal(ev.ptr, 0xc2);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(trace_kind_name(TR_KMALLOC), "kmalloc");
	assert_string_equal(trace_kind_name(TR_CACHE_ALLOC), "kmem_cache_alloc");
	assert_string_equal(trace_kind_name(TR_KFREE), "kfree");
	assert_string_equal(trace_kind_name(TR_CACHE_FREE), "kmem_cache_free");
	assert_string_equal(trace_kind_name(TR_NKINDS), "?");
	assert_string_equal(trace_problem_name(TP_NULL_FREE), "kfree(NULL)");
	for (int p = 0; p < TP_NPROBLEMS; p++)
		assert_true(strlen(trace_problem_name(p)) > 3);
	assert_string_equal(trace_problem_name(TP_NPROBLEMS), "?");
}

#define L(ev, fields) "t-1 [000] .... 0.000001: " ev ": " fields "\n"

static void test_match_pairs(void **state)
{
	(void)state;
	struct trace tr;
	load("# tracer: nop\n"
	     "t-1 [001] .... 1.000000: kmalloc: call_site=s1 ptr=c0001000 bytes_req=20 "
	     "bytes_alloc=32 gfp_flags=GFP_KERNEL\n"
	     "t-1 [000] .... 2.000000: kmem_cache_alloc: call_site=s2 ptr=c0002000 bytes_req=60 "
	     "bytes_alloc=64 gfp_flags=GFP_KERNEL\n"
	     "t-1 [003] .... 3.000000: kmem_cache_alloc: call_site=s2 ptr=c0002040 bytes_req=60 "
	     "bytes_alloc=64 gfp_flags=GFP_KERNEL\n"
	     "t-1 [000] .... 4.000000: kmem_cache_alloc: call_site=s2 ptr=c0003000 bytes_req=100 "
	     "bytes_alloc=128 gfp_flags=GFP_KERNEL\n"
	     "t-1 [000] .... 5.000000: kfree: call_site=s3 ptr=c0001000\n"
	     "t-1 [002] .... 6.000000: kmem_cache_free: call_site=s4 ptr=c0002040\n", &tr);
	check_accounting(&tr);
	assert_string_equal(tr.path, "test");
	assert_int_equal(tr.nlines, 7);
	assert_int_equal(tr.header_lines, 1);
	assert_int_equal(tr.nops, 6);
	assert_int_equal(tr.nobjs, 4);
	assert_int_equal(tr.ndiags, 0);
	assert_int_equal(tr.max_cpu, 3);
	assert_int_equal(tr.first_ts_ns, 1000000000);
	assert_string_equal(tr.first_bad, "");
	assert_int_equal(tr.kind_count[TR_KMALLOC], 1);
	assert_int_equal(tr.kind_count[TR_CACHE_ALLOC], 3);
	assert_int_equal(tr.kind_count[TR_KFREE], 1);
	assert_int_equal(tr.kind_count[TR_CACHE_FREE], 1);
	/* ops in file order, with their lines */
	assert_int_equal(tr.ops[0].line, 2);
	assert_int_equal(tr.ops[0].kind, TR_KMALLOC);
	assert_int_equal(tr.ops[0].cpu, 1);
	assert_int_equal(tr.ops[5].line, 7);
	assert_int_equal(tr.ops[5].kind, TR_CACHE_FREE);
	assert_int_equal(tr.ops[5].cpu, 2);
	assert_int_equal(tr.ops[5].ts_ns, 6000000000ull);
	/* frees name the object of their pointer */
	assert_int_equal(tr.ops[4].obj, tr.ops[0].obj);
	assert_int_equal(tr.ops[5].obj, tr.ops[2].obj);
	assert_true(tr.objs[tr.ops[0].obj].freed);
	assert_false(tr.objs[tr.ops[1].obj].freed);
	assert_true(tr.objs[tr.ops[2].obj].freed);
	assert_false(tr.objs[tr.ops[0].obj].preexisting);
	/* kmalloc objects; caches per bytes_alloc */
	const struct trace_obj *o = &tr.objs[tr.ops[0].obj];
	assert_int_equal(o->cache, TRACE_KMALLOC);
	assert_int_equal(o->bytes_req, 20);
	assert_int_equal(o->bytes_alloc, 32);
	assert_int_equal(tr.ncaches, 2);
	assert_string_equal(tr.caches[0].name, "cache-64");
	assert_int_equal(tr.caches[0].size, 64);
	assert_string_equal(tr.caches[1].name, "cache-128");
	assert_int_equal(tr.caches[1].size, 128);
	assert_int_equal(tr.objs[tr.ops[1].obj].cache, 0);
	assert_int_equal(tr.objs[tr.ops[2].obj].cache, 0);
	assert_int_equal(tr.objs[tr.ops[3].obj].cache, 1);
	/* call sites interned */
	assert_int_equal(tr.nsites, 4);
	assert_int_equal(tr.ops[1].site, tr.ops[2].site);
	assert_int_equal(tr.ops[2].site, tr.ops[3].site);
	assert_string_equal(tr.sites[tr.ops[0].site], "s1");
	assert_string_equal(tr.sites[tr.ops[5].site], "s4");
	trace_free(&tr);
	trace_free(&tr);
	assert_null(tr.ops);
	assert_int_equal(tr.nops, 0);
}

static void test_match_problems(void **state)
{
	(void)state;
	struct trace tr;
	load(L("kfree", "call_site=a ptr=  (null)")					/* 1 */
	     L("kfree", "call_site=a ptr=c0005010")					/* 2 */
	     L("kmem_cache_free", "call_site=a ptr=c0007010")				/* 3 */
	     L("kmem_cache_alloc", "call_site=a ptr=c0005080 bytes_req=90 bytes_alloc=96")/* 4 */
	     L("kmalloc", "call_site=b ptr=c0008000 bytes_req=10 bytes_alloc=16")	/* 5 */
	     L("kmalloc", "call_site=b ptr=c0008000 bytes_req=12 bytes_alloc=16")	/* 6 */
	     L("kfree", "call_site=b ptr=c0008000")					/* 7 */
	     L("kfree", "call_site=b ptr=c0008000")					/* 8 */
	     L("kfree", "call_site=b ptr=c0005010")					/* 9 */
	     "garbage\n"								/* 10 */
	     L("sched_switch", "prev_comm=a")						/* 11 */
	     L("kmalloc", "call_site=b ptr=c0008000 bytes_req=12")			/* 12 */
	     L("kmalloc", "call_site=b ptr=c0008000 bytes_req=14 bytes_alloc=16"),	/* 13 */
	     &tr);
	check_accounting(&tr);
	assert_int_equal(tr.nlines, 13);
	assert_int_equal(tr.problems[TP_NULL_FREE], 1);
	assert_int_equal(tr.problems[TP_UNKNOWN_FREE], 2);
	assert_int_equal(tr.problems[TP_DOUBLE_FREE], 2);
	assert_int_equal(tr.problems[TP_LIVE_REALLOC], 1);
	assert_int_equal(tr.problems[TP_UNPARSABLE], 2);
	assert_int_equal(tr.problems[TP_OTHER_EVENT], 1);
	static const struct trace_diag want[] = {
		{ 1, TP_NULL_FREE }, { 2, TP_UNKNOWN_FREE }, { 3, TP_UNKNOWN_FREE },
		{ 6, TP_LIVE_REALLOC }, { 8, TP_DOUBLE_FREE }, { 9, TP_DOUBLE_FREE },
		{ 10, TP_UNPARSABLE }, { 11, TP_OTHER_EVENT }, { 12, TP_UNPARSABLE },
	};
	assert_int_equal(tr.ndiags, 9);
	for (int i = 0; i < 9; i++) {
		assert_int_equal(tr.diags[i].line, want[i].line);
		assert_int_equal(tr.diags[i].problem, want[i].problem);
	}
	assert_string_equal(tr.first_bad, "line 10: no [CPU] column");
	/* replayed: 1 2 3 4 5 6 7 13 */
	assert_int_equal(tr.nops, 8);
	assert_int_equal(tr.ops[0].obj, TRACE_NO_OBJ);
	assert_int_equal(tr.ops[0].kind, TR_KFREE);
	/* line 2: preexisting, its page (c0005) has a cache-96 object, line 4 */
	const struct trace_obj *o = &tr.objs[tr.ops[1].obj];
	assert_true(o->preexisting);
	assert_true(o->freed);
	assert_int_equal(o->cache, tr.objs[tr.ops[3].obj].cache);
	assert_string_equal(tr.caches[o->cache].name, "cache-96");
	assert_int_equal(o->bytes_req, 90);
	assert_int_equal(o->bytes_alloc, 96);
	/* line 3: nothing known of its page: a kmalloc of 64 */
	o = &tr.objs[tr.ops[2].obj];
	assert_true(o->preexisting);
	assert_int_equal(o->cache, TRACE_KMALLOC);
	assert_int_equal(o->bytes_req, 64);
	assert_int_equal(o->bytes_alloc, 64);
	/* lines 5-7: the realloc is a new object, the free frees it, the old stays live */
	assert_true(tr.ops[5].obj != tr.ops[4].obj);
	assert_int_equal(tr.ops[6].obj, tr.ops[5].obj);
	assert_false(tr.objs[tr.ops[4].obj].freed);
	assert_true(tr.objs[tr.ops[5].obj].freed);
	assert_int_equal(tr.objs[tr.ops[5].obj].bytes_req, 12);
	/* line 13: after a free, the pointer is allocated again without problem */
	assert_int_equal(tr.ops[7].line, 13);
	assert_false(tr.objs[tr.ops[7].obj].freed);
	trace_free(&tr);
}

static void test_cache_names(void **state)
{
	(void)state;
	struct trace tr;
	load(L("kmem_cache_alloc", "ptr=c0001000 bytes_req=200 bytes_alloc=256 name=skbuff")
	     L("kmem_cache_alloc", "ptr=c0001100 bytes_req=200 bytes_alloc=256 name=skbuff")
	     L("kmem_cache_alloc", "ptr=c0002000 bytes_req=200 bytes_alloc=256 name=other")
	     L("kmem_cache_alloc", "ptr=c0003000 bytes_req=200 bytes_alloc=256")
	     /* unknown, named, a page of its cache */
	     L("kmem_cache_free", "ptr=c0001200 name=skbuff")
	     /* unknown, named, page of another cache: the cache's size */
	     L("kmem_cache_free", "ptr=c0002100 name=skbuff")
	     /* unknown, a cache never allocated from: the page's sizes */
	     L("kmem_cache_free", "ptr=c0003100 name=dentry")
	     /* unknown, a cache never allocated from, nothing of its page */
	     L("kmem_cache_free", "ptr=c0009100 name=inode")
	     /* a kmalloc'ed object freed by kmem_cache_free, and the reverse */
	     L("kmalloc", "ptr=c0004000 bytes_req=8 bytes_alloc=8")
	     L("kmem_cache_free", "ptr=c0004000")
	     L("kfree", "ptr=c0002000"), &tr);
	check_accounting(&tr);
	assert_int_equal(tr.ncaches, 5);
	assert_string_equal(tr.caches[0].name, "skbuff");
	assert_int_equal(tr.caches[0].size, 200);
	assert_string_equal(tr.caches[1].name, "other");
	assert_string_equal(tr.caches[2].name, "cache-256");
	assert_int_equal(tr.caches[2].size, 256);
	assert_string_equal(tr.caches[3].name, "dentry");
	assert_int_equal(tr.caches[3].size, 200);
	assert_string_equal(tr.caches[4].name, "inode");
	assert_int_equal(tr.caches[4].size, 64);
	assert_int_equal(tr.objs[tr.ops[0].obj].cache, 0);
	assert_int_equal(tr.objs[tr.ops[1].obj].cache, 0);
	assert_int_equal(tr.objs[tr.ops[2].obj].cache, 1);
	assert_int_equal(tr.objs[tr.ops[3].obj].cache, 2);
	const struct trace_obj *o = &tr.objs[tr.ops[4].obj];
	assert_int_equal(o->cache, 0);
	assert_int_equal(o->bytes_req, 200);
	assert_int_equal(o->bytes_alloc, 256);
	o = &tr.objs[tr.ops[5].obj];
	assert_int_equal(o->cache, 0);
	assert_int_equal(o->bytes_req, 200);
	assert_int_equal(o->bytes_alloc, 200);
	o = &tr.objs[tr.ops[6].obj];
	assert_int_equal(o->cache, 3);
	assert_int_equal(o->bytes_req, 200);
	assert_int_equal(o->bytes_alloc, 256);
	o = &tr.objs[tr.ops[7].obj];
	assert_int_equal(o->cache, 4);
	assert_int_equal(o->bytes_req, 64);
	assert_true(o->preexisting);
	assert_int_equal(tr.problems[TP_UNKNOWN_FREE], 4);
	assert_int_equal(tr.ops[9].obj, tr.ops[8].obj);
	assert_int_equal(tr.objs[tr.ops[9].obj].cache, TRACE_KMALLOC);
	assert_int_equal(tr.ops[10].obj, tr.ops[2].obj);
	assert_int_equal(tr.ndiags, 4);
	trace_free(&tr);
}

static void test_failed_alloc(void **state)
{
	(void)state;
	struct trace tr;
	/* a NULL result is replayed as an object never freed; kfree(NULL) is not its free */
	load(L("kmalloc", "ptr=(null) bytes_req=100000000 bytes_alloc=134217728")
	     L("kmalloc", "ptr=(null) bytes_req=100000000 bytes_alloc=134217728")
	     L("kfree", "ptr=(null)"), &tr);
	check_accounting(&tr);
	assert_int_equal(tr.nops, 3);
	assert_int_equal(tr.nobjs, 2);
	assert_int_equal(tr.ndiags, 1);
	assert_int_equal(tr.problems[TP_NULL_FREE], 1);
	assert_int_equal(tr.ops[2].obj, TRACE_NO_OBJ);
	assert_false(tr.objs[0].freed);
	assert_false(tr.objs[1].freed);
	assert_int_equal(tr.objs[1].bytes_alloc, 134217728);
	trace_free(&tr);
}

static void test_line_endings(void **state)
{
	(void)state;
	struct trace tr;
	load("# header\r\n\r\nt-1 [000] 0.5: kmalloc: ptr=c1 bytes_req=1 bytes_alloc=8\r\n"
	     "t-1 [000] 0.6: kfree: ptr=c1", &tr);
	check_accounting(&tr);
	assert_int_equal(tr.nlines, 4);
	assert_int_equal(tr.header_lines, 2);
	assert_int_equal(tr.nops, 2);
	assert_int_equal(tr.ndiags, 0);
	assert_int_equal(tr.first_ts_ns, 500000000);
	assert_int_equal(tr.ops[1].line, 4);
	assert_int_equal(tr.ops[1].obj, tr.ops[0].obj);
	trace_free(&tr);
	/* a final newline ends the last line, it does not start another */
	load("t-1 [000] 0.5: kfree: ptr=0\n", &tr);
	assert_int_equal(tr.nlines, 1);
	trace_free(&tr);
	load("t-1 [000] 0.5: kfree: ptr=0\n\n", &tr);
	assert_int_equal(tr.nlines, 2);
	assert_int_equal(tr.header_lines, 1);
	trace_free(&tr);
}

static void test_load_errors(void **state)
{
	(void)state;
	struct trace tr;
	struct sim_err err;
	static const char none[] = "# tracer: nop\nfoo\nt-1 [000] 0.1: sched_switch: a=b\n";
	assert_int_equal(trace_load_text("x.log", none, strlen(none), &tr, &err), -1);
	assert_string_equal(err.msg, "x.log: no kmem events (kmalloc, kmem_cache_alloc, kfree, "
			    "kmem_cache_free) in 3 lines; first problem: line 2: no [CPU] column");
	assert_null(tr.ops);
	assert_null(tr.diags);
	static const char other[] = "t-1 [000] 0.1: sched_switch: a=b\n";
	assert_int_equal(trace_load_text("y", other, strlen(other), &tr, &err), -1);
	assert_non_null(strstr(err.msg, "first problem: line 1: not a kmem alloc/free event: "
				       "sched_switch"));
	assert_int_equal(trace_load_text("empty", "", 0, &tr, &err), -1);
	assert_string_equal(err.msg, "empty: no kmem events (kmalloc, kmem_cache_alloc, kfree, "
			    "kmem_cache_free) in 0 lines");
	assert_int_equal(trace_load_text("null", NULL, 5, &tr, &err), -1);
	assert_int_equal(trace_load("/nonexistent/dir/kmem.log", &tr, &err), -1);
	assert_string_equal(err.msg, "/nonexistent/dir/kmem.log: cannot read: "
			    "No such file or directory");
	/* a zeroed struct can be freed */
	struct trace zero;
	memset(&zero, 0, sizeof(zero));
	trace_free(&zero);
	trace_free(&zero);
}

/* One of the real captures, if present: every count. */
static void check_real(const char *path, const uint64_t kinds[TR_NKINDS], uint64_t null_frees,
		       uint64_t unknown_frees, uint32_t nlines)
{
	struct trace tr;
	struct sim_err err;
	FILE *f = fopen(path, "r");
	if (!f)
		skip();
	fclose(f);
	if (trace_load(path, &tr, &err))
		fail_msg("%s", err.msg);
	check_accounting(&tr);
	for (int k = 0; k < TR_NKINDS; k++)
		assert_int_equal(tr.kind_count[k], kinds[k]);
	assert_int_equal(tr.nlines, nlines);
	assert_int_equal(tr.header_lines, 11);
	assert_int_equal(tr.problems[TP_NULL_FREE], null_frees);
	assert_int_equal(tr.problems[TP_UNKNOWN_FREE], unknown_frees);
	assert_int_equal(tr.problems[TP_DOUBLE_FREE], 0);
	assert_int_equal(tr.problems[TP_LIVE_REALLOC], 0);
	assert_int_equal(tr.problems[TP_UNPARSABLE], 0);
	assert_int_equal(tr.problems[TP_OTHER_EVENT], 0);
	assert_int_equal(tr.ndiags, null_frees + unknown_frees);
	assert_int_equal(tr.max_cpu, 0);
	assert_true(tr.first_ts_ns > 0);
	assert_string_equal(tr.path, path);
	trace_free(&tr);
}

static void test_real_slab(void **state)
{
	(void)state;
	static const uint64_t kinds[TR_NKINDS] = { 2088, 5561, 354, 2455 };
	check_real("tests/cli/data/traces/kmem_SLAB.log", kinds, 244, 2, 10469);
}

static void test_real_slub(void **state)
{
	(void)state;
	static const uint64_t kinds[TR_NKINDS] = { 2211, 6432, 428, 2469 };
	check_real("tests/cli/data/traces/kmem_SLUB.log", kinds, 274, 11, 11551);
}

/* xorshift64*: a fixed-seed generator, for a reproducible fuzz. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static const char *const fuzz_samples[] = {
	"            init-1     [000] .N..     0.150000: kmalloc: call_site=c104dd2f "
	"ptr=c147dd20 bytes_req=29 bytes_alloc=32 gfp_flags=GFP_KERNEL",
	"            init-1     [000] .N..     0.150000: kfree: call_site=c10bf31a ptr=  (null)",
	"init-1 [000]  0.150000: kmem_cache_alloc: call_site=c10b8f0e ptr=c1610c08 "
	"bytes_req=64 bytes_alloc=64 gfp_flags=GFP_KERNEL|GFP_ZERO",
	"  Web Content-1234  [002] dNs2.  5.123456789: kmem_cache_free: call_site=c10b8f0e "
	"ptr=c1610c08",
	"         swapper     0 [000]  1234.567890: kmem:kmalloc: call_site=ffffffff81234567 "
	"ptr=0xffff88810a2b3c00 bytes_req=224 bytes_alloc=256 gfp_flags=GFP_ATOMIC",
	"   kworker/u8:2-123   [001] ..... 100.000100: kmem_cache_alloc: "
	"call_site=__alloc_skb+0x4f/0x1f0 ptr=000000003c1d2e4f bytes_req=232 bytes_alloc=256 "
	"gfp_flags=0x400dc0(GFP_KERNEL|__GFP_ZERO) node=-1 accounted=false name=skbuff_head_cache",
	"sh-9 [000] d..2. 1.000000: kmem_cache_free: call_site=ext4_free+0x10/0x20 [ext4] "
	"ptr=ffff888004000040 name=ext4_inode_cache",
	"kthreadd-2 [001] .... 2.000000: kmalloc_node: call_site=c1 ptr=c2000000 bytes_req=100 "
	"bytes_alloc=128 gfp_flags=GFP_KERNEL node=1",
	"kthreadd-2 [001] .... 2.000000: kmem:kmem_cache_alloc_node: call_site=c1 ptr=c2000000 "
	"bytes_req=100 bytes_alloc=128 gfp_flags=GFP_KERNEL node=-1",
	"bash 100/101 [001] 1.000000: kmem:kfree: call_site=__alloc_skb+0x4f ptr=0x40",
	"init-1 [000] .... 0.1: mm_page_alloc: page=c1 pfn=1 order=0",
	"cpus=2",
	"version = 6",
	"CPU 0 is empty",
	"# tracer: nop",
};

static const char *const fuzz_tokens[] = {
	" bytes_req=99999999999999999999", " bytes_alloc=4294967296", " ptr=", " ptr=  (null)",
	" ptr=0xffffffffffffffffff", " node=-", " node=-2147483648", " name=", " call_site=",
	" [mod]", " =", " ==", "=", " [0]", " [", "]", ":", " kmalloc:", " kmem:", " -1",
	" 0.1:", " 99999999999999999999.999999999:", "\r", "\t", " bytes_req=1 bytes_alloc=1",
};

/* Parse one fuzz line (in its own exactly-sized buffer) and check the
 * outcome is well-formed. */
static void fuzz_one(const char *s, size_t len, uint64_t *seed)
{
	char *buf = malloc(len ? len : 1), why[160];
	struct trace_event ev;
	size_t whylen = 1 + rnd(seed) % 128;
	enum trace_line_kind k;
	assert_non_null(buf);
	memcpy(buf, s, len);
	memset(why, 'Z', sizeof(why));
	k = trace_parse_line(buf, len, &ev, why, whylen);
	free(buf);
	assert_true(k == TRACE_LINE_EVENT || k == TRACE_LINE_HEADER || k == TRACE_LINE_OTHER ||
		    k == TRACE_LINE_BAD);
	assert_true(strnlen(why, whylen) < whylen);
	assert_int_equal(why[whylen], 'Z');
	if (k == TRACE_LINE_BAD || k == TRACE_LINE_OTHER)
		assert_true(why[0] || whylen == 1);
	if (k != TRACE_LINE_EVENT)
		return;
	assert_true(ev.kind < TR_NKINDS);
	assert_true(ev.cpu >= 0 && ev.cpu <= UINT16_MAX);
	assert_true(ev.pid >= 0);
	assert_true(strnlen(ev.comm, sizeof(ev.comm)) < sizeof(ev.comm));
	assert_true(strnlen(ev.call_site, sizeof(ev.call_site)) < sizeof(ev.call_site));
	assert_true(strnlen(ev.name, sizeof(ev.name)) < sizeof(ev.name));
}

/* A mutation of a sample: a few bytes changed, a token inserted, a cut. */
static size_t mutate(char *out, size_t cap, uint64_t *seed)
{
	static const char special[] = " =[]:-.0123456789x\t\r\n(";
	const char *s = fuzz_samples[rnd(seed) % (ARRAY_SIZE(fuzz_samples))];
	size_t n = strlen(s), flips = rnd(seed) % 4;
	memcpy(out, s, n);
	if (rnd(seed) % 2) {	/* insert a token somewhere */
		const char *t = fuzz_tokens[rnd(seed) % (sizeof(fuzz_tokens) /
							 sizeof(fuzz_tokens[0]))];
		size_t at = rnd(seed) % (n + 1), tl = strlen(t);
		if (n + tl <= cap) {
			memmove(out + at + tl, out + at, n - at);
			memcpy(out + at, t, tl);
			n += tl;
		}
	}
	for (size_t i = 0; i < flips && n; i++) {
		uint64_t r = rnd(seed);
		out[r % n] = (r >> 32) % 2 ? (char)(r >> 40) : special[(r >> 40) % (sizeof(special) - 1)];
	}
	if (rnd(seed) % 4 == 0 && n)
		n = rnd(seed) % n;
	return n;
}

static void test_fuzz_lines(void **state)
{
	(void)state;
	uint64_t seed = 0x5eed5eed12345678ull;
	size_t nsamples = ARRAY_SIZE(fuzz_samples), count = 0;
	char buf[1024];
	/* every sample cut at every length, from the front and the back */
	for (size_t i = 0; i < nsamples; i++) {
		size_t n = strlen(fuzz_samples[i]);
		for (size_t cut = 0; cut <= n; cut++, count += 2) {
			fuzz_one(fuzz_samples[i], cut, &seed);
			fuzz_one(fuzz_samples[i] + cut, n - cut, &seed);
		}
	}
	/* random bytes, NULs included */
	for (int i = 0; i < 60000; i++, count++) {
		size_t n = rnd(&seed) % 200;
		for (size_t j = 0; j < n; j++)
			buf[j] = (char)rnd(&seed);
		fuzz_one(buf, n, &seed);
	}
	/* mutated valid lines */
	for (int i = 0; i < 150000; i++, count++) {
		size_t n = mutate(buf, sizeof(buf), &seed);
		fuzz_one(buf, n, &seed);
	}
	/* lines of 100 kB */
	static const char *const fills[] = { "9", "[", " [0]", "a=", "x-1 ", " ", "\0", ":" };
	size_t big = 100000;
	char *line = malloc(big + 200);
	assert_non_null(line);
	for (size_t f = 0; f < ARRAY_SIZE(fills); f++) {
		size_t fl = strlen(fills[f]) ? strlen(fills[f]) : 1, n;
		for (n = 0; n + fl <= big; n += fl)
			memcpy(line + n, fills[f], fl);
		fuzz_one(line, n, &seed);
		/* after a valid prefix */
		size_t pl = strlen(fuzz_samples[0]);
		memcpy(line, fuzz_samples[0], pl);
		fuzz_one(line, n, &seed);
		count += 2;
	}
	free(line);
	assert_true(count >= 200000);
}

static void test_fuzz_texts(void **state)
{
	(void)state;
	uint64_t seed = 0xfeedface0badf00dull;
	size_t cap = 1 << 16;
	char *text = malloc(cap), buf[1024];
	assert_non_null(text);
	for (int t = 0; t < 300; t++) {
		size_t len = 0, lines = rnd(&seed) % 200;
		for (size_t i = 0; i < lines; i++) {
			size_t n;
			if (rnd(&seed) % 3) {
				n = mutate(buf, sizeof(buf), &seed);
			} else {	/* random bytes */
				n = rnd(&seed) % 80;
				for (size_t j = 0; j < n; j++)
					buf[j] = (char)rnd(&seed);
			}
			if (len + n + 2 > cap)
				break;
			memcpy(text + len, buf, n);
			len += n;
			if (rnd(&seed) % 3 == 0)
				text[len++] = '\r';
			text[len++] = '\n';
		}
		if (len && rnd(&seed) % 2)
			len--;	/* no final newline */
		struct trace tr;
		struct sim_err err;
		char *exact = malloc(len ? len : 1);
		assert_non_null(exact);
		memcpy(exact, text, len);
		int rc = trace_load_text("fuzz", exact, len, &tr, &err);
		free(exact);
		assert_true(rc == 0 || rc == -1);
		if (rc == 0)
			check_accounting(&tr);
		else
			assert_non_null(strstr(err.msg, "fuzz: no kmem events"));
		trace_free(&tr);
	}
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ftrace_line),
		cmocka_unit_test(test_flagsless_and_comm),
		cmocka_unit_test(test_null_pointers),
		cmocka_unit_test(test_perf_script),
		cmocka_unit_test(test_6x_format),
		cmocka_unit_test(test_trace_cmd),
		cmocka_unit_test(test_node_variants),
		cmocka_unit_test(test_gfp_flags),
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_other_events),
		cmocka_unit_test(test_bad_lines),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_match_pairs),
		cmocka_unit_test(test_match_problems),
		cmocka_unit_test(test_cache_names),
		cmocka_unit_test(test_failed_alloc),
		cmocka_unit_test(test_line_endings),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_real_slab),
		cmocka_unit_test(test_real_slub),
		cmocka_unit_test(test_fuzz_lines),
		cmocka_unit_test(test_fuzz_texts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
