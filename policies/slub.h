/* slub.h - SLUB's structures, shared by its paths (slub.c) and its geometry
 * (slub_order.c). Field and function names are mm/slub.c's. */
#ifndef SLABSIM_SLUB_H
#define SLABSIM_SLUB_H

#include "policy.h"

#define MIN_PARTIAL 5		/* empty slabs kept on a node's partial list */
#define MAX_PARTIAL 10

/* enum stat_item of include/linux/slub_def.h (2.6.25, ORDER_FALLBACK 2.6.26) */
enum stat_item {
	ALLOC_FASTPATH, ALLOC_SLOWPATH, FREE_FASTPATH, FREE_SLOWPATH, FREE_FROZEN,
	FREE_ADD_PARTIAL, FREE_REMOVE_PARTIAL, ALLOC_FROM_PARTIAL, ALLOC_SLAB,
	ALLOC_REFILL, FREE_SLAB, CPUSLAB_FLUSH, DEACTIVATE_FULL, DEACTIVATE_EMPTY,
	DEACTIVATE_TO_HEAD, DEACTIVATE_TO_TAIL, DEACTIVATE_REMOTE_FREES, ORDER_FALLBACK,
	NR_SLUB_STAT_ITEMS
};

extern const char *const slub_stat_name[NR_SLUB_STAT_ITEMS];

struct kmem_cache_cpu {
	uint16_t freelist;	/* first free object of page, OBJ_NIL if none */
	struct page *page;	/* the CPU slab */
	int node;
	unsigned int stat[NR_SLUB_STAT_ITEMS];
};

struct kmem_cache_node {
	struct hw_line line;	/* list_lock, nr_partial, nr_slabs, partial: one line */
	struct hw_lock list_lock;
	unsigned long nr_partial;
	long nr_slabs;
	struct list_head partial;
};

/* SLUB's part of struct kmem_cache. */
struct slub_cache {
	struct kmem_cache *kc;
	int order;
	int objects;			/* per slab */
	bool page_alloc_fallback;	/* 2.6.25 __PAGE_ALLOC_FALLBACK kmalloc cache */
	int refcount;			/* caches merged into this one, plus one */
	struct kmem_cache_cpu *cpu_slab;	/* [ncpus] */
	struct kmem_cache_node *node;		/* [nodes] */
	struct hw_lock_class list_lock_class;
	struct hw_lock_class slab_lock_class;
	char list_lock_name[64], slab_lock_name[64];
	struct page **all;		/* every slab, for the invariant check */
	int nall, all_cap;
	uint64_t slabs_peak;
};

struct slub {
	struct kernel *k;
	struct hw *hw;
	int era;
	int min_objects, min_order, max_order;
	bool nomerge;
	bool kmalloc_order_fallback;	/* 2.6.25 calculate_sizes() special case */
	bool hot_to_head;		/* 2.6.25: deactivate with hot objects to head */
	int fraction_start;		/* 8 (2.6.24/25) or 16 (2.6.26) */
	int defrag_ratio;		/* remote_node_defrag_ratio */
	unsigned int max_kmalloc;
	uint32_t cost_alloc_fast, cost_free_fast, cost_alloc_slow, cost_free_slow,
		cost_partial, cost_list, cost_new_slab, cost_per_object, cost_deactivate,
		cost_discard;
	int sym_slab_alloc, sym_slab_free, sym_get_partial, sym_add_partial,
		sym_deactivate, sym_new_slab, sym_discard;
	struct slub_cache **caches;
	int ncaches, caches_cap;
};

/* slub_check.c */
void slub_cache_info(void *state, struct kmem_cache *kc, struct cache_info *out);
int slub_check(void *state, struct kmem_cache *kc, struct sim_err *err);

/* slub_order.c */
int slub_calculate_sizes(struct slub *sl, struct slub_cache *s, unsigned int objsize,
			 unsigned int align, unsigned long flags, unsigned int *size_out);
int slub_calculate_order(const struct slub *sl, int size);
struct slub_cache *slub_find_mergeable(struct slub *sl, unsigned int size, unsigned int align,
				       unsigned long flags);
extern const struct param_def slub_param_defs[];
int slub_presets(struct param_set *ps, int era, struct sim_err *err);

#endif
