/* page_alloc.c - buddy allocator per node, per-CPU order-0 lists, mem_map.
 *
 * As in 2.6.25: order-0 requests go through the CPU's per_cpu_pages list
 * (refilled with `batch` pages by rmqueue_bulk under zone->lock, drained by
 * free_pages_bulk when it exceeds `high`); higher orders take zone->lock
 * every time. Page frames are created lazily from each node's range, so
 * memory use follows what the run touches. */
#include "page_alloc.h"
#include "engine/array_size.h"
#include "engine/oom.h"

#include <stdlib.h>
#include <string.h>

#include "engine/hostmem.h"
#include "kernel.h"

#define PA_CHUNK_SHIFT 13	/* struct pages per mem_map chunk: 8192, 2 MB */
#define PA_CHUNK (1ul << PA_CHUNK_SHIFT)

struct page *pfn_to_page(const struct page_alloc *pa, uint64_t pfn)
{
	uint64_t c = pfn >> PA_CHUNK_SHIFT;
	if (c >= pa->nchunks || !pa->chunks[c])
		return NULL;
	return &pa->chunks[c][pfn & (PA_CHUNK - 1)];
}

#define STRUCT_PAGE_56 56
#define MAP_LINES (PA_CHUNK * STRUCT_PAGE_56 / 64)	/* a chunk's mem_map lines */

/* The line of mem_map under byte `off` of a 56-byte struct page (a chunk's
 * 8192 pages start a line), or the page's own line when it has one. */
struct hw_line *page_field_line(struct page_alloc *pa, struct page *page, unsigned int off)
{
	if (!pa->page56)
		return &page->line;
	uint64_t i = page->pfn & (PA_CHUNK - 1);
	return &pa->map_lines[page->pfn >> PA_CHUNK_SHIFT][(i * STRUCT_PAGE_56 + off) >> 6];
}

/* A 56-byte struct page lies on at most two lines: the fields' bytes say which. */
void page_access(struct page_alloc *pa, struct sim_cpu *cpu, struct page *page,
		 unsigned int fields, bool write)
{
	struct hw *hw = pa->k->hw;
	if (!pa->page56) {
		(write ? hw_write : hw_read)(hw, cpu, &page->line);
		return;
	}
	static const struct { unsigned int field, off, len; } f[] = {
		{ PF_FLAGS, 0, 8 }, { PF_INUSE, 12, 2 }, { PF_SLAB, 16, 8 },
		{ PF_FREELIST, 32, 8 }, { PF_LRU, PAGE_OFF_LRU, 16 },
	};
	unsigned int first = (unsigned int)((page->pfn & (PA_CHUNK - 1)) * STRUCT_PAGE_56 & 63);
	bool on[2] = { false, false };
	for (int i = 0; i < ARRAY_SIZE(f); i++) {
		if (!(fields & f[i].field))
			continue;
		on[(first + f[i].off) >> 6] = true;
		on[(first + f[i].off + f[i].len - 1) >> 6] = true;
	}
	for (unsigned int l = 0; l < 2; l++)
		if (on[l])
			(write ? hw_write : hw_read)(hw, cpu,
						     page_field_line(pa, page, l ? 64 - first : 0));
}

/* Make the struct pages of [pfn, pfn + n) exist (memmap_init); with 56-byte
 * struct pages, their mem_map lines too, each page's lock bit on its first. */
static void memmap_init(struct page_alloc *pa, uint64_t pfn, uint64_t n, int nid)
{
	struct hw *hw = pa->k->hw;
	for (uint64_t p = pfn; p < pfn + n; p++) {
		uint64_t c = p >> PA_CHUNK_SHIFT;
		if (!pa->chunks[c]) {
			struct page *chunk = hostmem_alloc(PA_CHUNK * sizeof(*chunk));
			if (!chunk)
				host_oom(__func__);
			if (pa->page56) {
				pa->map_lines[c] = hostmem_alloc(MAP_LINES * sizeof(struct hw_line));
				if (!pa->map_lines[c])
					host_oom(__func__);
				for (uint64_t i = 0; i < MAP_LINES; i++)
					hw_line_init(hw, &pa->map_lines[c][i], nid);
			}
			pa->chunks[c] = chunk;
			for (uint64_t i = 0; i < PA_CHUNK; i++) {
				struct page *pg = &chunk[i];
				pg->pfn = (c << PA_CHUNK_SHIFT) + i;
				pg->nid = (int16_t)nid;
				INIT_LIST_HEAD(&pg->lru);
				pg->freelist = OBJ_NIL;
				hw_line_init(hw, &pg->line, nid);
				hw_lock_init(&pg->lock, LOCK_BYTE, page_field_line(pa, pg, 0),
					     &pa->page_lock_class);
			}
		}
	}
}

int page_alloc_init(struct page_alloc *pa, struct kernel *k, uint64_t pages_per_node,
		    struct sim_err *err)
{
	memset(pa, 0, sizeof(*pa));
	pa->k = k;
	pa->nodes = k->m->nodes;
	pages_per_node &= ~((1ull << (MAX_ORDER - 1)) - 1);
	pa->total_pages = pages_per_node * (uint64_t)pa->nodes;
	pa->nchunks = (pa->total_pages + PA_CHUNK - 1) >> PA_CHUNK_SHIFT;
	pa->chunks = calloc(pa->nchunks, sizeof(*pa->chunks));
	pa->page56 = k->era < 30100;
	pa->map_lines = calloc(pa->nchunks, sizeof(*pa->map_lines));
	pa->block_order = hostmem_alloc(pa->total_pages);
	pa->zones = calloc((size_t)pa->nodes, sizeof(*pa->zones));
	if (!pa->chunks || !pa->block_order || !pa->zones || !pa->map_lines)
		return sim_fail(err, "out of memory for the page allocator");
	hw_lock_class_init(k->hw, &pa->zone_lock_class, "&zone->lock", k->hw->sym_spin_lock);
	hw_lock_class_init(k->hw, &pa->page_lock_class, "page_lock", -1);
	pa->sym_rmqueue = profile_sym(&k->eng->prof, "get_page_from_freelist", SYM_KERNEL);
	pa->sym_free = profile_sym(&k->eng->prof, "free_hot_cold_page", SYM_KERNEL);
	const struct cost_ref costs[] = {
		{ "page_alloc", &pa->cost_alloc }, { "page_free", &pa->cost_free },
		{ "page_buddy_per_page", &pa->cost_per_page },
	};
	if (machine_costs(k->m, costs, 3, err) < 0)
		return -1;
	/* zone_batchsize(): a quarter of 1/1024 of the zone, at most 512 KB,
	 * rounded down to 2^n - 1; high = 6 * batch (2.6.25 setup_pageset). */
	uint64_t batch = pages_per_node / 1024;
	if (batch * PAGE_SIZE > 512 * 1024)
		batch = (512 * 1024) / PAGE_SIZE;
	batch /= 4;
	if (batch < 1)
		batch = 1;
	uint64_t b = batch + batch / 2;
	int fls = 0;
	while (b >> fls)
		fls++;
	batch = (1ull << (fls - 1)) - 1;
	for (int n = 0; n < pa->nodes; n++) {
		struct zone *z = &pa->zones[n];
		z->nid = n;
		z->start_pfn = pages_per_node * (uint64_t)n;
		z->end_pfn = z->start_pfn + pages_per_node;
		z->wild_pfn = z->start_pfn;
		z->free_pages = pages_per_node;
		hw_line_init(k->hw, &z->line, n);
		hw_lock_init(&z->lock, k->lock_kind, &z->line, &pa->zone_lock_class);
		for (int o = 0; o < MAX_ORDER; o++)
			INIT_LIST_HEAD(&z->free_area[o].free_list);
		z->pcp = calloc((size_t)k->m->ncpus, sizeof(*z->pcp));
		if (!z->pcp)
			return sim_fail(err, "out of memory for the page allocator");
		for (int c = 0; c < k->m->ncpus; c++) {
			z->pcp[c].batch = (int)batch;
			z->pcp[c].high = 6 * (int)batch;
			INIT_LIST_HEAD(&z->pcp[c].list);
		}
	}
	return 0;
}

void page_alloc_destroy(struct page_alloc *pa)
{
	for (uint64_t c = 0; c < pa->nchunks; c++) {
		if (!pa->chunks[c])
			continue;
		for (uint64_t i = 0; i < PA_CHUNK; i++) {	/* slab object arrays */
			free(pa->chunks[c][i].obj);
			free(pa->chunks[c][i].cl);
		}
		hostmem_free(pa->chunks[c], PA_CHUNK * sizeof(struct page));
		if (pa->map_lines[c])
			hostmem_free(pa->map_lines[c], MAP_LINES * sizeof(struct hw_line));
	}
	free(pa->chunks);
	free(pa->map_lines);
	hostmem_free(pa->block_order, pa->total_pages);
	for (int n = 0; n < pa->nodes; n++)
		free(pa->zones[n].pcp);
	free(pa->zones);
	memset(pa, 0, sizeof(*pa));
}

/* __page_find_buddy(): the buddy of an order-`order` block is the block whose frame number
 * differs in bit `order` (NULL if that frame's struct page does not exist yet). */
static inline struct page *buddy_of(struct page_alloc *pa, struct page *page, int order)
{
	return pfn_to_page(pa, page->pfn ^ (1ull << order));
}

/* __rmqueue(): the smallest free block of at least `order`, split down. */
static struct page *__rmqueue(struct page_alloc *pa, struct zone *z, int order)
{
	int o = order;
	while (o < MAX_ORDER && list_empty(&z->free_area[o].free_list))
		o++;
	struct page *page;
	if (o == MAX_ORDER) {
		/* first use of more of the node: a fresh MAX_ORDER block */
		uint64_t n = 1ull << (MAX_ORDER - 1);
		if (z->wild_pfn + n > z->end_pfn)
			return NULL;
		/* the die caches' tags must tell this part of the node apart */
		if (hw_memory_reach(pa->k->hw, (z->wild_pfn + n - z->start_pfn) << (PAGE_SHIFT - 6)) < 0)
			kernel_violation(pa->k, "out of host memory for the die caches' wide tags");
		memmap_init(pa, z->wild_pfn, n, z->nid);
		page = pfn_to_page(pa, z->wild_pfn);
		z->wild_pfn += n;
		o = MAX_ORDER - 1;
	} else {
		page = list_first_entry(&z->free_area[o].free_list, struct page, lru);
		list_del(&page->lru);
		z->free_area[o].nr_free--;
		page->flags &= ~PG_buddy;
	}
	while (o > order) {	/* expand(): give back the upper halves */
		o--;
		struct page *half = pfn_to_page(pa, page->pfn + (1ull << o));
		half->flags |= PG_buddy;
		half->order = (int8_t)o;
		list_add(&half->lru, &z->free_area[o].free_list);
		z->free_area[o].nr_free++;
	}
	page->order = (int8_t)order;
	z->free_pages -= 1ull << order;
	return page;
}

/* __free_one_page(): merge with free buddies as far as they go. */
static void __free_one_page(struct page_alloc *pa, struct zone *z, struct page *page, int order)
{
	z->free_pages += 1ull << order;
	while (order < MAX_ORDER - 1) {
		struct page *buddy = buddy_of(pa, page, order);
		if (!buddy || !(buddy->flags & PG_buddy) || buddy->order != order ||
		    buddy->nid != page->nid)
			break;
		list_del(&buddy->lru);
		z->free_area[order].nr_free--;
		buddy->flags &= ~PG_buddy;
		if (buddy->pfn < page->pfn)
			page = buddy;
		order++;
	}
	page->flags = PG_buddy;
	page->order = (int8_t)order;
	list_add(&page->lru, &z->free_area[order].free_list);
	z->free_area[order].nr_free++;
}

/* prep_compound_page(): a block of order > 0 gets a PG_head page and PG_tail pages pointing
 * at it; every frame notes the block's order for virt_to_head_page(). */
static void prep_compound(struct page_alloc *pa, struct page *page, unsigned int order)
{
	page->flags = order ? PG_head : 0;
	page->order = (int8_t)order;
	page->first_page = NULL;
	pa->block_order[page->pfn] = (uint8_t)order;
	for (uint64_t i = 1; i < (1ull << order); i++) {
		struct page *t = pfn_to_page(pa, page->pfn + i);
		t->flags = PG_tail;
		t->first_page = page;
		pa->block_order[page->pfn + i] = (uint8_t)order;
	}
}

struct page *alloc_pages_node(struct page_alloc *pa, struct sim_cpu *cpu, int nid,
			      unsigned int order)
{
	struct kernel *k = pa->k;
	struct zone *z = &pa->zones[nid];
	/* should_fail_alloc_page(): fail_page_alloc= may fail it, with the
	 * flags of the slab allocation it serves (kernel.h: gfp_context) */
	if (k->fail_page_alloc.enabled && order >= k->fail_page_alloc_min_order &&
	    !fault_gfp_spared(&k->fail_page_alloc, k->gfp_context[cpu->id]) &&
	    should_fail(&k->fail_page_alloc, k->eng->rng, (size_t)PAGE_SIZE << order))
		return NULL;
	int prev = sym_enter(cpu, pa->sym_rmqueue);
	cpu_charge(cpu, pa->cost_alloc);
	struct page *page = NULL;
	if (order == 0) {
		struct per_cpu_pages *pcp = &z->pcp[cpu->id];
		if (!pcp->count) {	/* rmqueue_bulk() */
			hw_spin_lock(k->hw, cpu, &z->lock);
			for (int i = 0; i < pcp->batch; i++) {
				struct page *p = __rmqueue(pa, z, 0);
				if (!p)
					break;
				page_access(pa, cpu, p, PF_FLAGS | PF_LRU, true);
				cpu_charge(cpu, pa->cost_per_page);
				p->flags = PG_pcp;
				list_add_tail(&p->lru, &pcp->list);
				pcp->count++;
			}
			hw_spin_unlock(k->hw, cpu, &z->lock);
		}
		if (pcp->count) {
			page = list_first_entry(&pcp->list, struct page, lru);
			list_del(&page->lru);
			pcp->count--;
		}
	} else {
		hw_spin_lock(k->hw, cpu, &z->lock);
		page = __rmqueue(pa, z, (int)order);
		cpu_charge(cpu, pa->cost_per_page);
		hw_spin_unlock(k->hw, cpu, &z->lock);
	}
	if (page) {
		prep_compound(pa, page, order);
		pa->allocs[order]++;
		pa->pages_out += 1ull << order;
	} else {
		pa->failed[order]++;	/* the node has no free block that large */
	}
	sym_exit(cpu, prev);
	return page;
}

uint64_t page_alloc_failures(const struct page_alloc *pa)
{
	uint64_t n = 0;
	for (int o = 0; o < MAX_ORDER; o++)
		n += pa->failed[o];
	return n;
}

void __free_pages(struct page_alloc *pa, struct sim_cpu *cpu, struct page *page,
		  unsigned int order)
{
	struct kernel *k = pa->k;
	struct zone *z = &pa->zones[page->nid];
	int prev = sym_enter(cpu, pa->sym_free);
	cpu_charge(cpu, pa->cost_free);
	for (uint64_t i = 0; i < (1ull << order); i++) {
		pa->block_order[page->pfn + i] = 0;
		if (i) {
			struct page *t = pfn_to_page(pa, page->pfn + i);
			t->flags = 0;
			t->first_page = NULL;
		}
	}
	pa->frees[order]++;
	pa->pages_out -= 1ull << order;
	if (order == 0) {	/* free_hot_page() */
		struct per_cpu_pages *pcp = &z->pcp[cpu->id];
		page->flags = PG_pcp;
		list_add(&page->lru, &pcp->list);
		pcp->count++;
		if (pcp->count >= pcp->high) {	/* free_pages_bulk(), coldest first */
			hw_spin_lock(k->hw, cpu, &z->lock);
			for (int i = 0; i < pcp->batch; i++) {
				struct page *p = list_entry(pcp->list.prev, struct page, lru);
				list_del(&p->lru);
				pcp->count--;
				page_access(pa, cpu, p, PF_FLAGS | PF_LRU, true);
				cpu_charge(cpu, pa->cost_per_page);
				__free_one_page(pa, z, p, 0);
			}
			hw_spin_unlock(k->hw, cpu, &z->lock);
		}
	} else {
		hw_spin_lock(k->hw, cpu, &z->lock);
		cpu_charge(cpu, pa->cost_per_page);
		__free_one_page(pa, z, page, (int)order);
		hw_spin_unlock(k->hw, cpu, &z->lock);
	}
	sym_exit(cpu, prev);
}

void account_slab_pages(struct page_alloc *pa, int nid, long pages)
{
	pa->zones[nid].slab_pages += (uint64_t)pages;
	pa->slab_pages += (uint64_t)pages;
	if (pa->slab_pages > pa->slab_pages_peak)
		pa->slab_pages_peak = pa->slab_pages;
}

int page_alloc_check(const struct page_alloc *pa, struct sim_err *err)
{
	uint64_t held = 0;
	for (int n = 0; n < pa->nodes; n++) {
		const struct zone *z = &pa->zones[n];
		held += z->free_pages;
		for (int c = 0; c < pa->k->m->ncpus; c++)
			held += (uint64_t)z->pcp[c].count;
	}
	if (held + pa->pages_out != pa->total_pages)
		return sim_fail(err, "page allocator: %llu pages free or on per-CPU lists + "
				"%llu handed out != %llu pages in all (a page leaked)",
				(unsigned long long)held, (unsigned long long)pa->pages_out,
				(unsigned long long)pa->total_pages);
	for (int n = 0; n < pa->nodes; n++) {
		const struct zone *z = &pa->zones[n];
		uint64_t buddy = 0;
		for (int o = 0; o < MAX_ORDER; o++) {
			uint64_t cnt = 0;
			const struct page *p;
			list_for_each_entry(p, &z->free_area[o].free_list, lru) {
				if (!(p->flags & PG_buddy) || p->order != o)
					return sim_fail(err, "page allocator: node %d pfn %llu on "
							"free_area[%d] is not a free buddy of that order",
							n, (unsigned long long)p->pfn, o);
				cnt++;
			}
			if (cnt != z->free_area[o].nr_free)
				return sim_fail(err, "page allocator: node %d free_area[%d] has %llu "
						"blocks but nr_free says %lu", n, o,
						(unsigned long long)cnt, z->free_area[o].nr_free);
			buddy += cnt << o;
		}
		uint64_t wild = z->end_pfn - z->wild_pfn;
		if (buddy + wild != z->free_pages)
			return sim_fail(err, "page allocator: node %d: %llu pages in buddy lists + "
					"%llu never used != free_pages %llu", n,
					(unsigned long long)buddy, (unsigned long long)wild,
					(unsigned long long)z->free_pages);
	}
	return 0;
}
