/* calibrate_probe.c - host measurements for `slabsim calibrate`
 * (calibrate_probe.h). */
#include "calibrate_probe.h"

#include <errno.h>
#include <hwloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* The host's monotonic clock, in nanoseconds. */
static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* qsort() order of doubles, ascending. */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

void probe_sort(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
}

double probe_median(double *v, int n)
{
	probe_sort(v, n);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int probe_pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	int rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (rc) {
		errno = rc;
		return -1;
	}
	sched_yield();	/* move there now */
	return sched_getcpu() == cpu ? 0 : (errno = EINVAL, -1);
}

double probe_clock_ghz(void)
{
	/* 16 dependent adds per turn: the loop's own branch issues beside them */
	double best = 0;
	for (int rep = 0; rep < 5; rep++) {
		uint64_t x = 0, n = 20000000;
		double t0 = now_ns();
		for (uint64_t i = 0; i < n; i++) {
#if defined(__x86_64__)
			__asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
					 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
					 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
					 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0"
					 : "+r"(x));
#else
			__asm__ volatile("" : "+r"(x));
			x += 16;
#endif
		}
		double ghz = (double)(16 * n) / (now_ns() - t0);
		if (ghz > best && x == 16 * n)
			best = ghz;	/* the fastest: other work only slows a run */
	}
	return best;
}

double probe_atomic_ns(void)
{
	static _Alignas(64) uint64_t word;
	double best = 1e9;
	for (int rep = 0; rep < 5; rep++) {
		const int n = 5000000;
		uint64_t v = 0;
		double t0 = now_ns();
		for (int i = 0; i < n; i++) {
			uint64_t expect = v;	/* each op needs the one before */
			__atomic_compare_exchange_n(&word, &expect, v + 1, false, __ATOMIC_SEQ_CST,
						    __ATOMIC_SEQ_CST);
			v = expect + 1;
		}
		double ns = (now_ns() - t0) / n;
		if (ns < best)
			best = ns;
	}
	return best;
}

/* BYTES of memory, bound to NUMA node NODE (>= 0, through *T) or anywhere; NULL if none. */
static void *chase_alloc(size_t bytes, int node, hwloc_topology_t *t)
{
	void *mem = NULL;
	*t = NULL;
	if (node >= 0) {
		if (hwloc_topology_init(t) < 0 || hwloc_topology_load(*t) < 0)
			return NULL;
		hwloc_obj_t n = hwloc_get_obj_by_type(*t, HWLOC_OBJ_NUMANODE, (unsigned)node);
		mem = n ? hwloc_alloc_membind(*t, bytes, n->nodeset, HWLOC_MEMBIND_BIND,
					      HWLOC_MEMBIND_BYNODESET) : NULL;
	} else {
		mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED)
			mem = NULL;
	}
	if (!mem && *t) {
		hwloc_topology_destroy(*t);
		*t = NULL;
	}
	if (mem)
		madvise(mem, bytes, MADV_HUGEPAGE);	/* TLB misses are not what is measured */
	return mem;
}

/* Give back what chase_alloc took. */
static void chase_free(void *mem, size_t bytes, hwloc_topology_t t)
{
	if (t) {
		hwloc_free(t, mem, bytes);
		hwloc_topology_destroy(t);
	} else {
		munmap(mem, bytes);
	}
}

/* Link the LINES lines of BASE into one cycle in random order (Sattolo's
 * shuffle); -1 if out of memory. */
static int chase_link(char *base, size_t lines)
{
	uint32_t *order = malloc(lines * sizeof(*order));
	if (!order)
		return -1;
	for (size_t i = 0; i < lines; i++)
		order[i] = (uint32_t)i;
	uint64_t r = 0x9e3779b97f4a7c15ull;
	for (size_t i = lines - 1; i > 0; i--) {
		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		size_t j = r % i;
		uint32_t tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
	for (size_t i = 0; i < lines; i++)
		*(void **)(base + (size_t)order[i] * 64) = base + (size_t)order[(i + 1) % lines] * 64;
	free(order);
	return 0;
}

double probe_chase_ns(size_t bytes, int node)
{
	size_t lines = bytes / 64;
	if (lines < 16)
		return -1;
	hwloc_topology_t t;
	char *base = chase_alloc(bytes, node, &t);
	if (!base)
		return -1;
	if (chase_link(base, lines) < 0) {
		chase_free(base, bytes, t);
		return -1;
	}
	size_t steps = PROBE_CHASE_STEPS;
	void **p = (void **)base;
	for (size_t i = 0; i < (lines < steps ? lines : steps); i++)
		p = *p;	/* the caches warm */
	double best = 1e9;
	for (int rep = 0; rep < PROBE_CHASE_WALKS; rep++) {
		double t0 = now_ns();
		for (size_t i = 0; i < steps; i++)
			p = *p;
		double ns = (now_ns() - t0) / (double)steps;
		if (ns < best)
			best = ns;
	}
	__asm__ volatile("" : : "r"(p));
	chase_free(base, bytes, t);
	return best;
}

struct pong {
	int cpu, rounds, samples;
	volatile uint64_t *line;
	volatile int *ready;
	int pin_errno;
};

/* The far side: each round waits for 1 and puts 0 back with lock cmpxchg. */
static void *pong_main(void *arg)
{
	struct pong *p = arg;
	if (probe_pin(p->cpu) < 0) {
		p->pin_errno = errno ? errno : EINVAL;
		__atomic_store_n(p->ready, -1, __ATOMIC_SEQ_CST);
		return NULL;
	}
	__atomic_store_n(p->ready, 1, __ATOMIC_SEQ_CST);
	for (long i = 0; i < (long)p->rounds * p->samples; i++) {
		uint64_t one = 1;
		while (!__atomic_compare_exchange_n((uint64_t *)p->line, &one, 0, false,
						    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			one = 1;
	}
	return NULL;
}

double probe_pingpong_ns(int a, int b, int samples, int rounds)
{
	static _Alignas(64) uint64_t line;
	static _Alignas(64) int ready;
	if (probe_pin(a) < 0)
		return -1;
	line = 0;
	ready = 0;
	double *v = malloc((size_t)samples * sizeof(*v));
	if (!v)
		return -1;
	struct pong p = { b, rounds, samples, &line, &ready, 0 };
	pthread_t th;
	int rc = pthread_create(&th, NULL, pong_main, &p);
	if (rc) {
		free(v);
		errno = rc;
		return -1;
	}
	while (!__atomic_load_n(&ready, __ATOMIC_SEQ_CST))
		;
	if (ready < 0) {
		pthread_join(th, NULL);
		free(v);
		errno = p.pin_errno;
		return -1;
	}
	for (int s = 0; s < samples; s++) {
		double t0 = now_ns();
		for (int i = 0; i < rounds; i++) {
			uint64_t zero = 0;
			while (!__atomic_compare_exchange_n(&line, &zero, 1, false, __ATOMIC_SEQ_CST,
							    __ATOMIC_SEQ_CST))
				zero = 0;
		}
		v[s] = (now_ns() - t0) / rounds / 2;
	}
	pthread_join(th, NULL);
	double m = probe_median(v, samples);
	free(v);
	return m;
}
