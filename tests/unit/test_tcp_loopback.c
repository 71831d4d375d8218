/* test_tcp_loopback.c - the TCP loopback model: the fclone cache's size,
 * sk_wmem_queued accounting of one segment and its release by the ACK, the
 * FIN handshake that leaves both sockets empty, and a writer that fills
 * tcp_wmem[1], sleeps, and is woken by the reader's ACK with sk_sndbuf
 * grown by tcp_new_space(); and which of TCP's reader wake-ups carry the
 * sync hint in each era. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run/run_core.h"
#include "kernel/tcp_loopback.h"

struct tcp_test {
	struct run r;
	struct tcp_net net;
	struct tcp_sock a, b;
	long wmem_after_send, wmem_after_ack, got, eof_b, eof_a;
	int sndbuf_before_wait;
	uint64_t data_freed_after_ack, acks_freed_after_ack;
	int done;
};

static void tcp_test_setup_kernel(struct tcp_test *tt, const char *machine, const char *kernel)
{
	memset(tt, 0, sizeof(*tt));
	char assign[64] = "";
	const char *assigns[] = { assign };
	if (kernel)
		snprintf(assign, sizeof(assign), "kernel=%s", kernel);
	struct run_config cfg = { .machine = machine, .policy = "slub", .seed = 3,
				  .assign = kernel ? assigns : NULL, .nassign = kernel ? 1 : 0 };
	struct sim_err err;
	if (run_configure(&tt->r, &cfg, &err) < 0 || run_build(&tt->r, &err) < 0 ||
	    tcp_net_init(&tt->r.k, &tt->net, true, 0, &err) < 0)
		fail_msg("%s", err.msg);
	tcp_socketpair(&tt->net, &tt->a, &tt->b, 0);
}

static void tcp_test_setup(struct tcp_test *tt, const char *machine)
{
	tcp_test_setup_kernel(tt, machine, NULL);
}

static void tcp_test_teardown(struct tcp_test *tt)
{
	tcp_sock_free(&tt->a);
	tcp_sock_free(&tt->b);
	tcp_net_destroy(&tt->net);
	run_free(&tt->r);
}

static void test_fclone_size(void **state)
{
	(void)state;
	static struct tcp_test tt;
	tcp_test_setup(&tt, "core2-ep");
	unsigned int sk_buff = tt.r.k.skb->sizeof_sk_buff;
	assert_int_equal(tt.net.fclone_size, 2 * sk_buff + 4);
	assert_int_equal(tt.net.skbuff_fclone_cache->object_size, 2 * 184 + 4);
	assert_int_equal(tt.net.mss, 16384);	/* 16436 - 20 - 20 - 12 */
	assert_int_equal(MAX_TCP_HEADER, 208);
	tcp_test_teardown(&tt);
}

/* One task plays both ends, one call at a time. */
static void one_task(struct task *t, void *arg)
{
	struct tcp_test *tt = arg;
	sys_send_tcp(t, &tt->a, 16384);
	tt->wmem_after_send = tt->a.sk_wmem_queued;
	tt->got = sys_recv_tcp(t, &tt->b, 65536);	/* drains, ACKs (bulk side) */
	tt->wmem_after_ack = tt->a.sk_wmem_queued;
	tt->data_freed_after_ack = tt->net.data.freed;
	tt->acks_freed_after_ack = tt->net.acks.freed;
	sys_shutdown_tcp(t, &tt->a);
	tt->eof_b = sys_recv_tcp(t, &tt->b, 1);
	sys_close_tcp(t, &tt->b);
	tt->eof_a = sys_recv_tcp(t, &tt->a, 1);
	sys_close_tcp(t, &tt->a);
	tt->done = 1;
}

static void test_segment_accounting(void **state)
{
	(void)state;
	static struct tcp_test tt;
	tcp_test_setup(&tt, "core2-ep");
	struct kernel *k = &tt.r.k;
	task_create(&k->sched, NULL, one_task, &tt, "tcp", NULL, 0);
	engine_run(&tt.r.eng);
	assert_int_equal(tt.done, 1);
	/* truesize: SKB_DATA_ALIGN(MAX_TCP_HEADER) + sizeof(struct sk_buff) + the
	 * payload in page fragments */
	assert_int_equal(tt.wmem_after_send, 256 + 184 + 16384);
	assert_int_equal(tt.got, 16384);
	assert_int_equal(tt.wmem_after_ack, 0);
	assert_int_equal(tt.data_freed_after_ack, 1);
	assert_int_equal(tt.acks_freed_after_ack, 1);
	assert_int_equal(tt.eof_b, 0);
	assert_int_equal(tt.eof_a, 0);
	struct sim_err err;
	if (tcp_sock_check(&tt.a, "a", &err) < 0 || tcp_sock_check(&tt.b, "b", &err) < 0 ||
	    kernel_check(k, &err) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(tt.net.skbs_live, 0);
	assert_int_equal(tt.net.pages_live, 0);
	assert_int_equal(tt.net.data.allocated, 3);	/* the data and two FINs */
	assert_int_equal(tt.net.acks.allocated, 2);	/* the bulk ACK, the last ACK */
	assert_int_equal(tt.net.skbuff_fclone_cache->live, 0);
	tcp_test_teardown(&tt);
}

static void writer(struct task *t, void *arg)
{
	struct tcp_test *tt = arg;
	tt->sndbuf_before_wait = tt->a.sk_sndbuf;
	sys_send_tcp(t, &tt->a, 4 * 16384);
	sys_shutdown_tcp(t, &tt->a);
	while (sys_recv_tcp(t, &tt->a, 4096) > 0)
		;
	sys_close_tcp(t, &tt->a);
	tt->done++;
}

static void reader(struct task *t, void *arg)
{
	struct tcp_test *tt = arg;
	long n;
	while ((n = sys_recv_tcp(t, &tt->b, 87380)) > 0)
		tt->got += n;
	sys_close_tcp(t, &tt->b);
	tt->done++;
}

static void test_sndbuf_wait_and_autotune(void **state)
{
	(void)state;
	static struct tcp_test tt;
	tcp_test_setup(&tt, "core2-ep");
	struct kernel *k = &tt.r.k;
	task_create_pinned(&k->sched, NULL, writer, &tt, "writer", NULL, 0);
	task_create_pinned(&k->sched, NULL, reader, &tt, "reader", NULL, 4);
	engine_run(&tt.r.eng);
	assert_int_equal(tt.done, 2);
	assert_int_equal(tt.got, 4 * 16384);
	assert_int_equal(tt.sndbuf_before_wait, 16384);	/* tcp_wmem[1] */
	/* tcp_new_space(): 2 * max(cwnd 2, reordering + 1) * (advmss 16396 +
	 * MAX_TCP_HEADER + 16 + sizeof(struct sk_buff)) */
	assert_int_equal(tt.a.sk_sndbuf, 8 * (16396 + 208 + 16 + 184));
	/* the writer slept: its segments were freed by the reader's ACKs,
	 * processed in the softirq on the reader's CPU */
	assert_true(tt.net.data.freed_on_other_cpu >= 1);
	struct sim_err err;
	if (tcp_sock_check(&tt.a, "a", &err) < 0 || tcp_sock_check(&tt.b, "b", &err) < 0 ||
	    kernel_check(k, &err) < 0)
		fail_msg("%s", err.msg);
	assert_int_equal(tt.net.skbs_live, 0);
	tcp_test_teardown(&tt);
}

/* sock_def_readable() is sync from 2.6.25-rc7, tcp_prequeue() from 2.6.34. */
static void test_sync_wakeups_by_era(void **state)
{
	(void)state;
	static const struct { const char *kernel; bool readable, prequeue; } want[] = {
		{ "2.6.24", false, false }, { "2.6.25-rc5", false, false },
		{ "2.6.25", true, false },  { "2.6.26", true, false },
		{ "3.1", true, true },      { "6.18", true, true },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		static struct tcp_test tt;
		tcp_test_setup_kernel(&tt, "core2-ep", want[i].kernel);
		if (tt.net.sync_readable != want[i].readable ||
		    tt.net.sync_prequeue != want[i].prequeue)
			fail_msg("kernel=%s: sock_def_readable sync %d (want %d), tcp_prequeue "
				 "sync %d (want %d)", want[i].kernel, tt.net.sync_readable,
				 want[i].readable, tt.net.sync_prequeue, want[i].prequeue);
		tcp_test_teardown(&tt);
	}
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fclone_size),
		cmocka_unit_test(test_segment_accounting),
		cmocka_unit_test(test_sndbuf_wait_and_autotune),
		cmocka_unit_test(test_sync_wakeups_by_era),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
