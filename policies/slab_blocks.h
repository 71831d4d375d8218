/* slab_blocks.h - building blocks of a slab allocator design, for a policy
 * (built in, or a module: make install puts this header beside policy.h).
 * A design is its fast paths and its idea; what every design has is here:
 *
 *  - struct sb_cache: one cache's slabs, the geometry, a registry of every
 *    slab (its index in page->slab_idx; page->priv is left to the policy),
 *    and per node (struct sb_node) a partial and a full list under the
 *    node's list_lock, the kernel's list operations on struct page's lru;
 *  - taking an object off a slab and putting one back (sb_take_obj,
 *    sb_put_obj), and whole batches under one lock acquisition
 *    (sb_get_objects, sb_put_objects): a refill, a flush, a remote batch;
 *  - struct sb_array: an array of free objects (SLAB's array_cache, a
 *    design's stack or batch) with the cache line of its header, written
 *    on each use as SLAB's is, with refill and flush of its oldest;
 *  - the standard check (sb_check_begin, sb_check_held, sb_check_end): the
 *    lists, their counters, the registry and every object, with one message
 *    per kind of fault;
 *  - sb_cache_info: what slabinfo shows of the cache.
 *
 * Every cycle is charged as a kernel would spend it: the costs come from
 * the machine's cost table (struct sb_costs, filled by sb_costs_lookup from
 * SLAB's entries, whose paths do this work), the cache lines touched are
 * the objects' and the struct pages' (sim/hw). Delayed work (draining a
 * batch after a while) is housekeeping_init/housekeeping_touch of
 * kernel/workqueue.h. policies/API.md lists every function. */
#ifndef SLABSIM_SLAB_BLOCKS_H
#define SLABSIM_SLAB_BLOCKS_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/list.h"
#include "kernel/slab.h"
#include "kernel/slab_policy.h"

/* One node's slabs of a cache. The empty slabs it keeps sit on partial. */
struct sb_node {
	struct hw_line line;		/* list_lock and the list heads share a line */
	struct hw_lock list_lock;
	struct list_head partial, full;
	unsigned long nr_partial, nr_full, nr_free;	/* nr_free: empty, on partial */
};

/* Instruction costs of the block paths (cycles) and their profile symbol. */
struct sb_costs {
	uint32_t grow, init_object, destroy;	/* a new slab, each object, freeing one */
	uint32_t take, put;			/* one object off or onto a slab */
	uint32_t alloc, free;			/* a fast path's allocation and free */
	uint32_t refill, flush;			/* a per-CPU array's refill and flush */
	int sym_grow;				/* the profile symbol of growing */
};

struct sb_cache {
	struct kernel *k;
	struct hw *hw;
	struct kmem_cache *kc;
	const char *policy;		/* the design's name, in messages */
	unsigned int order, objects;	/* a slab: 2^order pages of `objects` objects */
	unsigned int keep;		/* empty slabs a node keeps */
	int nodes;
	struct sb_node *node;		/* [nodes] */
	struct hw_lock_class lock_class;
	char lock_name[64];
	struct page **all;		/* the registry: every slab, all[page->slab_idx] */
	int nall, all_cap;
	uint64_t slabs_peak, slabs_new, slabs_freed;
	struct sb_costs cost;
	uint32_t *held;			/* sb_check_*: free objects held per slab */
};

/* The slot of an object of kc: its size rounded up to its alignment (at
 * least a pointer's; a whole line with SLAB_HWCACHE_ALIGN). */
unsigned int sb_slot_size(const struct kmem_cache *kc);

/* A kmalloc_max hook: kmalloc-8192 is the largest cache, as SLAB's. */
unsigned int sb_kmalloc_max_8k(void *state);

/* SLAB's cost entries of the machine's table into c, and the "sb_new_slab"
 * profile symbol; 0, or -1 with err. */
int sb_costs_lookup(struct kernel *k, struct sb_costs *c, struct sim_err *err);

/* The smallest slab order up to max_order that holds at least min_objects
 * objects of `size` bytes and wastes at most an eighth of the slab. */
unsigned int sb_order(unsigned int size, unsigned int min_objects, unsigned int max_order);

/* Set up sc for cache kc (sets kc->size to `size`, kc->priv is the
 * policy's): its lists on every node, the lock class "&n->list_lock
 * [NAME]"; 0, or -1 with err. */
int sb_cache_init(struct sb_cache *sc, struct kernel *k, struct kmem_cache *kc,
		  const char *policy, unsigned int size, unsigned int order, unsigned int keep,
		  const struct sb_costs *cost, struct sim_err *err);
void sb_cache_destroy(struct sb_cache *sc);

/* A new slab of node nid, every object free, in the registry and on no
 * list; NULL when the page allocator has none. Call it without the lock. */
struct page *sb_new_slab(struct sb_cache *sc, struct sim_cpu *cpu, int nid);

/* Give an empty slab (on no list) back to the page allocator. */
void sb_free_slab(struct sb_cache *sc, struct sim_cpu *cpu, struct page *page);

/* One object off the slab's free chain, moving the slab to full when it
 * fills. The caller holds the slab's node's list_lock. */
kaddr_t sb_take_obj(struct sb_cache *sc, struct sim_cpu *cpu, struct page *page);

/* One object back on its slab's chain, moving the slab to partial when it
 * was full. Returns the slab if it became empty and its node keeps `keep`
 * already (off the lists now: sb_free_slab it once the lock is dropped),
 * else NULL. The caller holds the slab's node's list_lock. */
struct page *sb_put_obj(struct sb_cache *sc, struct sim_cpu *cpu, struct page *page,
			kaddr_t obj);

/* Up to `want` objects of node nid's slabs into out[] under one acquisition
 * of its list_lock (dropped while a new slab is grown, when none has a
 * free object); returns how many (fewer only when out of memory). */
unsigned int sb_get_objects(struct sb_cache *sc, struct sim_cpu *cpu, int nid, kaddr_t *out,
			    unsigned int want);

/* objs[0..nr) back to their slabs, taking each node's list_lock once per
 * run of objects of that node; the empty slabs a node does not keep go
 * back to the page allocator after the lock is dropped. */
void sb_put_objects(struct sb_cache *sc, struct sim_cpu *cpu, const kaddr_t *objs,
		    unsigned int nr);

/* --- arrays of free objects: a stack, the last pushed first --- */

/* SLAB's array_cache (per CPU, shared by a node, alien: for another node's
 * objects), a design's per-CPU stack or batch: obj[0] is the oldest,
 * obj[avail - 1] the newest. Its header and hot end are one cache line,
 * written by every use (sb_array_touch), as SLAB's array_cache is. */
struct sb_array {
	kaddr_t *obj;
	unsigned int avail, limit;
	struct hw_line line;
};

/* An array of `limit` objects whose line is homed on `node`: 0, or -1 out
 * of host memory. */
int sb_array_init(struct sb_array *a, struct hw *hw, int node, unsigned int limit);
void sb_array_destroy(struct sb_array *a);

/* n arrays of `limit` objects each, n a multiple of the CPUs: array i
 * belongs to CPU i * ncpus / n (one per CPU, or per CPU and node) and its
 * line is on that CPU's node. NULL when out of host memory. */
struct sb_array *sb_arrays_create(struct kernel *k, int n, unsigned int limit);
void sb_arrays_destroy(struct sb_array *a, int n);

static inline bool sb_array_empty(const struct sb_array *a)
{
	return a->avail == 0;
}

static inline bool sb_array_full(const struct sb_array *a)
{
	return a->avail == a->limit;
}

static inline kaddr_t sb_array_pop(struct sb_array *a)
{
	return a->obj[--a->avail];
}

static inline void sb_array_push(struct sb_array *a, kaddr_t obj)
{
	a->obj[a->avail++] = obj;
}

/* The array's line written: what each use of an array costs (SLAB's
 * ac->avail and entry[] updates). */
void sb_array_touch(struct hw *hw, struct sim_cpu *cpu, struct sb_array *a);

/* A use that pops: the line written, then its newest object, 0 if empty. */
kaddr_t sb_array_get(struct hw *hw, struct sim_cpu *cpu, struct sb_array *a);

/* A use that pushes: the line written, then obj pushed; false (and nothing
 * pushed) if it is full. */
bool sb_array_put(struct hw *hw, struct sim_cpu *cpu, struct sb_array *a, kaddr_t obj);

/* objs[0..n) pushed in order (the caller knows there is room). */
void sb_array_append(struct sb_array *a, const kaddr_t *objs, unsigned int n);

/* The oldest n objects gone (given elsewhere); the rest move down. */
void sb_array_drop_oldest(struct sb_array *a, unsigned int n);

/* transfer_objects(): from's newest objects onto `to`, at most max and
 * to's room; returns how many. */
unsigned int sb_array_transfer(struct sb_array *to, struct sb_array *from, unsigned int max);

/* Fill a with up to n objects of node nid (sb_get_objects); returns how
 * many it got. */
unsigned int sb_array_refill(struct sb_cache *sc, struct sim_cpu *cpu, struct sb_array *a,
			     int nid, unsigned int n);

/* The oldest n (at most avail) objects back to their slabs (sb_put_objects);
 * the rest move down. */
void sb_array_flush(struct sb_cache *sc, struct sim_cpu *cpu, struct sb_array *a,
		    unsigned int n);

/* The fast path of a per-CPU array: sb_array_get, refilling it first with
 * up to n objects of node nid when it is empty (charging cost.refill under
 * profile symbol `sym`; *refilled says so); 0 when the page allocator has
 * nothing. */
kaddr_t sb_array_alloc(struct sb_cache *sc, struct sim_cpu *cpu, struct sb_array *a, int nid,
		       unsigned int n, int sym, bool *refilled);

/* sb_array_put, flushing the oldest n first when a is full (charging
 * cost.flush under `sym`); returns whether it flushed. */
bool sb_array_free(struct sb_cache *sc, struct sim_cpu *cpu, struct sb_array *a, kaddr_t obj,
		   unsigned int n, int sym);

/* --- per-CPU statistics under kernel names --- */

struct sb_stats {
	const char *const *name;	/* [n] */
	int n, ncpus;
	uint64_t *v;			/* [ncpus][n] */
};

int sb_stats_init(struct sb_stats *st, const char *const *name, int n, int ncpus);
void sb_stats_destroy(struct sb_stats *st);

static inline void sb_stat(struct sb_stats *st, const struct sim_cpu *cpu, int i)
{
	st->v[(size_t)cpu->id * (size_t)st->n + (size_t)i]++;
}

/* Their sums over the CPUs into out->stats, after out->nstats existing. */
void sb_stats_info(const struct sb_stats *st, struct cache_info *out);

/* --- the standard check --- */

/* Start a check of sc: no object held yet. 0, or -1 out of host memory. */
int sb_check_begin(struct sb_cache *sc, struct sim_err *err);

/* An object the policy holds free outside the slabs (`where`, e.g. "CPU 3's
 * stack"): it must be a free object of this cache, held once. */
int sb_check_held(struct sb_cache *sc, kaddr_t obj, const char *where, struct sim_err *err);

/* sb_check_held of every object in a (`where`, e.g. "CPU 3's stack"). */
int sb_check_array(struct sb_cache *sc, const struct sb_array *a, const char *where,
		   struct sim_err *err);

/* The lists against their counters and the registry, each slab on the list
 * its fill puts it on, and every object live, on its slab's chain or held
 * (slab_check_pages). 0, or -1 with one message per kind of fault. */
int sb_check_end(struct sb_cache *sc, const char *held_where, struct sim_err *err);

/* Order, objects per slab, slabs now and at peak, objects, partial slabs
 * and the objects in use into out, and the statistics SLAB_NEW and
 * SLAB_FREE (slabs grown and freed) after out->nstats existing ones. */
void sb_cache_info(const struct sb_cache *sc, struct cache_info *out);

#endif
