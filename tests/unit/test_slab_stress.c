/* test_slab_stress.c - every policy on every machine: random allocations,
 * local and remote frees, tasks yielding and moving between CPUs, with the
 * invariants checked at every barrier; and the checker itself must catch a
 * double free and a lost object. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <gsl/gsl_rng.h>

#include "run/run_core.h"
#include "engine/array_size.h"
#include "kernel/slab.h"
#include "kernel/wait.h"
#include "policies/slub.h"

#define LOCAL 64
#define POOL 4096

struct stress;

struct worker {
	struct stress *st;
	kaddr_t obj[LOCAL];
	struct kmem_cache *cache[LOCAL];
	int n;
};

struct stress {
	struct run r;
	struct kmem_cache *caches[16];
	int ncaches;
	kaddr_t pool[POOL];
	struct kmem_cache *pool_cache[POOL];
	int npool;
	int ntasks, arrived, gen, exited;
	int phases, ops;
	struct wait_queue_head wq;
	struct hw_lock_class wq_class;
	int checks;
	bool failed;
	char msg[1024];
	uint64_t allocs, remote_frees, migrations_seen;
	bool corrupt;		/* end with a deliberate double free */
};

/* Check every invariant, once no delayed work (a policy's reaper) is
 * half-way through: it may yield with objects in hand. */
static void check_now(struct task *t, struct stress *st)
{
	while (t->k->works_running)
		schedule_timeout_until(t, task_cpu(t)->clock + 1000);
	struct sim_err err;
	st->checks++;
	if (!st->failed && kernel_check_state(&st->r.k, false, &err) < 0) {
		st->failed = true;
		snprintf(st->msg, sizeof(st->msg), "%s", err.msg);
	}
}

/* All tasks meet; the last one checks the invariants while every other task
 * sleeps outside the allocator. */
static void barrier(struct task *t, struct stress *st)
{
	if (++st->arrived == st->ntasks) {
		check_now(t, st);
		st->arrived = 0;
		st->gen++;
		wake_up(t, &st->wq, false);
		return;
	}
	int gen = st->gen;
	for (;;) {
		prepare_to_wait(t, &st->wq);
		if (st->gen != gen)
			break;
		schedule(t);
	}
	finish_wait(t, &st->wq);
}

static void stress_task(struct task *t, void *arg)
{
	struct worker *w = arg;
	struct stress *st = w->st;
	struct kernel *k = t->k;
	gsl_rng *rng = k->eng->rng;
	int last_cpu = t->cpu;
	for (int ph = 0; ph < st->phases; ph++) {
		for (int i = 0; i < st->ops; i++) {
			struct sim_cpu *cpu = task_cpu(t);
			if (t->cpu != last_cpu) {
				st->migrations_seen++;
				last_cpu = t->cpu;
			}
			unsigned long op = gsl_rng_uniform_int(rng, 10);
			if (op < 4 && w->n < LOCAL) {		/* allocate, keep */
				struct kmem_cache *c = st->caches[gsl_rng_uniform_int(rng, (unsigned long)st->ncaches)];
				kaddr_t o = kmem_cache_alloc(k, cpu, c, GFP_KERNEL);
				assert_true(o != 0);
				slab_obj_touch(k, cpu, o, 1, true);
				w->obj[w->n] = o;
				w->cache[w->n++] = c;
				st->allocs++;
			} else if (op < 6 && w->n > 0) {	/* free locally */
				int j = (int)gsl_rng_uniform_int(rng, (unsigned long)w->n);
				kaddr_t o = w->obj[j];
				struct kmem_cache *c = w->cache[j];
				w->obj[j] = w->obj[--w->n];
				w->cache[j] = w->cache[w->n];
				kmem_cache_free(k, cpu, c, o);
			} else if (op < 8 && w->n > 0 && st->npool < POOL) {	/* hand over */
				st->pool[st->npool] = w->obj[--w->n];
				st->pool_cache[st->npool++] = w->cache[w->n];
			} else if (st->npool > 0) {		/* free someone else's */
				/* take it out of the pool first: the free may
				 * yield, and another task may pick from the pool */
				int j = (int)gsl_rng_uniform_int(rng, (unsigned long)st->npool);
				kaddr_t o = st->pool[j];
				struct kmem_cache *c = st->pool_cache[j];
				st->pool[j] = st->pool[--st->npool];
				st->pool_cache[j] = st->pool_cache[st->npool];
				kmem_cache_free(k, cpu, c, o);
				st->remote_frees++;
			}
			cpu_charge(task_cpu(t), 50 + gsl_rng_uniform_int(rng, 500));
			if (gsl_rng_uniform_int(rng, 64) == 0)
				schedule(t);		/* yield: may come back elsewhere */
			sched_preempt_point(t);
		}
		barrier(t, st);
	}
	while (w->n > 0) {
		w->n--;
		kmem_cache_free(k, task_cpu(t), w->cache[w->n], w->obj[w->n]);
	}
	if (++st->exited == st->ntasks) {
		while (st->npool > 0) {
			int j = --st->npool;
			kmem_cache_free(k, task_cpu(t), st->pool_cache[j], st->pool[j]);
		}
		check_now(t, st);
		if (st->corrupt) {
			struct kmem_cache *c = st->caches[0];
			kaddr_t o = kmem_cache_alloc(k, task_cpu(t), c, GFP_KERNEL);
			kmem_cache_free(k, task_cpu(t), c, o);
			kmem_cache_free(k, task_cpu(t), c, o);	/* the bug */
		}
	}
}

/* Build `policy` on `machine` with NAME=VALUE words `args` ("kernel=3.2"). */
static void run_stress(const char *machine, const char *policy, const char *args, bool corrupt,
		       struct stress *st)
{
	memset(st, 0, sizeof(*st));
	static char words[256];
	snprintf(words, sizeof(words), "%s", args);
	const char *assign[8];
	int nassign = 0;
	for (char *save = NULL, *w = strtok_r(words, " ", &save); w && nassign < 8;
	     w = strtok_r(NULL, " ", &save))
		assign[nassign++] = w;
	struct run_config cfg = { .machine = machine, .policy = policy, .seed = 7,
				  .assign = assign, .nassign = nassign };
	struct sim_err err;
	if (run_configure(&st->r, &cfg, &err) < 0 || run_build(&st->r, &err) < 0) {
		printf("%s\n", err.msg);
		fail();
	}
	struct kernel *k = &st->r.k;
	const size_t sizes[] = { 8, 64, 100, 192, 500, 1024, 4096 };
	for (size_t i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct kmem_cache *c = kmalloc_slab(k, sizes[i]);
		if (c)
			st->caches[st->ncaches++] = c;
	}
	st->caches[st->ncaches++] = kmem_cache_create(k, "test_cache", 200, 0, SLAB_HWCACHE_ALIGN, &err);
	assert_non_null(st->caches[st->ncaches - 1]);
	hw_lock_class_init(k->hw, &st->wq_class, "test barrier", k->hw->sym_spin_lock);
	init_waitqueue_head(k, &st->wq, &st->wq_class, 0);
	st->phases = 8;
	st->ops = 1000;
	st->corrupt = corrupt;
	int ncpus = st->r.m.ncpus;
	st->ntasks = ncpus + ncpus / 2;	/* more tasks than CPUs: they share and move */
	struct worker *w = calloc((size_t)st->ntasks, sizeof(*w));
	for (int i = 0; i < st->ntasks; i++) {
		w[i].st = st;
		task_create(&k->sched, NULL, stress_task, &w[i], "stress", NULL, i % ncpus);
	}
	engine_run(&st->r.eng);
	if (st->exited != st->ntasks)
		printf("stalled: %d of %d tasks exited, barrier %d/%d (gen %d), violation: %s\n",
		       st->exited, st->ntasks, st->arrived, st->ntasks, st->gen,
		       k->violated ? k->violation : "none");
	assert_int_equal(st->exited, st->ntasks);
	free(w);
}

/* Each configuration of list[] on every machine (three with SLABSIM_CHECK=1),
 * checked at every barrier and at the end. */
static void stress_every_machine(const char *const (*list)[2], int nlist)
{
	char *names[MACHINE_MAX_FILES];
	int n = machine_names(names, MACHINE_MAX_FILES);
	assert_true(n >= 1);
	static struct stress st;
	/* make check (SLABSIM_CHECK=1): every configuration on three machines
	 * of different shapes (one hub, 4 nodes on QPI, 4 chassis), not all */
	bool reduced = getenv("SLABSIM_CHECK") && !strcmp(getenv("SLABSIM_CHECK"), "1");
	for (int m = 0; m < n; m++) {
		if (reduced && strcmp(names[m], "tigerton") && strcmp(names[m], "nehalem-ex") &&
		    strcmp(names[m], "x3950-m2")) {
			free(names[m]);
			continue;
		}
		for (int c = 0; c < nlist; c++) {
			run_stress(names[m], list[c][0], list[c][1], false, &st);
			printf("  %s %s on %s: %d checks, %llu allocations, %llu remote frees, %llu "
			       "migrations: %s\n", list[c][0], list[c][1], names[m], st.checks,
			       (unsigned long long)st.allocs, (unsigned long long)st.remote_frees,
			       (unsigned long long)st.migrations_seen, st.failed ? st.msg : "ok");
			assert_false(st.failed);
			struct sim_err err;	/* and at the end, every lock released */
			if (kernel_check(&st.r.k, &err) < 0)
				fail_msg("%s %s on %s at the end: %s", list[c][0], list[c][1],
					 names[m], err.msg);
			assert_int_equal(st.checks, st.phases + 1);
			assert_true(st.remote_frees > 1000);
			assert_true(st.migrations_seen > 0);
			run_free(&st.r);
		}
		free(names[m]);
	}
}


/* test_slab_stress -p POLICY [NAME=VALUE ...]: that policy alone (a module:
 * -p ./mine.so), on every machine (make stress P=./mine.so). */
static const char *given[1][2];

static void test_given_policy_every_machine(void **state)
{
	(void)state;
	stress_every_machine(given, 1);
}

static void test_every_policy_every_machine(void **state)
{
	(void)state;
	/* every policy; the eras of SLUB, and its sheaves with 4 objects each
	 * (every cache in 6.18; the barn's limit and flushes often); the
	 * magazines with kmem_cache_update (resizes and reaps) every 50 us; a
	 * registered policy that is not listed runs with its defaults */
	static const char *const configs[][2] = {
		{ "slab", "" }, { "slub", "kernel=2.6.25" }, { "slub", "kernel=2.6.24" },
		{ "slub", "kernel=3.1" }, { "slub", "kernel=3.2" }, { "slub", "kernel=6.18" },
		{ "slub", "kernel=7.0" }, { "slub", "kernel=6.18 sheaf_capacity=4" },
		{ "slub", "kernel=7.0 sheaf_capacity=4" }, { "slqb", "" },
		{ "magazine", "" },
		{ "magazine", "magazine_update_ms=0.05 magazine_contention=0 magazine_reap=1" },
	};
	const int nconfigs = ARRAY_SIZE(configs);
	const char *list[64][2];
	int nlist = 0;
	for (int c = 0; c < nconfigs; c++) {
		list[nlist][0] = configs[c][0];
		list[nlist++][1] = configs[c][1];
	}
	for (int p = 0; slab_policies[p]; p++) {
		bool listed = false;
		for (int c = 0; c < nconfigs; c++)
			listed |= !strcmp(configs[c][0], slab_policies[p]->name);
		if (!listed) {
			list[nlist][0] = slab_policies[p]->name;
			list[nlist++][1] = "";
		}
	}
	stress_every_machine((const char *const (*)[2])list, nlist);
}

static void test_checker_catches_double_free(void **state)
{
	(void)state;
	static struct stress st;
	run_stress("tigerton", "slub", "kernel=2.6.25", true, &st);
	assert_false(st.failed);	/* all was well before the bug */
	struct sim_err err;
	assert_int_equal(kernel_check(&st.r.k, &err), -1);
	assert_non_null(strstr(err.msg, "double free"));
	assert_non_null(strstr(err.msg, st.caches[0]->name));
	run_free(&st.r);
}

/* An object that vanishes from a free list is named by the checker. */
static void test_checker_catches_lost_object(void **state)
{
	(void)state;
	static struct stress st;
	run_stress("tigerton", "slub", "kernel=2.6.25", false, &st);
	struct sim_err err;
	assert_int_equal(kernel_check(&st.r.k, &err), 0);
	struct kernel *k = &st.r.k;
	/* find a slab with a free chain and cut its first object off */
	bool done = false;
	for (uint64_t pfn = 0; pfn < k->pa.total_pages && !done; pfn++) {
		struct page *p = pfn_to_page(&k->pa, pfn);
		if (p && (p->flags & PG_slab) && p->freelist != OBJ_NIL) {
			p->freelist = p->obj[p->freelist].next;
			done = true;
		}
	}
	assert_true(done);
	assert_int_equal(kernel_check(k, &err), -1);
	assert_non_null(strstr(err.msg, "lost"));
	assert_non_null(strstr(err.msg, "slab pfn"));
	run_free(&st.r);
}

/* An object a sheaf drops, or one it holds twice, is named by the checker
 * (SLUB 7.0: the objects are in sheaves at the end of the stress). */
static void test_checker_catches_sheaf_loss(void **state)
{
	(void)state;
	static struct stress st;
	run_stress("tigerton", "slub", "kernel=7.0", false, &st);
	struct sim_err err;
	assert_int_equal(kernel_check(&st.r.k, &err), 0);
	struct slub *sl = st.r.k.pstate;
	struct slab_sheaf *sh = NULL;
	for (int i = 0; i < sl->ncaches && !sh; i++)
		for (int c = 0; c < st.r.m.ncpus && !sh; c++)
			if (sl->caches[i]->pcs[c].main && sl->caches[i]->pcs[c].main->a.avail >= 2)
				sh = sl->caches[i]->pcs[c].main;
	assert_non_null(sh);
	sh->a.obj[0] = sh->a.obj[1];	/* one held twice, one lost */
	assert_int_equal(kernel_check(&st.r.k, &err), -1);
	assert_non_null(strstr(err.msg, "in sheaves twice"));
	sh->a.obj[0] = sh->a.obj[--sh->a.avail];	/* now only lost */
	assert_int_equal(kernel_check(&st.r.k, &err), -1);
	if (!strstr(err.msg, "lost"))
		fail_msg("%s", err.msg);
	run_free(&st.r);
}

int main(int argc, char **argv)
{
	setenv("SLABSIM_MACHINES", "machines", 1);
	if (argc >= 3 && !strcmp(argv[1], "-p")) {
		static char args[512];
		for (int i = 3; i < argc; i++)
			snprintf(args + strlen(args), sizeof(args) - strlen(args), "%s%s",
				 i > 3 ? " " : "", argv[i]);
		given[0][0] = argv[2];
		given[0][1] = args;
		const struct CMUnitTest one[] = { cmocka_unit_test(test_given_policy_every_machine) };
		return cmocka_run_group_tests(one, NULL, NULL);
	}
	if (argc > 1) {
		fprintf(stderr, "usage: test_slab_stress [-p POLICY [NAME=VALUE ...]]\n");
		return 2;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_policy_every_machine),
		cmocka_unit_test(test_checker_catches_double_free),
		cmocka_unit_test(test_checker_catches_lost_object),
		cmocka_unit_test(test_checker_catches_sheaf_loss),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
