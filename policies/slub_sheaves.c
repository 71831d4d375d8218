/* slub_sheaves.c - SLUB's percpu sheaves (Vlastimil Babka; Linux 6.18 for
 * the caches that ask with kmem_cache_args.sheaf_capacity, 7.0 for every
 * cache with a capacity by object size), as mm/slub.c has them:
 *
 *  - each CPU has a main and a spare sheaf (an array of free objects) per
 *    cache; an allocation pops the main sheaf, a free of an object of this
 *    CPU's node pushes onto it (other nodes' objects bypass the sheaves);
 *  - an empty main sheaf is swapped with a non-empty spare, else exchanged
 *    for a full one in the node's barn, else refilled from slabs; a full
 *    one is swapped with a non-full spare, else exchanged for an empty one
 *    in the barn (which keeps at most MAX_FULL_SHEAVES full ones), else the
 *    spare is flushed to slabs, else a new empty sheaf is allocated;
 *  - sheaves are kmalloc'ed objects; a kmalloc cache's sheaf is allocated
 *    with __GFP_NO_OBJ_EXT, which stops the allocation of further sheaves
 *    inside it (no recursion into the same cache).
 *
 * Below the sheaves each era keeps its slab paths: 6.18 its CPU slab and
 * per-CPU partial lists (slub_lockless.c), 7.0 none (slub_nocpu.c). The
 * local_trylock of the kernel never fails here: nothing preempts a
 * simulated CPU inside it. A CPU's first sheaf is allocated at its first
 * use of the cache (the kernel allocates it with the cache). The prefill
 * API (kmem_cache_prefill_sheaf) and kfree_rcu's sheaves are not modelled.
 * Sheaf paths charge the slub.* costs of the paths they replace: the
 * fast paths for a sheaf's pop and push, slub.list_op for a barn move,
 * slub.per_object for each object refilled or flushed. Each sheaf is an
 * sb_array of the blocks living in its kmalloc'ed object (its slots on that
 * object's lines), each node's barn an sb_depot of them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/slab.h"
#include "engine/array_size.h"
#include "engine/oom.h"
#include "slub.h"

/* 6.18's callers that ask for sheaves (kmem_cache_args.sheaf_capacity). */
static const struct {
	const char *name;
	unsigned int capacity;
} sheaf_callers[] = {
	{ "vm_area_struct", 32 },
	{ "maple_node", 32 },
};

/* numa_mem_id(): the running CPU's nearest node with memory, taken as its own node. */
static inline int numa_mem_id(const struct slub *sl, const struct sim_cpu *cpu)
{
	return sl->k->m->topo[cpu->id].node;
}

/* The kmalloc size a request of `bytes` gets (kmalloc_size_roundup). */
static unsigned int kmalloc_size_roundup(unsigned int bytes)
{
	if (bytes > 64 && bytes <= 96)
		return 96;
	if (bytes > 128 && bytes <= 192)
		return 192;
	unsigned int r = 8;
	while (r < bytes)
		r <<= 1;
	return r;
}

/* calculate_sheaf_capacity() of 7.0: 4, 12, 26 or 60 objects by size,
 * then as many as fill the kmalloc object the sheaf gets. */
unsigned int slub_sheaf_capacity_by_size(unsigned int size)
{
	unsigned int cap = size >= PAGE_SIZE ? 4 : size >= 1024 ? 12 : size >= 256 ? 26 : 60;
	unsigned int bytes = kmalloc_size_roundup(SLAB_SHEAF_HEADER + cap * (unsigned int)sizeof(kaddr_t));
	return (bytes - SLAB_SHEAF_HEADER) / (unsigned int)sizeof(kaddr_t);
}

unsigned int slub_sheaf_capacity_default(const struct slub *sl, const char *name,
					 unsigned int size, bool *explicit_capacity)
{
	*explicit_capacity = false;
	if (sl->sheaves == SHEAVES_OFF)
		return 0;
	if (sl->sheaf_capacity >= 0) {	/* sheaf_capacity=N: every cache asks for N */
		*explicit_capacity = sl->sheaf_capacity > 0;
		return (unsigned int)sl->sheaf_capacity;
	}
	unsigned int asked = 0;
	for (size_t i = 0; i < ARRAY_SIZE(sheaf_callers); i++)
		if (!strcmp(name, sheaf_callers[i].name))
			asked = sheaf_callers[i].capacity;
	*explicit_capacity = asked > 0;
	if (sl->sheaves == SHEAVES_OPT_IN)
		return asked;
	unsigned int by_size = slub_sheaf_capacity_by_size(size);
	return by_size > asked ? by_size : asked;
}

void slub_sheaves_init(struct slub *sl, struct slub_cache *s, unsigned int capacity,
		       bool explicit_capacity)
{
	int ncpus = sl->k->m->ncpus, nodes = sl->k->m->nodes;
	s->sheaf_capacity = capacity;
	s->sheaf_explicit = explicit_capacity;
	if (sl->sheaves == SHEAVES_OFF)
		return;
	s->pcs = calloc((size_t)ncpus, sizeof(*s->pcs));
	s->barn = calloc((size_t)nodes, sizeof(*s->barn));
	if (!s->pcs || !s->barn)
		host_oom(__func__);
	snprintf(s->barn_lock_name, sizeof(s->barn_lock_name), "&barn->lock [%s]", s->kc->name);
	hw_lock_class_init(sl->hw, &s->barn_lock_class, s->barn_lock_name, sl->hw->sym_spin_lock);
	for (int nid = 0; nid < nodes; nid++) {
		sb_depot_init(&s->barn[nid], sl->hw, sl->k->lock_kind, nid, &s->barn_lock_class);
	}
}

/* --- sheaves as objects --- */

/* The sheaf an array of a barn list (or of the pool) is. */
static inline struct slab_sheaf *sheaf_of(struct sb_array *a)
{
	return a ? container_of(a, struct slab_sheaf, a) : NULL;
}

/* A sheaf's header line (slot < 0) or the line of objects[slot]. */
static void sheaf_touch(struct slub *sl, struct sim_cpu *cpu, struct slab_sheaf *sh, int slot,
			bool write)
{
	sb_array_slot_touch(sl->hw, cpu, &sh->a, slot, write);
}

/* __alloc_empty_sheaf(): kzalloc of the header and capacity slots. */
static struct slab_sheaf *alloc_empty_sheaf(struct slub *sl, struct sim_cpu *cpu,
					    struct kmem_cache_cpu *c, struct slub_cache *s)
{
	if (sl->no_obj_ext[cpu->id])	/* __GFP_NO_OBJ_EXT: not inside a kmalloc sheaf */
		return NULL;
	bool kmalloc = s->kc->flags & __KMALLOC_CACHE;	/* SLAB_KMALLOC */
	unsigned int bytes = SLAB_SHEAF_HEADER + s->sheaf_capacity * (unsigned int)sizeof(kaddr_t);
	int psym = sym_enter(cpu, sl->sym_alloc_sheaf);
	sl->no_obj_ext[cpu->id] += kmalloc;
	kaddr_t addr = __kmalloc(sl->k, cpu, bytes, slab_alloc_gfp(sl->k, cpu));
	sl->no_obj_ext[cpu->id] -= kmalloc;
	if (addr)	/* kzalloc: every line written */
		slab_obj_touch(sl->k, cpu, addr, (int)((bytes + 63) >> 6), true);
	sym_exit(cpu, psym);
	if (!addr)
		return NULL;
	struct slab_sheaf *sh = s->sheaf_pool;
	if (sh)
		s->sheaf_pool = sheaf_of(sh->a.next);
	else if (!(sh = malloc(sizeof(*sh))) ||
		 sb_array_init(&sh->a, sl->hw, 0, s->sheaf_capacity) < 0)
		host_oom(__func__);
	sb_array_in_object(&sh->a, &sl->k->pa, addr, SLAB_SHEAF_HEADER);
	sh->a.next = NULL;
	sh->a.avail = 0;
	slub_stat(c, SHEAF_ALLOC);
	return sh;
}

/* free_empty_sheaf(): kfree of the sheaf's object; its host record goes to s->sheaf_pool. */
static void free_empty_sheaf(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			     struct slub_cache *s, struct slab_sheaf *sh)
{
	kaddr_t addr = sh->a.addr;
	sh->a.next = s->sheaf_pool ? &s->sheaf_pool->a : NULL;
	s->sheaf_pool = sh;
	kfree(sl->k, cpu, addr);
	slub_stat(c, SHEAF_FREE);
}

/* __kmem_cache_free_bulk(): objects to their slabs, by the era's path (7.0:
 * one __slab_free for each run of objects of one slab). */
static void free_bulk(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
		      struct slub_cache *s, const kaddr_t *objs, unsigned int nr)
{
	unsigned int i = 0;
	while (i < nr) {
		struct page *page = virt_to_head_page(&sl->k->pa, objs[i]);
		uint16_t head = (uint16_t)slab_obj_index(s->kc, page, objs[i]), tail = head;
		cpu_charge(cpu, sl->cost_per_object);
		if (sl->cpu_slab) {
			slub_free_lockless(sl, cpu, c, s, page, head);
			i++;
			continue;
		}
		int cnt = 1;	/* build_detached_freelist: link the run */
		while (i + (unsigned int)cnt < nr &&
		       virt_to_head_page(&sl->k->pa, objs[i + (unsigned int)cnt]) == page) {
			uint16_t next = (uint16_t)slab_obj_index(s->kc, page, objs[i + (unsigned int)cnt]);
			slub_set_freepointer(sl, cpu, page, next, head);
			head = next;
			cnt++;
			cpu_charge(cpu, sl->cost_per_object);
		}
		slub_slab_free_nocpu(sl, cpu, c, s, page, head, tail, cnt);
		i += (unsigned int)cnt;
	}
}

/* sheaf_flush_unused(): every object of a sheaf no CPU holds to its slab. */
static void sheaf_flush_unused(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			       struct slub_cache *s, struct slab_sheaf *sh)
{
	if (!sh->a.avail)
		return;
	int psym = sym_enter(cpu, sl->sym_flush);
	slub_stat_add(c, SHEAF_FLUSH, sh->a.avail);
	for (unsigned int i = 0; i < sh->a.avail; i++)
		sheaf_touch(sl, cpu, sh, (int)i, false);
	unsigned int n = sh->a.avail;
	sh->a.avail = 0;
	free_bulk(sl, cpu, c, s, sh->a.obj, n);
	sym_exit(cpu, psym);
}

/* sheaf_flush_main(): the main sheaf to slabs in batches of PCS_BATCH_MAX,
 * each taken off the sheaf before it is freed. */
static bool sheaf_flush_main(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			     struct slub_cache *s)
{
	struct slub_percpu_sheaves *pcs = &s->pcs[cpu->id];
	kaddr_t batch_objs[PCS_BATCH_MAX];
	bool ret = false;
	int psym = sym_enter(cpu, sl->sym_flush);
	while (pcs->main && pcs->main->a.avail) {
		struct slab_sheaf *sh = pcs->main;
		unsigned int batch = sh->a.avail < PCS_BATCH_MAX ? sh->a.avail : PCS_BATCH_MAX;
		sh->a.avail -= batch;
		for (unsigned int i = 0; i < batch; i++) {
			batch_objs[i] = sh->a.obj[sh->a.avail + i];
			sheaf_touch(sl, cpu, sh, (int)(sh->a.avail + i), false);
		}
		free_bulk(sl, cpu, c, s, batch_objs, batch);
		slub_stat_add(c, SHEAF_FLUSH, batch);
		ret = true;
	}
	sym_exit(cpu, psym);
	return ret;
}

/* refill_sheaf(): fill a sheaf from slabs (6.18: __kmem_cache_alloc_bulk
 * through the CPU slab; 7.0: refill_objects). 0, or -1 if it fell short. */
static int refill_sheaf(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			struct slub_cache *s, struct slab_sheaf *sh)
{
	unsigned int to_fill = sh->a.limit - sh->a.avail, filled = 0;
	if (!to_fill)
		return 0;
	int psym = sym_enter(cpu, sl->sym_refill);
	if (sl->cpu_slab) {
		for (; filled < to_fill; filled++) {
			kaddr_t obj = slub_alloc_lockless(sl, cpu, c, s, -1);
			if (!obj)
				break;
			cpu_charge(cpu, sl->cost_per_object);
			sh->a.obj[sh->a.avail + filled] = obj;
		}
	} else {
		filled = slub_refill_objects(sl, cpu, c, s, &sh->a.obj[sh->a.avail], to_fill, to_fill);
	}
	for (unsigned int i = 0; i < filled; i++)
		sheaf_touch(sl, cpu, sh, (int)(sh->a.avail + i), true);
	sh->a.avail += filled;
	slub_stat_add(c, SHEAF_REFILL, filled);
	sym_exit(cpu, psym);
	return filled < to_fill ? -1 : 0;
}

/* A sheaf that could not be filled goes back with what it got. */
static void drop_sheaf(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
		       struct slub_cache *s, struct slab_sheaf *sh)
{
	sheaf_flush_unused(sl, cpu, c, s, sh);
	free_empty_sheaf(sl, cpu, c, s, sh);
}

/* alloc_full_sheaf(): a new sheaf filled from slabs; NULL if either fails (what a short
 * refill got goes back, drop_sheaf). */
static struct slab_sheaf *alloc_full_sheaf(struct slub *sl, struct sim_cpu *cpu,
					   struct kmem_cache_cpu *c, struct slub_cache *s)
{
	struct slab_sheaf *sh = alloc_empty_sheaf(sl, cpu, c, s);
	if (sh && refill_sheaf(sl, cpu, c, s, sh) < 0) {
		drop_sheaf(sl, cpu, c, s, sh);
		return NULL;
	}
	return sh;
}

/* --- the barn --- */

/* Lock the barn (and take its line) for a move, charged as a list move. */
static void barn_lock(struct slub *sl, struct sim_cpu *cpu, struct sb_depot *barn)
{
	cpu_charge(cpu, sl->cost_list);
	hw_spin_lock(sl->hw, cpu, &barn->lock);
	hw_write(sl->hw, cpu, &barn->line);
}

/* data_race(barn->nr_*): a look without the lock. */
static void barn_peek(struct slub *sl, struct sim_cpu *cpu, struct sb_depot *barn)
{
	cpu_sync(cpu);
	hw_read(sl->hw, cpu, &barn->line);
}

/* A sheaf off the head of a barn list (its barn_list link read; the list's
 * count follows); caller holds the barn lock. */
static struct slab_sheaf *barn_pop(struct slub *sl, struct sim_cpu *cpu, struct sb_stack *list)
{
	struct slab_sheaf *sh = sheaf_of(list->top);
	sheaf_touch(sl, cpu, sh, -1, false);	/* its barn_list */
	sb_stack_pop(list);
	return sh;
}

/* A sheaf onto the head of a barn list (its barn_list link written; the
 * list's count follows); caller holds the lock. */
static void barn_push(struct slub *sl, struct sim_cpu *cpu, struct sb_stack *list,
		      struct slab_sheaf *sh)
{
	sheaf_touch(sl, cpu, sh, -1, true);
	sb_stack_push(list, &sh->a);
}

/* barn_get_empty_sheaf(): an empty sheaf off the barn, NULL if it has none (a look
 * without the lock first). */
static struct slab_sheaf *barn_get_empty_sheaf(struct slub *sl, struct sim_cpu *cpu,
					       struct sb_depot *barn)
{
	barn_peek(sl, cpu, barn);
	if (!barn->empty.total)
		return NULL;
	struct slab_sheaf *sh = NULL;
	barn_lock(sl, cpu, barn);
	if (barn->empty.total)
		sh = barn_pop(sl, cpu, &barn->empty);
	hw_spin_unlock(sl->hw, cpu, &barn->lock);
	return sh;
}

/* barn_put_empty_sheaf() and _full_sheaf(): undoing a race, no limits. */
static void barn_put(struct slub *sl, struct sim_cpu *cpu, struct sb_depot *barn,
		     struct slab_sheaf *sh, bool full)
{
	barn_lock(sl, cpu, barn);
	barn_push(sl, cpu, full ? &barn->full : &barn->empty, sh);
	hw_spin_unlock(sl->hw, cpu, &barn->lock);
}

/* barn_replace_empty_sheaf(): a full sheaf for `empty` (NULL: a CPU's first
 * sheaf, nothing to give), or NULL if the barn has none. */
static struct slab_sheaf *barn_replace_empty_sheaf(struct slub *sl, struct sim_cpu *cpu,
						   struct sb_depot *barn,
						   struct slab_sheaf *empty)
{
	barn_peek(sl, cpu, barn);
	if (!barn->full.total)
		return NULL;
	struct slab_sheaf *full = NULL;
	barn_lock(sl, cpu, barn);
	if (barn->full.total) {
		full = barn_pop(sl, cpu, &barn->full);
		if (empty)
			barn_push(sl, cpu, &barn->empty, empty);
	}
	hw_spin_unlock(sl->hw, cpu, &barn->lock);
	return full;
}

enum { BARN_OK, BARN_E2BIG, BARN_ENOMEM };

/* barn_replace_full_sheaf(): an empty sheaf for `full`; refused if the
 * barn holds MAX_FULL_SHEAVES full ones already, or has no empty one. */
static struct slab_sheaf *barn_replace_full_sheaf(struct slub *sl, struct sim_cpu *cpu,
						  struct sb_depot *barn,
						  struct slab_sheaf *full, int *why)
{
	barn_peek(sl, cpu, barn);
	if (barn->full.total >= MAX_FULL_SHEAVES) {
		*why = BARN_E2BIG;
		return NULL;
	}
	if (!barn->empty.total) {
		*why = BARN_ENOMEM;
		return NULL;
	}
	struct slab_sheaf *empty = NULL;
	barn_lock(sl, cpu, barn);
	if (barn->empty.total) {	/* both links, then both lists and counts */
		empty = sheaf_of(barn->empty.top);
		sheaf_touch(sl, cpu, empty, -1, false);
		sheaf_touch(sl, cpu, full, -1, true);
		sb_stack_pop(&barn->empty);
		sb_stack_push(&barn->full, &full->a);
	}
	hw_spin_unlock(sl->hw, cpu, &barn->lock);
	*why = empty ? BARN_OK : BARN_ENOMEM;
	return empty;
}

/* --- the percpu sheaves --- */

/* __pcs_replace_empty_main(): give the CPU a main sheaf with objects; false
 * if none can be had (the allocation goes to the slab paths). */
static bool pcs_replace_empty_main(struct slub *sl, struct sim_cpu *cpu,
				   struct kmem_cache_cpu *c, struct slub_cache *s)
{
	struct slub_percpu_sheaves *pcs = &s->pcs[cpu->id];
	if (pcs->spare && pcs->spare->a.avail > 0) {
		struct slab_sheaf *t = pcs->main;
		pcs->main = pcs->spare;
		pcs->spare = t;
		return true;
	}
	int psym = sym_enter(cpu, sl->sym_replace_empty);
	struct sb_depot *barn = &s->barn[numa_mem_id(sl, cpu)];
	struct slab_sheaf *full = barn_replace_empty_sheaf(sl, cpu, barn, pcs->main);
	if (full) {
		slub_stat(c, BARN_GET);
		pcs->main = full;
		sym_exit(cpu, psym);
		return true;
	}
	slub_stat(c, BARN_GET_FAIL);
	struct slab_sheaf *empty = pcs->spare;	/* GFP_KERNEL: it may refill */
	pcs->spare = NULL;
	if (!empty)
		empty = barn_get_empty_sheaf(sl, cpu, barn);
	if (empty) {
		if (refill_sheaf(sl, cpu, c, s, empty) == 0) {
			full = empty;
		} else {
			drop_sheaf(sl, cpu, c, s, empty);
		}
	} else {
		full = alloc_full_sheaf(sl, cpu, c, s);
	}
	sym_exit(cpu, psym);
	if (!full)
		return false;
	/* the lock again: what came in between decides where `full` goes */
	if (!pcs->main) {
		pcs->main = full;
	} else if (pcs->main->a.avail == 0) {
		if (!pcs->spare)
			pcs->spare = pcs->main;
		else
			barn_put(sl, cpu, barn, pcs->main, false);
		pcs->main = full;
	} else if (!pcs->spare) {
		pcs->spare = full;
	} else if (pcs->spare->a.avail == 0) {
		barn_put(sl, cpu, barn, pcs->spare, false);
		pcs->spare = full;
	} else {
		barn_put(sl, cpu, barn, full, true);
		slub_stat(c, BARN_PUT);
	}
	return true;
}

/* alloc_from_pcs(): pop the main sheaf; 0 sends the allocation to slabs. */
kaddr_t slub_alloc_from_pcs(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
			    struct slub_cache *s, int node)
{
	/* 7.0 counts a node the sheaves cannot serve; 6.18's slab path does */
	bool node_requested = node >= 0 && sl->k->m->nodes > 1;
	if (node_requested && node != numa_mem_id(sl, cpu)) {
		if (!sl->cpu_slab)
			slub_stat(c, ALLOC_NODE_MISMATCH);
		return 0;
	}
	struct slub_percpu_sheaves *pcs = &s->pcs[cpu->id];
	if ((!pcs->main || !pcs->main->a.avail) && !pcs_replace_empty_main(sl, cpu, c, s))
		return 0;
	struct slab_sheaf *sh = pcs->main;
	kaddr_t obj = sh->a.obj[sh->a.avail - 1];
	sheaf_touch(sl, cpu, sh, (int)sh->a.avail - 1, false);
	if (node_requested && virt_to_head_page(&sl->k->pa, obj)->nid != node) {
		if (!sl->cpu_slab)
			slub_stat(c, ALLOC_NODE_MISMATCH);
		return 0;
	}
	sh->a.avail--;
	slub_stat(c, sl->cpu_slab ? ALLOC_PCS : ALLOC_FASTPATH);
	return obj;
}

/* __pcs_install_empty_sheaf(): a new empty sheaf in, wherever it fits. */
static void pcs_install_empty_sheaf(struct slub *sl, struct sim_cpu *cpu,
				    struct kmem_cache_cpu *c, struct slub_cache *s,
				    struct sb_depot *barn, struct slab_sheaf *empty)
{
	struct slub_percpu_sheaves *pcs = &s->pcs[cpu->id];
	if (!pcs->main) {	/* a CPU's first sheaf */
		pcs->main = empty;
	} else if (!pcs->spare) {
		pcs->spare = pcs->main;
		pcs->main = empty;
	} else if (pcs->main->a.avail < s->sheaf_capacity) {
		barn_put(sl, cpu, barn, empty, false);
	} else if (pcs->spare->a.avail < s->sheaf_capacity) {
		struct slab_sheaf *t = pcs->main;
		pcs->main = pcs->spare;
		pcs->spare = t;
		barn_put(sl, cpu, barn, empty, false);
	} else {
		barn_put(sl, cpu, barn, pcs->main, true);
		slub_stat(c, BARN_PUT);
		pcs->main = empty;
	}
}

/* __pcs_replace_full_main(): give the CPU a main sheaf with room; false if
 * none can be had (the free goes to its slab). */
static bool pcs_replace_full_main(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
				  struct slub_cache *s)
{
	struct slub_percpu_sheaves *pcs = &s->pcs[cpu->id];
	struct sb_depot *barn = &s->barn[numa_mem_id(sl, cpu)];
	int psym = sym_enter(cpu, sl->sym_replace_full);
	bool ok = true;
	for (;;) {	/* restart: */
		bool put_fail = false;
		struct slab_sheaf *empty = NULL;
		if (!pcs->spare) {
			empty = barn_get_empty_sheaf(sl, cpu, barn);
			if (empty) {
				pcs->spare = pcs->main;
				pcs->main = empty;
				break;
			}
		} else if (pcs->spare->a.avail < s->sheaf_capacity) {
			struct slab_sheaf *t = pcs->main;
			pcs->main = pcs->spare;
			pcs->spare = t;
			break;
		} else {
			int why;
			empty = barn_replace_full_sheaf(sl, cpu, barn, pcs->main, &why);
			if (empty) {
				slub_stat(c, BARN_PUT);
				pcs->main = empty;
				break;
			}
			if (why == BARN_E2BIG) {	/* the barn is full: flush the spare */
				struct slab_sheaf *to_flush = pcs->spare;
				slub_stat(c, BARN_PUT_FAIL);
				pcs->spare = NULL;
				sheaf_flush_unused(sl, cpu, c, s, to_flush);
				pcs_install_empty_sheaf(sl, cpu, c, s, barn, to_flush);
				break;
			}
			put_fail = true;
		}
		empty = alloc_empty_sheaf(sl, cpu, c, s);	/* alloc_empty: GFP_NOWAIT */
		if (empty) {
			pcs_install_empty_sheaf(sl, cpu, c, s, barn, empty);
			break;
		}
		if (put_fail)
			slub_stat(c, BARN_PUT_FAIL);
		if (!pcs->main || !sheaf_flush_main(sl, cpu, c, s)) {
			ok = false;
			break;
		}
		if (pcs->main->a.avail < s->sheaf_capacity)
			break;
	}
	sym_exit(cpu, psym);
	return ok;
}

/* free_to_pcs(): push on the main sheaf; false sends the free to slabs. */
bool slub_free_to_pcs(struct slub *sl, struct sim_cpu *cpu, struct kmem_cache_cpu *c,
		      struct slub_cache *s, kaddr_t obj)
{
	struct slub_percpu_sheaves *pcs = &s->pcs[cpu->id];
	if ((!pcs->main || pcs->main->a.avail == s->sheaf_capacity) &&
	    !pcs_replace_full_main(sl, cpu, c, s))
		return false;
	struct slab_sheaf *sh = pcs->main;
	sh->a.obj[sh->a.avail] = obj;
	sheaf_touch(sl, cpu, sh, (int)sh->a.avail, true);
	sh->a.avail++;
	slub_stat(c, sl->cpu_slab ? FREE_PCS : FREE_FASTPATH);
	return true;
}

/* --- books --- */

/* The objects the sheaves hold, for the check (sorted, to find doubles). */
struct held {
	kaddr_t *v;
	size_t n, cap;
};

/* An object into the held set, grown as needed. */
static void hold(struct held *h, kaddr_t obj)
{
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 256;
		if (!(h->v = realloc(h->v, h->cap * sizeof(*h->v))))
			host_oom(__func__);
	}
	h->v[h->n++] = obj;
}

/* qsort and bsearch order of kernel addresses. */
static int cmp_kaddr(const void *a, const void *b)
{
	kaddr_t x = *(const kaddr_t *)a, y = *(const kaddr_t *)b;
	return x < y ? -1 : x > y;
}

bool slub_sheaves_have(const kaddr_t *held, size_t nheld, kaddr_t obj)
{
	return nheld && bsearch(&obj, held, nheld, sizeof(*held), cmp_kaddr);
}

/* A sheaf's objects held as the blocks' check holds them, and into the
 * held set. */
static int count_sheaf(struct slub_cache *s, const struct slab_sheaf *sh, struct held *h,
		       const char *where, struct sim_err *err)
{
	if (sh->a.limit != s->sheaf_capacity || sh->a.avail > sh->a.limit)
		return sim_fail(err, "slub %s: %s holds %u objects in a sheaf of %u (the cache's "
				"capacity is %u)", s->kc->name, where, sh->a.avail, sh->a.limit,
				s->sheaf_capacity);
	for (unsigned int i = 0; i < sh->a.avail; i++) {
		if (sb_check_held(&s->sc, sh->a.obj[i], where, err) < 0)
			return -1;
		hold(h, sh->a.obj[i]);
	}
	return 0;
}

/* Every CPU's main and spare sheaf and every barn's sheaves held and into the held set;
 * each barn's nr_full and nr_empty checked against its lists. */
static int hold_sheaves(struct slub *sl, struct slub_cache *s, struct held *h,
			   struct sim_err *err)
{
	for (int cpu = 0; cpu < sl->k->m->ncpus; cpu++) {
		const struct slub_percpu_sheaves *pcs = &s->pcs[cpu];
		if ((pcs->main && count_sheaf(s, pcs->main, h, "a main sheaf", err) < 0) ||
		    (pcs->spare && count_sheaf(s, pcs->spare, h, "a spare sheaf", err) < 0))
			return -1;
		if (pcs->spare && !pcs->main)
			return sim_fail(err, "slub %s: CPU %d has a spare sheaf but no main one",
					s->kc->name, cpu);
	}
	for (int nid = 0; nid < sl->k->m->nodes; nid++) {
		const struct sb_depot *barn = &s->barn[nid];
		long nfull = 0, nempty = 0;
		for (struct sb_array *a = barn->full.top; a; a = a->next) {
			if (++nfull > barn->full.total ||
			    count_sheaf(s, sheaf_of(a), h, "a full sheaf in the barn", err) < 0)
				return nfull > barn->full.total ? sim_fail(err, "slub %s: node %d's barn "
					"lists more full sheaves than nr_full = %ld", s->kc->name,
					nid, barn->full.total) : -1;
		}
		for (const struct sb_array *a = barn->empty.top; a; a = a->next)
			if (++nempty > barn->empty.total || a->avail)
				return sim_fail(err, "slub %s: node %d's barn: an empty sheaf holds %u "
						"objects, or more than nr_empty = %ld are listed",
						s->kc->name, nid, a->avail, barn->empty.total);
		if (nfull != barn->full.total || nempty != barn->empty.total)
			return sim_fail(err, "slub %s: node %d's barn lists %ld full and %ld empty "
					"sheaves, counted %ld and %ld", s->kc->name, nid, nfull,
					nempty, barn->full.total, barn->empty.total);
	}
	return 0;
}

int slub_sheaves_hold(struct slub *sl, struct slub_cache *s, kaddr_t **held, size_t *nheld,
		      struct sim_err *err)
{
	struct held h = { NULL, 0, 0 };
	*held = NULL;
	*nheld = 0;
	if (!s->pcs)
		return 0;
	int rc = hold_sheaves(sl, s, &h, err);
	if (h.n)
		qsort(h.v, h.n, sizeof(*h.v), cmp_kaddr);
	for (size_t i = 1; i < h.n && rc == 0; i++)
		if (h.v[i] == h.v[i - 1])
			rc = sim_fail(err, "slub %s: object %#llx is in sheaves twice", s->kc->name,
				      (unsigned long long)h.v[i]);
	*held = h.v;
	*nheld = h.n;
	return rc;
}

/* A sheaf's host record and its array freed (NULL: nothing). */
static void free_sheaf(struct slab_sheaf *sh)
{
	if (sh)
		sb_array_destroy(&sh->a);
	free(sh);
}

/* The host records of a chain of sheaves (a barn list, the pool) freed. */
static void free_sheaf_list(struct slab_sheaf *sh)
{
	while (sh) {
		struct slab_sheaf *next = sheaf_of(sh->a.next);
		free_sheaf(sh);
		sh = next;
	}
}

void slub_sheaves_destroy(struct slub *sl, struct slub_cache *s)
{
	for (int cpu = 0; s->pcs && cpu < sl->k->m->ncpus; cpu++) {
		free_sheaf(s->pcs[cpu].main);
		free_sheaf(s->pcs[cpu].spare);
	}
	for (int nid = 0; s->barn && nid < sl->k->m->nodes; nid++) {
		free_sheaf_list(sheaf_of(s->barn[nid].full.top));
		free_sheaf_list(sheaf_of(s->barn[nid].empty.top));
	}
	free_sheaf_list(s->sheaf_pool);
	free(s->pcs);
	free(s->barn);
}
