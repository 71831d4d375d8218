/* slab.c - kmem_cache_create, kmalloc size classes and the slab entry points
 * around the policy, with per-object bookkeeping for the invariants. */
#include "slab.h"
#include "engine/oom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/slab_policy.h"

/* The biggest kmalloc: an order MAX_ORDER-1 block (kmalloc_large, x86-64). */
#define KMALLOC_LARGE_MAX ((size_t)PAGE_SIZE << (MAX_ORDER - 1))

void slab_page_prepare(struct kernel *k, struct page *page, unsigned int objects)
{
	(void)k;
	if (page->obj_cap < objects) {
		free(page->obj);
		page->obj = malloc(objects * sizeof(*page->obj));
		if (!page->obj)
			host_oom(__func__);
		page->obj_cap = (uint16_t)objects;
	}
	for (unsigned int i = 0; i < objects; i++)
		page->obj[i] = (struct slab_obj){ .next = OBJ_NIL, .live = 0 };
	page->objects = (uint16_t)objects;
	page_block_prepare(page);
}

void page_block_prepare(struct page *page)
{
	uint32_t nlines = (uint32_t)((PAGE_SIZE << page->order) >> 6);
	if (page->cl_cap < nlines) {
		free(page->cl);
		page->cl = malloc(nlines * sizeof(*page->cl));
		if (!page->cl)
			host_oom(__func__);
		page->cl_cap = nlines;
	}
	for (uint32_t i = 0; i < nlines; i++)
		page->cl[i] = -1;	/* cold: in no cache */
}

void slab_objs_stream(struct hw *hw, struct sim_cpu *cpu, struct page *page,
		      unsigned int objects)
{
	unsigned int size = page->slab->size;
	uint64_t base = page_address(page) >> 6;
	if (size % 64)	/* objects across lines: the walk covers every line */
		hw_stream_access(hw, cpu, page->cl, base, (int)((objects * size + 63) >> 6), 1,
				 page->nid);
	else		/* one line per object, `size` apart */
		hw_stream_access(hw, cpu, page->cl, base, (int)objects, (int)(size >> 6), page->nid);
}

/* List a new cache in k->caches, giving it its id; -1 if out of memory. */
static int register_cache(struct kernel *k, struct kmem_cache *c)
{
	if (k->ncaches == k->caches_cap) {
		int cap = k->caches_cap ? 2 * k->caches_cap : 32;
		struct kmem_cache **a = realloc(k->caches, (size_t)cap * sizeof(*a));
		if (!a)
			return -1;
		k->caches = a;
		k->caches_cap = cap;
	}
	c->id = k->ncaches;
	k->caches[k->ncaches++] = c;
	return 0;
}

struct kmem_cache *kmem_cache_create(struct kernel *k, const char *name, unsigned int size,
				     unsigned int align, unsigned long flags,
				     struct sim_err *err)
{
	struct kmem_cache *c = calloc(1, sizeof(*c));
	if (!c) {
		sim_fail(err, "out of memory creating cache %s", name);
		return NULL;
	}
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->object_size = size;
	c->size = size;
	c->align = align;
	c->flags = flags;
	int owner = hw_lock_owner_set(k->hw, LOCK_OWNER_ALLOCATOR);	/* the cache's locks */
	struct kmem_cache *real = k->policy->cache_create(k->pstate, c, err);
	hw_lock_owner_set(k->hw, owner);
	if (!real) {
		free(c);
		return NULL;
	}
	if (real != c)
		c->alias = real;
	c->reciprocal_size = (uint32_t)(((1ull << 32) + c->size - 1) / c->size);
	if (register_cache(k, c) < 0) {
		sim_fail(err, "out of memory creating cache %s", name);
		return NULL;
	}
	return c;
}

int kmem_cache_init(struct kernel *k, struct sim_err *err)
{
	const struct slab_policy *p = k->policy;
	unsigned int max = p->kmalloc_max(k->pstate);
	char name[32];
	for (int i = p->kmalloc_min_shift; i <= KMALLOC_SHIFT_HIGH; i++) {
		unsigned int size = 1u << i;
		if (size > max)
			break;
		snprintf(name, sizeof(name), "%s%u", p->kmalloc_prefix, size);
		k->kmalloc_caches[i] = kmem_cache_create(k, name, size, 8, __KMALLOC_CACHE, err);
		if (!k->kmalloc_caches[i])
			return -1;
		if ((i == 6 && (p->kmalloc_odd & KMALLOC_96)) ||
		    (i == 7 && (p->kmalloc_odd & KMALLOC_192))) {	/* after 64 and 128 */
			unsigned int odd = i == 6 ? 96 : 192;
			snprintf(name, sizeof(name), "%s%u", p->kmalloc_prefix, odd);
			if (!(k->kmalloc_caches[i - 5] = kmem_cache_create(k, name, odd, 8,
									   __KMALLOC_CACHE, err)))
				return -1;
		}
	}
	return 0;
}

struct kmem_cache *kmalloc_slab(struct kernel *k, size_t size)
{
	if (size == 0 || size > k->policy->kmalloc_max(k->pstate))
		return NULL;
	int index;	/* kmalloc_index(); a class the policy lacks: the next one up */
	if (size > 64 && size <= 96 && k->kmalloc_caches[1])
		return k->kmalloc_caches[1];
	if (size > 128 && size <= 192 && k->kmalloc_caches[2])
		return k->kmalloc_caches[2];
	index = 3;
	while ((1ul << index) < size)
		index++;
	while (index < KMALLOC_CACHES && !k->kmalloc_caches[index])
		index++;
	return index < KMALLOC_CACHES ? k->kmalloc_caches[index] : NULL;
}

/* The cache the policy allocates from: the one `c` was merged into (its alias), else c. */
static inline struct kmem_cache *real_cache(struct kmem_cache *c)
{
	return c->alias ? c->alias : c;
}

/* Book an allocation: the object must have been free. `c` is the cache
 * asked for, `site` the caller; perf kmem's books follow. */
static void note_alloc(struct kernel *k, struct sim_cpu *cpu, struct kmem_cache *c, kaddr_t obj,
		       uint16_t site, uint32_t bytes_req, int kind, gfp_t gfp)
{
	struct kmem_cache *r = real_cache(c);
	struct page *page = virt_to_head_page(&k->pa, obj);
	if (!page || !(page->flags & PG_slab) || page->slab != r) {
		kernel_violation(k, "%s: policy %s handed out %#llx, which is not in one of "
				 "its slabs", c->name, k->policy->name, (unsigned long long)obj);
		return;
	}
	unsigned int idx = slab_obj_index(r, page, obj);
	if (idx >= page->objects || page->obj[idx].live) {
		kernel_violation(k, "%s: policy %s handed out object %#llx (slab pfn %llu, "
				 "index %u) which is already live", c->name, k->policy->name,
				 (unsigned long long)obj, (unsigned long long)page->pfn, idx);
		return;
	}
	struct slab_obj *o = &page->obj[idx];
	o->live = 1;
	o->site = site;
	o->cpu = (uint16_t)cpu->id;
	o->cache = (uint16_t)c->id;
	o->bytes_req = bytes_req;
	c->live++;
	c->allocs++;
	kmem_stat_alloc(&k->kmem, c, site, bytes_req, r->size);
	if (k->kmem.recording)
		kmem_rec(k, cpu, kind, obj, c, site, bytes_req, r->size, gfp);
}

/* Book a free: the object must be live. Returns false if it is not. */
static bool note_free(struct kernel *k, struct sim_cpu *cpu, struct kmem_cache *c, kaddr_t obj,
		      int kind)
{
	struct kmem_cache *r = real_cache(c);
	struct page *page = virt_to_head_page(&k->pa, obj);
	if (!page || !(page->flags & PG_slab) || page->slab != r) {
		kernel_violation(k, "%s: free of %#llx, which is not an object of this cache",
				 c->name, (unsigned long long)obj);
		return false;
	}
	unsigned int idx = slab_obj_index(r, page, obj);
	if (idx >= page->objects || !page->obj[idx].live) {
		kernel_violation(k, "%s: double free of object %#llx (slab pfn %llu, index %u)",
				 c->name, (unsigned long long)obj, (unsigned long long)page->pfn, idx);
		return false;
	}
	struct slab_obj *o = &page->obj[idx];
	struct kmem_cache *asked = o->cache < k->ncaches ? k->caches[o->cache] : c;
	o->live = 0;
	asked->live--;
	asked->frees++;
	bool other_cpu = o->cpu != cpu->id;
	bool other_node = other_cpu && k->m->topo[o->cpu].node != k->m->topo[cpu->id].node;
	kmem_stat_free(&k->kmem, asked, o->site, r->size, other_cpu, other_node);
	if (k->kmem.recording)
		kmem_rec(k, cpu, kind, obj, asked,
			 kmem_site_current(&k->kmem, &k->eng->prof, cpu), 0, 0, 0);
	return true;
}

/* should_failslab() (slab_pre_alloc_hook): failslab= may fail it, unless
 * its ignore-gfp-wait spares an allocation that may sleep. */
static bool failslab(struct kernel *k, const struct kmem_cache *c, gfp_t gfp)
{
	return k->failslab.enabled && !fault_gfp_spared(&k->failslab, gfp) &&
	       should_fail(&k->failslab, k->eng->rng, c->object_size);
}

/* Make `gfp` the flags the page allocations on `cpu` see; returns the
 * ones it replaces (a policy's own allocation nests), to put back. */
static gfp_t gfp_context_set(struct kernel *k, const struct sim_cpu *cpu, gfp_t gfp)
{
	gfp_t outer = k->gfp_context[cpu->id];
	k->gfp_context[cpu->id] = gfp;
	return outer;
}

/* The policy's alloc, with `gfp` the flags its page allocations see. */
static kaddr_t policy_alloc(struct kernel *k, struct sim_cpu *cpu, struct kmem_cache *c,
			    gfp_t gfp)
{
	gfp_t outer = gfp_context_set(k, cpu, gfp);
	cpu_region_enter(cpu);	/* the slab allocator's time */
	kaddr_t obj = k->policy->alloc(k->pstate, real_cache(c), cpu, -1);
	cpu_region_exit(cpu);
	gfp_context_set(k, cpu, outer);
	return obj;
}

kaddr_t kmem_cache_alloc(struct kernel *k, struct sim_cpu *cpu, struct kmem_cache *c, gfp_t gfp)
{
	if (failslab(k, c, gfp))
		return 0;
	uint16_t site = kmem_site_current(&k->kmem, &k->eng->prof, cpu);
	int psym = sym_enter(cpu, k->sym_cache_alloc);
	kaddr_t obj = policy_alloc(k, cpu, c, gfp);
	sym_exit(cpu, psym);
	if (obj)
		note_alloc(k, cpu, c, obj, site, c->object_size, KMEM_EV_CACHE_ALLOC, gfp);
	kernel_check_if_due(k, cpu);	/* with the object in the books */
	return obj;
}

void kmem_cache_free(struct kernel *k, struct sim_cpu *cpu, struct kmem_cache *c, kaddr_t obj)
{
	if (!note_free(k, cpu, c, obj, KMEM_EV_CACHE_FREE))
		return;
	int psym = sym_enter(cpu, k->sym_cache_free);
	cpu_region_enter(cpu);
	k->policy->free(k->pstate, real_cache(c), cpu, obj);
	cpu_region_exit(cpu);
	kernel_check_if_due(k, cpu);
	sym_exit(cpu, psym);
}

/* __kmalloc(): an object of the kmalloc cache for `size` or, above the largest cache, whole
 * pages on this CPU's node (kmalloc_large()); charged to profile symbol `sym`. */
static kaddr_t do_kmalloc(struct kernel *k, struct sim_cpu *cpu, size_t size, int sym, gfp_t gfp)
{
	struct kmem_cache *c = kmalloc_slab(k, size);
	uint16_t site = kmem_site_current(&k->kmem, &k->eng->prof, cpu);
	int psym = sym_enter(cpu, sym);
	kaddr_t obj = 0;
	if (c && failslab(k, c, gfp)) {
		sym_exit(cpu, psym);
		return 0;
	}
	if (c) {
		obj = policy_alloc(k, cpu, c, gfp);
		if (obj)
			note_alloc(k, cpu, c, obj, site, (uint32_t)size, KMEM_EV_KMALLOC, gfp);
		kernel_check_if_due(k, cpu);
	} else if (size <= KMALLOC_LARGE_MAX) {	/* kmalloc_large(): the page allocator */
		unsigned int order = 0;
		while (((size_t)PAGE_SIZE << order) < size)
			order++;
		gfp_t outer = gfp_context_set(k, cpu, gfp);
		struct page *p = alloc_pages_node(&k->pa, cpu, k->m->topo[cpu->id].node, order);
		gfp_context_set(k, cpu, outer);
		if (p) {
			uint32_t bytes = (uint32_t)((size_t)PAGE_SIZE << order);
			obj = page_address(p);
			p->flags |= PG_large;
			page_block_prepare(p);
			p->large_site = site;
			p->large_cpu = (uint16_t)cpu->id;
			k->kmalloc_large++;
			kmem_stat_alloc(&k->kmem, NULL, site, (uint32_t)size, bytes);
			if (k->kmem.recording)
				kmem_rec(k, cpu, KMEM_EV_KMALLOC, obj, NULL, site, (uint32_t)size,
					 bytes, gfp);
		}
	}	/* else: more than the largest order the buddy allocator has, NULL */
	sym_exit(cpu, psym);
	return obj;
}

kaddr_t __kmalloc(struct kernel *k, struct sim_cpu *cpu, size_t size, gfp_t gfp)
{
	return do_kmalloc(k, cpu, size, k->sym_kmalloc, gfp);
}

kaddr_t __kmalloc_track_caller(struct kernel *k, struct sim_cpu *cpu, size_t size, gfp_t gfp)
{
	return do_kmalloc(k, cpu, size, k->sym_kmalloc_track, gfp);
}

void kfree(struct kernel *k, struct sim_cpu *cpu, kaddr_t obj)
{
	if (!obj)	/* ZERO_OR_NULL_PTR */
		return;
	struct page *page = virt_to_head_page(&k->pa, obj);
	if (!page) {
		kernel_violation(k, "kfree of %#llx: no such page", (unsigned long long)obj);
		return;
	}
	int psym = sym_enter(cpu, k->sym_kfree);
	if (page->flags & PG_slab) {
		struct kmem_cache *c = page->slab;
		if (note_free(k, cpu, c, obj, KMEM_EV_KFREE)) {
			cpu_region_enter(cpu);
			k->policy->free(k->pstate, c, cpu, obj);
			cpu_region_exit(cpu);
			kernel_check_if_due(k, cpu);
		}
	} else {	/* put_page() of a kmalloc_large block */
		unsigned int order = (unsigned int)(page->flags & PG_head ? page->order : 0);
		unsigned int from = page->large_cpu;
		bool other_cpu = from != (unsigned int)cpu->id;
		bool other_node = other_cpu && from < (unsigned int)k->m->ncpus &&
				  k->m->topo[from].node != k->m->topo[cpu->id].node;
		uint16_t site = page->large_site;
		page->flags &= ~PG_large;
		__free_pages(&k->pa, cpu, page, order);
		k->kfree_large++;
		kmem_stat_free(&k->kmem, NULL, site, (uint32_t)((size_t)PAGE_SIZE << order),
			       other_cpu, other_node);
		if (k->kmem.recording)
			kmem_rec(k, cpu, KMEM_EV_KFREE, obj, NULL,
				 kmem_site_current(&k->kmem, &k->eng->prof, cpu), 0, 0, 0);
	}
	sym_exit(cpu, psym);
}

void kmem_stream_write(struct kernel *k, struct sim_cpu *cpu, kaddr_t addr, size_t bytes)
{
	struct page *page = virt_to_head_page(&k->pa, addr);
	if (!page || !bytes || !(page->flags & (PG_slab | PG_large)))
		return;
	uint64_t first = addr >> 6, last = (addr + bytes - 1) >> 6;
	hw_stream_access(k->hw, cpu, &page->cl[first - (page_address(page) >> 6)], first,
			 (int)(last - first + 1), 1, page->nid);
}

kaddr_t kzalloc(struct kernel *k, struct sim_cpu *cpu, size_t size, gfp_t gfp)
{
	kaddr_t obj = __kmalloc(k, cpu, size, gfp);
	if (obj)
		kmem_stream_write(k, cpu, obj, size);
	return obj;
}

void kmem_word_touch(struct kernel *k, struct sim_cpu *cpu, kaddr_t addr, bool write)
{
	struct page *page = virt_to_head_page(&k->pa, addr);
	if (!page || !(page->flags & (PG_slab | PG_large)))
		return;
	hw_obj_access(k->hw, cpu, &page->cl[(addr - page_address(page)) >> 6], addr >> 6, 1, write,
		      page->nid);
}

void slab_obj_prefetch(struct kernel *k, struct sim_cpu *cpu, kaddr_t obj, int lines)
{
	hw_obj_prefetch(k->hw, cpu, obj >> 6, lines);
	struct page *page = virt_to_head_page(&k->pa, obj);
	if (page)
		__builtin_prefetch(page);
}

void slab_obj_touch(struct kernel *k, struct sim_cpu *cpu, kaddr_t obj, int lines, bool write)
{
	hw_obj_prefetch(k->hw, cpu, obj >> 6, lines);	/* while the books are found */
	struct page *page = virt_to_head_page(&k->pa, obj);
	if (!page)
		return;
	if (!(page->flags & PG_slab)) {
		if (page->flags & PG_large) {	/* a kmalloc_large block: its own lines */
			uint64_t first = (obj - page_address(page)) >> 6;
			if (first + (uint64_t)lines > page->cl_cap)
				lines = (int)(page->cl_cap - first);
			hw_obj_access(k->hw, cpu, &page->cl[first], obj >> 6, lines, write,
				      page->nid);
		}
		return;
	}
	unsigned int idx = slab_obj_index(page->slab, page, obj);
	/* the object's books: a touched object is often freed soon (note_free);
	 * its first line's last user, which hw_obj_access reads after its tags */
	__builtin_prefetch(&page->obj[idx]);
	__builtin_prefetch(&page->cl[(uint64_t)idx * page->slab->size >> 6]);
	slab_obj_access(k->hw, cpu, page, idx, lines, write);
}
