/* slqb_check.c - what SLQB shows (geometry, freebatch/hiwater, its
 * statistics summed over CPUs) and what it promises: the blocks' check
 * (every object live, free in its slab's chain, or waiting in exactly one
 * list: a LIFO, a remote_free queue or an rlist; partial lists and
 * counters agree) and SLQB's own ownership of partial slabs. */
#include <stdio.h>
#include <string.h>

#include "kernel/slab.h"
#include "slqb.h"

/* One list's statistics added to the cache's sums. */
static void add_stats(struct cache_info *out, const struct kmem_cache_list *l)
{
	for (int i = 0; i < NR_SLQB_STAT_ITEMS; i++)
		out->stats[i].value += l->stats[i];
}

void slqb_cache_info(void *state, struct kmem_cache *kc, struct cache_info *out)
{
	struct slqb *q = state;
	struct slqb_cache *s = kc->priv;
	memset(out, 0, sizeof(*out));
	sb_cache_figures(&s->sc, out);
	out->nstats = NR_SLQB_STAT_ITEMS;
	for (int i = 0; i < NR_SLQB_STAT_ITEMS; i++)
		out->stats[i].name = slqb_stat_name[i];
	for (int c = 0; c < q->ncpus; c++)
		add_stats(out, &s->cpu_slab[c].list);
	for (int n = 0; n < q->nodes; n++)
		add_stats(out, &s->node_slab[n].list);
	out->ntunables = 2;
	out->tunables[0] = (struct slab_stat){ "freebatch", (uint64_t)s->freebatch };
	out->tunables[1] = (struct slab_stat){ "hiwater", (uint64_t)s->hiwater };
}

/* A kmlist's objects held as the blocks' check holds them. */
static int hold_kmlist(struct slqb_cache *s, const struct kmlist *l, const char *where,
		       struct sim_err *err)
{
	for (uint32_t i = 0; i < l->nr; i++)
		if (sb_check_held(&s->sc, kmlist_at(l, i), where, err) < 0)
			return -1;
	return 0;
}

/* One kmem_cache_list's own books: each of its partial slabs is owned by
 * it (page->list); its LIFO's and remote_free queue's objects held. */
static int hold_list(struct slqb_cache *s, const struct kmem_cache_list *l, const char *who,
		     struct sim_err *err)
{
	char where[48];
	const struct page *page;
	list_for_each_entry(page, &l->slabs.partial, lru)
		if (page->priv != l)
			return sim_fail(err, "slqb %s: slab pfn %llu is on %s's partial list but another "
					"list owns it", s->kc->name, (unsigned long long)page->pfn, who);
	snprintf(where, sizeof(where), "%s's LIFO", who);
	if (hold_kmlist(s, &l->freelist, where, err) < 0)
		return -1;
	snprintf(where, sizeof(where), "%s's remote_free queue", who);
	return hold_kmlist(s, &l->remote_free.list, where, err);
}

/* The blocks' check (every list's partial slabs of its node, partly in
 * use, counted; every slab counted by one list's nr_slabs; each object in
 * exactly one place) with every LIFO, remote_free queue and rlist held,
 * and SLQB's own: each partial slab owned by its list. */
int slqb_check(void *state, struct kmem_cache *kc, struct sim_err *err)
{
	struct slqb *q = state;
	struct slqb_cache *s = kc->priv;
	char who[24], where[48];
	if (sb_check_begin(&s->sc, err) < 0)
		return -1;
	for (int c = 0; c < q->ncpus; c++) {
		snprintf(who, sizeof(who), "CPU %d", c);
		snprintf(where, sizeof(where), "CPU %d's rlist", c);
		if (hold_list(s, &s->cpu_slab[c].list, who, err) < 0 ||
		    hold_kmlist(s, &s->cpu_slab[c].rlist, where, err) < 0)
			return -1;
	}
	for (int n = 0; n < q->nodes; n++) {
		snprintf(who, sizeof(who), "node %d", n);
		if (hold_list(s, &s->node_slab[n].list, who, err) < 0)
			return -1;
	}
	return sb_check_end(&s->sc, "lists", err);
}
