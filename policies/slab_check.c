/* slab_check.c - what SLAB shows (/proc/slabinfo: geometry, tunables,
 * globalstat and cpustat) and what it promises: the blocks' check (lists,
 * counters, registry; every object of every slab free in its bufctl
 * chain, waiting in exactly one array (per CPU, shared or alien), or live)
 * and SLAB's own free_objects. */
#include <stdio.h>
#include <string.h>

#include "kernel/slab.h"
#include "slab.h"

void slab_cache_info(void *state, struct kmem_cache *kc, struct cache_info *out)
{
	(void)state;
	struct slab_cache *cp = kc->priv;
	memset(out, 0, sizeof(*out));
	sb_cache_figures(&cp->sc, out);
	out->nstats = NR_SLAB_STAT_ITEMS;
	for (int i = 0; i < NR_SLAB_STAT_ITEMS; i++)
		out->stats[i] = (struct slab_stat){ slab_stat_name[i], cp->stat[i] };
	out->ntunables = 4;
	out->tunables[0] = (struct slab_stat){ "limit", cp->limit };
	out->tunables[1] = (struct slab_stat){ "batchcount", cp->batchcount };
	out->tunables[2] = (struct slab_stat){ "shared", cp->shared };
	out->tunables[3] = (struct slab_stat){ "off_slab", cp->off_slab };
}

/* The free objects on a node's lists, which l3->free_objects counts. */
static unsigned long list_free_objects(const struct slab_cache *cp, const struct kmem_list3 *l3)
{
	const struct list_head *lists[] = { &l3->n.partial, &l3->n.full, &l3->n.free };
	unsigned long free_objects = 0;
	for (int l = 0; l < 3; l++) {
		const struct page *page;
		list_for_each_entry(page, lists[l], lru)
			free_objects += cp->num - page->inuse;
	}
	return free_objects;
}

/* Every array a node holds objects in (its CPUs', its shared one, its alien
 * ones) as the blocks' check holds them. */
static int hold_arrays(struct slab_state *sb, struct slab_cache *cp, struct sim_err *err)
{
	char where[64];
	for (int c = 0; c < sb->ncpus; c++) {
		snprintf(where, sizeof(where), "CPU %d's array", c);
		if (sb_check_array(&cp->sc, &cp->array[c]->a, where, err) < 0)
			return -1;
	}
	for (int n = 0; n < sb->nodes; n++) {
		const struct kmem_list3 *l3 = &cp->nodelists[n];
		snprintf(where, sizeof(where), "node %d's shared array", n);
		if (l3->shared && sb_check_array(&cp->sc, &l3->shared->a, where, err) < 0)
			return -1;
		for (int j = 0; l3->alien && j < sb->nodes; j++) {
			snprintf(where, sizeof(where), "node %d's alien array for node %d", n, j);
			if (l3->alien[j] && sb_check_array(&cp->sc, &l3->alien[j]->a, where, err) < 0)
				return -1;
		}
	}
	return 0;
}

/* The blocks' check with every array's objects held, then SLAB's own
 * books: each node's free_objects. */
int slab_check(void *state, struct kmem_cache *kc, struct sim_err *err)
{
	struct slab_state *sb = state;
	struct slab_cache *cp = kc->priv;
	if (sb_check_begin(&cp->sc, err) < 0 || hold_arrays(sb, cp, err) < 0 ||
	    sb_check_end(&cp->sc, "arrays", err) < 0)
		return -1;
	for (int n = 0; n < sb->nodes; n++) {
		unsigned long free_objects = list_free_objects(cp, &cp->nodelists[n]);
		if (free_objects != cp->nodelists[n].free_objects)
			return sim_fail(err, "slab %s: node %d counts %lu free objects but its slabs "
					"hold %lu", kc->name, n, cp->nodelists[n].free_objects,
					free_objects);
	}
	return 0;
}
