/* slab_blocks_check.c - the standard check every design on the blocks
 * shares, with one message per kind of fault, and what slabinfo shows of a
 * cache (layout and what each models: slab_blocks.h). */
#include "slab_blocks.h"

#include <stdlib.h>

int sb_check_begin(struct sb_cache *sc, struct sim_err *err)
{
	free(sc->held);
	sc->held = calloc((size_t)sc->nall + 1, sizeof(*sc->held));
	return sc->held ? 0 : sim_fail(err, "%s: out of host memory for the check", sc->policy);
}

/* Whether page is a slab of sc's registry. */
static bool registered(const struct sb_cache *sc, const struct page *page)
{
	return page->slab_idx >= 0 && page->slab_idx < sc->nall && sc->all[page->slab_idx] == page;
}

int sb_check_held(struct sb_cache *sc, kaddr_t obj, const char *where, struct sim_err *err)
{
	struct page *page = virt_to_head_page(&sc->k->pa, obj);
	const char *name = sc->kc->name;
	if (!page || !(page->flags & PG_slab) || page->slab != sc->kc)
		return sim_fail(err, "%s %s: %s holds %#llx, which is not an object of this cache",
				sc->policy, name, where, (unsigned long long)obj);
	if (!registered(sc, page))
		return sim_fail(err, "%s %s: %s holds an object of slab pfn %llu, which is not in "
				"the cache's registry", sc->policy, name, where,
				(unsigned long long)page->pfn);
	if (page->obj[slab_obj_index(sc->kc, page, obj)].live)
		return sim_fail(err, "%s %s: %s holds %#llx, an object in use", sc->policy, name,
				where, (unsigned long long)obj);
	sc->held[page->slab_idx]++;
	return 0;
}

int sb_check_array(struct sb_cache *sc, const struct sb_array *a, const char *where,
		   struct sim_err *err)
{
	if (a->avail > a->limit)
		return sim_fail(err, "%s %s: %s holds %u objects, above its limit %u", sc->policy,
				sc->kc->name, where, a->avail, a->limit);
	for (unsigned int i = 0; i < a->avail; i++)
		if (sb_check_held(sc, a->obj[i], where, err) < 0)
			return -1;
	return 0;
}

/* What a walk of one owner's lists found. */
struct list_count {
	unsigned long n[4];		/* slabs on each list (enum sb_list) */
	unsigned long empty_partial;	/* empty slabs on partial */
	long seen;			/* slabs on every list walked, against loops */
};

/* A slab on list l (bin `bin` with SB_BINS) fits there: full on full,
 * empty on free, neither full nor (with a free list, or where empty slabs
 * are freed at once) empty on partial, in the bin its fill gives. */
static int check_fill(const struct sb_cache *sc, const struct sb_node *n, const struct page *page,
		      enum sb_list l, int bin, struct sim_err *err)
{
	const char *list = sc->list_name[l - 1], *name = sc->kc->name;
	unsigned long long pfn = page->pfn;
	if ((l == SB_FULL && page->inuse != page->objects) || (l == SB_FREE && page->inuse))
		return sim_fail(err, "%s %s: slab pfn %llu is on %s's %s list with %u of %u objects in "
				"use", sc->policy, name, pfn, n->name, list, page->inuse, page->objects);
	if (l == SB_PARTIAL && page->inuse >= page->objects)
		return sim_fail(err, "%s %s: slab pfn %llu is on %s's %s list but full (%u of %u "
				"objects in use)", sc->policy, name, pfn, n->name, list, page->inuse,
				page->objects);
	if (l == SB_PARTIAL && !page->inuse && (sc->flags & (SB_FREE_LIST | SB_NO_EMPTY)))
		return sim_fail(err, "%s %s: slab pfn %llu is on %s's %s list but empty (%s)",
				sc->policy, name, pfn, n->name, list, sc->flags & SB_NO_EMPTY ?
				"an empty slab is freed at once" : "the free list is for that");
	if (bin >= 0) {
		unsigned int bs = sc->bin_shift, inuse = page->inuse;
		int want = (int)(inuse <= bs || sc->objects - inuse <= bs ? inuse : bs + (inuse >> bs));
		if (want != bin || bin > n->top)
			return sim_fail(err, "%s %s: slab pfn %llu (%u of %u in use) is in %s's %s bin %d "
					"(top %d)", sc->policy, name, pfn, inuse, page->objects, n->name,
					list, bin, n->top);
	}
	return 0;
}

/* One list of one owner: each slab is the cache's, of the owner's node,
 * in the registry, marked as on this list and filled as it says. */
static int check_list(const struct sb_cache *sc, const struct sb_node *n,
		      const struct list_head *head, enum sb_list l, int bin, struct list_count *c,
		      struct sim_err *err)
{
	const char *list = sc->list_name[l - 1], *name = sc->kc->name;
	const struct page *page;
	list_for_each_entry(page, head, lru) {
		if (++c->seen > (long)sc->nall)
			return sim_fail(err, "%s %s: %s's %s list holds more slabs than the cache's %d (a "
					"slab on two lists, or a loop)", sc->policy, name, n->name, list,
					sc->nall);
		if (n->nid >= 0 && page->nid != n->nid)
			return sim_fail(err, "%s %s: slab pfn %llu of node %d is on %s's %s list",
					sc->policy, name, (unsigned long long)page->pfn, page->nid,
					n->name, list);
		if (page->slab != sc->kc || !registered(sc, page))
			return sim_fail(err, "%s %s: slab pfn %llu on %s's %s list is not in the registry",
					sc->policy, name, (unsigned long long)page->pfn, n->name, list);
		if (page->sb_list != l)
			return sim_fail(err, "%s %s: slab pfn %llu is on %s's %s list but marked as on "
					"%s", sc->policy, name, (unsigned long long)page->pfn, n->name,
					list, page->sb_list ? sc->list_name[page->sb_list - 1] : "none");
		if (check_fill(sc, n, page, l, bin, err) < 0)
			return -1;
		c->n[l]++;
		c->empty_partial += l == SB_PARTIAL && !page->inuse;
	}
	return 0;
}

/* Every list of one owner, against its counters. */
static int check_owner(const struct sb_cache *sc, const struct sb_node *n, struct list_count *c,
		       struct sim_err *err)
{
	const char *name = sc->kc->name;
	int rc = 0;
	if (n->bins)
		for (int b = 0; b <= (int)sc->objects && rc == 0; b++)
			rc = check_list(sc, n, &n->bins[b], SB_PARTIAL, b, c, err);
	else
		rc = check_list(sc, n, &n->partial, SB_PARTIAL, -1, c, err);
	if (rc < 0 || check_list(sc, n, &n->full, SB_FULL, -1, c, err) < 0 ||
	    check_list(sc, n, &n->free, SB_FREE, -1, c, err) < 0)
		return -1;
	unsigned long empty = c->n[SB_FREE] + (sc->flags & SB_COUNT_EMPTY ? c->empty_partial : 0);
	if (c->n[SB_PARTIAL] != n->nr_partial)
		return sim_fail(err, "%s %s: %s's %s list holds %lu slabs, its nr_partial says %lu",
				sc->policy, name, n->name, sc->list_name[0], c->n[SB_PARTIAL],
				n->nr_partial);
	if (c->n[SB_FULL] != n->nr_full)
		return sim_fail(err, "%s %s: %s's %s list holds %lu slabs, its nr_full says %lu",
				sc->policy, name, n->name, sc->list_name[1], c->n[SB_FULL], n->nr_full);
	if (empty != n->nr_free)
		return sim_fail(err, "%s %s: %s's lists hold %lu empty slabs, its nr_free says %lu",
				sc->policy, name, n->name, empty, n->nr_free);
	unsigned long listed = c->n[SB_PARTIAL] + c->n[SB_FULL] + c->n[SB_FREE];
	if (!(sc->flags & SB_FULL_LIST) && (long)listed > n->nr_slabs)
		return sim_fail(err, "%s %s: %s's lists hold %lu slabs, more than its nr_slabs %ld",
				sc->policy, name, n->name, listed, n->nr_slabs);
	return 0;
}

/* The objects the kernel booked as allocated from kc and the caches merged
 * into it. */
static uint64_t booked(const struct sb_cache *sc)
{
	uint64_t live = sc->kc->live;
	for (int i = 0; i < sc->k->ncaches; i++)
		if (sc->k->caches[i]->alias == sc->kc && sc->k->caches[i] != sc->kc)
			live += sc->k->caches[i]->live;
	return live;
}

int sb_check_end(struct sb_cache *sc, const char *held_where, struct sim_err *err)
{
	long listed = 0, counted = 0;
	for (int i = 0; i < sc->nodes; i++) {
		struct list_count c = { { 0 }, 0, listed };
		if (check_owner(sc, sc->node[i], &c, err) < 0)
			return -1;
		listed = c.seen;
		counted += sc->node[i]->nr_slabs;
	}
	if ((sc->flags & SB_FULL_LIST) && listed != sc->nall)
		return sim_fail(err, "%s %s: %ld slabs are on the lists but the registry holds %d "
				"(a slab lost, or freed while listed)", sc->policy, sc->kc->name, listed,
				sc->nall);
	if (!(sc->flags & SB_FULL_LIST) && counted != sc->nall)
		return sim_fail(err, "%s %s: the lists' owners count %ld slabs (nr_slabs) but the "
				"registry holds %d", sc->policy, sc->kc->name, counted, sc->nall);
	if (!sc->held && sb_check_begin(sc, err) < 0)
		return -1;
	return slab_check_pages(sc->kc, booked(sc), sc->all, sc->nall, sc->held, sc->policy,
				held_where, err);
}

void sb_cache_figures(const struct sb_cache *sc, struct cache_info *out)
{
	out->order = sc->order;
	out->objs_per_slab = sc->objects;
	out->slabs = (uint64_t)sc->nall;
	out->slabs_peak = sc->slabs_peak;
	out->objects = (uint64_t)sc->nall * sc->objects;
	out->active = sc->kc->live;
	out->partial = 0;
	for (int i = 0; i < sc->nodes; i++)
		out->partial += sc->node[i]->nr_partial;
}

void sb_cache_info(const struct sb_cache *sc, struct cache_info *out)
{
	sb_cache_figures(sc, out);
	if (out->nstats + 2 <= SLAB_MAX_STATS) {
		out->stats[out->nstats++] = (struct slab_stat){ "SLAB_NEW", sc->slabs_new };
		out->stats[out->nstats++] = (struct slab_stat){ "SLAB_FREE", sc->slabs_freed };
	}
}
