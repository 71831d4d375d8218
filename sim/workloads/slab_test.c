/* slab_test.c - Christoph Lameter's and Mathieu Desnoyers' slab_test kernel
 * module (2009; docs/workloads.md): loading it runs, as its `run` bit mask says,
 *  1. kmalloc TEST_COUNT objects (each touched), then kfree them all;
 *  2. TEST_COUNT times kmalloc immediately followed by kfree;
 *  3. the same as 1 on every CPU at once, one pinned kthread each, then
 *     the same as 2 on every CPU at once ("Kmalloc N*(alloc free)");
 *  4. every CPU but 0 allocates TEST_COUNT objects, then CPU 0 frees them all;
 *  5. CPU 0 allocates an object for each other CPU, which spins until its
 *     slot is filled and frees it.
 * Tests 1-2 run in the loading task on CPU 0 for sizes 8..max_size; tests
 * 3-5 for sizes 8..PAGE_SIZE, their two phases separated by completions,
 * on the first `cpus` CPUs (the online CPUs of a kernel booted with
 * maxcpus=N; default all).
 * Each kthread of tests 3-5 kzalloc's its array of TEST_COUNT pointers
 * (t->v) on its own CPU; tests 3 and 4 price its lines where the module
 * stores and loads them, so CPU 0's remote frees in test 4 read every other
 * CPU's array from that CPU's cache, a line per 8 objects (test 5 prices
 * the slot being written as one line). The single-thread tests' array
 * stays on CPU 0 and is not priced: C2's per-path figures include it.
 * Cycles come from each CPU's get_cycles(); the output lines are the
 * module's, and so is its arithmetic (per CPU: phase cycles / TEST_COUNT). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/oom.h"
#include "kernel/slab.h"
#include "kernel/wait.h"
#include "slab_test.h"
#include "workload.h"

static const struct param_def slab_test_params[] = {
	{ "run", PT_INT, "31", 1, 31, NULL,
	  "the module's bit mask of tests: 1 alloc-then-free, 2 alloc/free, 4 concurrent, "
	  "8 remote free, 16 one alloc N free" },
	{ "count", PT_INT, "10000", 1, 10000000, NULL, "TEST_COUNT: operations per CPU and size" },
	{ "min_size", PT_INT, "8", 8, 1048576, NULL, "smallest size (the module starts at 8)" },
	{ "max_size", PT_INT, "16384", 8, 1048576, NULL,
	  "largest size of tests 1-2 (tests 3-5 stop at PAGE_SIZE)" },
	{ "cpus", PT_INT, "0", 0, 4096, NULL,
	  "online CPUs of tests 3-5: CPUs 0..cpus-1 (0: every CPU of the machine)" },
	{ NULL },
};

enum { PHASE_IDLE, PHASE_SETUP, PHASE_1, PHASE_2 };

struct st_cpu {
	struct slab_test *st;
	int cpu;
	kaddr_t *v;			/* its TEST_COUNT object pointers */
	kaddr_t varr;			/* where the module's t->v is: kzalloc'ed per test */
	int filled;			/* test 5: slots CPU 0 has filled */
	struct hw_line vline;		/* the line of v[] being written (test 5) */
	uint64_t start1, stop1, start2, stop2;
	struct wait_queue_head go;	/* the completions, as this CPU sees them */
};

struct slab_test {
	struct kernel *k;
	int run, count, min_size, max_size, ncpus;
	struct st_cpu *cpu;
	kaddr_t *v;			/* the single-thread tests' vmalloc'ed array */
	int test, size, phase, gen;	/* the concurrent test being run */
	bool pairs;			/* test 3's second series: N*(alloc free) */
	int arrived;			/* CPUs done with the current phase */
	struct hw_line count_line;	/* atomic_t tests_running / phase1_complete */
	struct hw_lock_class wq_class;
	struct wait_queue_head done_wait;
	struct st_result *res;
	int nres, cap;
	bool complete, quit;
};

/* Append one result line; per_cpu (alloc and free of each CPU), if given, is copied. */
static struct st_result *add_result(struct slab_test *st, int test, int size, double alloc,
				    double free_, const double *per_cpu)
{
	if (st->nres == st->cap) {
		st->cap = st->cap ? 2 * st->cap : 32;
		st->res = xrealloc(st->res, (size_t)st->cap * sizeof(*st->res));
	}
	struct st_result *r = &st->res[st->nres++];
	r->test = test;
	r->size = size;
	r->alloc_cycles = alloc;
	r->free_cycles = free_;
	r->pairs = false;
	r->ops_per_second = 0;
	r->per_cpu = NULL;
	if (per_cpu) {
		r->per_cpu = malloc((size_t)st->ncpus * 2 * sizeof(double));
		memcpy(r->per_cpu, per_cpu, (size_t)st->ncpus * 2 * sizeof(double));
	}
	return r;
}

/* u8 *p = kmalloc(size, GFP_KERNEL); *p = value; */
static kaddr_t alloc_touch(struct kernel *k, struct sim_cpu *cpu, int size)
{
	kaddr_t p = __kmalloc(k, cpu, (size_t)size, GFP_KERNEL);
	slab_obj_touch(k, cpu, p, 1, true);
	return p;
}

/* Write the object's first line, then kfree() it. */
static void touch_free(struct kernel *k, struct sim_cpu *cpu, kaddr_t p)
{
	slab_obj_touch(k, cpu, p, 1, true);
	kfree(k, cpu, p);
}

/* Tests 1 and 2, in the loading task. */
static void single_thread(struct task *t, struct slab_test *st, int test)
{
	struct kernel *k = t->k;
	struct sim_cpu *cpu = task_cpu(t);
	for (int size = st->min_size; size <= st->max_size; size <<= 1) {
		uint64_t t1 = cpu->clock;
		if (test == 1) {
			for (int i = 0; i < st->count; i++)
				st->v[i] = alloc_touch(k, cpu, size);
			uint64_t t2 = cpu->clock;
			for (int i = 0; i < st->count; i++)
				touch_free(k, cpu, st->v[i]);
			add_result(st, 1, size, (double)((t2 - t1) / (uint64_t)st->count),
				   (double)((cpu->clock - t2) / (uint64_t)st->count), NULL);
		} else {
			for (int i = 0; i < st->count; i++)
				kfree(k, cpu, __kmalloc(k, cpu, (size_t)size, GFP_KERNEL));
			add_result(st, 2, size, (double)((cpu->clock - t1) / (uint64_t)st->count),
				   0, NULL);
		}
	}
}

/* Phase 1 or 2 of a concurrent test on one CPU. */
static void concurrent_phase(struct task *t, struct st_cpu *me, int phase)
{
	struct slab_test *st = me->st;
	struct kernel *k = t->k;
	struct sim_cpu *cpu = task_cpu(t);
	int n = st->count, size = st->size;
	if (st->pairs) {	/* kmalloc_alloc_free_test_p1; no phase 2 */
		for (int i = 0; i < n && phase == 1; i++) {
			kaddr_t p = __kmalloc(k, cpu, (size_t)size, GFP_KERNEL);
			touch_free(k, cpu, p);	/* *p = 12; kfree(p) */
		}
		return;
	}
	switch (st->test * 10 + phase) {
	case 31:	/* kmalloc_alloc_then_free_test_p1 */
		for (int i = 0; i < n; i++) {
			me->v[i] = alloc_touch(k, cpu, size);
			kmem_word_touch(k, cpu, me->varr + 8 * (kaddr_t)i, true);
		}
		break;
	case 32:
		for (int i = 0; i < n; i++) {
			kmem_word_touch(k, cpu, me->varr + 8 * (kaddr_t)i, false);
			touch_free(k, cpu, me->v[i]);
		}
		break;
	case 41:	/* remote_free_test_p1: no allocations on CPU 0 */
		for (int i = 0; i < n; i++) {
			me->v[i] = me->cpu ? alloc_touch(k, cpu, size) : 0;
			kmem_word_touch(k, cpu, me->varr + 8 * (kaddr_t)i, true);
		}
		break;
	case 42:	/* all frees on CPU 0, reading every CPU's t->v */
		if (me->cpu)
			break;
		for (int i = 0; i < n; i++)
			for (int c = 0; c < st->ncpus; c++) {
				kmem_word_touch(k, cpu, st->cpu[c].varr + 8 * (kaddr_t)i, false);
				if (st->cpu[c].v[i])
					touch_free(k, cpu, st->cpu[c].v[i]);
			}
		break;
	case 51:	/* alloc_n_free_test_p1 */
		if (me->cpu) {	/* consumer: spin until the slot is filled */
			for (int i = 0; i < n; i++) {
				hw_spin_until_at_least(k->hw, cpu, &me->vline, &me->filled, i + 1);
				touch_free(k, cpu, me->v[i]);
				hw_write(k->hw, cpu, &me->vline);	/* t->v[i] = NULL */
			}
			break;
		}
		for (int i = 0; i < n; i++)	/* producer */
			for (int c = 1; c < st->ncpus; c++) {
				struct st_cpu *o = &st->cpu[c];
				o->v[i] = alloc_touch(k, cpu, size);
				hw_write(k->hw, cpu, &o->vline);	/* test[cpu].v[i] = p */
				o->filled = i + 1;
			}
		break;
	default:	/* test 5 has no phase 2 */
		break;
	}
}

/* atomic_inc(&phase1_complete) (or tests_running--): the last one wakes
 * the loading task, which polls the count. */
static void arrive(struct task *t, struct slab_test *st)
{
	hw_atomic(t->k->hw, task_cpu(t), &st->count_line);
	if (++st->arrived == st->ncpus)
		wake_up(t, &st->done_wait, false);
}

/* kfree(t->v). The module frees it as soon as its own phase 2 ends, while
 * CPU 0 may still be reading it (test 4): the block stays mapped and its
 * lines where they were, so the model frees it when the kthread next starts
 * (the next test's set-up, or the end), keeping its lines' books for those
 * reads. */
static void free_varr(struct task *t, struct st_cpu *me)
{
	if (me->varr)
		kfree(t->k, task_cpu(t), me->varr);
	me->varr = 0;
}

/* test_func(): a kthread pinned to its CPU, run once per test and size. */
static void st_kthread(struct task *t, void *arg)
{
	struct st_cpu *me = arg;
	struct slab_test *st = me->st;
	int seen = 0;
	for (;;) {
		for (;;) {	/* wait_for_completion(&completion1 or 2) */
			prepare_to_wait(t, &me->go);
			if (st->quit || st->gen != seen)
				break;
			schedule(t);
		}
		finish_wait(t, &me->go);
		if (st->quit) {
			free_varr(t, me);
			return;
		}
		seen = st->gen;
		struct sim_cpu *cpu = task_cpu(t);
		if (st->phase == PHASE_SETUP) {	/* t->v = kzalloc(count * sizeof(void *)) */
			free_varr(t, me);
			me->varr = kzalloc(t->k, cpu, (size_t)st->count * 8, GFP_KERNEL);
		} else if (st->phase == PHASE_1) {
			me->start1 = cpu->clock;
			concurrent_phase(t, me, 1);
			me->stop1 = task_cpu(t)->clock;
		} else {
			me->start2 = cpu->clock;
			concurrent_phase(t, me, 2);
			me->stop2 = task_cpu(t)->clock;
		}
		arrive(t, st);
	}
}

/* complete_all(): start a phase on every CPU and wait until all arrive. */
static void run_phase(struct task *t, struct slab_test *st, int phase)
{
	st->arrived = 0;
	st->phase = phase;
	st->gen++;
	for (int c = 0; c < st->ncpus; c++)
		wake_up(t, &st->cpu[c].go, false);
	for (;;) {
		prepare_to_wait(t, &st->done_wait);
		if (st->arrived == st->ncpus)
			break;
		schedule(t);
	}
	finish_wait(t, &st->done_wait);
}

/* do_concurrent_test(): both phases of one test and size, then the module's
 * per-CPU and average figures, and the throughput of phase 1: the sum of
 * each CPU's own rate (TEST_COUNT over its own phase time, as the module's
 * per-CPU figures measure it: the CPUs' start skew does not count). */
static void concurrent(struct task *t, struct slab_test *st, int test, int size, bool pairs)
{
	st->test = test;
	st->size = size;
	st->pairs = pairs;
	for (int c = 0; c < st->ncpus; c++) {
		st->cpu[c].filled = 0;
		memset(st->cpu[c].v, 0, (size_t)st->count * sizeof(kaddr_t));
	}
	run_phase(t, st, PHASE_SETUP);	/* the kthreads start: tests_running */
	run_phase(t, st, PHASE_1);
	run_phase(t, st, PHASE_2);
	double *per = malloc((size_t)st->ncpus * 2 * sizeof(double));
	uint64_t sum1 = 0, sum2 = 0;
	double rate = 0;
	for (int c = 0; c < st->ncpus; c++) {
		uint64_t a = st->cpu[c].stop1 - st->cpu[c].start1;
		uint64_t f = test == 5 || pairs ? 0 : st->cpu[c].stop2 - st->cpu[c].start2;
		if (a)
			rate += (double)st->count * st->k->m->ghz * 1e9 / (double)a;
		sum1 += a;
		sum2 += f;
		per[2 * c] = (double)(a / (uint64_t)st->count);
		per[2 * c + 1] = (double)(f / (uint64_t)st->count);
	}
	uint64_t div = (uint64_t)st->ncpus * (uint64_t)st->count;
	struct st_result *r = add_result(st, test, size, (double)(sum1 / div),
					 (double)(sum2 / div), per);
	r->pairs = pairs;
	r->ops_per_second = rate;
	free(per);
}

/* The loading task (insmod): the tests the `run` mask asks for, in order. */
static void st_insmod(struct task *t, void *arg)
{
	struct slab_test *st = arg;
	struct kernel *k = t->k;
	kernel_mark(k, true);
	for (int test = 1; test <= 5; test++) {
		if (!(st->run & (1 << (test - 1))))
			continue;
		if (test <= 2)
			single_thread(t, st, test);
		else
			for (int pairs = 0; pairs <= (test == 3); pairs++)	/* test 3: two series */
				for (int size = st->min_size;
				     size <= ST_PAGE_SIZE && size <= st->max_size; size <<= 1)
					concurrent(t, st, test, size, pairs);
	}
	kernel_mark(k, false);
	st->quit = true;
	for (int c = 0; c < st->ncpus; c++)
		wake_up(t, &st->cpu[c].go, false);
	st->complete = true;
}

/* The single-thread array, a pinned kthread per online CPU (if a concurrent test runs) and
 * the loading task; tests 4 and 5 need two CPUs. */
static int st_start(struct kernel *k, const struct param_set *ps, void **state,
		    struct sim_err *err)
{
	struct slab_test *st = calloc(1, sizeof(*st));
	if (!st)
		return sim_fail(err, "out of memory");
	st->k = k;
	st->run = (int)param_int(ps, "run");
	st->count = (int)param_int(ps, "count");
	st->min_size = (int)param_int(ps, "min_size");
	st->max_size = (int)param_int(ps, "max_size");
	int cpus = (int)param_int(ps, "cpus");
	if (cpus > k->m->ncpus) {
		free(st);
		return sim_fail(err, "slab_test: cpus=%d but %s has %d CPUs", cpus, k->m->name,
				k->m->ncpus);
	}
	st->ncpus = cpus ? cpus : k->m->ncpus;
	bool concurrent_tests = st->run & (4 | 8 | 16);
	if ((st->run & (8 | 16)) && st->ncpus < 2) {
		free(st);
		return sim_fail(err, "slab_test: tests 4 and 5 (run & 24) need two CPUs; %s",
				cpus == 1 ? "cpus=1 gives one" : "the machine has one");
	}
	st->v = calloc((size_t)st->count, sizeof(kaddr_t));
	st->cpu = calloc((size_t)st->ncpus, sizeof(*st->cpu));
	if (!st->v || !st->cpu) {
		free(st->v);
		free(st->cpu);
		free(st);
		return sim_fail(err, "out of memory for slab_test");
	}
	hw_line_init(k->hw, &st->count_line, 0);
	hw_lock_class_init(k->hw, &st->wq_class, "slab_test completions (wait queue)",
			   k->hw->sym_spin_lock);
	init_waitqueue_head(k, &st->done_wait, &st->wq_class, 0);
	for (int c = 0; c < st->ncpus; c++) {	/* the online CPUs */
		struct st_cpu *me = &st->cpu[c];
		me->st = st;
		me->cpu = c;
		int node = k->m->topo[c].node;
		hw_line_init(k->hw, &me->vline, node);
		init_waitqueue_head(k, &me->go, &st->wq_class, node);
		if (concurrent_tests) {
			me->v = calloc((size_t)st->count, sizeof(kaddr_t));
			if (!me->v) {
				*state = st;
				return sim_fail(err, "out of memory for slab_test's arrays");
			}
			task_create_pinned(&k->sched, NULL, st_kthread, me, "slab_test", NULL, c);
		}
	}
	task_create_pinned(&k->sched, NULL, st_insmod, st, "insmod", NULL, 0);
	*state = st;
	return 0;
}

/* slab_test takes only NAME=VALUE parameters. */
static int st_parse(struct param_set *ps, int argc, char **argv, struct sim_err *err)
{
	if (argc > 1)
		return sim_fail(err, "slab_test: unexpected argument '%s' (its parameters are "
				"NAME=VALUE: run count min_size max_size cpus)", argv[1]);
	return 0;
}

/* `slab_test run=R TEST_COUNT=N: K results`; each result's test, size, cycles and per-CPU
 * figures in the JSON. */
static void st_result(void *state, struct workload_result *r)
{
	struct slab_test *st = state;
	r->finished = st->complete;
	r->sim_seconds = st->complete ? (double)(st->k->win.time[1] - st->k->win.time[0]) /
		(st->k->m->ghz * 1e9) : 0;
	snprintf(r->line, sizeof(r->line), "slab_test run=%d TEST_COUNT=%d: %d results",
		 st->run, st->count, st->nres);
	r->extra = cJSON_CreateObject();
	cJSON *tests = cJSON_AddArrayToObject(r->extra, "tests");
	for (int i = 0; i < st->nres; i++) {
		const struct st_result *x = &st->res[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "test", x->test);
		cJSON_AddNumberToObject(o, "size", x->size);
		cJSON_AddNumberToObject(o, "alloc_cycles", x->alloc_cycles);
		cJSON_AddNumberToObject(o, "free_cycles", x->free_cycles);
		if (x->test >= 3) {
			cJSON_AddStringToObject(o, "name", slab_test_name(x));
			cJSON_AddNumberToObject(o, "ops_per_second", x->ops_per_second);
		}
		if (x->per_cpu) {
			cJSON *pc = cJSON_AddArrayToObject(o, "per_cpu");
			for (int c = 0; c < st->ncpus; c++) {
				cJSON *pair = cJSON_CreateArray();
				cJSON_AddItemToArray(pair, cJSON_CreateNumber(x->per_cpu[2 * c]));
				cJSON_AddItemToArray(pair, cJSON_CreateNumber(x->per_cpu[2 * c + 1]));
				cJSON_AddItemToArray(pc, pair);
			}
		}
		cJSON_AddItemToArray(tests, o);
	}
}

/* The module's printk lines, beside the published figures with --compare. */
static void st_print(void *state, FILE *out, const struct wl_published *published)
{
	struct slab_test *st = state;
	slab_test_print(out, st->res, st->nres, st->ncpus, st->count, published);
}

/* A finished run produced at least one result. */
static int st_check(void *state, struct sim_err *err)
{
	struct slab_test *st = state;
	if (st->complete && st->nres == 0)
		return sim_fail(err, "slab_test: no test ran");
	return 0;
}

/* Free the results, the per-CPU arrays and the state. */
static void st_destroy(void *state)
{
	struct slab_test *st = state;
	for (int i = 0; i < st->nres; i++)
		free(st->res[i].per_cpu);
	free(st->res);
	for (int c = 0; st->cpu && c < st->ncpus; c++)
		free(st->cpu[c].v);
	free(st->cpu);
	free(st->v);
	free(st);
}

const struct workload slab_test_workload = {
	.name = "slab_test",
	.description = "the slab_test kernel module: single-thread, concurrent, remote-free "
		       "and 1-alloc-N-free kmalloc/kfree cycle counts",
	.usage = "slab_test [run=MASK] [count=N] [min_size=BYTES] [max_size=BYTES] [cpus=N]",
	.params = slab_test_params,
	.parse_cmdline = st_parse,
	.start = st_start,
	.result = st_result,
	.check = st_check,
	.print = st_print,
	.compare = "docs/calibration.md C2 (Nick Piggin, LKML, 16 Jan 2009): tests 1 and 2",
	.destroy = st_destroy,
};
