/* slub.h - SLUB's structures, shared by its paths (slub.c) and its geometry
 * (slub_order.c). Field and function names are mm/slub.c's. */
#ifndef SLABSIM_SLUB_H
#define SLABSIM_SLUB_H

#include "policy.h"

#define MIN_PARTIAL 5		/* empty slabs kept on a node's partial list */
#define MAX_PARTIAL 10

/* Sheaves (6.18, 7.0): at most this many full sheaves in a node's barn
 * (barn_replace_full_sheaf); the empty limit binds only the kfree_rcu
 * sheaves, which are not modelled. */
#define MAX_FULL_SHEAVES 10
#define MAX_EMPTY_SHEAVES 10
#define PCS_BATCH_MAX 32		/* objects sheaf_flush_main frees at once */
#define SLAB_SHEAF_HEADER 32		/* struct slab_sheaf before objects[] (LP64) */

/* enum stat_item of include/linux/slub_def.h: 2.6.25, ORDER_FALLBACK from
 * 2.6.26, the cmpxchg and bypass counters from 3.1, CPU_PARTIAL_* from 3.2,
 * the percpu sheaves' from 6.18 (ALLOC_PCS and FREE_PCS in 6.18; 7.0 counts
 * sheaf hits as ALLOC_FASTPATH and FREE_FASTPATH) */
enum stat_item {
	ALLOC_PCS, ALLOC_FASTPATH, ALLOC_SLOWPATH, FREE_PCS, FREE_FASTPATH, FREE_SLOWPATH,
	FREE_FROZEN, FREE_ADD_PARTIAL, FREE_REMOVE_PARTIAL, ALLOC_FROM_PARTIAL, ALLOC_SLAB,
	ALLOC_REFILL, ALLOC_NODE_MISMATCH, FREE_SLAB, CPUSLAB_FLUSH, DEACTIVATE_FULL,
	DEACTIVATE_EMPTY, DEACTIVATE_TO_HEAD, DEACTIVATE_TO_TAIL, DEACTIVATE_REMOTE_FREES,
	DEACTIVATE_BYPASS, ORDER_FALLBACK, CMPXCHG_DOUBLE_CPU_FAIL, CMPXCHG_DOUBLE_FAIL,
	CPU_PARTIAL_ALLOC, CPU_PARTIAL_FREE, SHEAF_FLUSH, SHEAF_REFILL, SHEAF_ALLOC, SHEAF_FREE,
	BARN_GET, BARN_GET_FAIL, BARN_PUT, BARN_PUT_FAIL,
	NR_SLUB_STAT_ITEMS
};

/* struct slab_sheaf: an array of free objects; itself a kmalloc'ed object
 * (SLAB_SHEAF_HEADER + 8 bytes a slot), whose lines its users touch: the
 * blocks' array living in that object (objects[] is a.obj, size a.avail,
 * capacity a.limit, barn_list a.next). */
struct slab_sheaf {
	struct sb_array a;
};

/* struct slub_percpu_sheaves: a CPU's main and spare sheaf of one cache,
 * under its local_trylock (nothing but this CPU takes it). */
struct slub_percpu_sheaves {
	struct slab_sheaf *main;	/* NULL until the CPU first uses the cache */
	struct slab_sheaf *spare;
};

enum slub_sheaves_mode { SHEAVES_OFF, SHEAVES_OPT_IN, SHEAVES_ALL };

extern const char *const slub_stat_name[NR_SLUB_STAT_ITEMS];

struct kmem_cache_cpu {
	uint16_t freelist;	/* first free object of page, OBJ_NIL if none */
	uint64_t tid;		/* 3.1: transaction id of the lockless fast paths */
	struct page *page;	/* the CPU slab */
	struct page *partial;	/* 3.2: frozen partial slabs (page->next chains them) */
	int node;
	unsigned int stat[NR_SLUB_STAT_ITEMS];
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
	/* the slabs: the registry and each node's kmem_cache_node, which is the
	 * blocks' struct sb_node (list_lock, nr_partial, nr_slabs and the
	 * partial list on one line; no full list) */
	struct sb_cache sc;
	struct hw_lock_class slab_lock_class;
	char slab_lock_name[64];
	/* 6.18 and 7.0: percpu sheaves and the per-node barns */
	unsigned int sheaf_capacity;	/* 0: no sheaves */
	bool sheaf_explicit;		/* asked for by the cache's creator: no merging */
	struct slub_percpu_sheaves *pcs;	/* [ncpus] */
	struct sb_depot *barn;		/* [nodes]: each node's struct node_barn, the
					 * blocks' depot (sheaves_full is full, nr_full
					 * full.total; the lock, heads and counts on its line) */
	struct hw_lock_class barn_lock_class;
	char barn_lock_name[64];
	struct slab_sheaf *sheaf_pool;	/* host records of freed sheaves, to reuse */
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
	bool cpu_slab;			/* kmem_cache_cpu's slab (up to 6.18; gone in 7.0) */
	enum slub_sheaves_mode sheaves;	/* 6.18: opt-in per cache; 7.0: every cache */
	int sheaf_capacity;		/* -1: the era's rule, else every cache's */
	char sheaf_caches[PARAM_TEXT];	/* "kmalloc-512:12,..." per-cache capacities */
	int *no_obj_ext;		/* [ncpus]: allocating a kmalloc cache's sheaf */
	unsigned int max_kmalloc;
	uint32_t cost_alloc_fast, cost_free_fast, cost_alloc_slow, cost_free_slow,
		cost_partial, cost_list, cost_new_slab, cost_per_object, cost_deactivate,
		cost_discard;
	int sym_slab_alloc, sym_slab_free, sym_get_partial, sym_add_partial,
		sym_deactivate, sym_new_slab, sym_discard, sym_replace_empty, sym_replace_full,
		sym_refill, sym_flush, sym_alloc_sheaf, sym_barn;
	struct slub_cache **caches;
	int ncaches, caches_cap;
};

/* slub.c: the paths both eras share */
void slub_stat(struct kmem_cache_cpu *c, enum stat_item si);
void slub_stat_add(struct kmem_cache_cpu *c, enum stat_item si, unsigned int n);
/* The partial-list helpers say who holds n->list_lock: slub_lock_* take it
 * themselves (2.6.2x's add_partial and remove_partial), *_locked expect the
 * caller to hold it (3.x's add_partial, every era's list_del under the lock). */
void slub_lock_add_partial(struct slub *sl, struct sim_cpu *cpu, struct sb_node *n,
			   struct page *page, int tail);
void slub_add_partial_locked(struct slub *sl, struct sim_cpu *cpu, struct sb_node *n,
			     struct page *page, int tail);
void slub_lock_remove_partial(struct slub *sl, struct sim_cpu *cpu, struct slub_cache *s,
			      struct page *page);
void slub_del_partial_locked(struct slub *sl, struct sim_cpu *cpu, struct sb_node *n,
			     struct page *page);
struct page *slub_new_slab(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			   struct slub_cache *s, int node);
void slub_discard_slab(struct slub *sl, struct sim_cpu *cpu, struct slub_cache *s,
		       struct page *page);
uint16_t slub_get_freepointer(struct slub *sl, struct sim_cpu *cpu, struct page *page,
			      unsigned int idx);
void slub_set_freepointer(struct slub *sl, struct sim_cpu *cpu, struct page *page,
			  unsigned int idx, uint16_t fp);

/* The (freelist, counters) double word of a struct page, as read. */
struct slab_counters {
	uint16_t freelist;
	uint16_t inuse;
	bool frozen;
	uint32_t seq;
};

/* slub_lockless.c: 3.1's cmpxchg_double paths and 3.2's per-CPU partials */
void slub_read_counters(struct slub *sl, struct sim_cpu *cpu, struct page *page,
			struct slab_counters *o);
bool slub_cmpxchg_double_slab(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			      struct page *page, const struct slab_counters *o,
			      const struct slab_counters *n);
kaddr_t slub_alloc_lockless(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			    struct slub_cache *s, int node);
void slub_free_lockless(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			struct slub_cache *s, struct page *page, unsigned int idx);

/* slub_sheaves.c: percpu sheaves and barns (6.18, 7.0) */
void slub_sheaves_init(struct slub *sl, struct slub_cache *s, unsigned int capacity,
		       bool explicit_capacity);
unsigned int slub_sheaf_capacity_by_size(unsigned int size);
unsigned int slub_sheaf_capacity_default(const struct slub *sl, const char *name,
					 unsigned int size, bool *explicit_capacity);
kaddr_t slub_alloc_from_pcs(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			    struct slub_cache *s, int node);
bool slub_free_to_pcs(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
		      struct slub_cache *s, kaddr_t obj);
int slub_sheaves_hold(struct slub *sl, struct slub_cache *s, kaddr_t **held, size_t *nheld,
		      struct sim_err *err);
bool slub_sheaves_have(const kaddr_t *held, size_t nheld, kaddr_t obj);
void slub_sheaves_destroy(struct slub *sl, struct slub_cache *s);
int slub_parse_cache_list(const char *param, const char *list, int max, struct sim_err *err);

/* slub_nocpu.c: 7.0's slab paths, without a CPU slab */
unsigned int slub_refill_objects(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
				 struct slub_cache *s, kaddr_t *p, unsigned int min,
				 unsigned int max);
kaddr_t slub_slab_alloc_nocpu(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			      struct slub_cache *s, int node);
void slub_slab_free_nocpu(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			  struct slub_cache *s, struct page *page, uint16_t head, uint16_t tail,
			  int cnt);

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
