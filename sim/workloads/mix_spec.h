/* mix_spec.h - a subsystem's slab traffic described as data: the caches it
 * allocates from, how often, how long objects live and which CPU frees them.
 * Read from a JSON file (workload `mix`) or built in C (workload `kbuild`).
 *
 *   { "description": "...", "tasks": 8,
 *     "caches": [ { "name": "my_req", "size": 192, "kmalloc": false,
 *                   "rate": 200000,
 *                   "lifetime": { "dist": "exponential", "mean_us": 20 },
 *                   "remote_cpu": 0.10, "remote_node": 0.05 } ] }
 *
 * Lifetimes: {"dist":"fixed","us":V}, {"dist":"exponential","mean_us":M},
 * {"dist":"lognormal","median_us":M,"sigma":S},
 * {"dist":"pareto","shape":A,"min_us":B}. */
#ifndef SIM_MIX_SPEC_H
#define SIM_MIX_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include <gsl/gsl_rng.h>

#include "engine/error.h"

#define MIX_MAX_CACHES 64
#define MIX_NAME 32			/* struct kmem_cache's name[] */
#define MIX_MAX_SIZE (4u << 20)		/* KMALLOC_MAX_SIZE of x86-64 SLAB */
#define MIX_MAX_TASKS 4096		/* as many as hackbench 100 creates */

enum mix_dist { MIX_FIXED, MIX_EXPONENTIAL, MIX_LOGNORMAL, MIX_PARETO, MIX_NDIST };

struct mix_lifetime {
	enum mix_dist dist;
	double a;	/* fixed: us; exponential: mean_us; lognormal: median_us;
			 * pareto: shape */
	double b;	/* lognormal: sigma; pareto: min_us */
};

struct mix_cache_spec {
	char name[MIX_NAME];
	unsigned int size;
	bool kmalloc;			/* __kmalloc(size), else a cache of its own */
	double rate;			/* allocations per second of a task's time */
	struct mix_lifetime life;
	double remote_cpu;		/* share freed on another CPU of the node */
	double remote_node;		/* share freed on another node */
	unsigned long flags;		/* kmem_cache_create() flags: built-in mixes
					 * only, 0 from a file */
};

struct mix_spec {
	char description[1024];
	int tasks;			/* 0: one per CPU */
	int ncaches;
	struct mix_cache_spec cache[MIX_MAX_CACHES];
};

/* Read a description from `text` (the contents of `file`, which names it in
 * messages): 0, or -1 with "FILE: KEY.PATH: what is wrong". */
int mix_spec_parse(struct mix_spec *s, const char *file, const char *text, size_t len,
		   struct sim_err *err);

/* The same from the file at `path`. */
int mix_spec_read(struct mix_spec *s, const char *path, struct sim_err *err);

/* Check a description built in C against the rules the reader applies;
 * `who` names it in messages. */
int mix_spec_check(const struct mix_spec *s, const char *who, struct sim_err *err);

/* One lifetime in microseconds, drawn with `r`. */
double mix_lifetime_us(const struct mix_lifetime *l, gsl_rng *r);

/* The mean lifetime in microseconds (infinite for pareto with shape <= 1). */
double mix_lifetime_mean_us(const struct mix_lifetime *l);

/* "lognormal median 500 us sigma 2" into buf. */
void mix_lifetime_describe(const struct mix_lifetime *l, char *buf, size_t size);

extern const char *const mix_dist_names[MIX_NDIST];

#endif
