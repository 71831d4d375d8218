/* slab_policy.h - the slab allocator interface of the kernel model: the
 * generic part of a cache (struct kmem_cache), what reports read of one
 * (struct cache_info), the hooks a slab allocator design provides (struct
 * slab_policy) and what the kernel offers it (slab pages, object indices
 * and their cache lines). The kernel calls the allocator only through
 * these hooks; the designs themselves live in policies/, which implement
 * them (policies/policy.h adds their registry and the module loader). */
#ifndef SIM_KERNEL_SLAB_POLICY_H
#define SIM_KERNEL_SLAB_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/params.h"
#include "kernel/kernel.h"
#include "kernel/workqueue.h"

/* Bumped whenever struct slab_policy or what the hooks may rely on changes. */
#define SLAB_POLICY_API_VERSION 5	/* 3: kmem_cache_alloc and __kmalloc take gfp_t;
					 * 4: the building blocks (policies/slab_blocks.h);
					 * 5: the blocks' arrays have a cache line */

/* kmem_cache_create() flags (the kernel's values) */
#define SLAB_HWCACHE_ALIGN 0x00002000ul
#define SLAB_PANIC 0x00040000ul
#define __KMALLOC_CACHE 0x20000000ul	/* a kmalloc-N cache (2.6.25 SLUB) */

#define KMALLOC_96 1u
#define KMALLOC_192 2u

/* The generic part of a cache, as the kernel and the reports see it. */
struct kmem_cache {
	char name[32];
	unsigned int object_size;	/* what was asked for */
	unsigned int size;		/* the slot: aligned size */
	unsigned int align;
	unsigned long flags;
	struct kmem_cache *alias;	/* merged into this cache (SLUB) */
	void *priv;			/* the policy's own per-cache state */
	uint64_t live;			/* allocated and not freed */
	uint64_t allocs, frees;
	uint32_t reciprocal_size;	/* ceil(2^32 / size): obj_to_index without a divide */
	int id;
};

#define SLAB_MAX_STATS 48
#define SLAB_MAX_TUNABLES 16

struct slab_stat {
	const char *name;
	uint64_t value;
};

/* What reports show of one cache (slabinfo, `show policy`, JSON). */
struct cache_info {
	unsigned int order;
	unsigned int objs_per_slab;
	uint64_t slabs;			/* slabs now */
	uint64_t slabs_peak;
	uint64_t partial;		/* slabs on partial lists now */
	uint64_t objects;		/* object slots in all slabs */
	uint64_t active;		/* objects in use */
	uint64_t pages;			/* pages its slabs hold; 0: slabs << order (a
					 * policy whose slabs all have the cache's
					 * order may leave it) */
	int nstats;
	struct slab_stat stats[SLAB_MAX_STATS];		/* kernel names */
	int ntunables;
	struct slab_stat tunables[SLAB_MAX_TUNABLES];	/* min_partial, limit, ... */
};

struct slab_policy {
	int api_version;			/* SLAB_POLICY_API_VERSION */
	uint32_t abi;				/* SLAB_POLICY_ABI */
	const char *name;
	const char *description;
	const struct param_def *params;		/* ends with { NULL } */
	/* Defaults of `kernel=VERSION` (era = 20625 for 2.6.25) into ps. */
	int (*presets)(struct param_set *ps, int era, struct sim_err *err);
	int (*create)(struct kernel *k, const struct param_set *ps, void **state,
		      struct sim_err *err);
	void (*destroy)(void *state);
	/* Decide the geometry of a new cache; may return another cache that
	 * it is merged into (then `c` is an alias of it). */
	struct kmem_cache *(*cache_create)(void *state, struct kmem_cache *c,
					   struct sim_err *err);
	/* Largest kmalloc() size served by a cache (beyond: pages). */
	unsigned int (*kmalloc_max)(void *state);
	/* The kmalloc caches: "kmalloc-" or "size-", the smallest 2^shift,
	 * and which odd sizes exist (KMALLOC_96 | KMALLOC_192). */
	const char *kmalloc_prefix;
	int kmalloc_min_shift;
	unsigned int kmalloc_odd;
	/* kmem_cache_alloc / kmem_cache_free on the CPU running now. */
	kaddr_t (*alloc)(void *state, struct kmem_cache *c, struct sim_cpu *cpu, int node);
	void (*free)(void *state, struct kmem_cache *c, struct sim_cpu *cpu, kaddr_t obj);
	void (*cache_info)(void *state, struct kmem_cache *c, struct cache_info *out);
	/* Optional: every cache exists (the boot caches, and the workload's
	 * once it has started); check and apply what names them. */
	int (*init_done)(void *state, struct sim_err *err);
	/* Invariants of one cache: lists, counters and objects agree. */
	int (*check)(void *state, struct kmem_cache *c, struct sim_err *err);
	/* Optional: cost entries of its own ({ "mine.push", 6, "est: why" },
	 * ended by a NULL name), used where the machine's cost table has no
	 * entry of that name; machine_costs() then finds them. */
	const struct cost_def *costs;
};

/* The layout of what a policy's code reads and writes directly, as its
 * compiler saw it: the sizes of the structures and the offsets of the
 * fields policies use most. The loader refuses a module whose layout
 * differs (a field added, moved or retyped in these headers); a change
 * that keeps all of them is what SLAB_POLICY_API_VERSION is for. */
#define SLAB_POLICY_ABI_TERM(x, k) ((uint64_t)(x) * (k))
#define SLAB_POLICY_ABI                                                                       \
	((uint32_t)(SLAB_POLICY_ABI_TERM(sizeof(struct slab_policy), 0x9e3779b1u) +           \
		    SLAB_POLICY_ABI_TERM(sizeof(struct kmem_cache), 0x85ebca77u) +            \
		    SLAB_POLICY_ABI_TERM(sizeof(struct cache_info), 0xc2b2ae3du) +            \
		    SLAB_POLICY_ABI_TERM(sizeof(struct kernel), 0x27d4eb2fu) +                \
		    SLAB_POLICY_ABI_TERM(sizeof(struct page), 0x165667b1u) +                  \
		    SLAB_POLICY_ABI_TERM(sizeof(struct sim_cpu), 0xd3a2646cu) +               \
		    SLAB_POLICY_ABI_TERM(sizeof(struct engine), 0xfd7046c5u) +                \
		    SLAB_POLICY_ABI_TERM(sizeof(struct hw), 0xb55a4f09u) +                    \
		    SLAB_POLICY_ABI_TERM(sizeof(struct hw_line), 0x7feb352du) +               \
		    SLAB_POLICY_ABI_TERM(sizeof(struct hw_lock), 0x846ca68bu) +               \
		    SLAB_POLICY_ABI_TERM(sizeof(struct hw_lock_class), 0x2545f491u) +         \
		    SLAB_POLICY_ABI_TERM(sizeof(struct machine), 0x9e3779b9u) +               \
		    SLAB_POLICY_ABI_TERM(sizeof(struct hw_cpu_topo), 0x7f4a7c15u) +           \
		    SLAB_POLICY_ABI_TERM(sizeof(struct param_set), 0x3243f6a9u) +             \
		    SLAB_POLICY_ABI_TERM(sizeof(struct param_def), 0x1b873593u) +             \
		    SLAB_POLICY_ABI_TERM(sizeof(struct slab_obj), 0xcc9e2d51u) +              \
		    SLAB_POLICY_ABI_TERM(sizeof(struct housekeeping), 0xe6546b64u) +          \
		    SLAB_POLICY_ABI_TERM(offsetof(struct kernel, m), 0x94d049bbu) +           \
		    SLAB_POLICY_ABI_TERM(offsetof(struct kernel, hw), 0xbf58476du) +          \
		    SLAB_POLICY_ABI_TERM(offsetof(struct kernel, pa), 0x632be59bu) +          \
		    SLAB_POLICY_ABI_TERM(offsetof(struct kernel, lock_kind), 0x85157af5u) +   \
		    SLAB_POLICY_ABI_TERM(offsetof(struct kernel, caches), 0xa0761d65u) +      \
		    SLAB_POLICY_ABI_TERM(offsetof(struct machine, topo), 0xe7037ed1u) +       \
		    SLAB_POLICY_ABI_TERM(offsetof(struct machine, ncpus), 0x8ebc6af1u) +      \
		    SLAB_POLICY_ABI_TERM(offsetof(struct machine, nodes), 0x589965cdu) +      \
		    SLAB_POLICY_ABI_TERM(offsetof(struct machine, ghz), 0x1d8e4e27u) +        \
		    SLAB_POLICY_ABI_TERM(offsetof(struct page, flags), 0x7e5a1f6bu) +         \
		    SLAB_POLICY_ABI_TERM(offsetof(struct page, freelist), 0xd6e8feb8u) +      \
		    SLAB_POLICY_ABI_TERM(offsetof(struct page, obj), 0x4cf5ad43u) +           \
		    SLAB_POLICY_ABI_TERM(offsetof(struct page, cl), 0x2f8d2bbbu) +            \
		    SLAB_POLICY_ABI_TERM(offsetof(struct page, lru), 0x1f83d9abu) +           \
		    SLAB_POLICY_ABI_TERM(offsetof(struct page, priv), 0x5be0cd19u) +          \
		    SLAB_POLICY_ABI_TERM(offsetof(struct kmem_cache, priv), 0x6a09e667u) +    \
		    SLAB_POLICY_ABI_TERM(offsetof(struct kmem_cache, live), 0xbb67ae85u) +    \
		    SLAB_POLICY_ABI_TERM(offsetof(struct sim_cpu, clock), 0x3c6ef372u) +      \
		    SLAB_POLICY_ABI_TERM(offsetof(struct sim_cpu, sym), 0xa54ff53au) +        \
		    SLAB_POLICY_ABI_TERM(PARAM_TEXT, 0x5bd1e995u) +                           \
		    SLAB_POLICY_ABI_TERM(PROFILE_MAX_SYMS, 0x68e31da4u)))


/* --- what the kernel offers policies (sim/kernel/slab.c) --- */

/* Give a slab page object arrays for `objects` objects, all free and cold. */
void slab_page_prepare(struct kernel *k, struct page *page, unsigned int objects);

/* Object index of `obj` in its slab page (objects laid out from offset 0),
 * by a reciprocal multiply as the kernel's obj_to_index(): exact for the
 * start of an object in a slab of up to 4 MB. */
static inline unsigned int slab_obj_index(const struct kmem_cache *c, const struct page *page,
					  kaddr_t obj)
{
	return (unsigned int)(((obj - page_address(page)) * (uint64_t)c->reciprocal_size) >> 32);
}

/* Touch `lines` lines of object idx from its start (hw_obj_access): objects
 * smaller than a line share their line's state, as they share the line. */
static inline void slab_obj_access(struct hw *hw, struct sim_cpu *cpu, struct page *page,
				   unsigned int idx, int lines, bool write)
{
	uint64_t off = (uint64_t)idx * page->slab->size;
	hw_obj_access(hw, cpu, &page->cl[off >> 6], (page_address(page) + off) >> 6, lines, write,
		      page->nid);
}

/* Write the first line of each of a slab's first `objects` objects in
 * order (a new slab's free pointers): a prefetched sequential stream. */
void slab_objs_stream(struct hw *hw, struct sim_cpu *cpu, struct page *page,
		      unsigned int objects);

static inline kaddr_t slab_obj_addr(const struct kmem_cache *c, const struct page *page,
				    unsigned int idx)
{
	return page_address(page) + (kaddr_t)idx * c->size;
}


#endif
