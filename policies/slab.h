/* slab.h - SLAB's structures (mm/slab.c of 2.6.24-2.6.26, Manfred Spraul's
 * per-CPU arrays on Bonwick's slabs), shared by its paths (slab.c), its
 * geometry and tunables (slab_geometry.c), its reaper (slab_reap.c) and its
 * books (slab_check.c). Field and function names are mm/slab.c's. */
#ifndef SLABSIM_SLAB_H
#define SLABSIM_SLAB_H

#include "kernel/workqueue.h"
#include "policy.h"

#define BATCHREFILL_LIMIT 16
#define SLAB_ALIEN_LIMIT 12		/* alloc_alien_cache(): limit > 1 becomes 12 */
#define REAPTIMEOUT_CPUC_S 2.0		/* cache_reap() every 2 s on each CPU */
#define REAPTIMEOUT_LIST3_S 4.0		/* shared array and free slabs every 4 s */
#define KMALLOC_MAX_ORDER_SLAB 10	/* x86-64, MAX_ORDER 11: 4 MB */
#define SLAB_STRUCT_SIZE 40		/* sizeof(struct slab) on x86-64 */
#define BUFCTL_SIZE 4			/* sizeof(kmem_bufctl_t) */

/* STATS of mm/slab.c: /proc/slabinfo's globalstat and cpustat columns. */
enum slab_stat_item {
	SLAB_LISTALLOCS, SLAB_MAXOBJS, SLAB_GROWN, SLAB_REAPED, SLAB_ERROR, SLAB_MAXFREEABLE,
	SLAB_NODEALLOCS, SLAB_REMOTEFREES, SLAB_ALIENOVERFLOW,
	SLAB_ALLOCHIT, SLAB_ALLOCMISS, SLAB_FREEHIT, SLAB_FREEMISS,
	NR_SLAB_STAT_ITEMS
};

extern const char *const slab_stat_name[NR_SLAB_STAT_ITEMS];

/* struct array_cache: a LIFO of object pointers (per CPU, per node shared,
 * or alien: per node for objects of another node), the blocks' array with
 * its line (the header and the hot end of entry[]). */
struct array_cache {
	struct sb_array a;		/* entry[] is a.obj; avail, limit; the line */
	unsigned int batchcount;
	bool touched;
	struct hw_lock lock;		/* alien caches only, on a.line */
};

/* struct kmem_list3: a node's slab lists, the blocks' list owner: n.line
 * holds list_lock, the heads of slabs_partial (n.partial), slabs_full
 * (n.full) and slabs_free (n.free), and the counters. */
struct kmem_list3 {
	struct sb_node n;
	unsigned long free_objects, free_limit;
	unsigned int colour_next;
	struct array_cache *shared;
	struct array_cache **alien;	/* [nodes], NULL for its own node */
	uint64_t next_reap;
	bool free_touched;
};

/* struct slab: the slab descriptor (on the slab, or off it in a kmalloc
 * object); page->freelist is slabp->free, page->obj[].next its bufctl[],
 * page->inuse slabp->inuse, page->nid slabp->nodeid. */
struct slab {
	struct hw_line line;		/* struct slab and the bufctl array */
	kaddr_t mgmt;			/* off-slab: the kmalloc object holding it */
	struct slab *next_free;	/* the policy's pool of descriptors */
};

struct slab_cache {
	struct sb_cache sc;		/* the slabs: registry, list owners (nodelists[].n) */
	struct kmem_cache *kc;
	unsigned int num;		/* objects per slab */
	int gfporder;
	bool off_slab;			/* CFLGS_OFF_SLAB */
	struct kmem_cache *slabp_cache;	/* where off-slab descriptors come from */
	unsigned int slab_size;		/* descriptor size */
	unsigned int colour, colour_off;
	unsigned int limit, batchcount, shared;	/* the tunables */
	struct array_cache **array;	/* [ncpus] */
	struct kmem_list3 *nodelists;	/* [nodes] */
	struct hw_lock_class alien_lock_class;
	char alien_lock_name[64];
	uint64_t stat[NR_SLAB_STAT_ITEMS];
	long active;			/* objects handed to slabs' users or arrays */
};

struct slab_state {
	struct kernel *k;
	struct hw *hw;
	int ncpus, nodes;
	bool use_alien_caches;
	int tune_limit, tune_batchcount, tune_shared;	/* 0: enable_cpucache() */
	char tunables[PARAM_TEXT];	/* slab_tunables: NAME:LIMIT:BATCHCOUNT:SHARED,... */
	int break_gfp_order;
	uint64_t reap_list3;		/* cycles */
	uint32_t cost_alloc_hit, cost_free_hit, cost_refill, cost_per_object, cost_flush,
		cost_free_block, cost_grow, cost_init_per_object, cost_destroy, cost_alien,
		cost_reap;
	int sym_alloc_refill, sym_flusharray, sym_free_block, sym_grow, sym_destroy,
		sym_free_alien, sym_drain_alien, sym_reap, sym_kmem_cache_alloc,
		sym_kmem_cache_free;
	struct slab_cache **caches;
	int ncaches, caches_cap;
	struct slab *desc_pool;
	struct housekeeping reap;	/* cache_reap on each CPU */
	int *reap_node;			/* [ncpus]: next node whose alien array to drain */
};

/* slab.c */
void slab_free_block(struct slab_state *sb, struct sim_cpu *cpu, struct slab_cache *cp,
		     kaddr_t *objpp, int nr, int node);
void slab_destroy(struct slab_state *sb, struct sim_cpu *cpu, struct slab_cache *cp,
		  struct page *page);
void slab_drain_alien(struct slab_state *sb, struct sim_cpu *cpu, struct slab_cache *cp,
		      struct array_cache *ac, int node);
int slab_transfer_objects(struct array_cache *to, struct array_cache *from, unsigned int max);

/* slab_geometry.c */
extern const struct param_def slab_param_defs[];
int slab_presets(struct param_set *ps, int era, struct sim_err *err);
int slab_calculate_geometry(struct slab_state *sb, struct slab_cache *cp, struct sim_err *err);
int slab_parse_tunables(struct slab_state *sb, struct sim_err *err);
int slab_check_tunables(struct slab_state *sb, struct sim_err *err);
void slab_enable_cpucache(struct slab_state *sb, struct slab_cache *cp);

/* slab_reap.c: cache_reap() every 2 s on each CPU that used SLAB. */
int slab_reap_init(struct slab_state *sb, struct sim_err *err);
void slab_reap_destroy(struct slab_state *sb);

/* slab_check.c */
void slab_cache_info(void *state, struct kmem_cache *kc, struct cache_info *out);
int slab_check(void *state, struct kmem_cache *kc, struct sim_err *err);

#endif
