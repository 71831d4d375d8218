/* slub_check.c - what SLUB shows and what it promises: each cache's
 * geometry, counters and slabs for the reports, and the invariants of its
 * free chains, partial lists and counters. */
#include <stdlib.h>
#include <string.h>

#include "slub.h"

void slub_cache_info(void *state, struct kmem_cache *kc, struct cache_info *out)
{
	struct slub *sl = state;
	struct slub_cache *s = kc->priv;
	memset(out, 0, sizeof(*out));
	out->order = (unsigned int)s->order;
	out->objs_per_slab = (unsigned int)s->objects;
	if (s->kc != kc)	/* an alias: its numbers are its target's */
		return;
	out->slabs = (uint64_t)s->nall;
	out->slabs_peak = s->slabs_peak;
	for (int nid = 0; nid < sl->k->m->nodes; nid++)
		out->partial += s->node[nid].nr_partial;
	for (int i = 0; i < s->nall; i++) {	/* ORDER_FALLBACK: not all of s->order */
		out->objects += s->all[i]->objects;
		out->pages += 1ull << s->all[i]->order;
	}
	for (int i = 0; i < sl->k->ncaches; i++) {
		struct kmem_cache *c = sl->k->caches[i];
		if (c == kc || c->alias == kc)
			out->active += c->live;
	}
	out->nstats = NR_SLUB_STAT_ITEMS;
	for (int si = 0; si < NR_SLUB_STAT_ITEMS; si++) {
		out->stats[si].name = slub_stat_name[si];
		for (int cpu = 0; cpu < sl->k->m->ncpus; cpu++)
			out->stats[si].value += s->cpu_slab[cpu].stat[si];
	}
	out->ntunables = 3;
	out->tunables[0] = (struct slab_stat){ "min_partial", s->min_partial };
	out->tunables[1] = (struct slab_stat){ "cpu_partial", (uint64_t)s->cpu_partial };
	out->tunables[2] = (struct slab_stat){ "aliases", (uint64_t)(s->refcount - 1) };
	if (sl->sheaves != SHEAVES_OFF)
		out->tunables[out->ntunables++] = (struct slab_stat){ "sheaf_capacity",
								      s->sheaf_capacity };
}

/* 7.0: PG_partial marks exactly the slabs on a partial list, and a slab on
 * none has no free object left (nothing is between lists at rest). */
static int check_node_partial_flags(struct slub *sl, struct slub_cache *s, struct sim_err *err)
{
	unsigned long flagged = 0, listed = 0;
	for (int nid = 0; nid < sl->k->m->nodes; nid++)
		listed += s->node[nid].nr_partial;
	for (int i = 0; i < s->nall; i++) {
		const struct page *page = s->all[i];
		if (page->flags & PG_partial)
			flagged++;
		else if (page->freelist != OBJ_NIL)
			return sim_fail(err, "slub %s: slab pfn %llu has free objects but is on no "
					"partial list", s->kc->name, (unsigned long long)page->pfn);
	}
	if (flagged != listed)
		return sim_fail(err, "slub %s: %lu slabs marked PG_partial, %lu on partial lists",
				s->kc->name, flagged, listed);
	return 0;
}

/* One slab: its free chains (the page's, and a CPU's if it is a CPU slab)
 * are acyclic and hold only free objects; with the live objects and those
 * `waiting` in sheaves they account for every slot, and for inuse. */
static int check_slab(struct slub *sl, struct slub_cache *s, struct page *page,
		      uint32_t waiting, const kaddr_t *held, size_t nheld, uint64_t *live,
		      struct sim_err *err)
{
	const char *name = s->kc->name;
	unsigned int nfree = 0, nlive = 0;
	uint16_t chains[2] = { page->freelist, OBJ_NIL };
	for (int cpu = 0; cpu < sl->k->m->ncpus; cpu++)
		if (s->cpu_slab[cpu].page == page)
			chains[1] = s->cpu_slab[cpu].freelist;
	for (int ch = 0; ch < 2; ch++)
		for (uint16_t o = chains[ch]; o != OBJ_NIL; o = page->obj[o].next)
			if (o >= page->objects || page->obj[o].live || ++nfree > page->objects ||
			    slub_sheaves_hold(held, nheld, slab_obj_addr(s->kc, page, o)))
				return sim_fail(err, "slub %s: slab pfn %llu: free chain reaches object "
						"%u, which is live, out of range, seen twice or in a "
						"sheaf", name, (unsigned long long)page->pfn, o);
	for (unsigned int o = 0; o < page->objects; o++)
		nlive += page->obj[o].live;
	if (nfree + nlive + waiting != page->objects)
		return sim_fail(err, "slub %s: slab pfn %llu: %u free + %u live + %u in sheaves != "
				"%u objects (an object was lost or doubled)", name,
				(unsigned long long)page->pfn, nfree, nlive, waiting, page->objects);
	if (!(page->flags & PG_frozen) && page->inuse != nlive + waiting)
		return sim_fail(err, "slub %s: slab pfn %llu: inuse = %u but %u objects live and %u "
				"in sheaves", name, (unsigned long long)page->pfn, page->inuse, nlive,
				waiting);
	*live += nlive;
	return 0;
}

/* Every slab (check_slab), the partial lists and their counters, the
 * sheaves and barns; the live objects are the cache's. */
int slub_check(void *state, struct kmem_cache *kc, struct sim_err *err)
{
	struct slub *sl = state;
	struct slub_cache *s = kc->priv;
	if (s->kc != kc)
		return 0;
	uint64_t live = 0;
	long nr_slabs = 0;
	for (int nid = 0; nid < sl->k->m->nodes; nid++) {
		struct kmem_cache_node *n = &s->node[nid];
		unsigned long cnt = 0;
		struct page *page;
		list_for_each_entry(page, &n->partial, lru) {
			if (page->slab != kc || (page->flags & PG_frozen) || page->freelist == OBJ_NIL ||
			    (!sl->cpu_slab && !(page->flags & PG_partial)))
				return sim_fail(err, "slub %s: slab pfn %llu on node %d's partial list "
						"is frozen, foreign, unmarked or has no free object",
						kc->name, (unsigned long long)page->pfn, nid);
			if (++cnt > (unsigned long)s->nall)
				return sim_fail(err, "slub %s: partial list of node %d loops", kc->name, nid);
		}
		if (cnt != n->nr_partial)
			return sim_fail(err, "slub %s: node %d has %lu partial slabs but nr_partial = %lu",
					kc->name, nid, cnt, n->nr_partial);
		nr_slabs += n->nr_slabs;
	}
	if (nr_slabs != s->nall)
		return sim_fail(err, "slub %s: nr_slabs = %ld but %d slabs exist", kc->name,
				nr_slabs, s->nall);
	if (!sl->cpu_slab && check_node_partial_flags(sl, s, err) < 0)
		return -1;
	uint32_t *waiting = calloc((size_t)s->nall + 1, sizeof(*waiting));
	if (!waiting)
		return sim_fail(err, "out of memory");
	kaddr_t *held;
	size_t nheld;
	int rc = slub_sheaves_waiting(sl, s, waiting, &held, &nheld, err);
	for (int i = 0; i < s->nall && rc == 0; i++)
		rc = check_slab(sl, s, s->all[i], waiting[i], held, nheld, &live, err);
	free(waiting);
	free(held);
	if (rc < 0)
		return -1;
	uint64_t booked = 0;
	for (int i = 0; i < sl->k->ncaches; i++) {
		struct kmem_cache *c = sl->k->caches[i];
		if (c == kc || c->alias == kc)
			booked += c->live;
	}
	if (live != booked)
		return sim_fail(err, "slub %s: %llu objects live in slabs but %llu allocated and "
				"not freed", kc->name, (unsigned long long)live,
				(unsigned long long)booked);
	return 0;
}
