/* slab_reap.c - cache_reap(), SLAB's periodic trim: every 2 s on each CPU
 * it drains one alien array (round robin over nodes), gives back a fifth of
 * an untouched per-CPU array, and every 4 s per node a fifth of the shared
 * array and some free slabs (drain_freelist), unless the node's lists were
 * used meanwhile. It runs as delayed work on the CPU (sim/kernel/workqueue),
 * armed when the CPU first uses SLAB and re-armed while there is something
 * to do, so that a finished workload lets the simulation end. */
#include <stdlib.h>

#include "kernel/workqueue.h"
#include "slab.h"

/* drain_array(): an untouched array gives back (limit + 4) / 5 objects. */
static bool drain_array(struct slab_state *sb, struct sim_cpu *cpu, struct slab_cache *cp,
			struct kmem_list3 *l3, struct array_cache *ac, int node)
{
	if (!ac || !ac->a.avail)
		return false;
	if (ac->touched) {
		ac->touched = false;
		return false;
	}
	hw_spin_lock(sb->hw, cpu, &l3->n.list_lock);
	unsigned int tofree = 0;
	if (ac->a.avail) {
		tofree = (ac->a.limit + 4) / 5;
		if (tofree > ac->a.avail)
			tofree = (ac->a.avail + 1) / 2;
		slab_free_block(sb, cpu, cp, ac->a.obj, (int)tofree, node);
		sb_array_drop_oldest(&ac->a, tofree);
	}
	hw_spin_unlock(sb->hw, cpu, &l3->n.list_lock);
	return tofree > 0;
}

/* drain_freelist(): up to `tofree` free slabs back to the page allocator. */
static int drain_freelist(struct slab_state *sb, struct sim_cpu *cpu, struct slab_cache *cp,
			  struct kmem_list3 *l3, int tofree)
{
	int nr_freed = 0;
	while (nr_freed < tofree && !list_empty(&l3->n.free)) {
		hw_spin_lock(sb->hw, cpu, &l3->n.list_lock);
		if (list_empty(&l3->n.free)) {
			hw_spin_unlock(sb->hw, cpu, &l3->n.list_lock);
			break;
		}
		struct page *page = list_entry(l3->n.free.prev, struct page, lru);	/* the last */
		sb_list_del(&cp->sc, &l3->n, page);
		hw_write(sb->hw, cpu, &l3->n.line);
		l3->free_objects -= cp->num;
		hw_spin_unlock(sb->hw, cpu, &l3->n.list_lock);
		slab_destroy(sb, cpu, cp, page);
		nr_freed++;
	}
	return nr_freed;
}

/* cache_reap(): one round on this CPU; true if it gave anything back. */
static bool cache_reap(struct housekeeping *h, struct task *cur)
{
	struct slab_state *sb = h->arg;
	struct sim_cpu *cpu = task_cpu(cur);
	int *reap_node = &sb->reap_node[cpu->id];
	int node = sb->k->m->topo[cpu->id].node;
	int psym = sym_enter(cpu, sb->sym_reap);
	bool progress = false;
	for (int i = 0; i < sb->ncaches; i++) {
		struct slab_cache *cp = sb->caches[i];
		struct kmem_list3 *l3 = &cp->nodelists[node];
		cpu_charge(cpu, sb->cost_reap);
		if (l3->alien) {	/* reap_alien(): one node per round, if free */
			struct array_cache *ac = l3->alien[*reap_node];
			if (ac && ac->a.avail && hw_spin_trylock(sb->hw, cpu, &ac->lock)) {
				progress = true;
				slab_drain_alien(sb, cpu, cp, ac, *reap_node);
				hw_spin_unlock(sb->hw, cpu, &ac->lock);
			}
		}
		progress |= drain_array(sb, cpu, cp, l3, cp->array[cpu->id], node);
		if (l3->next_reap > cpu->clock)
			continue;
		l3->next_reap = cpu->clock + sb->reap_list3;
		progress |= drain_array(sb, cpu, cp, l3, l3->shared, node);
		if (l3->free_touched) {
			l3->free_touched = false;
		} else {
			int freed = drain_freelist(sb, cpu, cp, l3, (int)((l3->free_limit +
						5 * cp->num - 1) / (5 * cp->num)));
			cp->stat[SLAB_REAPED] += (uint64_t)freed;
			progress |= freed > 0;
		}
	}
	if (sb->nodes > 1)	/* next_reap_node() */
		*reap_node = (*reap_node + 1) % sb->nodes;
	sym_exit(cpu, psym);
	return progress;
}

int slab_reap_init(struct slab_state *sb, struct sim_err *err)
{
	sb->reap_node = calloc((size_t)sb->ncpus, sizeof(*sb->reap_node));
	if (!sb->reap_node || housekeeping_init(&sb->reap, sb->k, sb->ncpus,
						 (uint64_t)(REAPTIMEOUT_CPUC_S * sb->k->m->ghz * 1e9),
						 cache_reap, sb) < 0)
		return sim_fail(err, "out of memory");
	for (int c = 0; c < sb->ncpus; c++)	/* init_reap_node() */
		sb->reap_node[c] = sb->k->m->topo[c].node;
	return 0;
}

void slab_reap_destroy(struct slab_state *sb)
{
	housekeeping_destroy(&sb->reap);
	free(sb->reap_node);
}
