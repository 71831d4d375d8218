/* test_engine.c - event queue order, fibers, and the ordering rule. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine/engine.h"
#include "engine/host_limit.h"
#include "engine/event_queue.h"
#include "engine/fiber.h"
#include "engine/profile.h"

/* Events pop in (time, seq) order whatever the push order and the queue's
 * resizing; equal times pop first-in first-out. */
static void test_queue_order(void **state)
{
	(void)state;
	struct event_queue q;
	assert_int_equal(eq_init(&q), 0);
	enum { N = 20000 };
	struct sim_event *ev = calloc(N, sizeof(*ev));
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	for (int i = 0; i < N; i++) {
		ev[i].time = gsl_rng_uniform_int(r, 5000);	/* many ties */
		ev[i].data = (uint64_t)i;
		eq_push(&q, &ev[i]);
	}
	uint64_t last_t = 0, last_seq = 0;
	for (int i = 0; i < N; i++) {
		struct sim_event *e = eq_pop(&q);
		assert_non_null(e);
		assert_true(e->time >= last_t);
		if (i && e->time == last_t)
			assert_true(e->seq > last_seq);
		last_t = e->time;
		last_seq = e->seq;
		/* hold model: half of them push a later event */
		if (i < N / 2) {
			e->time += 1 + gsl_rng_uniform_int(r, 100000);
			eq_push(&q, e);
		}
	}
	assert_int_equal(q.n, N / 2);
	while (eq_pop(&q))
		;
	assert_null(eq_peek(&q));
	assert_int_equal(eq_min_time(&q), UINT64_MAX);
	gsl_rng_free(r);
	free(ev);
	eq_destroy(&q);
}

static void test_queue_remove(void **state)
{
	(void)state;
	struct event_queue q;
	eq_init(&q);
	struct sim_event a = { .time = 10 }, b = { .time = 5 }, c = { .time = 7 };
	eq_push(&q, &a);
	eq_push(&q, &b);
	eq_push(&q, &c);
	assert_int_equal(eq_min_time(&q), 5);
	assert_true(eq_remove(&q, &b));
	assert_false(eq_remove(&q, &b));
	assert_int_equal(eq_min_time(&q), 7);
	assert_ptr_equal(eq_pop(&q), &c);
	assert_ptr_equal(eq_pop(&q), &a);
	assert_null(eq_pop(&q));
	eq_destroy(&q);
}

static struct fiber f_main, f_a;
static int trace[8], ntrace;

static void fiber_a(void *arg)
{
	int *v = arg;
	trace[ntrace++] = *v;
	fiber_switch(&f_a, &f_main);
	trace[ntrace++] = *v + 1;
	fiber_switch(&f_a, &f_main);
	abort();
}

static void test_fiber_switch(void **state)
{
	(void)state;
	int v = 40;
	fiber_init_main(&f_main);
	assert_int_equal(fiber_create(&f_a, fiber_a, &v, 16384), 0);
	fiber_switch(&f_main, &f_a);
	trace[ntrace++] = 1;
	fiber_switch(&f_main, &f_a);
	assert_int_equal(ntrace, 3);
	assert_int_equal(trace[0], 40);
	assert_int_equal(trace[1], 1);
	assert_int_equal(trace[2], 41);
	fiber_destroy(&f_a);
}

/* Each CPU advances by its own step and records (time) at every sync: the
 * ordering rule makes the records come out in simulated-time order. */
struct ord_ctx {
	struct engine *eng;
	struct sim_cpu *cpu;
	struct fiber f;
	uint64_t step;
	int left;
};
static uint64_t order_log[4096];
static int order_n;
static int done_cpus;

static void ord_fiber(void *arg)
{
	struct ord_ctx *c = arg;
	while (c->left--) {
		cpu_charge(c->cpu, c->step);
		cpu_sync(c->cpu);
		order_log[order_n++] = c->cpu->clock;
	}
	if (++done_cpus == 3)
		c->eng->stop = true;
	cpu_suspend(c->cpu);
	abort();
}

static void test_ordering_rule(void **state)
{
	(void)state;
	struct engine eng;
	assert_int_equal(engine_init(&eng, 3, 1), 0);
	struct ord_ctx ctx[3];
	uint64_t steps[3] = { 7, 11, 13 };
	for (int i = 0; i < 3; i++) {
		ctx[i] = (struct ord_ctx){ &eng, &eng.cpus[i], {0}, steps[i], 300 };
		fiber_create(&ctx[i].f, ord_fiber, &ctx[i], 32768);
		eng_start_cpu(&eng, &eng.cpus[i], &ctx[i].f, 0);
	}
	engine_run(&eng);
	assert_int_equal(order_n, 900);
	for (int i = 1; i < order_n; i++)
		assert_true(order_log[i] >= order_log[i - 1]);
	assert_true(eng.yields > 100);
	assert_int_equal(eng.cpus[2].clock, 13 * 300);
	for (int i = 0; i < 3; i++)
		fiber_destroy(&ctx[i].f);
	engine_destroy(&eng);
}

/* The profile keeps its own copy of a symbol's name, finds it again by
 * name, and stops (abort, with a message) rather than hand out -1 when its
 * table is full, so no caller ever charges cycles[-1]. */
static void test_profile_symbols(void **state)
{
	(void)state;
	static struct profile p;
	profile_init(&p);
	char buf[32];
	strcpy(buf, "__slab_free");
	int id = profile_sym(&p, buf, SYM_SLAB);
	strcpy(buf, "overwritten");
	assert_string_equal(p.name[id], "__slab_free");
	assert_int_equal(profile_sym(&p, "__slab_free", SYM_SLAB), id);
	assert_int_equal(profile_find(&p, "overwritten"), -1);
	pid_t pid = fork();
	if (pid == 0) {	/* fill the table: the 257th symbol must abort */
		freopen("/dev/null", "w", stderr);
		for (int i = 0; i <= PROFILE_MAX_SYMS; i++) {
			snprintf(buf, sizeof(buf), "sym%d", i);
			if (profile_sym(&p, buf, SYM_KERNEL) < 0)
				_exit(3);	/* -1 handed out: the bug */
		}
		_exit(0);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
}

/* --host-memory's sizes: MB by default, K/M/G/T suffixes (an optional B),
 * a share of physical memory; anything else refused. */
static void test_host_limit_parse(void **state)
{
	(void)state;
	uint64_t b;
	assert_int_equal(host_limit_parse("512", &b), 0);
	assert_true(b == 512ull << 20);
	assert_int_equal(host_limit_parse("2G", &b), 0);
	assert_true(b == 2ull << 30);
	assert_int_equal(host_limit_parse("1.5g", &b), 0);
	assert_true(b == 3ull << 29);
	assert_int_equal(host_limit_parse("100kB", &b), 0);
	assert_true(b == 100ull << 10);
	assert_int_equal(host_limit_parse("1T", &b), 0);
	assert_true(b == 1ull << 40);
	assert_int_equal(host_limit_parse("50%", &b), 0);
	assert_true(b == host_physical_bytes() / 2 || b + 1 == host_physical_bytes() / 2);
	const char *bad[] = { "", "abc", "-1", "10X", "101%", "5%%", "1e99", "nan", "2GG" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (host_limit_parse(bad[i], &b) == 0)
			fail_msg("'%s' was taken as a size", bad[i]);
	/* the default limit is 80% of physical memory, then what is set */
	assert_true(host_limit_get() <= host_physical_bytes());
	host_limit_set(64ull << 20);
	assert_true(host_limit_get() == 64ull << 20);
	assert_true(host_rss_bytes() > 0 && host_peak_rss_bytes() >= host_rss_bytes() / 2);
	host_limit_set(0);	/* no limit for the tests after this one */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_limit_parse),
		cmocka_unit_test(test_queue_order),
		cmocka_unit_test(test_profile_symbols),
		cmocka_unit_test(test_queue_remove),
		cmocka_unit_test(test_fiber_switch),
		cmocka_unit_test(test_ordering_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
