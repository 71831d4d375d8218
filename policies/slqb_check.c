/* slqb_check.c - what SLQB shows (geometry, freebatch/hiwater, its
 * statistics summed over CPUs) and what it promises: every object is live,
 * free in its slab's chain, or waiting in exactly one list (a LIFO, a
 * remote_free queue or an rlist); partial lists and counters agree. */
#include <stdlib.h>
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
	out->order = (unsigned int)s->order;
	out->objs_per_slab = s->objects;
	out->slabs = (uint64_t)s->nall;
	out->slabs_peak = s->slabs_peak;
	out->objects = (uint64_t)s->nall * s->objects;
	out->active = kc->live;
	out->nstats = NR_SLQB_STAT_ITEMS;
	for (int i = 0; i < NR_SLQB_STAT_ITEMS; i++)
		out->stats[i].name = slqb_stat_name[i];
	for (int c = 0; c < q->ncpus; c++) {
		out->partial += s->cpu_slab[c].list.nr_partial;
		add_stats(out, &s->cpu_slab[c].list);
	}
	for (int n = 0; n < q->nodes; n++) {
		out->partial += s->node_slab[n].list.nr_partial;
		add_stats(out, &s->node_slab[n].list);
	}
	out->ntunables = 2;
	out->tunables[0] = (struct slab_stat){ "freebatch", (uint64_t)s->freebatch };
	out->tunables[1] = (struct slab_stat){ "hiwater", (uint64_t)s->hiwater };
}

/* Count a list's objects against their slabs. */
static int count_list(struct slqb *q, struct slqb_cache *s, const struct kmlist *l,
		      uint32_t *in_lists, const char *what, struct sim_err *err)
{
	for (uint32_t i = 0; i < l->nr; i++) {
		kaddr_t obj = kmlist_at(l, i);
		struct page *page = virt_to_head_page(&q->k->pa, obj);
		if (!page || page->slab != s->kc || !(page->flags & PG_slab))
			return sim_fail(err, "slqb %s: %s holds %#llx, not an object of this cache",
					s->kc->name, what, (unsigned long long)obj);
		unsigned int idx = slab_obj_index(s->kc, page, obj);
		if (page->obj[idx].live)
			return sim_fail(err, "slqb %s: %s holds object %u of slab pfn %llu, which "
					"is live", s->kc->name, what, idx,
					(unsigned long long)page->pfn);
		in_lists[page->slab_idx]++;
	}
	return 0;
}

/* One kmem_cache_list's books: its partial slabs are its own and partly in use, nr_partial
 * agrees, its LIFO and remote_free objects are counted; its nr_slabs added to *slabs. */
static int check_list(struct slqb *q, struct slqb_cache *s, struct kmem_cache_list *l,
		      uint32_t *in_lists, unsigned long *slabs, struct sim_err *err)
{
	unsigned long partial = 0;
	struct page *page;
	list_for_each_entry(page, &l->partial, lru) {
		if (page->priv != l || page->inuse == 0 || page->inuse >= s->objects)
			return sim_fail(err, "slqb %s: slab pfn %llu (inuse %u of %u) should not be "
					"on this partial list", s->kc->name,
					(unsigned long long)page->pfn, page->inuse, s->objects);
		if (++partial > (unsigned long)s->nall)
			return sim_fail(err, "slqb %s: a partial list loops", s->kc->name);
	}
	if (partial != l->nr_partial)
		return sim_fail(err, "slqb %s: %lu slabs on a partial list but nr_partial = %lu",
				s->kc->name, partial, l->nr_partial);
	*slabs += l->nr_slabs;
	if (count_list(q, s, &l->freelist, in_lists, "a LIFO", err) < 0 ||
	    count_list(q, s, &l->remote_free.list, in_lists, "a remote_free queue", err) < 0)
		return -1;
	return 0;
}

int slqb_check(void *state, struct kmem_cache *kc, struct sim_err *err)
{
	struct slqb *q = state;
	struct slqb_cache *s = kc->priv;
	uint32_t *in_lists = calloc((size_t)s->nall + 1, sizeof(*in_lists));
	unsigned long slabs = 0;
	int rc = 0;
	for (int c = 0; c < q->ncpus && rc == 0; c++) {
		rc = check_list(q, s, &s->cpu_slab[c].list, in_lists, &slabs, err);
		if (rc == 0)
			rc = count_list(q, s, &s->cpu_slab[c].rlist, in_lists, "an rlist", err);
	}
	for (int n = 0; n < q->nodes && rc == 0; n++)
		rc = check_list(q, s, &s->node_slab[n].list, in_lists, &slabs, err);
	if (rc == 0 && slabs != (unsigned long)s->nall)
		rc = sim_fail(err, "slqb %s: the lists count %lu slabs but %d exist", kc->name,
			      slabs, s->nall);
	if (rc == 0)
		rc = slab_check_pages(kc, kc->live, s->all, s->nall, in_lists, "slqb", "lists", err);
	free(in_lists);
	return rc;
}
