/* kmem_stat.h - what `perf kmem stat` reports, kept for every run: per call
 * site and per cache the allocations (hits), bytes requested and allocated,
 * frees, and ping-pong (objects freed on another CPU than the one that
 * allocated them), with the summary's internal fragmentation and "Cross CPU
 * allocations". A call site is the kernel symbol the CPU was in when it
 * called the allocator (`__alloc_skb`), or the address a replayed trace
 * names. Also the recorder of `slabsim trace record`: every allocation and
 * free as an ftrace kmem event line. */
#ifndef SIM_KMEM_STAT_H
#define SIM_KMEM_STAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/profile.h"

struct kernel;
struct kmem_cache;
struct sim_cpu;

struct kmem_site_stat {
	uint64_t allocs, frees;
	uint64_t bytes_req, bytes_alloc;	/* of the allocations */
	uint64_t bytes_freed;
	uint64_t pingpong;			/* freed on another CPU */
	uint64_t remote_node;			/* of which on another node */
};

/* The four kmem trace events, in the order of enum trace_kind. */
enum { KMEM_EV_KMALLOC, KMEM_EV_CACHE_ALLOC, KMEM_EV_KFREE, KMEM_EV_CACHE_FREE };

#define KMEM_SITE_NONE 0xffff
#define KMEM_SITES_MAX 0xfff0

/* One allocation or free as the recorder keeps it, until the run ends. */
struct kmem_rec_event {
	uint64_t ts;			/* cycles */
	uint64_t ptr;
	uint64_t seq;			/* call order, the tie-break among equal times */
	uint32_t bytes_req, bytes_alloc;
	int32_t pid;
	uint16_t cpu, site, cache;
	uint8_t kind;			/* enum trace_kind order: kmalloc, cache alloc, kfree, cache free */
	uint8_t gfp;			/* an allocation's gfp_t */
	char comm[16];
};

struct kmem_stat {
	int nsites, sites_cap;
	char (*site_name)[64];
	struct kmem_site_stat *site;
	uint16_t site_of_sym[PROFILE_MAX_SYMS];	/* profile symbol -> site */
	uint16_t *cpu_site;			/* per CPU: a replay's call site, or NONE */
	struct kmem_site_stat *cache;		/* by kmem_cache id */
	int caches_cap;
	uint64_t large_allocs, large_frees;
	struct kmem_site_stat total;		/* every allocation and free */
	/* the recorder (slabsim trace record), NULL when off */
	struct kmem_rec_event *rec;
	uint64_t nrec, rec_cap;
	uint64_t rec_from, rec_to;		/* the window kept, in cycles (rec_to 0: no end) */
	bool recording;
};

int kmem_stat_init(struct kmem_stat *s, int ncpus);
void kmem_stat_destroy(struct kmem_stat *s);

/* The site of a name (a replayed trace's call site), registered on first use;
 * KMEM_SITE_NONE if the table is full. */
uint16_t kmem_site_named(struct kmem_stat *s, const char *name);

/* The site of the allocation `cpu` makes now: the replay's, or its symbol's. */
uint16_t kmem_site_current(struct kmem_stat *s, const struct profile *p, const struct sim_cpu *cpu);

/* Book an allocation / free of `bytes_alloc` (slot) for `bytes_req` asked. */
void kmem_stat_alloc(struct kmem_stat *s, const struct kmem_cache *c, uint16_t site,
		     uint32_t bytes_req, uint32_t bytes_alloc);
void kmem_stat_free(struct kmem_stat *s, const struct kmem_cache *c, uint16_t site,
		    uint32_t bytes, bool other_cpu, bool other_node);

/* Recorder: keep one event (only while s->recording, and only inside the
 * window rec_from..rec_to); gfp: an allocation's flags (0 for a free). */
void kmem_rec(struct kernel *k, const struct sim_cpu *cpu, int kind, uint64_t ptr,
	      const struct kmem_cache *c, uint16_t site, uint32_t bytes_req, uint32_t bytes_alloc,
	      unsigned int gfp);

/* Write the recorded events in time order as /sys/kernel/tracing/trace
 * prints them (the 6.x format, with name= on the kmem_cache events). */
int kmem_rec_write(struct kernel *k, FILE *out);

#endif
