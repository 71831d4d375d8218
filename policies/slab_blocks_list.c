/* slab_blocks_list.c - the blocks' slab lists and the paths over them:
 * a list owner's partial (or binned), full and free lists with their
 * counters, one object off or onto a slab, and batches under one lock
 * acquisition (layout and what each models: slab_blocks.h). */
#include "slab_blocks.h"

#include "engine/array_size.h"

/* KMEM_PARTIAL_SLAB_WEIGHT: a partial slab's bin by its objects in use,
 * exact near empty and near full, 2^bin_shift wide in between. */
static unsigned int bin_of(const struct sb_cache *sc, unsigned int inuse)
{
	unsigned int bs = sc->bin_shift;
	if (inuse <= bs || sc->objects - inuse <= bs)
		return inuse;
	return bs + (inuse >> bs);
}

void sb_list_add(struct sb_cache *sc, struct sb_node *n, struct page *page, enum sb_list l,
		 bool tail)
{
	struct list_head *head = l == SB_FULL ? &n->full : l == SB_FREE ? &n->free : &n->partial;
	if (l == SB_PARTIAL && n->bins) {
		int b = (int)bin_of(sc, page->inuse);
		head = &n->bins[b];
		if (b > n->top)
			n->top = b;
	}
	if (tail)
		list_add_tail(&page->lru, head);
	else
		list_add(&page->lru, head);
	if (l == SB_PARTIAL)
		n->nr_partial++;
	else if (l == SB_FULL)
		n->nr_full++;
	else
		n->nr_free++;
	page->sb_list = (uint8_t)l;
}

void sb_list_del(struct sb_cache *sc, struct sb_node *n, struct page *page)
{
	(void)sc;
	list_del(&page->lru);
	if (page->sb_list == SB_PARTIAL) {
		n->nr_partial--;
		while (n->bins && n->top >= 0 && list_empty(&n->bins[n->top]))
			n->top--;
	} else if (page->sb_list == SB_FULL) {
		n->nr_full--;
	} else {
		n->nr_free--;
	}
	page->sb_list = SB_NONE;
}

struct page *sb_list_first(const struct sb_cache *sc, const struct sb_node *n, enum sb_list l)
{
	(void)sc;
	const struct list_head *head = l == SB_FULL ? &n->full : l == SB_FREE ? &n->free
		: !n->bins ? &n->partial : n->top < 0 ? NULL : &n->bins[n->top];
	return head && !list_empty(head) ? list_first_entry(head, struct page, lru) : NULL;
}

/* The list a slab's fill calls for in sc's design: full (or none without a
 * full list), free (with a free list) or partial. */
static enum sb_list list_for(const struct sb_cache *sc, const struct page *page)
{
	if (page->inuse == page->objects)
		return sc->flags & SB_FULL_LIST ? SB_FULL : SB_NONE;
	if (page->inuse == 0 && (sc->flags & SB_FREE_LIST))
		return SB_FREE;
	return SB_PARTIAL;
}

/* A slab whose fill changed moves to the head of the list it calls for
 * (list_move); a binned partial slab to its new bin. */
static void relist(struct sb_cache *sc, struct sb_node *n, struct page *page)
{
	enum sb_list to = list_for(sc, page);
	if (page->sb_list == to && !(to == SB_PARTIAL && n->bins))
		return;
	if (page->sb_list != SB_NONE)
		sb_list_del(sc, n, page);
	if (to != SB_NONE)
		sb_list_add(sc, n, page, to, false);
}

/* slab_get_obj(): read the object's free pointer, unlink it. */
kaddr_t sb_take_obj(struct sb_cache *sc, struct sim_cpu *cpu, struct page *page)
{
	struct sb_node *n = sb_node_of(sc, page);
	unsigned int idx = page->freelist;
	slab_obj_access(sc->hw, cpu, page, idx, 1, false);
	if (page->inuse == 0 && page->sb_list == SB_PARTIAL && (sc->flags & SB_COUNT_EMPTY))
		n->nr_free--;
	sb_chain_pop(page);
	relist(sc, n, page);
	cpu_charge(cpu, sc->cost.take);
	return slab_obj_addr(sc->kc, page, idx);
}

/* slab_put_obj(): write the object's free pointer, relink the slab. */
struct page *sb_put_obj(struct sb_cache *sc, struct sim_cpu *cpu, struct page *page,
			kaddr_t obj)
{
	struct sb_node *n = sb_node_of(sc, page);
	unsigned int idx = slab_obj_index(sc->kc, page, obj);
	slab_obj_access(sc->hw, cpu, page, idx, 1, true);
	sb_chain_push(page, idx);
	hw_write(sc->hw, cpu, &page->line);
	cpu_charge(cpu, sc->cost.put);
	if (page->inuse || n->nr_free < sc->keep) {	/* an empty one kept: counted */
		relist(sc, n, page);
		if (!page->inuse && page->sb_list == SB_PARTIAL && (sc->flags & SB_COUNT_EMPTY))
			n->nr_free++;
		return NULL;
	}
	if (page->sb_list != SB_NONE)
		sb_list_del(sc, n, page);
	n->nr_slabs--;
	return page;
}

unsigned int sb_get_objects(struct sb_cache *sc, struct sim_cpu *cpu, int nid, kaddr_t *out,
			    unsigned int want)
{
	struct sb_node *n = sc->node[sc->nodes == 1 ? 0 : nid];
	unsigned int got = 0;
	hw_spin_lock(sc->hw, cpu, &n->list_lock);
	hw_read(sc->hw, cpu, &n->line);
	while (got < want) {
		struct page *page = sb_list_first(sc, n, SB_PARTIAL);
		if (!page)
			page = sb_list_first(sc, n, SB_FREE);
		if (!page) {	/* grow without the lock, as cache_grow */
			hw_spin_unlock(sc->hw, cpu, &n->list_lock);
			page = sb_new_slab(sc, cpu, nid);
			hw_spin_lock(sc->hw, cpu, &n->list_lock);
			if (!page)
				break;
			sb_list_add(sc, n, page, list_for(sc, page), false);
			n->nr_slabs++;
			if (page->sb_list == SB_PARTIAL && (sc->flags & SB_COUNT_EMPTY))
				n->nr_free++;
			continue;
		}
		while (got < want && page->freelist != OBJ_NIL)
			out[got++] = sb_take_obj(sc, cpu, page);
	}
	hw_write(sc->hw, cpu, &n->line);
	hw_spin_unlock(sc->hw, cpu, &n->list_lock);
	return got;
}

void sb_put_objects(struct sb_cache *sc, struct sim_cpu *cpu, const kaddr_t *objs,
		    unsigned int nr)
{
	struct page *empty[16];
	unsigned int nempty = 0;
	struct sb_node *locked = NULL;
	for (unsigned int i = 0; i < nr; i++) {
		struct page *page = virt_to_head_page(&sc->k->pa, objs[i]);
		struct sb_node *n = sb_node_of(sc, page);
		if (n != locked) {
			if (locked)
				hw_spin_unlock(sc->hw, cpu, &locked->list_lock);
			hw_spin_lock(sc->hw, cpu, &n->list_lock);
			hw_write(sc->hw, cpu, &n->line);
			locked = n;
		}
		struct page *e = sb_put_obj(sc, cpu, page, objs[i]);
		if (e)
			empty[nempty++] = e;
		if (nempty == ARRAY_SIZE(empty) || i + 1 == nr) {
			hw_spin_unlock(sc->hw, cpu, &locked->list_lock);
			locked = NULL;
			for (unsigned int j = 0; j < nempty; j++)
				sb_free_slab(sc, cpu, empty[j]);
			nempty = 0;
		}
	}
}
