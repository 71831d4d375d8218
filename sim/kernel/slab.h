/* slab.h - the kernel's side of the slab layer: kmem_cache_create, the
 * kmalloc size classes, and the entry points that call the active policy
 * (kmem_cache_alloc, kmem_cache_free, __kmalloc, kfree). These wrappers keep
 * the per-object books that the invariants check: an object is handed out
 * only if free, and freed only if live. */
#ifndef SIM_SLAB_H
#define SIM_SLAB_H

#include "kernel.h"

struct kmem_cache;

/* kmem_cache_init(): create the kmalloc caches of the era. */
int kmem_cache_init(struct kernel *k, struct sim_err *err);

struct kmem_cache *kmem_cache_create(struct kernel *k, const char *name, unsigned int size,
				     unsigned int align, unsigned long flags,
				     struct sim_err *err);

/* gfp: GFP_KERNEL where the caller may sleep, GFP_ATOMIC or GFP_NOWAIT
 * where it may not (fault injection's ignore-gfp-wait looks at it). */
kaddr_t kmem_cache_alloc(struct kernel *k, struct sim_cpu *cpu, struct kmem_cache *c, gfp_t gfp);
void kmem_cache_free(struct kernel *k, struct sim_cpu *cpu, struct kmem_cache *c, kaddr_t obj);

/* The flags of the slab allocation in progress on `cpu`, which a policy
 * passes on to what it allocates for it (GFP_KERNEL outside one). */
static inline gfp_t slab_alloc_gfp(const struct kernel *k, const struct sim_cpu *cpu)
{
	return k->gfp_context[cpu->id];
}

/* __kmalloc_track_caller() / kfree(); large sizes go to the page allocator. */
kaddr_t __kmalloc(struct kernel *k, struct sim_cpu *cpu, size_t size, gfp_t gfp);
kaddr_t __kmalloc_track_caller(struct kernel *k, struct sim_cpu *cpu, size_t size, gfp_t gfp);
void kfree(struct kernel *k, struct sim_cpu *cpu, kaddr_t obj);

/* kzalloc(): __kmalloc, then the memset that clears the block, a stream of
 * stores over every line of it on `cpu` (0 if the allocation failed). */
kaddr_t kzalloc(struct kernel *k, struct sim_cpu *cpu, size_t size, gfp_t gfp);

/* Stores to every line of [addr, addr + bytes), in order, inside one slab
 * or kmalloc_large block (a memset, an array being initialised): a
 * prefetched stream (hw_stream_access). */
void kmem_stream_write(struct kernel *k, struct sim_cpu *cpu, kaddr_t addr, size_t bytes);

/* A load or store of the word at `addr`, anywhere inside a block kmalloc
 * returned (a slab object or a kmalloc_large block): the one line holding
 * it, priced from the block's own line books (a module walking an array of
 * pointers it kzalloc'ed). */
void kmem_word_touch(struct kernel *k, struct sim_cpu *cpu, kaddr_t addr, bool write);

/* The books of a policy's slabs `all[0..nall)` (slab_books.c): free chains,
 * inuse, and the live objects plus waiting[i] of slab i that the policy
 * holds in `where` (its arrays, lists) against the `booked` objects the
 * kernel handed out of kc (kc->live, and its aliases' where caches are
 * merged); `policy` names the policy in the message. 0 if they agree, else
 * -1 and why. */
struct page;
int slab_check_pages(const struct kmem_cache *kc, uint64_t booked, struct page *const *all,
		     int nall, const uint32_t *waiting, const char *policy, const char *where,
		     struct sim_err *err);

/* A block fresh from the page allocator (a kmalloc_large() block, a page
 * fragment): its lines in no cache, as slab_page_prepare() makes a new
 * slab's, so that accesses to it are priced line by line. */
void page_block_prepare(struct page *page);

/* The kmalloc cache serving `size` (kmalloc_slab), NULL if none. */
struct kmem_cache *kmalloc_slab(struct kernel *k, size_t size);

/* Start loading the host's copy of the struct page of `obj` (a slab object
 * `cpu` is about to touch `lines` lines of) and of the cache sets the touch
 * looks in: the model's speed, not the simulated machine's. */
void slab_obj_prefetch(struct kernel *k, struct sim_cpu *cpu, kaddr_t obj, int lines);

/* Touch `lines` cache lines of an object the current task owns: a slab
 * object, or a kmalloc_large() block (priced from the block's own lines;
 * slab_test's `*p = 22` on an 8 KB block is a miss on a real machine). */
void slab_obj_touch(struct kernel *k, struct sim_cpu *cpu, kaddr_t obj, int lines, bool write);

#endif
