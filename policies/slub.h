/* slub.h - SLUB's structures, shared by its paths (slub.c) and its geometry
 * (slub_order.c). Field and function names are mm/slub.c's. */
#ifndef SLABSIM_SLUB_H
#define SLABSIM_SLUB_H

#include "policy.h"

#define MIN_PARTIAL 5		/* empty slabs kept on a node's partial list */
#define MAX_PARTIAL 10

/* enum stat_item of include/linux/slub_def.h: 2.6.25, ORDER_FALLBACK from
 * 2.6.26, the cmpxchg and bypass counters from 3.1, CPU_PARTIAL_* from 3.2 */
enum stat_item {
	ALLOC_FASTPATH, ALLOC_SLOWPATH, FREE_FASTPATH, FREE_SLOWPATH, FREE_FROZEN,
	FREE_ADD_PARTIAL, FREE_REMOVE_PARTIAL, ALLOC_FROM_PARTIAL, ALLOC_SLAB,
	ALLOC_REFILL, ALLOC_NODE_MISMATCH, FREE_SLAB, CPUSLAB_FLUSH, DEACTIVATE_FULL,
	DEACTIVATE_EMPTY, DEACTIVATE_TO_HEAD, DEACTIVATE_TO_TAIL, DEACTIVATE_REMOTE_FREES,
	DEACTIVATE_BYPASS, ORDER_FALLBACK, CMPXCHG_DOUBLE_CPU_FAIL, CMPXCHG_DOUBLE_FAIL,
	CPU_PARTIAL_ALLOC, CPU_PARTIAL_FREE,
	NR_SLUB_STAT_ITEMS
};

extern const char *const slub_stat_name[NR_SLUB_STAT_ITEMS];

struct kmem_cache_cpu {
	uint16_t freelist;	/* first free object of page, OBJ_NIL if none */
	uint64_t tid;		/* 3.1: transaction id of the lockless fast paths */
	struct page *page;	/* the CPU slab */
	struct page *partial;	/* 3.2: frozen partial slabs (page->next chains them) */
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
	unsigned long min_partial;	/* empty slabs a node keeps */
	int cpu_partial;		/* 3.2: objects in a CPU's partial slabs, 0: off */
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
	bool lockless;			/* 3.1: cmpxchg_double paths, no slab_lock */
	bool order_decrement;		/* 3.1: calculate_order steps min_objects-- */
	int min_partial_rule;		/* 0: MIN_PARTIAL, 1: ilog2(size), 2: ilog2(size)/2 */
	bool cpu_partial_on;		/* 3.2: per-CPU partial lists */
	int cpu_partial;		/* -1: by object size, else objects (0: drained at once) */
	double cpu_partial_scale;	/* what-if factor on the by-size default */
	char cpu_partial_caches[PARAM_TEXT];	/* "kmalloc-512:20,..." per-cache values */
	bool unfreeze_bug;		/* 3.2-rc: nr_partial < min_partial in unfreeze */
	unsigned int max_kmalloc;
	uint32_t cost_alloc_fast, cost_free_fast, cost_alloc_slow, cost_free_slow,
		cost_partial, cost_list, cost_new_slab, cost_per_object, cost_deactivate,
		cost_discard;
	int sym_slab_alloc, sym_slab_free, sym_get_partial, sym_add_partial,
		sym_deactivate, sym_new_slab, sym_discard;
	struct slub_cache **caches;
	int ncaches, caches_cap;
};

/* slub.c: the paths both eras share */
void slub_stat(struct kmem_cache_cpu *c, enum stat_item si);
void slub_add_partial(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_node *n,
		      struct page *page, int tail);
void slub_remove_partial(struct slub *sl, struct sim_cpu *cpu, struct slub_cache *s,
			 struct page *page);
void slub_del_partial(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_node *n,
		      struct page *page);
struct page *slub_new_slab(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			   struct slub_cache *s, int node);
void slub_discard_slab(struct slub *sl, struct sim_cpu *cpu, struct slub_cache *s,
		       struct page *page);
uint16_t slub_get_freepointer(struct slub *sl, struct sim_cpu *cpu, struct page *page,
			      unsigned int idx);
void slub_set_freepointer(struct slub *sl, struct sim_cpu *cpu, struct page *page,
			  unsigned int idx, uint16_t fp);

/* slub_lockless.c: 3.1's cmpxchg_double paths and 3.2's per-CPU partials */
kaddr_t slub_alloc_lockless(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			    struct slub_cache *s, int node);
void slub_free_lockless(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			struct slub_cache *s, struct page *page, unsigned int idx);
void slub_flush_lockless(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			 struct slub_cache *s);

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
void slub_cache_tunables(struct slub *sl, struct slub_cache *s);
int slub_parse_cpu_partial(struct slub *sl, struct sim_err *err);

#endif
