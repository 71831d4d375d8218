/* slab_blocks.h - building blocks of a slab allocator design, for a policy
 * (built in, or a module: make install puts this header beside policy.h).
 * A design is its fast paths and its idea; what every design has is here,
 * and SLAB, SLUB, SLQB and the magazines are built on it:
 *
 *  - struct sb_cache: one cache's slabs, the geometry, a registry of every
 *    slab (its index in page->slab_idx; page->priv is left to the policy),
 *    and its list owners (struct sb_node: a node's, a CPU's, or the whole
 *    cache's): a partial list (or bins of partial slabs by fill), a full
 *    and a free list where the design keeps them, their counters, under the
 *    owner's lock; how a design keeps them is struct sb_params;
 *  - a slab from the page allocator and back (sb_slab_alloc, sb_slab_chain,
 *    sb_slab_release, the registry; sb_new_slab and sb_free_slab whole);
 *  - taking an object off a slab and putting one back (sb_take_obj,
 *    sb_put_obj), and whole batches under one lock acquisition
 *    (sb_get_objects, sb_put_objects): a refill, a flush, a remote batch;
 *  - struct sb_array: an array of free objects (SLAB's array_cache, a
 *    design's stack or batch) with the cache line of its header, written
 *    on each use as SLAB's is, with refill and flush of its oldest; or
 *    living in a slab object, on its lines (a magazine, a sheaf);
 *  - struct sb_depot: full and empty arrays under one lock, each list a
 *    stack with its working set (the magazines' depot, SLUB's barn);
 *  - the standard check (sb_check_begin, sb_check_held, sb_check_end): the
 *    lists, their counters, the registry and every object, with one message
 *    per kind of fault; a design adds its own invariants around it;
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

/* The list a slab is on (page->sb_list). */
enum sb_list { SB_NONE, SB_PARTIAL, SB_FULL, SB_FREE };

/* A list owner's slabs of a cache: a node's (SLAB's kmem_list3, SLUB's
 * kmem_cache_node), a CPU's (SLQB's kmem_cache_list) or the whole cache's
 * (the magazines' slab layer). A design that keeps no free list leaves its
 * empty slabs on partial; one that keeps no full list leaves full slabs on
 * no list, and nr_slabs counts every slab the owner has. */
struct sb_node {
	struct hw_line line;		/* the lock and the list heads share a line */
	struct hw_lock list_lock;
	struct list_head partial, full, free;
	struct list_head *bins;		/* SB_BINS: partial slabs by fill, [objects + 1] */
	int top;			/* SB_BINS: the fullest bin with a slab, -1 if none */
	unsigned long nr_partial, nr_full, nr_free;	/* nr_free: empty slabs listed */
	long nr_slabs;			/* the owner's slabs, listed or not */
	int nid;			/* its slabs' node, -1 any */
	char name[24];			/* "node 1", "CPU 3", "the cache": in messages */
};

/* Instruction costs of the block paths (cycles) and their profile symbol. */
struct sb_costs {
	uint32_t grow, init_object, destroy;	/* a new slab, each object, freeing one */
	uint32_t take, put;			/* one object off or onto a slab */
	uint32_t alloc, free;			/* a fast path's allocation and free */
	uint32_t refill, flush;			/* a per-CPU array's refill and flush */
	int sym_grow;				/* the profile symbol of growing, -1 none */
};

/* sb_params.flags: what a design's owners keep. */
#define SB_FULL_LIST	(1u << 0)	/* full slabs on a list of their own */
#define SB_FREE_LIST	(1u << 1)	/* empty slabs on a list of their own */
#define SB_BINS		(1u << 2)	/* partial slabs in bins by fill, the fullest first */
#define SB_COUNT_EMPTY	(1u << 3)	/* nr_free counts the empty slabs on partial */
#define SB_OWN_NODES	(1u << 4)	/* the policy embeds its owners (sb_node_init) */
#define SB_NO_EMPTY	(1u << 5)	/* an empty slab is freed at once, never listed */

/* How a design keeps its slabs (sb_cache_setup). */
struct sb_params {
	const char *policy;		/* the design's name, in messages */
	unsigned int size, order;	/* the slot; a slab is 2^order pages */
	unsigned int objects;		/* per slab; 0: as many slots as fit */
	unsigned int keep;		/* empty slabs an owner keeps (sb_put_obj) */
	unsigned int flags;		/* SB_* */
	unsigned int bin_shift;		/* SB_BINS: bins 2^bin_shift wide inside the ends */
	int owners;			/* list owners; 0: one per node; else (made here,
					 * not SB_OWN_NODES) their slabs on any node */
	unsigned int page_fields;	/* a new slab's struct page write: PF_* fields
					 * (page_access), 0 its own line */
	const char *lock_name;		/* the owners' lock class, %s the cache's name;
					 * NULL: "&n->list_lock [%s]" */
	const char *list_name[3];	/* partial, full, free in messages; NULL: those */
	const struct sb_costs *cost;	/* NULL: none (the policy charges its own) */
};

struct sb_cache {
	struct kernel *k;
	struct hw *hw;
	struct kmem_cache *kc;
	const char *policy;		/* the design's name, in messages */
	unsigned int order, objects;	/* a slab: 2^order pages of `objects` objects */
	unsigned int keep;		/* empty slabs an owner keeps */
	unsigned int flags, bin_shift, page_fields;
	const char *list_name[3];
	int nodes;			/* list owners */
	struct sb_node **node;		/* [nodes]: node[nid] is node nid's, node[0] a cache-wide list */
	struct sb_node *own;		/* the owners sb_cache_setup made, unless SB_OWN_NODES */
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

/* Set up sc for cache kc as p says (sets kc->size to p->size, kc->priv is
 * the policy's): the owners' lock class, and the owners themselves unless
 * SB_OWN_NODES (one per node, "node N"; or p->owners of any node's slabs,
 * "the cache" when one); 0, or -1 with err. */
int sb_cache_setup(struct sb_cache *sc, struct kernel *k, struct kmem_cache *kc,
		   const struct sb_params *p, struct sim_err *err);

/* sb_cache_setup of the template's kind of design: a partial and a full
 * list per node under "&n->list_lock [NAME]", the empty slabs counted on
 * partial, `keep` of them kept. */
int sb_cache_init(struct sb_cache *sc, struct kernel *k, struct kmem_cache *kc,
		  const char *policy, unsigned int size, unsigned int order, unsigned int keep,
		  const struct sb_costs *cost, struct sim_err *err);
void sb_cache_destroy(struct sb_cache *sc);

/* Owner i of sc is n (SB_OWN_NODES), its slabs on node nid (-1 any), named
 * `name` in messages: its line, its lock of sc's class, empty lists. */
void sb_node_init(struct sb_cache *sc, int i, struct sb_node *n, int nid, const char *name);

/* The owner of a slab for the blocks' paths: its node's, or the cache-wide
 * one. */
static inline struct sb_node *sb_node_of(const struct sb_cache *sc, const struct page *page)
{
	return sc->node[sc->nodes == 1 ? 0 : page->nid];
}

/* --- lists: the kernel's list operations, counted (no cost: the caller
 * charges the lines its design writes) --- */

/* page onto n's list `l` (SB_PARTIAL: its bin with SB_BINS), at the head
 * or the tail. */
void sb_list_add(struct sb_cache *sc, struct sb_node *n, struct page *page, enum sb_list l,
		 bool tail);

/* page off the list it is on (page->sb_list) of n. */
void sb_list_del(struct sb_cache *sc, struct sb_node *n, struct page *page);

/* The first slab of n's list `l` (SB_PARTIAL with SB_BINS: of its fullest
 * bin); NULL if the list is empty. */
struct page *sb_list_first(const struct sb_cache *sc, const struct sb_node *n, enum sb_list l);

/* --- slabs from the page allocator and back --- */

/* allocate_slab(): 2^order pages of node nid made a slab of `objects`
 * objects of sc's cache (PG_slab, accounted, its object table all free and
 * cold), on no list and not registered; NULL when the page allocator has
 * none. No cost but the page allocator's. */
struct page *sb_slab_alloc(struct sb_cache *sc, struct sim_cpu *cpu, int nid, unsigned int order,
			   unsigned int objects);

/* Every object of the slab free, chained in address order (the kernel's
 * initial free list); none in use. */
void sb_slab_chain(struct page *page);

/* The slab's pages back to the page allocator (no longer a slab, not
 * accounted); it is on no list and out of the registry. */
void sb_slab_release(struct sb_cache *sc, struct sim_cpu *cpu, struct page *page);

/* The registry: a new slab in, slabs_peak follows; a slab out (the last
 * one takes its index). */
void sb_slab_register(struct sb_cache *sc, struct page *page);
void sb_slab_unregister(struct sb_cache *sc, struct page *page);

/* A new slab of node nid, every object free, in the registry and on no
 * list; NULL when the page allocator has none. Call it without the lock.
 * Charged cost.grow and cost.init_object a slot under cost.sym_grow, the
 * objects initialised as a stream and the struct page written
 * (params.page_fields). */
struct page *sb_new_slab(struct sb_cache *sc, struct sim_cpu *cpu, int nid);

/* Give an empty slab (on no list) back to the page allocator, charging
 * cost.destroy. */
void sb_free_slab(struct sb_cache *sc, struct sim_cpu *cpu, struct page *page);

/* slab_get_obj()'s list work: the first free object's index off the
 * slab's chain, one more in use (no cost: the caller touches what its
 * design reads). */
static inline unsigned int sb_chain_pop(struct page *page)
{
	unsigned int idx = page->freelist;
	page->freelist = page->obj[idx].next;
	page->inuse++;
	return idx;
}

/* slab_put_obj()'s: object idx back at the head of its slab's chain, one
 * fewer in use. */
static inline void sb_chain_push(struct page *page, unsigned int idx)
{
	page->obj[idx].next = page->freelist;
	page->freelist = (uint16_t)idx;
	page->inuse--;
}

/* One object off the slab's free chain, moving the slab to full when it
 * fills. The caller holds the slab's owner's list_lock. */
kaddr_t sb_take_obj(struct sb_cache *sc, struct sim_cpu *cpu, struct page *page);

/* One object back on its slab's chain, moving the slab to partial when it
 * was full. Returns the slab if it became empty and its owner keeps `keep`
 * already (off the lists now: sb_free_slab it once the lock is dropped),
 * else NULL. The caller holds the slab's owner's list_lock. */
struct page *sb_put_obj(struct sb_cache *sc, struct sim_cpu *cpu, struct page *page,
			kaddr_t obj);

/* Up to `want` objects of node nid's slabs into out[] under one acquisition
 * of its list_lock (dropped while a new slab is grown, when none has a
 * free object); returns how many (fewer only when out of memory). */
unsigned int sb_get_objects(struct sb_cache *sc, struct sim_cpu *cpu, int nid, kaddr_t *out,
			    unsigned int want);

/* objs[0..nr) back to their slabs, taking each owner's list_lock once per
 * run of objects of that owner; the empty slabs an owner does not keep go
 * back to the page allocator after the lock is dropped. */
void sb_put_objects(struct sb_cache *sc, struct sim_cpu *cpu, const kaddr_t *objs,
		    unsigned int nr);

/* --- arrays of free objects: a stack, the last pushed first --- */

/* SLAB's array_cache (per CPU, shared by a node, alien: for another node's
 * objects), a design's per-CPU stack or batch: obj[0] is the oldest,
 * obj[avail - 1] the newest. Its header and hot end are one cache line,
 * written by every use (sb_array_touch), as SLAB's array_cache is. An
 * array that lives in a slab object (a magazine, a sheaf:
 * sb_array_in_object) is on that object's lines instead: its header at
 * the object's start, slot i `header` bytes on, a word each. */
struct sb_array {
	kaddr_t *obj;
	unsigned int avail, limit;
	struct hw_line line;		/* its own line, unless it lives in an object */
	kaddr_t addr;			/* the object it lives in, 0 if none */
	struct page *page;		/* that object's slab */
	unsigned int header;		/* bytes before slot 0 in the object */
	struct sb_array *next;		/* the next on a depot's list (sb_stack) */
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

/* The array lives in the slab object at addr (its slab's lines, from
 * `pa`), slot 0 `header` bytes into it. */
void sb_array_in_object(struct sb_array *a, const struct page_alloc *pa, kaddr_t addr,
			unsigned int header);

/* The array's line written: what each use of an array costs (SLAB's
 * ac->avail and entry[] updates). */
void sb_array_touch(struct hw *hw, struct sim_cpu *cpu, struct sb_array *a);

/* The line of slot `slot` (-1: the header's word) read or written: the
 * object's line that word is on, or the array's own line. */
void sb_array_slot_touch(struct hw *hw, struct sim_cpu *cpu, struct sb_array *a, int slot,
			 bool write);

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

/* --- a depot: full and empty arrays under one lock --- */

/* A stack of arrays linked through their `next` (a depot's full or empty
 * list), with its working set: the fewest it held since the last
 * sb_stack_ws_update (min), that update's reap limit, and how many were
 * taken off it. No cost: the caller touches the link word it reads or
 * writes (sb_array_slot_touch, slot -1). */
struct sb_stack {
	struct sb_array *top;
	long total, min, reaplimit;
	uint64_t taken;
};

/* The magazines' depot, SLUB's barn: a cache's (or a node's) full and
 * empty arrays, under a lock on its line. */
struct sb_depot {
	struct hw_line line;
	struct hw_lock lock;
	struct sb_stack full, empty;
};

/* d's line homed on `node`, its lock of class cls, both lists empty. */
void sb_depot_init(struct sb_depot *d, struct hw *hw, enum hw_lock_kind kind, int node,
		   struct hw_lock_class *cls);

/* a onto the top of s. */
void sb_stack_push(struct sb_stack *s, struct sb_array *a);

/* The top array off s (min and taken follow), NULL if s is empty. */
struct sb_array *sb_stack_pop(struct sb_stack *s);

/* Every array of s at once (the chain from its top), s and its working
 * set emptied. */
struct sb_array *sb_stack_take_all(struct sb_stack *s);

/* A working-set update (kmem_depot_ws_update): the reap limit is the
 * fewest held since the last, and min starts again from the total. */
void sb_stack_ws_update(struct sb_stack *s);

/* The arrays on s, by walking it (for a check), at most `max` + 1. */
long sb_stack_length(const struct sb_stack *s, long max);

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

/* An array's objects (`where`, e.g. "CPU 3's stack"): at most its limit,
 * each sb_check_held. */
int sb_check_array(struct sb_cache *sc, const struct sb_array *a, const char *where,
		   struct sim_err *err);

/* The owners' lists against their counters, each slab on a list of its
 * owner's node and on the list its fill puts it on (in its bin), every
 * slab listed or counted (nr_slabs without a full list) against the
 * registry, and every object live, on its slab's chain or held
 * (slab_check_pages), the live ones the cache's and its aliases'. 0, or
 * -1 with one message per kind of fault. */
int sb_check_end(struct sb_cache *sc, const char *held_where, struct sim_err *err);

/* slabinfo's figures of sc: order, objects per slab, slabs now and at
 * peak, objects, the objects in use and the partial slabs. */
void sb_cache_figures(const struct sb_cache *sc, struct cache_info *out);

/* sb_cache_figures, and the statistics SLAB_NEW and SLAB_FREE (slabs grown
 * and freed) after out->nstats existing ones. */
void sb_cache_info(const struct sb_cache *sc, struct cache_info *out);

#endif
