/* slub_order.c - SLUB's geometry: calculate_alignment, slab_order,
 * calculate_order, the 2.6.25 kmalloc special case, cache merging, and the
 * boot parameters with each era's defaults. */
#include <string.h>

#include "slub.h"

#define ARCH_SLAB_MINALIGN 8
#define CACHE_LINE_SIZE 64	/* cache_line_size() on x86 */
#define SLUB_NEVER_MERGE 0ul	/* no debug flags are modelled */

const struct param_def slub_param_defs[] = {
	{ "slub_min_objects", PT_INT, "4", 0, 4096, NULL,
	  "objects a slab should hold at least (0: 4*(fls(nr_cpu_ids)+1), 2.6.26)" },
	{ "slub_min_order", PT_INT, "0", 0, 10, NULL, "smallest page order of a slab" },
	{ "slub_max_order", PT_INT, "1", 0, 10, NULL, "largest page order calculate_order may pick" },
	{ "slub_nomerge", PT_BOOL, "0", 0, 1, NULL, "do not merge caches of similar size" },
	{ "slub_kmalloc_fallback", PT_BOOL, "1", 0, 1, NULL,
	  "2.6.25: kmalloc caches with < slub_min_objects per page get order max(slub_max_order, 3)" },
	{ "slub_deactivate_hot_head", PT_BOOL, "1", 0, 1, NULL,
	  "2.6.25: a CPU slab given up with hot objects goes to the partial list head" },
	{ "remote_node_defrag_ratio", PT_INT, "100", 0, 1023, NULL,
	  "chance/1024 of taking partial slabs from other nodes" },
	{ NULL },
};

/* Defaults of each era (mm/slub.c of that version, 4 KB pages). */
int slub_presets(struct param_set *ps, int era, struct sim_err *err)
{
	bool e26 = era >= 20626, e25 = era >= 20625;
	if (params_preset(ps, "slub_min_objects", e26 ? "0" : "4", err) < 0 ||
	    params_preset(ps, "slub_max_order", e26 ? "3" : "1", err) < 0 ||
	    params_preset(ps, "slub_kmalloc_fallback", e25 && !e26 ? "1" : "0", err) < 0 ||
	    params_preset(ps, "slub_deactivate_hot_head", e25 ? "1" : "0", err) < 0)
		return -1;
	return 0;
}

static int fls(unsigned long x)
{
	int r = 0;
	while (x) {
		r++;
		x >>= 1;
	}
	return r;
}

#define ALIGN(x, a) (((x) + (a) - 1) & ~((a) - 1))

/* calculate_alignment(): 2.6.25 halves the line size for small objects. */
static unsigned int calculate_alignment(const struct slub *sl, unsigned long flags,
					unsigned int align, unsigned int size)
{
	if (flags & SLAB_HWCACHE_ALIGN) {
		if (sl->era >= 20625) {
			unsigned int ralign = CACHE_LINE_SIZE;
			while (size <= ralign / 2)
				ralign /= 2;
			if (ralign > align)
				align = ralign;
		} else if (size > CACHE_LINE_SIZE / 2 && align < CACHE_LINE_SIZE) {
			align = CACHE_LINE_SIZE;
		}
	}
	if (align < ARCH_SLAB_MINALIGN)
		align = ARCH_SLAB_MINALIGN;
	return ALIGN(align, (unsigned int)sizeof(void *));
}

/* slab_order(): the smallest order >= the minimum that holds min_objects with
 * at most 1/fract_leftover of the slab wasted. */
static int slab_order(const struct slub *sl, int size, int min_objects, int max_order,
		      int fract_leftover)
{
	int order;
	int min_order = fls((unsigned long)min_objects * (unsigned long)size - 1) - PAGE_SHIFT;
	if (min_order < sl->min_order)
		min_order = sl->min_order;
	for (order = min_order; order <= max_order; order++) {
		unsigned long slab_size = PAGE_SIZE << order;
		if (slab_size < (unsigned long)min_objects * (unsigned long)size)
			continue;
		unsigned long rem = slab_size % (unsigned long)size;
		if (rem <= slab_size / (unsigned long)fract_leftover)
			break;
	}
	return order;
}

int slub_calculate_order(const struct slub *sl, int size)
{
	int min_objects = sl->min_objects;
	if (!min_objects)	/* 2.6.26: scale with the CPUs */
		min_objects = 4 * (fls((unsigned long)sl->k->m->ncpus) + 1);
	while (min_objects > 1) {
		int fraction = sl->fraction_start;
		while (fraction >= 4) {
			int order = slab_order(sl, size, min_objects, sl->max_order, fraction);
			if (order <= sl->max_order)
				return order;
			fraction /= 2;
		}
		min_objects /= 2;
	}
	int order = slab_order(sl, size, 1, sl->max_order, 1);
	if (order <= sl->max_order)
		return order;
	order = slab_order(sl, size, 1, MAX_ORDER - 1, 1);
	if (order < MAX_ORDER)
		return order;
	return -1;
}

int slub_calculate_sizes(struct slub *sl, struct slub_cache *s, unsigned int objsize,
			 unsigned int align, unsigned long flags, unsigned int *size_out)
{
	unsigned int size = ALIGN(objsize, (unsigned int)sizeof(void *));
	align = calculate_alignment(sl, flags, align, objsize);
	size = ALIGN(size, align);
	if (sl->kmalloc_order_fallback && (flags & __KMALLOC_CACHE) &&
	    PAGE_SIZE / size < (unsigned long)sl->min_objects) {
		/* 2.6.25: a kmalloc cache that would not have enough objects in
		 * an order-0 page takes a large order (it may fall back to the
		 * page allocator) */
		s->order = sl->max_order > PAGE_ALLOC_COSTLY_ORDER ? sl->max_order
								   : PAGE_ALLOC_COSTLY_ORDER;
		s->page_alloc_fallback = true;
	} else {
		s->order = slub_calculate_order(sl, (int)size);
	}
	if (s->order < 0)
		return -1;
	s->objects = (int)((PAGE_SIZE << s->order) / size);
	*size_out = size;
	return 0;
}

/* find_mergeable(): an existing cache whose slots fit this one with at most
 * a word wasted (first match, newest cache first). */
struct slub_cache *slub_find_mergeable(struct slub *sl, unsigned int size, unsigned int align,
				       unsigned long flags)
{
	if (sl->nomerge || (flags & SLUB_NEVER_MERGE))
		return NULL;
	size = ALIGN(size, (unsigned int)sizeof(void *));
	align = calculate_alignment(sl, flags, align, size);
	size = ALIGN(size, align);
	for (int i = sl->ncaches - 1; i >= 0; i--) {
		struct slub_cache *s = sl->caches[i];
		unsigned int ssize = s->kc->size;
		if (s->page_alloc_fallback)	/* slab_unmergeable() in 2.6.25 */
			continue;
		if (size > ssize)
			continue;
		if ((ssize & ~(align - 1)) != ssize)
			continue;
		if (ssize - size >= sizeof(void *))
			continue;
		return s;
	}
	return NULL;
}
