/* slab_check.c - what SLAB shows (/proc/slabinfo: geometry, tunables,
 * globalstat and cpustat) and what it promises: every object of every slab
 * is free in its bufctl chain, waiting in exactly one array (per CPU,
 * shared or alien), or live; lists, inuse and free_objects agree. */
#include <stdlib.h>
#include <string.h>

#include "kernel/slab.h"
#include "slab.h"

void slab_cache_info(void *state, struct kmem_cache *kc, struct cache_info *out)
{
	struct slab_state *sb = state;
	struct slab_cache *cp = kc->priv;
	memset(out, 0, sizeof(*out));
	out->order = (unsigned int)cp->gfporder;
	out->objs_per_slab = cp->num;
	out->slabs = (uint64_t)cp->nall;
	out->slabs_peak = cp->slabs_peak;
	for (int n = 0; n < sb->nodes; n++) {
		struct list_head *p;
		list_for_each(p, &cp->nodelists[n].slabs_partial)
			out->partial++;
	}
	out->objects = (uint64_t)cp->nall * cp->num;
	out->active = kc->live;
	out->nstats = NR_SLAB_STAT_ITEMS;
	for (int i = 0; i < NR_SLAB_STAT_ITEMS; i++)
		out->stats[i] = (struct slab_stat){ slab_stat_name[i], cp->stat[i] };
	out->ntunables = 4;
	out->tunables[0] = (struct slab_stat){ "limit", cp->limit };
	out->tunables[1] = (struct slab_stat){ "batchcount", cp->batchcount };
	out->tunables[2] = (struct slab_stat){ "shared", cp->shared };
	out->tunables[3] = (struct slab_stat){ "off_slab", cp->off_slab };
}

/* Count an array's objects against their slabs (in_arrays[slab index]). */
static int count_array(struct slab_cache *cp, const struct array_cache *ac, uint32_t *in_arrays,
		       const struct page_alloc *pa, const char *what, struct sim_err *err)
{
	if (!ac)
		return 0;
	if (ac->avail > ac->limit)
		return sim_fail(err, "slab %s: %s array holds %u objects, above its limit %u",
				cp->kc->name, what, ac->avail, ac->limit);
	for (unsigned int i = 0; i < ac->avail; i++) {
		struct page *page = virt_to_head_page(pa, ac->entry[i]);
		if (!page || page->slab != cp->kc || !page->priv)
			return sim_fail(err, "slab %s: %s array holds %#llx, not an object of "
					"this cache", cp->kc->name, what,
					(unsigned long long)ac->entry[i]);
		in_arrays[((struct slab *)page->priv)->all_idx]++;
	}
	return 0;
}

/* One of a node's slab lists (kind 0 full, 1 partial, 2 free): each slab this cache's, on
 * this node, with the inuse its list calls for; adds its free objects, counts slabs in *seen. */
static int check_list(struct slab_cache *cp, struct list_head *head, int node, int kind,
		      unsigned long *free_objects, int *seen, struct sim_err *err)
{
	static const char *const names[] = { "slabs_full", "slabs_partial", "slabs_free" };
	struct page *page;
	list_for_each_entry(page, head, lru) {
		if (++*seen > cp->nall)
			return sim_fail(err, "slab %s: node %d's lists loop", cp->kc->name, node);
		bool ok = page->slab == cp->kc && page->nid == node &&
			(kind == 0 ? page->inuse == cp->num
			 : kind == 1 ? page->inuse > 0 && page->inuse < cp->num : page->inuse == 0);
		if (!ok)
			return sim_fail(err, "slab %s: slab pfn %llu (inuse %u of %u) is on node %d's "
					"%s", cp->kc->name, (unsigned long long)page->pfn,
					page->inuse, cp->num, node, names[kind]);
		*free_objects += cp->num - page->inuse;
	}
	return 0;
}

int slab_check(void *state, struct kmem_cache *kc, struct sim_err *err)
{
	struct slab_state *sb = state;
	struct slab_cache *cp = kc->priv;
	const struct page_alloc *pa = &sb->k->pa;
	int seen = 0;
	for (int n = 0; n < sb->nodes; n++) {
		struct kmem_list3 *l3 = &cp->nodelists[n];
		unsigned long free_objects = 0;
		if (check_list(cp, &l3->slabs_full, n, 0, &free_objects, &seen, err) < 0 ||
		    check_list(cp, &l3->slabs_partial, n, 1, &free_objects, &seen, err) < 0 ||
		    check_list(cp, &l3->slabs_free, n, 2, &free_objects, &seen, err) < 0)
			return -1;
		if (free_objects != l3->free_objects)
			return sim_fail(err, "slab %s: node %d counts %lu free objects but its slabs "
					"hold %lu", kc->name, n, l3->free_objects, free_objects);
	}
	if (seen != cp->nall)
		return sim_fail(err, "slab %s: %d slabs on the lists but %d exist", kc->name, seen,
				cp->nall);
	uint32_t *in_arrays = calloc((size_t)cp->nall + 1, sizeof(*in_arrays));
	int rc = 0;
	for (int c = 0; c < sb->ncpus && rc == 0; c++)
		rc = count_array(cp, cp->array[c], in_arrays, pa, "a CPU", err);
	for (int n = 0; n < sb->nodes && rc == 0; n++) {
		struct kmem_list3 *l3 = &cp->nodelists[n];
		rc = count_array(cp, l3->shared, in_arrays, pa, "a shared", err);
		for (int j = 0; rc == 0 && l3->alien && j < sb->nodes; j++)
			rc = count_array(cp, l3->alien[j], in_arrays, pa, "an alien", err);
	}
	if (rc == 0)
		rc = slab_check_pages(kc, cp->all, cp->nall, in_arrays, "slab", "arrays", err);
	free(in_arrays);
	return rc;
}
