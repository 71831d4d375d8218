/* test_unix_path.c - the AF_UNIX socket path of each era (af_unix_era.c):
 * one task writes a 100-byte message to one end of a socket pair and reads
 * it from the other, as hackbench's tasks do, with nobody waiting. The
 * second message's write(2) and read(2) must make the locked instructions
 * the era's kernel makes (2.6.25-rc5: 7 and 9; 3.1: 9 and 12, with the SCM
 * credentials; 3.2 and 6.18: 3 and 6) and write the lines its code writes:
 * the writer's sk_refcnt to 2.6.30, the reader's sk_callback_lock to 2.6.34,
 * f_pos to 3.2, the writer's pid and cred in 3.1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run/run_core.h"
#include "kernel/af_unix.h"
#include "kernel/sched.h"

struct path_test {
	struct run r;
	struct unix_classes uc;
	struct unix_sock a, b;		/* a: the reader's end, b: the writer's */
	uint64_t write_ops, read_ops;	/* of the second message */
	uint64_t refcnt_written, cb_written, fpos_written, pid_written;
	long wrote, read;
};

/* One task: a first message to warm the slab caches, then the measured one. */
static void writer_reader(struct task *t, void *arg)
{
	struct path_test *p = arg;
	struct hw *hw = t->k->hw;
	for (int i = 0; i < 2; i++) {
		uint64_t before = hw->stats.locked_ops;
		p->wrote = sys_write_unix(t, &p->b, 100);
		uint64_t mid = hw->stats.locked_ops;
		if (i == 1) {	/* the lines the write left as it wrote them */
			p->refcnt_written = p->b.refcnt_line.written;
			p->cb_written = p->a.cb_line.written;
			p->fpos_written = p->b.file_line.written;
		}
		p->read = sys_read_unix(t, &p->a, 100);
		p->write_ops = mid - before;
		p->read_ops = hw->stats.locked_ops - mid;
	}
	p->pid_written = t->ids->pid.written;
}

/* Run the scene under `kernel` (and `creds`: unix_scm_creds, NULL: the era's). */
static void run_path(struct path_test *p, const char *kernel, const char *creds)
{
	memset(p, 0, sizeof(*p));
	char k_assign[64], c_assign[64];
	snprintf(k_assign, sizeof(k_assign), "kernel=%s", kernel);
	snprintf(c_assign, sizeof(c_assign), "unix_scm_creds=%s", creds ? creds : "-1");
	const char *assigns[] = { k_assign, c_assign };
	struct run_config cfg = { .machine = "tigerton", .policy = "slub", .seed = 1,
				  .assign = assigns, .nassign = 2 };
	struct sim_err err;
	if (run_configure(&p->r, &cfg, &err) < 0 || run_build(&p->r, &err) < 0)
		fail_msg("%s", err.msg);
	struct kernel *k = &p->r.k;
	unix_classes_init(k, &p->uc);
	unix_socketpair(k, &p->uc, &p->a, &p->b, 0);
	task_create_pinned(&k->sched, NULL, writer_reader, p, "hackbench", NULL, 0);
	engine_run(&p->r.eng);
	assert_int_equal(p->wrote, 100);
	assert_int_equal(p->read, 100);
	unix_sock_free(&p->a);
	unix_sock_free(&p->b);
	run_free(&p->r);
}

static void test_2625rc5_locked_ops(void **state)
{
	(void)state;
	static struct path_test p;
	run_path(&p, "2.6.25-rc5", NULL);
	assert_int_equal(p.write_ops, 7);
	assert_int_equal(p.read_ops, 9);
	assert_int_equal(unix_path_writer_locked_ops(&p.uc.path), 7);
	assert_int_equal(unix_path_reader_locked_ops(&p.uc.path), 9);
	assert_true(p.refcnt_written > 0);	/* sock_hold() */
	assert_true(p.cb_written > 0);		/* sock_def_readable()'s read_lock */
	assert_true(p.fpos_written > 0);
	assert_int_equal(p.pid_written, 0);
}

static void test_31_sends_credentials(void **state)
{
	(void)state;
	static struct path_test p;
	run_path(&p, "3.1", NULL);
	assert_int_equal(p.write_ops, 9);
	assert_int_equal(p.read_ops, 12);
	assert_int_equal(p.refcnt_written, 0);
	assert_int_equal(p.cb_written, 0);	/* RCU */
	assert_true(p.fpos_written > 0);
	assert_true(p.pid_written > 0);
}

static void test_32_stopped_credentials(void **state)
{
	(void)state;
	static struct path_test p;
	run_path(&p, "3.2", NULL);
	assert_int_equal(p.write_ops, 3);
	assert_int_equal(p.read_ops, 6);
	assert_true(p.fpos_written > 0);
	assert_int_equal(p.pid_written, 0);
	run_path(&p, "3.2", "1");	/* a 3.1-rc tree with 3.2's allocator */
	assert_int_equal(p.write_ops, 9);
	assert_int_equal(p.read_ops, 12);
}

static void test_618_no_f_pos(void **state)
{
	(void)state;
	static struct path_test p;
	run_path(&p, "6.18", NULL);
	assert_int_equal(p.write_ops, 3);
	assert_int_equal(p.read_ops, 6);
	assert_int_equal(p.fpos_written, 0);
	assert_int_equal(p.refcnt_written, 0);
}

int main(void)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_2625rc5_locked_ops),
		cmocka_unit_test(test_31_sends_credentials),
		cmocka_unit_test(test_32_stopped_credentials),
		cmocka_unit_test(test_618_no_f_pos),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
