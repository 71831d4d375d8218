/* slub_order.c - SLUB's geometry: calculate_alignment, slab_order,
 * calculate_order, the 2.6.25 kmalloc special case, cache merging, and the
 * boot parameters with each era's defaults. */
#include <stdlib.h>
#include <string.h>

#include "slub.h"
#include "kernel/bitops.h"

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
	  "2.6.25-3.0: a CPU slab given up with hot objects goes to the partial list head" },
	{ "remote_node_defrag_ratio", PT_INT, "100", 0, 1023, NULL,
	  "chance/1024 of taking partial slabs from other nodes" },
	{ "slub_lockless", PT_BOOL, "0", 0, 1, NULL,
	  "3.1: cmpxchg_double slow paths (frozen bit) instead of the page bit lock; the tid fast "
	  "path (2.6.39 on, so 3.0's too) is priced as 2.6.2x's IRQ-off one" },
	{ "slub_order_rule", PT_ENUM, "halve", 0, 0, "halve|decrement",
	  "calculate_order: halve min_objects (2.6.2x) or decrement it, capped by what "
	  "slub_max_order holds (3.x)" },
	{ "slub_min_partial_rule", PT_INT, "0", 0, 2, NULL,
	  "min_partial: 0 MIN_PARTIAL=5 (2.6.2x), 1 ilog2(size) (3.0, 3.1), 2 ilog2(size)/2 (3.2), "
	  "clamped to [5, 10]" },
	{ "slub_percpu_partial", PT_BOOL, "0", 0, 1, NULL,
	  "3.2: per-CPU partial lists (put_cpu_partial, unfreeze_partials)" },
	{ "cpu_partial", PT_INT, "-1", -1, 4096, NULL,
	  "3.2: objects a CPU keeps in partial slabs, every cache (-1: by object size "
	  "2/6/13/30; 0: drained at once)" },
	{ "cpu_partial_scale", PT_DOUBLE, "1", 0, 1000000, NULL,
	  "what-if: multiply the by-size cpu_partial default (2/6/13/30) by this, rounded "
	  "(0.5 halves it; 1000000 is in effect unlimited); not in any kernel" },
	{ "cpu_partial_caches", PT_STR, "", 0, 0, "kmalloc-512:20,kmalloc-192:40",
	  "3.2: cpu_partial of named caches, NAME:N,... (0 <= N <= 4096)" },
	{ "slub_unfreeze_bug", PT_BOOL, "0", 0, 1, NULL,
	  "3.2-rc: unfreeze_partials compared nr_partial < min_partial, so a node keeps every "
	  "empty slab once it has min_partial" },
	{ "slub_cpu_slab", PT_BOOL, "1", 0, 1, NULL,
	  "a CPU slab per cache (kmem_cache_cpu), up to 6.18; 7.0 has none: below the sheaves "
	  "every object comes from and goes to the node's slabs" },
	{ "slub_sheaves", PT_ENUM, "off", 0, 0, "off|opt-in|all",
	  "percpu sheaves and per-node barns: 6.18 for the caches that ask (vm_area_struct, "
	  "maple_node: 32), 7.0 for every cache" },
	{ "sheaf_capacity", PT_INT, "-1", -1, 4096, NULL,
	  "objects per sheaf, every cache (-1: the era's rule, 7.0 4/12/28/60 by object size; 0: "
	  "no sheaves; at most what the largest kmalloc holds, 1020 from 6.18)" },
	{ "sheaf_capacity_caches", PT_STR, "", 0, 0, "kmalloc-512:28,skbuff_head_cache:60",
	  "sheaf capacity of named caches, NAME:N,... (0: no sheaves; at most 1020 from 6.18)" },
	{ NULL },
};

/* Defaults of each era (mm/slub.c of that version, 4 KB pages). 3.0 keeps
 * 2.6.2x's slow paths under the page's slab_lock (__slab_free,
 * get_partial_node's slab_trylock walk, deactivate_slab putting a slab with
 * hot objects at the head), with the calculate_order (min_objects--, capped
 * by what slub_max_order holds) and min_partial (ilog2(size) in [5, 10])
 * that 2.6.31 already had; 3.1 replaced the slab_lock paths. */
int slub_presets(struct param_set *ps, int era, struct sim_err *err)
{
	bool e26 = era >= 20626, e25 = era >= 20625, e30 = era >= 30000;
	bool e31 = era >= 30100, e32 = era >= 30200, e618 = era >= 61800, e70 = era >= 70000;
	if (params_preset(ps, "slub_min_objects", e26 ? "0" : "4", err) < 0 ||
	    params_preset(ps, "slub_max_order", e26 ? "3" : "1", err) < 0 ||
	    params_preset(ps, "slub_kmalloc_fallback", e25 && !e26 ? "1" : "0", err) < 0 ||
	    params_preset(ps, "slub_deactivate_hot_head", e25 && !e31 ? "1" : "0", err) < 0 ||
	    params_preset(ps, "slub_lockless", e31 ? "1" : "0", err) < 0 ||
	    params_preset(ps, "slub_order_rule", e30 ? "decrement" : "halve", err) < 0 ||
	    params_preset(ps, "slub_min_partial_rule", e32 ? "2" : e30 ? "1" : "0", err) < 0 ||
	    params_preset(ps, "slub_percpu_partial", e32 && !e70 ? "1" : "0", err) < 0 ||
	    params_preset(ps, "slub_cpu_slab", e70 ? "0" : "1", err) < 0 ||
	    params_preset(ps, "slub_sheaves", e70 ? "all" : e618 ? "opt-in" : "off", err) < 0)
		return -1;
	return 0;
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
	if (sl->order_decrement) {	/* 3.x: no more than slub_max_order holds */
		int max_objects = (int)((PAGE_SIZE << sl->max_order) / (unsigned long)size);
		if (min_objects > max_objects)
			min_objects = max_objects;
	}
	while (min_objects > 1) {
		int fraction = sl->fraction_start;
		while (fraction >= 4) {
			int order = slab_order(sl, size, min_objects, sl->max_order, fraction);
			if (order <= sl->max_order)
				return order;
			fraction /= 2;
		}
		if (sl->order_decrement)
			min_objects--;
		else
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
		if (s->page_alloc_fallback || s->sheaf_explicit)	/* slab_unmergeable() */
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

/* The cpu_partial of a cache: cpu_partial_caches, else cpu_partial, else
 * kmem_cache_open()'s default by object size. */
static int cpu_partial_of(const struct slub *sl, const struct slub_cache *s)
{
	const char *p = sl->cpu_partial_caches;
	size_t len = strlen(s->kc->name);
	while (*p) {
		if (!strncmp(p, s->kc->name, len) && p[len] == ':')
			return atoi(p + len + 1);
		p = strchr(p, ',');
		if (!p)
			break;
		p++;
	}
	if (sl->cpu_partial >= 0)
		return sl->cpu_partial;
	unsigned int size = s->kc->size;
	int def = size >= PAGE_SIZE ? 2 : size >= 1024 ? 6 : size >= 256 ? 13 : 30;
	return (int)(def * sl->cpu_partial_scale + 0.5);
}

/* kmem_cache_open(): min_partial (set_min_partial clamps to [5, 10]) and
 * cpu_partial of a new cache. */
void slub_cache_tunables(struct slub *sl, struct slub_cache *s)
{
	unsigned long min = sl->min_partial_rule == 0 ? MIN_PARTIAL
		: sl->min_partial_rule == 1 ? (unsigned long)ilog2(s->kc->size)
		: (unsigned long)ilog2(s->kc->size) / 2;
	s->min_partial = min < MIN_PARTIAL ? MIN_PARTIAL : min > MAX_PARTIAL ? MAX_PARTIAL : min;
	s->cpu_partial = sl->cpu_partial_on ? cpu_partial_of(sl, s) : 0;
}

/* A per-cache list `param`: NAME:N pairs separated by commas, 0 <= N <= max. */
int slub_parse_cache_list(const char *param, const char *list, int max, struct sim_err *err)
{
	const char *p = list;
	while (*p) {
		const char *colon = strchr(p, ':'), *comma = strchr(p, ',');
		if (!colon || colon == p || (comma && comma < colon))
			return sim_fail(err, "%s=%s: expected NAME:N,... (e.g. kmalloc-512:20)", param,
					list);
		char *end;
		long v = strtol(colon + 1, &end, 10);
		if (end == colon + 1 || (*end && *end != ',') || v < 0 || v > max)
			return sim_fail(err, "%s=%s: '%.*s' is not a count in [0, %d]", param, list,
					(int)((comma ? comma : colon + strlen(colon)) - colon - 1),
					colon + 1, max);
		if (!*end)
			break;
		p = end + 1;
	}
	return 0;
}

int slub_parse_cpu_partial(struct slub *sl, struct sim_err *err)
{
	return slub_parse_cache_list("cpu_partial_caches", sl->cpu_partial_caches, 4096, err);
}
