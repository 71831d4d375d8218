/* slab_geometry.c - SLAB's parameters and the shape of each cache, as
 * kmem_cache_create() decides it: the alignment, on- or off-slab
 * descriptors (objects of PAGE_SIZE/8 and more keep theirs off the slab),
 * the order (calculate_slab_order: the first order with at most 1/8 waste,
 * stopping at slab_break_gfp_order) and the per-CPU array tunables of
 * enable_cpucache(). */
#include <string.h>

#include "kernel/slab.h"
#include "slab.h"

const struct param_def slab_param_defs[] = {
	{ "slab_limit", PT_INT, "0", 0, 4096, NULL,
	  "per-CPU array size of every cache (0: enable_cpucache() by object size)" },
	{ "slab_batchcount", PT_INT, "0", 0, 4096, NULL,
	  "objects moved per refill or flush (0: (limit + 1) / 2)" },
	{ "slab_shared", PT_INT, "-1", -1, 64, NULL,
	  "shared array factor, in batches (-1: 8 for objects up to PAGE_SIZE on SMP)" },
	{ "slab_tunables", PT_STR, "", 0, 0, "kmalloc-512:120:60:8",
	  "tunables of named caches, NAME:LIMIT:BATCHCOUNT:SHARED,... (as written to "
	  "/proc/slabinfo; 1 <= BATCHCOUNT <= LIMIT <= 4096, 0 <= SHARED <= 64)" },
	{ "slab_alien_caches", PT_BOOL, "1", 0, 1, NULL,
	  "alien arrays for frees of other nodes' objects (noaliencache: 0)" },
	{ NULL },
};

/* mm/slab.c did not change these between 2.6.24 and 2.6.26. */
int slab_presets(struct param_set *ps, int era, struct sim_err *err)
{
	(void)ps;
	(void)era;
	(void)err;
	return 0;
}

#define ALIGN(x, a) (((x) + (a) - 1) & ~((a) - 1))
#define CACHE_LINE 64u
#define SLAB_LIMIT 0xfffffffeu	/* kmem_bufctl_t values: BUFCTL_END etc. above */

/* slab_mgmt_size(): the bytes of an on-slab descriptor, struct slab and a kmem_bufctl_t
 * per object, aligned. */
static unsigned int slab_mgmt_size(unsigned int nr_objs, unsigned int align)
{
	return ALIGN(SLAB_STRUCT_SIZE + nr_objs * BUFCTL_SIZE, align);
}

/* cache_estimate(): objects per slab of order `gfporder`, and the waste. */
static void cache_estimate(int gfporder, unsigned int size, unsigned int align, bool off_slab,
			   unsigned long *left_over, unsigned int *num)
{
	unsigned long slab_size = PAGE_SIZE << gfporder;
	unsigned long mgmt_size;
	unsigned long nr_objs;
	if (off_slab) {
		mgmt_size = 0;
		nr_objs = slab_size / size;
	} else {
		nr_objs = (slab_size - SLAB_STRUCT_SIZE) / (size + BUFCTL_SIZE);
		if (slab_mgmt_size((unsigned int)nr_objs, align) + nr_objs * size > slab_size)
			nr_objs--;
		mgmt_size = slab_mgmt_size((unsigned int)nr_objs, align);
	}
	if (nr_objs > OBJ_NIL - 1)	/* the model's object index is 16 bits */
		nr_objs = OBJ_NIL - 1;
	*num = (unsigned int)nr_objs;
	*left_over = slab_size - nr_objs * size - mgmt_size;
}

int slab_calculate_geometry(struct slab_state *sb, struct slab_cache *cp, struct sim_err *err)
{
	struct kmem_cache *kc = cp->kc;
	unsigned int size = ALIGN(kc->object_size, (unsigned int)sizeof(void *));
	unsigned int align = sizeof(void *);
	if (kc->flags & SLAB_HWCACHE_ALIGN) {
		align = CACHE_LINE;
		while (size <= align / 2)
			align /= 2;
	}
	if (align < kc->align)
		align = kc->align;
	bool off_slab = size >= (PAGE_SIZE >> 3);
	size = ALIGN(size, align);
	unsigned long left_over = 0;
	cp->num = 0;
	for (int gfporder = 0; gfporder <= KMALLOC_MAX_ORDER_SLAB; gfporder++) {
		unsigned int num;
		unsigned long remainder;
		cache_estimate(gfporder, size, align, off_slab, &remainder, &num);
		if (!num)
			continue;
		if (off_slab) {	/* offslab_limit: descriptors must fit their cache */
			unsigned long limit = (size - SLAB_STRUCT_SIZE) / BUFCTL_SIZE;
			if (num > limit)
				break;
		}
		cp->num = num;
		cp->gfporder = gfporder;
		left_over = remainder;
		if (gfporder >= sb->break_gfp_order)
			break;
		if (left_over * 8 <= (PAGE_SIZE << gfporder))
			break;
	}
	if (!cp->num)
		return sim_fail(err, "kmem_cache_create: couldn't create cache %s (%u bytes)",
				kc->name, kc->object_size);
	unsigned int slab_size = slab_mgmt_size(cp->num, align);
	if (off_slab && left_over >= slab_size) {	/* room on the slab after all */
		off_slab = false;
		left_over -= slab_size;
	}
	if (off_slab) {
		slab_size = SLAB_STRUCT_SIZE + cp->num * BUFCTL_SIZE;
		cp->slabp_cache = kmalloc_slab(sb->k, slab_size);	/* kmem_find_general_cachep */
		if (!cp->slabp_cache)
			return sim_fail(err, "cache %s: no kmalloc cache for its %u-byte slab "
					"descriptors", kc->name, slab_size);
	}
	cp->off_slab = off_slab;
	cp->slab_size = slab_size;
	cp->colour_off = align > CACHE_LINE ? align : CACHE_LINE;
	cp->colour = (unsigned int)(left_over / cp->colour_off);
	kc->size = size;
	return 0;
}

/* The LIMIT:BATCHCOUNT:SHARED that slab_tunables gives cache `name` (the
 * last pair naming it wins, as the last write to /proc/slabinfo would). */
static bool named_tunables(const char *p, const char *name, int t[3])
{
	size_t len = strlen(name);
	bool found = false;
	for (; *p; p++) {
		if (!strncmp(p, name, len) && p[len] == ':' &&
		    sscanf(p + len + 1, "%d:%d:%d", &t[0], &t[1], &t[2]) == 3)
			found = true;
		p = strchr(p, ',');
		if (!p)
			break;
	}
	return found;
}

/* slab_tunables: NAME:LIMIT:BATCHCOUNT:SHARED pairs separated by commas,
 * with do_tune_cpucache()'s bounds (1 <= batchcount <= limit). */
int slab_parse_tunables(struct slab_state *sb, struct sim_err *err)
{
	for (const char *p = sb->tunables; *p;) {
		const char *comma = strchr(p, ',');
		int len = comma ? (int)(comma - p) : (int)strlen(p);
		char item[PARAM_TEXT], name[PARAM_TEXT];
		snprintf(item, sizeof(item), "%.*s", len, p);
		int l, b, sh, n = 0;
		if (sscanf(item, "%255[^:]:%d:%d:%d%n", name, &l, &b, &sh, &n) != 4 || n != len)
			return sim_fail(err, "slab_tunables=%s: '%s' is not NAME:LIMIT:BATCHCOUNT:SHARED "
					"(e.g. kmalloc-512:120:60:8)", sb->tunables, item);
		if (l < 1 || l > 4096 || b < 1 || b > l || sh < 0 || sh > 64)
			return sim_fail(err, "slab_tunables=%s: '%s' is out of range (1 <= BATCHCOUNT "
					"<= LIMIT <= 4096, 0 <= SHARED <= 64)", sb->tunables, item);
		p = comma ? comma + 1 : p + len;
	}
	return 0;
}

/* Every cache slab_tunables names must exist once every cache does. */
int slab_check_tunables(struct slab_state *sb, struct sim_err *err)
{
	for (const char *p = sb->tunables; *p;) {
		const char *colon = strchr(p, ':');
		bool known = false;
		for (int i = 0; i < sb->k->ncaches && !known; i++)
			known = strlen(sb->k->caches[i]->name) == (size_t)(colon - p) &&
				!strncmp(sb->k->caches[i]->name, p, (size_t)(colon - p));
		if (!known)
			return sim_fail(err, "slab_tunables: no cache named '%.*s' (slabsim show "
					"policy slab lists them)", (int)(colon - p), p);
		p = strchr(colon, ',');
		if (!p)
			break;
		p++;
	}
	return 0;
}

/* enable_cpucache(): the array size by object size, half of it per batch,
 * a shared array of 8 batches for objects up to a page; the slab_limit,
 * slab_batchcount and slab_shared parameters override them (as writing
 * "name limit batchcount shared" to /proc/slabinfo does). */
void slab_enable_cpucache(struct slab_state *sb, struct slab_cache *cp)
{
	unsigned int size = cp->kc->size, limit;
	if (size > 131072)
		limit = 1;
	else if (size > PAGE_SIZE)
		limit = 8;
	else if (size > 1024)
		limit = 24;
	else if (size > 256)
		limit = 54;
	else
		limit = 120;
	unsigned int shared = size <= PAGE_SIZE && sb->ncpus > 1 ? 8 : 0;
	if (sb->tune_limit)
		limit = (unsigned int)sb->tune_limit;
	unsigned int batchcount = sb->tune_batchcount ? (unsigned int)sb->tune_batchcount
						      : (limit + 1) / 2;
	if (batchcount > limit)
		batchcount = limit;
	if (sb->tune_shared >= 0)
		shared = (unsigned int)sb->tune_shared;
	int t[3];
	if (named_tunables(sb->tunables, cp->kc->name, t)) {
		limit = (unsigned int)t[0];
		batchcount = (unsigned int)t[1];
		shared = (unsigned int)t[2];
	}
	cp->limit = limit;
	cp->batchcount = batchcount;
	cp->shared = shared;
}
