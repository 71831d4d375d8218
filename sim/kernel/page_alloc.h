/* page_alloc.h - the page allocator slab pages come from: struct page for
 * every page frame, a buddy allocator per node under `zone->lock`, and per-CPU
 * lists of order-0 pages refilled and drained in batches (2.6.25's
 * buffered_rmqueue / free_hot_cold_page). Pages are counted, so memory held by
 * the slab layer is known at every moment. */
#ifndef SIM_PAGE_ALLOC_H
#define SIM_PAGE_ALLOC_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/hw.h"
#include "hw/spinlock.h"
#include "list.h"

typedef uint64_t kaddr_t;	/* a kernel virtual address in the direct map */

#define PAGE_SHIFT 12
#define PAGE_SIZE (1ul << PAGE_SHIFT)
#define MAX_ORDER 11
#define PAGE_ALLOC_COSTLY_ORDER 3
#define PAGE_OFFSET 0xffff880000000000ull	/* x86_64 direct map (2.6.25) */

/* page->flags */
#define PG_buddy (1u << 0)	/* free, in a buddy free list */
#define PG_slab (1u << 1)	/* owned by the slab allocator */
#define PG_head (1u << 2)	/* first page of a compound (order > 0) page */
#define PG_tail (1u << 3)	/* other pages of a compound page */
#define PG_pcp (1u << 4)	/* free, on a per-CPU list */
#define PG_frozen (1u << 5)	/* SLUB: some CPU's current slab */
#define PG_partial (1u << 6)	/* SLUB: on its node's partial list (slab_test_node_partial) */
#define PG_large (1u << 7)	/* the head of a kmalloc_large() block */

#define OBJ_NIL 0xffffu		/* end of an object free list */

struct kmem_cache;

/* One object of a slab as the model tracks it (contents are not stored). */
struct slab_obj {
	uint16_t next;		/* free pointer: next free object, OBJ_NIL at the end */
	uint8_t live;		/* allocated? (checked on every alloc and free) */
	uint16_t site;		/* perf kmem: the call site that allocated it */
	uint16_t cpu;		/* ... on this CPU */
	uint16_t cache;		/* ... from this cache (the one asked for) */
	uint32_t bytes_req;	/* ... asking for this many bytes */
};

struct page {
	/* host line 0: what every object access and free reads */
	uint32_t flags;
	int16_t nid;
	int8_t order;			/* buddy order, or compound order of a head */
	/* slab use (the policies' common ground, like the kernel's union) */
	uint16_t freelist;		/* SLUB: first free object, OBJ_NIL if none */
	uint16_t inuse;			/* objects in use (SLUB: CPU slab looks full) */
	uint16_t objects;		/* objects in this slab */
	uint16_t obj_cap;		/* size of obj[] */
	struct kmem_cache *slab;	/* the cache that owns this slab */
	struct slab_obj *obj;		/* the slab's objects */
	hw_objline *cl;			/* each 64-byte line of the slab: its last user */
	uint64_t pfn;
	void *priv;			/* policy's own per-slab data */
	uint32_t cmpxchg_seq;		/* SLUB 3.1: bumped by each cmpxchg_double_slab */
	int32_t slab_idx;		/* its index in its cache's registry of slabs
					 * (policies/slab_blocks.c) */
	/* host lines 1 and 2: the modelled struct page line and slab_lock */
	struct hw_line line;		/* the struct page cache line */
	struct hw_lock lock;		/* PG_locked as a bit spinlock (slab_lock) */
	/* host line 3: lists and the rest */
	struct list_head lru;		/* buddy/pcp lists, or the slab lists */
	struct page *first_page;	/* compound tail: its head */
	struct page *next;		/* SLUB 3.2: the next slab on a CPU's partial list */
	uint32_t cl_cap;		/* size of cl[] */
	int16_t pages, pobjects;	/* SLUB 3.2: a CPU's partial slabs from here on */
	uint16_t large_site, large_cpu;	/* kmalloc_large head: perf kmem's call site, CPU */
	uint8_t sb_list;		/* the slab list it is on (policies/slab_blocks.h) */
} __attribute__((aligned(64)));	/* mem_map is 64-byte aligned: 4 host lines each */

struct per_cpu_pages {
	int count;		/* pages on the list */
	int high;		/* drain a batch above this */
	int batch;		/* refill / drain this many at once */
	struct list_head list;
};

struct free_area {
	struct list_head free_list;
	unsigned long nr_free;
};

struct zone {
	int nid;
	struct hw_line line;
	struct hw_lock lock;		/* zone->lock */
	struct free_area free_area[MAX_ORDER];
	uint64_t start_pfn, end_pfn;
	uint64_t wild_pfn;		/* never handed out beyond this yet */
	uint64_t free_pages;
	uint64_t slab_pages;		/* NR_SLAB_UNRECLAIMABLE */
	struct per_cpu_pages *pcp;	/* one per CPU */
};

struct kernel;
struct sim_cpu;

struct page_alloc {
	struct kernel *k;
	int nodes;
	struct zone *zones;
	struct page **chunks;		/* mem_map in chunks of PA_CHUNK pages */
	bool page56;			/* struct page is 56 bytes (to 3.0): mem_map's
					 * 64-byte lines hold parts of two */
	struct hw_line **map_lines;	/* page56: each chunk's mem_map lines */
	uint8_t *block_order;		/* per frame: order of the block it belongs to */
	uint64_t nchunks;
	uint64_t total_pages;
	struct hw_lock_class zone_lock_class;
	struct hw_lock_class page_lock_class;
	uint64_t slab_pages, slab_pages_peak;	/* all nodes */
	uint64_t allocs[MAX_ORDER], frees[MAX_ORDER];
	uint64_t failed[MAX_ORDER];	/* no free block of the order on the node */
	uint64_t pages_out;		/* handed out and not freed */
	int sym_rmqueue, sym_free;
	uint32_t cost_alloc, cost_free, cost_per_page;
};

int page_alloc_init(struct page_alloc *pa, struct kernel *k, uint64_t pages_per_node,
		    struct sim_err *err);
void page_alloc_destroy(struct page_alloc *pa);

/* alloc_pages_node(): a 2^order block on `nid`, NULL if none. */
struct page *alloc_pages_node(struct page_alloc *pa, struct sim_cpu *cpu, int nid,
			      unsigned int order);
/* Allocations that found no free block, of every order. */
uint64_t page_alloc_failures(const struct page_alloc *pa);
/* __free_pages() */
void __free_pages(struct page_alloc *pa, struct sim_cpu *cpu, struct page *page,
		  unsigned int order);

/* The fields of struct page the model touches, at their offsets in 2.6.25's
 * x86_64 struct page (include/linux/mm_types.h): flags (PG_locked, the
 * slab_lock bit) at 0, SLUB's inuse at 12, slab at 16, freelist at 32, lru
 * at 40-55, 56 bytes in all. 3.1 aligns it to 16 bytes for SLUB's
 * cmpxchg_double (HAVE_ALIGNED_STRUCT_PAGE), 64 bytes, one line each. */
#define PF_FLAGS	(1u << 0)
#define PF_INUSE	(1u << 1)
#define PF_SLAB		(1u << 2)
#define PF_FREELIST	(1u << 3)
#define PF_LRU		(1u << 4)
#define PAGE_OFF_LRU	40

/* Read or write `fields` of a struct page: each mem_map line they lie on. */
void page_access(struct page_alloc *pa, struct sim_cpu *cpu, struct page *page,
		 unsigned int fields, bool write);

/* The mem_map line that holds byte `off` of a struct page. */
struct hw_line *page_field_line(struct page_alloc *pa, struct page *page, unsigned int off);

/* The struct page of a frame, NULL if that part of memory was never used. */
struct page *pfn_to_page(const struct page_alloc *pa, uint64_t pfn);

static inline kaddr_t page_address(const struct page *page)
{
	return PAGE_OFFSET + ((kaddr_t)page->pfn << PAGE_SHIFT);
}

/* virt_to_head_page(): the page (head of a compound) holding `addr`. Blocks
 * are aligned to their size, so the head's frame number follows from the
 * block's order without reading the tail's struct page. */
static inline struct page *virt_to_head_page(const struct page_alloc *pa, kaddr_t addr)
{
	if (addr < PAGE_OFFSET)
		return NULL;
	uint64_t pfn = (addr - PAGE_OFFSET) >> PAGE_SHIFT;
	if (pfn >= pa->total_pages)
		return NULL;
	pfn &= ~((1ull << pa->block_order[pfn]) - 1);
	return pfn_to_page(pa, pfn);
}

/* NR_SLAB accounting (mod_zone_page_state) by the slab allocator. */
void account_slab_pages(struct page_alloc *pa, int nid, long pages);

/* Pages free plus on per-CPU lists must add up to the zone: an invariant. */
int page_alloc_check(const struct page_alloc *pa, struct sim_err *err);

#endif
