/* slub_check.c - what SLUB shows and what it promises: each cache's
 * geometry, counters and slabs for the reports, and the invariants of its
 * free chains, partial lists and counters (the blocks' check, with SLUB's
 * own around it). */
#include <stdio.h>
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
	sb_cache_figures(&s->sc, out);
	out->objects = 0;
	for (int i = 0; i < s->sc.nall; i++) {	/* ORDER_FALLBACK: not all of s->order */
		out->objects += s->sc.all[i]->objects;
		out->pages += 1ull << s->sc.all[i]->order;
	}
	out->active = 0;
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
		listed += s->sc.node[nid]->nr_partial;
	for (int i = 0; i < s->sc.nall; i++) {
		const struct page *page = s->sc.all[i];
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

/* SLUB's own books of the partial lists: no slab on one is frozen, each
 * has a free object on its page freelist, and (7.0) is marked PG_partial. */
static int check_partial_lists(struct slub *sl, struct slub_cache *s, struct sim_err *err)
{
	for (int nid = 0; nid < sl->k->m->nodes; nid++) {
		unsigned long cnt = 0;
		const struct page *page;
		list_for_each_entry(page, &s->sc.node[nid]->partial, lru) {
			if (page->slab != s->kc || (page->flags & PG_frozen) ||
			    page->freelist == OBJ_NIL || (!sl->cpu_slab && !(page->flags & PG_partial)))
				return sim_fail(err, "slub %s: slab pfn %llu on node %d's partial list "
						"is frozen, foreign, unmarked or has no free object",
						s->kc->name, (unsigned long long)page->pfn, nid);
			if (++cnt > (unsigned long)s->sc.nall)
				return sim_fail(err, "slub %s: partial list of node %d loops",
						s->kc->name, nid);
		}
	}
	return !sl->cpu_slab ? check_node_partial_flags(sl, s, err) : 0;
}

/* A CPU slab's CPU freelist: a chain of free objects of that slab, none
 * in a sheaf, each held as the blocks' check holds them. */
static int hold_cpu_freelist(struct slub_cache *s, int cpu, const kaddr_t *held, size_t nheld,
			     struct sim_err *err)
{
	const struct kmem_cache_cpu *c = &s->cpu_slab[cpu];
	const struct page *page = c->page;
	unsigned int nfree = 0;
	char where[32];
	snprintf(where, sizeof(where), "CPU %d's freelist", cpu);
	for (uint16_t o = c->freelist; page && o != OBJ_NIL; o = page->obj[o].next) {
		kaddr_t obj = o < page->objects ? slab_obj_addr(s->kc, page, o) : 0;
		if (!obj || page->obj[o].live || ++nfree > page->objects ||
		    slub_sheaves_have(held, nheld, obj))
			return sim_fail(err, "slub %s: slab pfn %llu: free chain reaches object %u, "
					"which is live, out of range, seen twice or in a sheaf",
					s->kc->name, (unsigned long long)page->pfn, o);
		if (sb_check_held(&s->sc, obj, where, err) < 0)
			return -1;
	}
	return 0;
}

/* The blocks' check (partial lists and their counters, nr_slabs against
 * the registry, every object live, free on its slab's freelist or held,
 * the live ones the cache's and its aliases') with the sheaves' and the
 * CPU freelists' objects held, and SLUB's own: frozen slabs on no list,
 * PG_partial, the CPU freelists' chains, the sheaves and barns. */
int slub_check(void *state, struct kmem_cache *kc, struct sim_err *err)
{
	struct slub *sl = state;
	struct slub_cache *s = kc->priv;
	if (s->kc != kc)
		return 0;
	if (check_partial_lists(sl, s, err) < 0 || sb_check_begin(&s->sc, err) < 0)
		return -1;
	kaddr_t *held;
	size_t nheld;
	int rc = slub_sheaves_hold(sl, s, &held, &nheld, err);
	for (int cpu = 0; cpu < sl->k->m->ncpus && rc == 0; cpu++)
		rc = hold_cpu_freelist(s, cpu, held, nheld, err);
	free(held);
	if (rc < 0)
		return -1;
	return sb_check_end(&s->sc, "sheaves and CPU freelists", err);
}
