/* slqb.h - SLQB's structures (Nick Piggin, 2008-2009; mm/slqb.c of the
 * linux-next era), shared by its paths (slqb.c), its geometry and trim
 * worker (slqb_geometry.c) and its books (slqb_check.c). Names are
 * mm/slqb.c's. */
#ifndef SLABSIM_SLQB_H
#define SLABSIM_SLQB_H

#include "kernel/workqueue.h"
#include "policy.h"

#define SLQB_TRIM_S 3.0		/* cache_trim_worker every 3 s on each CPU */

/* enum stat_item of include/linux/slqb_def.h */
enum slqb_stat_item {
	ALLOC, ALLOC_SLAB_FILL, ALLOC_SLAB_NEW, FREE, FREE_REMOTE, FLUSH_FREE_LIST,
	FLUSH_FREE_LIST_OBJECTS, FLUSH_FREE_LIST_REMOTE, FLUSH_SLAB_PARTIAL, FLUSH_SLAB_FREE,
	FLUSH_RFREE_LIST, FLUSH_RFREE_LIST_OBJECTS, CLAIM_REMOTE_LIST, CLAIM_REMOTE_LIST_OBJECTS,
	NR_SLQB_STAT_ITEMS
};

extern const char *const slqb_stat_name[NR_SLQB_STAT_ITEMS];

/* struct kmlist: a list of objects linked through their first word. The
 * links are kept here as a ring (head first); writing a link touches the
 * object's line, as the kernel's set_freepointer does. */
struct kmlist {
	kaddr_t *v;
	uint32_t cap, start, nr;
};

struct kmem_cache_remote_free {
	struct hw_line line;		/* ____cacheline_aligned: lock and list */
	struct hw_lock lock;
	struct kmlist list;
};

/* struct kmem_cache_list: a CPU's (or a node's) objects and slabs. Its
 * slabs are the blocks' list owner: slabs.partial (slabs with some objects
 * free; a full one is on no list), slabs.nr_partial, slabs.nr_slabs, and
 * page_lock (slabs.list_lock) on the list's hot line (slabs.line: freelist
 * head, counters, remote_free_check). */
struct kmem_cache_list {
	struct sb_node slabs;
	struct kmlist freelist;		/* the LIFO of free objects */
	bool remote_free_check;		/* remote_free reached a watermark */
	struct kmem_cache_remote_free remote_free;
	int node;
	unsigned long stats[NR_SLQB_STAT_ITEMS];
};

struct kmem_cache_cpu {
	struct kmem_cache_list list;
	unsigned int colour_next;
	struct kmlist rlist;		/* objects for remote_cache_list */
	struct kmem_cache_list *remote_cache_list;
};

struct kmem_cache_node {
	struct kmem_cache_list list;
	struct hw_lock list_lock;
};

struct slqb_cache {
	struct sb_cache sc;		/* the slabs: registry, owners (the lists' slabs) */
	struct kmem_cache *kc;
	int order;
	unsigned int objects;		/* per slab */
	int hiwater, freebatch;
	bool numa;			/* SLAB_NUMA: more than one node */
	unsigned int colour_off, colour_range;
	struct kmem_cache_cpu *cpu_slab;	/* [ncpus] */
	struct kmem_cache_node *node_slab;	/* [nodes] */
	struct hw_lock_class remote_lock_class, list_lock_class;
	char remote_lock_name[64], list_lock_name[64];
};

struct slqb {
	struct kernel *k;
	struct hw *hw;
	int ncpus, nodes;
	int min_order, min_objects;
	int tune_freebatch, tune_hiwater;	/* 0: by object size */
	uint32_t cost_alloc, cost_free, cost_get_page, cost_flush, cost_flush_object,
		cost_remote, cost_claim, cost_trim;
	struct sb_costs slab_cost;	/* new_slab_page's: slqb.new_page, slqb.per_object */
	int sym_slab_alloc, sym_slab_free, sym_get_page, sym_alloc_page, sym_flush,
		sym_remote, sym_flush_remote, sym_claim, sym_trim;
	struct slqb_cache **caches;
	int ncaches, caches_cap;
	struct housekeeping trim;	/* cache_trim_worker on each CPU */
};

/* the kmlist ring */
int kmlist_push_head(struct kmlist *l, kaddr_t obj);
kaddr_t kmlist_pop_head(struct kmlist *l);
int kmlist_append(struct kmlist *l, kaddr_t obj);
int kmlist_splice_tail(struct kmlist *dst, struct kmlist *src);
void kmlist_free(struct kmlist *l);
static inline kaddr_t kmlist_at(const struct kmlist *l, uint32_t i)
{
	return l->v[(l->start + i) % l->cap];
}

/* slqb.c */
void slqb_flush_free_list(struct slqb *q, struct sim_cpu *cpu, struct slqb_cache *s,
			  struct kmem_cache_list *l);
void slqb_claim_remote_free_list(struct slqb *q, struct sim_cpu *cpu, struct slqb_cache *s,
				 struct kmem_cache_list *l);
void slqb_flush_remote_free_cache(struct slqb *q, struct sim_cpu *cpu, struct slqb_cache *s,
				  struct kmem_cache_cpu *c);

/* slqb_geometry.c */
extern const struct param_def slqb_param_defs[];
int slqb_calculate_geometry(struct slqb *q, struct slqb_cache *s, struct sim_err *err);
int slqb_trim_init(struct slqb *q, struct sim_err *err);

/* slqb_check.c */
void slqb_cache_info(void *state, struct kmem_cache *kc, struct cache_info *out);
int slqb_check(void *state, struct kmem_cache *kc, struct sim_err *err);

#endif
