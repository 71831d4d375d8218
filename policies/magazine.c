/* magazine.c - Bonwick and Adams' magazines ("Magazines and Vmem", USENIX
 * 2001), as the Solaris/illumos kmem allocator has them
 * (usr/src/uts/common/os/kmem.c), with its names:
 *
 *  - each CPU has a loaded and a previous magazine of cc_magsize rounds
 *    (pointers to free objects), under its cc_lock; an allocation pops a
 *    round of the loaded magazine, a free pushes one; when the loaded one
 *    is empty (full) and the previous one full (empty) they are swapped;
 *  - otherwise a magazine is exchanged with the cache's depot, which keeps
 *    lists of full and empty magazines under one cache_depot_lock
 *    (kmem_depot_alloc counts the times that lock was contended); a free
 *    that finds no empty magazine allocates one from kmem_magazine_N, a
 *    cache of its own; an allocation that finds no full one goes to the
 *    slab layer;
 *  - the slab layer keeps each cache's slabs under one cache_lock: partial
 *    slabs sorted fullest first (kmem_partial_slab_cmp's bins), complete
 *    slabs aside; a slab is given back as soon as it is empty;
 *  - every kmem_reap_interval (15 s) kmem_cache_update brings each depot's
 *    working set up to date and, if the depot lock was contended more than
 *    kmem_depot_contention times meanwhile, moves the cache to the next
 *    magazine size of kmem_magtype[]; kmem_reap (memory pressure; here
 *    magazine_reap=1 runs it with each update) frees the magazines beyond
 *    the working set.
 *
 * What the model changes: the kernel purges every CPU's magazines for a
 * resize from the taskq, taking each cc_lock; here each CPU purges its own
 * at its next use of the cache (a CPU's cache stays its own, docs/model.md's
 * ordering rule), and a magazine of a size given up meanwhile is destroyed
 * rather than put back in the depot. Solaris kmem is not NUMA aware, and
 * neither is this: slabs come from the node of the CPU that grows the
 * cache, and `node` of kmalloc_node is ignored. Slab sizes are powers of
 * two pages (vmem would give any multiple of a page), and kmalloc's
 * classes are the kernel model's powers of two plus 96 and 192
 * (kmem_alloc_N; Solaris has finer ones). Instruction costs are SLAB's
 * entries of the core's cost table, path for path: a magazine's round is
 * an array_cache's entry, a depot exchange a list move, a slab operation
 * one bufctl step.
 *
 * On the blocks (slab_blocks.h): the slab layer is an sb_cache with one
 * owner for the cache (cache_lock on its line in kmem_cache_t), partial
 * slabs in bins, complete slabs on its full list, empty ones freed at
 * once; slabs grow and go with sb_new_slab and sb_free_slab. Each
 * magazine's rounds are an sb_array living in its kmem_magazine_N object
 * (each round on that object's line, the CPU's cc_rounds the loaded one's
 * count), and the depot is an sb_depot: its full and empty lists stacks of
 * those arrays with their working set, under cache_depot_lock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/bitops.h"
#include "engine/array_size.h"
#include "engine/oom.h"
#include "kernel/slab.h"
#include "kernel/workqueue.h"
#include "policy.h"

#define KMEM_ALIGN 8			/* min guaranteed alignment */
#define KMEM_VOID_FRACTION 8		/* a slab wastes at most 1/8 */
#define KMEM_SLAB_T_SIZE 72		/* sizeof (kmem_slab_t), LP64: at a small slab's end */
#define KMEM_HASH_LINES 8		/* KMEM_HASH_INITIAL (64) bucket pointers */
#define KMEM_BIG_MAXBUF 131072		/* the largest kmem_alloc cache */
#define KMEM_SLAB_MAX_ORDER 5		/* a slab of KMEM_BIG_MAXBUF */
#define NR_MAGTYPES 9
#define WORD 8				/* sizeof (void *) */

/* kmem_magtype[]: rounds, alignment, and the chunk sizes it serves. */
static const struct {
	int magsize, align;
	size_t minbuf, maxbuf;
} kmem_magtype[NR_MAGTYPES] = {
	{ 1, 8, 3200, 65536 }, { 3, 16, 256, 32768 }, { 7, 32, 64, 16384 },
	{ 15, 64, 0, 8192 },   { 31, 64, 0, 4096 },   { 47, 64, 0, 2048 },
	{ 63, 64, 0, 1024 },   { 95, 64, 0, 512 },    { 143, 64, 0, 0 },
};

/* The cache's kstats (kstat -n CACHE), and what the model adds. */
enum kmem_kstat { ST_ALLOC, ST_ALLOC_FAIL, ST_FREE, ST_DEPOT_ALLOC, ST_DEPOT_FREE,
		 ST_DEPOT_CONTENTION, ST_SLAB_ALLOC, ST_SLAB_FREE, ST_SLAB_CREATE,
		 ST_SLAB_DESTROY, ST_FULL_MAGAZINES, ST_EMPTY_MAGAZINES, ST_BUF_AVAIL,
		 ST_REAP, ST_MAGAZINE_RESIZE, NR_KMEM_STATS };

static const char *const kmem_stat_name[NR_KMEM_STATS] = {
	"alloc", "alloc_fail", "free", "depot_alloc", "depot_free", "depot_contention",
	"slab_alloc", "slab_free", "slab_create", "slab_destroy", "full_magazines",
	"empty_magazines", "buf_avail", "reap", "magazine_resize",
};

/* kmem_magazine_t: a kmem_magazine_N object. Its rounds are the blocks'
 * array living in that object (mag_round[] is a.obj, after the mag_next
 * word; a.avail rounds, a.limit its magtype's magsize; a.next its
 * mag_next on a depot list). */
struct kmem_magazine {
	struct sb_array a;
	int mt;				/* its magtype */
};

/* kmem_cpu_cache_t: one CPU's magazines (cc_lock and the fields: one line). */
struct kmem_cpu_cache {
	struct hw_line cc_line;
	struct kmem_magazine *cc_loaded, *cc_ploaded;	/* cc_rounds: their a.avail */
	int cc_magsize;
	int cc_magtype;			/* the magtype its magazines are of */
	uint64_t cc_alloc, cc_free;
};

/* The policy's part of kmem_cache_t. */
struct mcache {
	struct kmem_cache *kc;
	size_t chunksize, slabsize;
	unsigned int chunks, order;
	bool hash;			/* KMF_HASH: bufctls off the buffer */
	int magtype;			/* kmem_magtype[] row; -1: KMF_NOMAGAZINE */
	int is_magcache;		/* kmem_magazine_N of that row, else -1 */
	/* slab layer: the blocks' cache with one owner (cache_lock on its line),
	 * partial slabs in kmem_partial_slab_cmp's bins, complete ones on full */
	struct sb_cache sc;
	struct hw_line hash_line[KMEM_HASH_LINES];
	/* depot: the blocks' depot under cache_depot_lock; its kmem_maglist_t
	 * full and empty are stacks (ml_list top, ml_total total, ml_min min,
	 * ml_reaplimit reaplimit, ml_alloc taken) */
	struct sb_depot depot;
	uint64_t depot_contention, depot_contention_prev;
	bool resized;			/* contention_prev + INT_MAX: skip one update */
	uint64_t stat[NR_KMEM_STATS];
	struct kmem_cpu_cache *cpu;	/* [ncpus] */
	struct hw_lock_class depot_class;
	char depot_name[64];
};

struct mag {
	struct kernel *k;
	struct hw *hw;
	int ncpus;
	struct kmem_cache *mt_cache[NR_MAGTYPES];	/* kmem_magazine_N */
	int making;			/* the magtype whose cache is being created */
	bool magtypes_made;
	int fixed_magsize;		/* magazine_size: -1 by chunk size, 0 none */
	long contention_limit;		/* kmem_depot_contention */
	bool reap_on_update;
	uint64_t nmag[NR_MAGTYPES];	/* magazines that exist, by type */
	struct kmem_magazine *pool[NR_MAGTYPES];	/* host records to reuse */
	uint32_t cost_alloc, cost_free, cost_list, cost_per_object, cost_update;
	struct sb_costs slab_cost;	/* kmem_slab_create's and _destroy's, for the blocks */
	int sym_slab_alloc, sym_slab_free, sym_depot_alloc, sym_depot_free, sym_mag_alloc,
		sym_mag_destroy, sym_update;
	struct mcache **caches;
	int ncaches, caches_cap;
	struct housekeeping update;	/* kmem_update, on CPU 0 */
};

static const struct param_def mag_params[] = {
	{ "magazine_size", PT_INT, "-1", -1, 143, NULL,
	  "rounds per magazine every cache starts with (-1: by chunk size, kmem_magtype[]; 0: no "
	  "magazine layer, KMF_NOMAGAZINE; else 1 3 7 15 31 47 63 95 or 143); resizes still "
	  "grow it unless magazine_contention=1000000000" },
	{ "magazine_update_ms", PT_DOUBLE, "15000", 0.01, 1e7, NULL,
	  "kmem_reap_interval: how often kmem_cache_update runs (Solaris: 15 s)" },
	{ "magazine_contention", PT_INT, "3", 0, 1000000000, NULL,
	  "kmem_depot_contention: contended depot locks per interval that grow the magazines" },
	{ "magazine_reap", PT_BOOL, "0", 0, 1, NULL,
	  "run kmem_reap (free depot magazines beyond the working set) with each update, as "
	  "when memory is tight" },
	{ NULL },
};

/* --- the slab layer --- */

/* The line of a buffer's bufctl: at its end in a small-chunk slab; a hash
 * bucket of cache_hash_table in a KMF_HASH cache (its bufctl is looked up). */
static void bufctl_touch(struct mag *m, struct sim_cpu *cpu, struct mcache *mc,
			 struct page *sp, unsigned int idx, bool write)
{
	kaddr_t buf = slab_obj_addr(mc->kc, sp, idx);
	if (mc->hash) {
		int b = (int)((buf >> (fls(mc->chunksize) - 1)) % KMEM_HASH_LINES);
		if (write)
			hw_write(m->hw, cpu, &mc->hash_line[b]);
		else
			hw_read(m->hw, cpu, &mc->hash_line[b]);
		return;
	}
	kaddr_t bc = buf + mc->chunksize - KMEM_ALIGN;	/* cache_bufctl */
	uint64_t off = bc - page_address(sp);
	hw_obj_access(m->hw, cpu, &sp->cl[off >> 6], bc >> 6, 1, write, sp->nid);
}

/* kmem_slab_alloc(): a buffer from the fullest partial slab, or a new one. */
static kaddr_t kmem_slab_alloc(struct mag *m, struct sim_cpu *cpu, struct mcache *mc)
{
	struct sb_node *n = mc->sc.node[0];
	int psym = sym_enter(cpu, m->sym_slab_alloc);
	cpu_charge(cpu, m->cost_list + m->cost_per_object);
	hw_spin_lock(m->hw, cpu, &n->list_lock);
	hw_read(m->hw, cpu, &n->line);
	struct page *sp = sb_list_first(&mc->sc, n, SB_PARTIAL);
	if (!sp) {	/* none: a new slab (kmem_slab_create), lock dropped meanwhile */
		hw_spin_unlock(m->hw, cpu, &n->list_lock);
		sp = sb_new_slab(&mc->sc, cpu, m->k->m->topo[cpu->id].node);
		hw_spin_lock(m->hw, cpu, &n->list_lock);
		if (!sp) {
			mc->stat[ST_ALLOC_FAIL]++;
			hw_spin_unlock(m->hw, cpu, &n->list_lock);
			sym_exit(cpu, psym);
			return 0;
		}
		n->nr_slabs++;
		mc->stat[ST_SLAB_CREATE]++;
	} else {
		sb_list_del(&mc->sc, n, sp);
	}
	unsigned int idx = sp->freelist;
	bufctl_touch(m, cpu, mc, sp, idx, mc->hash);	/* pop it (hash: insert it) */
	sb_chain_pop(sp);
	hw_write(m->hw, cpu, &sp->line);
	sb_list_add(&mc->sc, n, sp, sp->inuse == mc->chunks ? SB_FULL : SB_PARTIAL, false);
	mc->stat[ST_SLAB_ALLOC]++;
	hw_write(m->hw, cpu, &n->line);
	hw_spin_unlock(m->hw, cpu, &n->list_lock);
	sym_exit(cpu, psym);
	return slab_obj_addr(mc->kc, sp, idx);
}

/* kmem_slab_free(): the buffer back on its slab; an empty slab is
 * destroyed at once. */
static void kmem_slab_free(struct mag *m, struct sim_cpu *cpu, struct mcache *mc, kaddr_t buf)
{
	struct sb_node *n = mc->sc.node[0];
	int psym = sym_enter(cpu, m->sym_slab_free);
	cpu_charge(cpu, m->cost_list + m->cost_per_object);
	struct page *sp = virt_to_head_page(&m->k->pa, buf);
	unsigned int idx = slab_obj_index(mc->kc, sp, buf);
	hw_spin_lock(m->hw, cpu, &n->list_lock);
	if (mc->hash)
		bufctl_touch(m, cpu, mc, sp, idx, false);	/* kmem_hash lookup */
	bufctl_touch(m, cpu, mc, sp, idx, true);
	sb_list_del(&mc->sc, n, sp);	/* off the complete list or its bin */
	sb_chain_push(sp, idx);
	hw_write(m->hw, cpu, &sp->line);
	mc->stat[ST_SLAB_FREE]++;
	hw_write(m->hw, cpu, &n->line);
	if (sp->inuse == 0) {
		mc->stat[ST_SLAB_DESTROY]++;
		n->nr_slabs--;
		hw_spin_unlock(m->hw, cpu, &n->list_lock);
		sb_free_slab(&mc->sc, cpu, sp);	/* kmem_slab_destroy */
	} else {
		sb_list_add(&mc->sc, n, sp, SB_PARTIAL, false);
		hw_spin_unlock(m->hw, cpu, &n->list_lock);
	}
	sym_exit(cpu, psym);
}

/* --- magazines --- */

/* The magazine an array of a depot list is. */
static inline struct kmem_magazine *mag_of(struct sb_array *a)
{
	return a ? container_of(a, struct kmem_magazine, a) : NULL;
}

/* cc_rounds and cc_prounds: the rounds of a CPU's loaded or previous
 * magazine, -1 if it has none. */
static inline int rounds(const struct kmem_magazine *mp)
{
	return mp ? (int)mp->a.avail : -1;
}

/* Round `slot` of a magazine (-1: its mag_next word), on the object's line. */
static void mag_touch(struct mag *m, struct sim_cpu *cpu, struct kmem_magazine *mp, int slot,
		      bool write)
{
	sb_array_slot_touch(m->hw, cpu, &mp->a, slot, write);
}

/* kmem_cache_alloc(mt_cache, KM_NOSLEEP): a new empty magazine of type mt. */
static struct kmem_magazine *kmem_magazine_alloc(struct mag *m, struct sim_cpu *cpu, int mt)
{
	kaddr_t addr = kmem_cache_alloc(m->k, cpu, m->mt_cache[mt], GFP_NOWAIT);
	if (!addr)
		return NULL;
	struct kmem_magazine *mp = m->pool[mt];
	if (mp)
		m->pool[mt] = mag_of(mp->a.next);
	else if (!(mp = malloc(sizeof(*mp))) ||
		 sb_array_init(&mp->a, m->hw, 0, (unsigned int)kmem_magtype[mt].magsize) < 0)
		host_oom(__func__);
	sb_array_in_object(&mp->a, &m->k->pa, addr, WORD);	/* after mag_next */
	mp->a.next = NULL;
	mp->mt = mt;
	m->nmag[mt]++;
	return mp;
}

/* kmem_magazine_destroy(): its rounds back to the slab layer, the
 * magazine to its own cache. */
static void kmem_magazine_destroy(struct mag *m, struct sim_cpu *cpu, struct mcache *mc,
				  struct kmem_magazine *mp)
{
	int psym = sym_enter(cpu, m->sym_mag_destroy);
	for (unsigned int i = 0; i < mp->a.avail; i++) {
		mag_touch(m, cpu, mp, (int)i, false);
		kmem_slab_free(m, cpu, mc, mp->a.obj[i]);
	}
	mp->a.avail = 0;
	int mt = mp->mt;
	kaddr_t addr = mp->a.addr;
	mp->a.next = m->pool[mt] ? &m->pool[mt]->a : NULL;
	m->pool[mt] = mp;
	m->nmag[mt]--;
	kmem_cache_free(m->k, cpu, m->mt_cache[mt], addr);
	sym_exit(cpu, psym);
}

/* cache_depot_lock: a failed mutex_tryenter counts as contention. */
static void depot_lock(struct mag *m, struct sim_cpu *cpu, struct mcache *mc, bool count)
{
	if (!hw_spin_trylock(m->hw, cpu, &mc->depot.lock)) {
		hw_spin_lock(m->hw, cpu, &mc->depot.lock);
		if (count)
			mc->depot_contention++;
	}
}

/* kmem_depot_alloc(): a magazine off a depot list, NULL if none. */
static struct kmem_magazine *kmem_depot_alloc(struct mag *m, struct sim_cpu *cpu,
					      struct mcache *mc, struct sb_stack *mlp)
{
	int psym = sym_enter(cpu, m->sym_depot_alloc);
	cpu_charge(cpu, m->cost_list);
	depot_lock(m, cpu, mc, true);
	hw_read(m->hw, cpu, &mc->depot.line);
	struct kmem_magazine *mp = mag_of(mlp->top);
	if (mp) {
		mag_touch(m, cpu, mp, -1, false);	/* mp->mag_next */
		sb_stack_pop(mlp);
		hw_write(m->hw, cpu, &mc->depot.line);
	}
	hw_spin_unlock(m->hw, cpu, &mc->depot.lock);
	sym_exit(cpu, psym);
	return mp;
}

/* kmem_depot_free(): a magazine onto a depot list (one of a size given up
 * by a resize meanwhile is destroyed instead). */
static void kmem_depot_free(struct mag *m, struct sim_cpu *cpu, struct mcache *mc,
			    struct sb_stack *mlp, struct kmem_magazine *mp)
{
	int psym = sym_enter(cpu, m->sym_depot_free);
	cpu_charge(cpu, m->cost_list);
	depot_lock(m, cpu, mc, false);
	if (mp->mt != mc->magtype) {
		hw_spin_unlock(m->hw, cpu, &mc->depot.lock);
		kmem_magazine_destroy(m, cpu, mc, mp);
		sym_exit(cpu, psym);
		return;
	}
	mag_touch(m, cpu, mp, -1, true);
	sb_stack_push(mlp, &mp->a);
	hw_write(m->hw, cpu, &mc->depot.line);
	hw_spin_unlock(m->hw, cpu, &mc->depot.lock);
	sym_exit(cpu, psym);
}

/* kmem_cpu_reload(): mp becomes the loaded magazine, the loaded one the
 * previous (each with its rounds). */
static void kmem_cpu_reload(struct kmem_cpu_cache *ccp, struct kmem_magazine *mp)
{
	ccp->cc_ploaded = ccp->cc_loaded;
	ccp->cc_loaded = mp;
}

/* The CPU's part of kmem_cache_magazine_purge() and _enable() after a
 * resize: its magazines back, then the new size. */
static void cpu_magazine_purge(struct mag *m, struct sim_cpu *cpu, struct mcache *mc,
			       struct kmem_cpu_cache *ccp)
{
	struct kmem_magazine *mp = ccp->cc_loaded, *pmp = ccp->cc_ploaded;
	ccp->cc_loaded = ccp->cc_ploaded = NULL;
	ccp->cc_magtype = mc->magtype;
	ccp->cc_magsize = mc->magtype >= 0 ? kmem_magtype[mc->magtype].magsize : 0;
	if (mp)
		kmem_magazine_destroy(m, cpu, mc, mp);
	if (pmp)
		kmem_magazine_destroy(m, cpu, mc, pmp);
}

/* cc_lock: mutex_enter, a locked op on the CPU's own line. */
static struct kmem_cpu_cache *cc_lock(struct mag *m, struct sim_cpu *cpu, struct mcache *mc)
{
	struct kmem_cpu_cache *ccp = &mc->cpu[cpu->id];
	hw_atomic(m->hw, cpu, &ccp->cc_line);
	housekeeping_touch(&m->update, 0, cpu->clock);
	return ccp;
}

/* kmem_cache_alloc(): a round of the loaded magazine, else of the previous one if it has any,
 * else a full magazine from the depot, else the slab layer; purges first after a resize. */
static kaddr_t mag_alloc(void *state, struct kmem_cache *kc, struct sim_cpu *cpu, int node)
{
	struct mag *m = state;
	struct mcache *mc = kc->priv;
	cpu_charge(cpu, m->cost_alloc);
	struct kmem_cpu_cache *ccp = cc_lock(m, cpu, mc);
	for (;;) {
		if (ccp->cc_magtype != mc->magtype) {
			cpu_magazine_purge(m, cpu, mc, ccp);
			continue;
		}
		if (rounds(ccp->cc_loaded) > 0) {
			kaddr_t buf = sb_array_pop(&ccp->cc_loaded->a);
			mag_touch(m, cpu, ccp->cc_loaded, (int)ccp->cc_loaded->a.avail, false);
			ccp->cc_alloc++;
			return buf;
		}
		if (rounds(ccp->cc_ploaded) > 0) {
			kmem_cpu_reload(ccp, ccp->cc_ploaded);
			continue;
		}
		if (ccp->cc_magsize == 0)
			break;
		struct kmem_magazine *fmp = kmem_depot_alloc(m, cpu, mc, &mc->depot.full);
		if (!fmp)
			break;
		if (fmp->mt != ccp->cc_magtype) {	/* resized while we waited */
			kmem_depot_free(m, cpu, mc, &mc->depot.full, fmp);
			continue;
		}
		struct kmem_magazine *emp = ccp->cc_ploaded;	/* empty, or NULL */
		kmem_cpu_reload(ccp, fmp);	/* full: magsize rounds */
		if (emp)	/* after the reload: what it calls may use this cache */
			kmem_depot_free(m, cpu, mc, &mc->depot.empty, emp);
	}
	return kmem_slab_alloc(m, cpu, mc);
}

/* kmem_cpucache_magazine_alloc(): an empty magazine from the depot, else a
 * new one; false if neither (the free goes to the slab layer). */
static bool cpucache_magazine_alloc(struct mag *m, struct sim_cpu *cpu, struct mcache *mc,
				    struct kmem_cpu_cache *ccp)
{
	struct kmem_magazine *emp = kmem_depot_alloc(m, cpu, mc, &mc->depot.empty);
	if (emp) {
		if (emp->mt != ccp->cc_magtype) {
			kmem_depot_free(m, cpu, mc, &mc->depot.empty, emp);
			return true;
		}
		struct kmem_magazine *fmp = ccp->cc_ploaded;	/* full, or NULL */
		kmem_cpu_reload(ccp, emp);	/* empty */
		if (fmp)
			kmem_depot_free(m, cpu, mc, &mc->depot.full, fmp);
		return true;
	}
	int mt = mc->magtype;
	int psym = sym_enter(cpu, m->sym_mag_alloc);
	emp = kmem_magazine_alloc(m, cpu, mt);
	sym_exit(cpu, psym);
	if (!emp)
		return false;
	if (ccp->cc_magsize != kmem_magtype[mt].magsize || mt != mc->magtype)
		kmem_magazine_destroy(m, cpu, mc, emp);	/* resized meanwhile */
	else
		kmem_depot_free(m, cpu, mc, &mc->depot.empty, emp);
	return true;
}

/* kmem_cache_free(): a round into the loaded magazine, else the previous one if empty, else
 * an empty magazine (cpucache_magazine_alloc), else the slab layer; purges first after a resize. */
static void mag_free(void *state, struct kmem_cache *kc, struct sim_cpu *cpu, kaddr_t buf)
{
	struct mag *m = state;
	struct mcache *mc = kc->priv;
	cpu_charge(cpu, m->cost_free);
	struct kmem_cpu_cache *ccp = cc_lock(m, cpu, mc);
	for (;;) {
		if (ccp->cc_magtype != mc->magtype) {
			cpu_magazine_purge(m, cpu, mc, ccp);
			continue;
		}
		if ((unsigned int)rounds(ccp->cc_loaded) < (unsigned int)ccp->cc_magsize) {
			sb_array_push(&ccp->cc_loaded->a, buf);
			mag_touch(m, cpu, ccp->cc_loaded, (int)ccp->cc_loaded->a.avail - 1, true);
			ccp->cc_free++;
			return;
		}
		if (rounds(ccp->cc_ploaded) == 0) {
			kmem_cpu_reload(ccp, ccp->cc_ploaded);
			continue;
		}
		if (ccp->cc_magsize == 0 || !cpucache_magazine_alloc(m, cpu, mc, ccp))
			break;
	}
	kmem_slab_free(m, cpu, mc, buf);
}

/* --- the depot's working set, and resizing (kmem_cache_update) --- */

/* kmem_depot_ws_reap(): the magazines outside the working set (all of
 * them after kmem_depot_ws_zero) back to the slab layer. */
static bool kmem_depot_ws_reap(struct mag *m, struct sim_cpu *cpu, struct mcache *mc)
{
	bool any = false;
	struct sb_stack *lists[2] = { &mc->depot.full, &mc->depot.empty };
	for (int l = 0; l < 2; l++) {
		long reap = lists[l]->reaplimit < lists[l]->min ? lists[l]->reaplimit : lists[l]->min;
		struct kmem_magazine *mp;
		while (reap-- > 0 && (mp = kmem_depot_alloc(m, cpu, mc, lists[l]))) {
			kmem_magazine_destroy(m, cpu, mc, mp);
			any = true;
		}
	}
	return any;
}

/* kmem_cache_update(): for every cache, the working set; a resize if the
 * depot lock was contended; kmem_reap if asked. Runs on CPU 0. */
static bool kmem_update(struct housekeeping *h, struct task *cur)
{
	struct mag *m = h->arg;
	struct sim_cpu *cpu = task_cpu(cur);
	int psym = sym_enter(cpu, m->sym_update);
	bool progress = false;
	for (int i = 0; i < m->ncaches; i++) {
		struct mcache *mc = m->caches[i];
		cpu_charge(cpu, m->cost_update);
		hw_spin_lock(m->hw, cpu, &mc->depot.lock);
		sb_stack_ws_update(&mc->depot.full);	/* kmem_depot_ws_update() */
		sb_stack_ws_update(&mc->depot.empty);
		bool resize = mc->magtype >= 0 && mc->magtype + 1 < NR_MAGTYPES &&
			      mc->chunksize < kmem_magtype[mc->magtype].maxbuf && !mc->resized &&
			      (long)(mc->depot_contention - mc->depot_contention_prev) >
				      m->contention_limit;
		mc->depot_contention_prev = mc->depot_contention;
		mc->resized = false;
		struct sb_array *full = NULL, *empty = NULL;
		if (resize) {	/* kmem_cache_magazine_resize(): purge the depot, next size */
			mc->magtype++;
			mc->resized = true;
			mc->stat[ST_MAGAZINE_RESIZE]++;
			full = sb_stack_take_all(&mc->depot.full);	/* every depot magazine at */
			empty = sb_stack_take_all(&mc->depot.empty);	/* once: new ones may come */
		}
		hw_write(m->hw, cpu, &mc->depot.line);
		hw_spin_unlock(m->hw, cpu, &mc->depot.lock);
		for (struct sb_array *a; (a = full) != NULL; progress = true) {
			full = a->next;
			kmem_magazine_destroy(m, cpu, mc, mag_of(a));
		}
		for (struct sb_array *a; (a = empty) != NULL; progress = true) {
			empty = a->next;
			kmem_magazine_destroy(m, cpu, mc, mag_of(a));
		}
		if (m->reap_on_update && !resize) {
			mc->stat[ST_REAP]++;
			progress |= kmem_depot_ws_reap(m, cpu, mc);
		}
	}
	sym_exit(cpu, psym);
	return progress;
}

/* --- caches --- */

/* The slab size: a page for small chunks (the kmem_slab_t at its end), else
 * the fit of 1..8 chunks that wastes least per chunk. */
static void slab_geometry(struct mcache *mc)
{
	if (!mc->hash) {
		mc->order = 0;
		mc->slabsize = PAGE_SIZE;
		mc->chunks = (unsigned int)((PAGE_SIZE - KMEM_SLAB_T_SIZE) / mc->chunksize);
		return;
	}
	size_t minwaste = (size_t)-1;
	for (size_t chunks = 1; chunks <= KMEM_VOID_FRACTION; chunks++) {
		unsigned int order = 0;
		while ((PAGE_SIZE << order) < mc->chunksize * chunks)
			order++;
		size_t slabsize = PAGE_SIZE << order, n = slabsize / mc->chunksize;
		size_t waste = (slabsize % mc->chunksize) / n;
		if (waste < minwaste) {
			minwaste = waste;
			mc->order = order;
			mc->slabsize = slabsize;
			mc->chunks = (unsigned int)n;
		}
	}
}

/* The kmem_magazine_N caches, before the first cache (kmem_cache_init). */
static int make_magtype_caches(struct mag *m, struct sim_err *err)
{
	m->magtypes_made = true;
	for (int t = 0; t < NR_MAGTYPES; t++) {
		char name[32];
		snprintf(name, sizeof(name), "kmem_magazine_%d", kmem_magtype[t].magsize);
		m->making = t;
		m->mt_cache[t] = kmem_cache_create(m->k, name, (unsigned int)((kmem_magtype[t].magsize +
						    1) * WORD), (unsigned int)kmem_magtype[t].align, 0,
						   err);
		m->making = -1;
		if (!m->mt_cache[t])
			return -1;
	}
	return 0;
}

/* The kmem_magtype[] row a cache starts with: magazine_size's, else the first whose minbuf
 * is below the chunk size (kmem_cache_create); -1: no magazines (KMF_NOMAGAZINE). */
static int magtype_of(const struct mag *m, size_t chunksize)
{
	if (m->fixed_magsize == 0)
		return -1;
	int mt = 0;
	if (m->fixed_magsize > 0)
		while (kmem_magtype[mt].magsize != m->fixed_magsize)
			mt++;
	else
		while (chunksize <= kmem_magtype[mt].minbuf)
			mt++;
	return mt;
}

/* kmem_cache_create(): chunk size and alignment, slab geometry, KMF_HASH for big chunks,
 * the magtype, slab bins, depot and CPU caches; the kmem_magazine_N caches come first. */
static struct kmem_cache *mag_cache_create(void *state, struct kmem_cache *kc,
					   struct sim_err *err)
{
	struct mag *m = state;
	if (!m->magtypes_made && make_magtype_caches(m, err) < 0)
		return NULL;
	size_t align = kc->align < KMEM_ALIGN ? KMEM_ALIGN : kc->align;
	if ((kc->flags & SLAB_HWCACHE_ALIGN) && align < 64)	/* a Linux caller's cache line */
		align = 64;
	if (align & (align - 1) || align > PAGE_SIZE)
		return sim_fail(err, "magazine: cache %s: bad alignment %zu", kc->name, align),
		       NULL;
	size_t chunksize = (kc->object_size + KMEM_ALIGN - 1) / KMEM_ALIGN * KMEM_ALIGN;
	chunksize = (chunksize + align - 1) / align * align;
	struct mcache *mc = calloc(1, sizeof(*mc));
	if (!mc)
		return sim_fail(err, "out of memory creating cache %s", kc->name), NULL;
	mc->kc = kc;
	mc->chunksize = chunksize;
	mc->is_magcache = m->making;
	mc->hash = m->making < 0 && chunksize >= PAGE_SIZE / KMEM_VOID_FRACTION;	/* KMC_NOHASH */
	slab_geometry(mc);
	if (mc->order > KMEM_SLAB_MAX_ORDER || !mc->chunks) {
		free(mc);
		return sim_fail(err, "magazine: cache %s: %zu-byte chunks need a slab beyond order %d",
				kc->name, chunksize, KMEM_SLAB_MAX_ORDER), NULL;
	}
	mc->magtype = magtype_of(m, chunksize);
	kc->priv = mc;
	mc->cpu = calloc((size_t)m->ncpus, sizeof(*mc->cpu));
	if (!mc->cpu)
		host_oom(__func__);
	/* the slab layer: one owner, its line (cache_lock's) in kmem_cache_t on node 0 */
	const struct sb_params p = {
		.policy = "magazine", .size = (unsigned int)chunksize, .order = mc->order,
		.objects = mc->chunks, .flags = SB_FULL_LIST | SB_BINS | SB_NO_EMPTY,
		.bin_shift = (unsigned int)fls((mc->slabsize / mc->chunksize) / 16) + 1,	/* maxchunks */
		.owners = 1, .lock_name = "&cp->cache_lock [%s]",
		.list_name = { "partial", "complete", "free" }, .cost = &m->slab_cost,
	};
	if (sb_cache_setup(&mc->sc, m->k, kc, &p, err) < 0)
		return NULL;
	snprintf(mc->depot_name, sizeof(mc->depot_name), "&cp->cache_depot_lock [%s]", kc->name);
	hw_lock_class_init(m->hw, &mc->depot_class, mc->depot_name, m->hw->sym_spin_lock);
	sb_depot_init(&mc->depot, m->hw, m->k->lock_kind, 0, &mc->depot_class);	/* in kmem_cache_t */
	for (int b = 0; b < KMEM_HASH_LINES; b++)
		hw_line_init(m->hw, &mc->hash_line[b], 0);
	for (int c = 0; c < m->ncpus; c++) {
		struct kmem_cpu_cache *ccp = &mc->cpu[c];
		hw_line_init(m->hw, &ccp->cc_line, 0);	/* cache_cpu[] is in kmem_cache_t */
		ccp->cc_magtype = mc->magtype;
		ccp->cc_magsize = mc->magtype >= 0 ? kmem_magtype[mc->magtype].magsize : 0;
	}
	if (m->ncaches == m->caches_cap) {
		m->caches_cap = m->caches_cap ? 2 * m->caches_cap : 32;
		m->caches = xrealloc(m->caches, (size_t)m->caches_cap * sizeof(*m->caches));
	}
	m->caches[m->ncaches++] = mc;
	return kc;
}

/* The largest kmem_alloc cache, KMEM_BIG_MAXBUF (128 KB); beyond it, pages. */
static unsigned int mag_kmalloc_max(void *state)
{
	(void)state;
	return KMEM_BIG_MAXBUF;
}

/* --- reports and invariants --- */

/* kstat -n CACHE: the kstats with the CPUs' counts and the depot's exchanges added
 * (kmem_cache_kstat_update); chunk, slab and magazine sizes as tunables. */
static void mag_cache_info(void *state, struct kmem_cache *kc, struct cache_info *out)
{
	struct mag *m = state;
	struct mcache *mc = kc->priv;
	memset(out, 0, sizeof(*out));
	sb_cache_figures(&mc->sc, out);
	uint64_t v[NR_KMEM_STATS];
	memcpy(v, mc->stat, sizeof(v));
	for (int c = 0; c < m->ncpus; c++) {
		const struct kmem_cpu_cache *ccp = &mc->cpu[c];
		v[ST_ALLOC] += ccp->cc_alloc;
		v[ST_FREE] += ccp->cc_free;
		v[ST_BUF_AVAIL] += (uint64_t)(rounds(ccp->cc_loaded) > 0 ? rounds(ccp->cc_loaded) : 0) +
			(uint64_t)(rounds(ccp->cc_ploaded) > 0 ? rounds(ccp->cc_ploaded) : 0);
	}
	/* kmem_cache_kstat_update(): alloc and free count the depot's magazine
	 * exchanges too; buf_avail is every free buffer: rounds, full depot
	 * magazines, and the slabs' own (cache_bufslab) */
	v[ST_ALLOC] += mc->stat[ST_SLAB_ALLOC] + mc->depot.full.taken;
	v[ST_FREE] += mc->stat[ST_SLAB_FREE] + mc->depot.empty.taken;
	if (mc->magtype >= 0)
		v[ST_BUF_AVAIL] += (uint64_t)mc->depot.full.total *
				   (uint64_t)kmem_magtype[mc->magtype].magsize;
	for (int i = 0; i < mc->sc.nall; i++)
		v[ST_BUF_AVAIL] += (uint64_t)(mc->chunks - mc->sc.all[i]->inuse);
	v[ST_DEPOT_ALLOC] = mc->depot.full.taken;
	v[ST_DEPOT_FREE] = mc->depot.empty.taken;
	v[ST_DEPOT_CONTENTION] = mc->depot_contention;
	v[ST_FULL_MAGAZINES] = (uint64_t)mc->depot.full.total;
	v[ST_EMPTY_MAGAZINES] = (uint64_t)mc->depot.empty.total;
	out->nstats = NR_KMEM_STATS;
	for (int i = 0; i < NR_KMEM_STATS; i++)
		out->stats[i] = (struct slab_stat){ kmem_stat_name[i], v[i] };
	out->ntunables = 3;
	out->tunables[0] = (struct slab_stat){ "chunk_size", mc->chunksize };
	out->tunables[1] = (struct slab_stat){ "slab_size", mc->slabsize };
	out->tunables[2] = (struct slab_stat){ "magazine_size", mc->magtype >= 0 ?
		(uint64_t)kmem_magtype[mc->magtype].magsize : 0 };
}

/* A magazine's rounds held as the blocks' check holds them (at most its
 * size, each a free buffer of this cache); `want` is the rounds it must
 * have, -1 any. */
static int hold_rounds(struct mcache *mc, struct kmem_magazine *mp, int want, const char *where,
		       struct sim_err *err)
{
	int n = (int)mp->a.avail, size = kmem_magtype[mp->mt].magsize;
	if ((want >= 0 && n != want) || (int)mp->a.limit != size)
		return sim_fail(err, "magazine %s: %s holds %d rounds in a magazine of %d",
				mc->kc->name, where, n, size);
	return sb_check_array(&mc->sc, &mp->a, where, err);
}

/* Every CPU's loaded and previous magazines: of the CPU's magazine type,
 * the previous one full or empty, their rounds held. */
static int hold_cpu_magazines(struct mag *m, struct mcache *mc, struct sim_err *err)
{
	char where[48];
	for (int c = 0; c < m->ncpus; c++) {
		struct kmem_cpu_cache *ccp = &mc->cpu[c];
		if ((ccp->cc_loaded && ccp->cc_loaded->mt != ccp->cc_magtype) ||
		    (ccp->cc_ploaded && ccp->cc_ploaded->mt != ccp->cc_magtype) ||
		    (rounds(ccp->cc_ploaded) > 0 && rounds(ccp->cc_ploaded) != ccp->cc_magsize))
			return sim_fail(err, "magazine %s: CPU %d's magazines disagree with its "
					"magazine type or rounds (%d, %d of %d)", mc->kc->name, c,
					rounds(ccp->cc_loaded), rounds(ccp->cc_ploaded), ccp->cc_magsize);
		snprintf(where, sizeof(where), "CPU %d's loaded magazine", c);
		if (ccp->cc_loaded && hold_rounds(mc, ccp->cc_loaded, -1, where, err) < 0)
			return -1;
		snprintf(where, sizeof(where), "CPU %d's previous magazine", c);
		if (ccp->cc_ploaded && hold_rounds(mc, ccp->cc_ploaded, -1, where, err) < 0)
			return -1;
	}
	return 0;
}

/* The depot's lists: their lengths against ml_total (and ml_min within
 * it), every magazine of the cache's type, the full ones full (their
 * rounds held) and the empty ones empty. */
static int hold_depot(struct mcache *mc, struct sim_err *err)
{
	struct sb_stack *lists[2] = { &mc->depot.full, &mc->depot.empty };
	for (int l = 0; l < 2; l++) {
		long n = sb_stack_length(lists[l], lists[l]->total);
		if (n != lists[l]->total || lists[l]->min > lists[l]->total)
			return sim_fail(err, "magazine %s: the depot's %s list holds %ld magazines, "
					"ml_total %ld, ml_min %ld", mc->kc->name, l ? "empty" : "full",
					n, lists[l]->total, lists[l]->min);
		for (struct kmem_magazine *mp = mag_of(lists[l]->top); mp; mp = mag_of(mp->a.next))
			if (mp->mt != mc->magtype)
				return sim_fail(err, "magazine %s: the depot holds a magazine of %d "
						"rounds, the cache's are %d", mc->kc->name,
						kmem_magtype[mp->mt].magsize,
						kmem_magtype[mc->magtype].magsize);
			else if (hold_rounds(mc, mp, l ? 0 : kmem_magtype[mp->mt].magsize,
					     l ? "the depot's empty list" : "the depot's full list",
					     err) < 0)
				return -1;
	}
	return 0;
}

/* The blocks' check (the slab layer's bins and complete list, each free
 * buffer in exactly one place) with every magazine's rounds held; a
 * magazine cache holds exactly the magazines that exist. */
static int mag_check(void *state, struct kmem_cache *kc, struct sim_err *err)
{
	struct mag *m = state;
	struct mcache *mc = kc->priv;
	if (sb_check_begin(&mc->sc, err) < 0 || hold_cpu_magazines(m, mc, err) < 0 ||
	    hold_depot(mc, err) < 0 || sb_check_end(&mc->sc, "magazines", err) < 0)
		return -1;
	if (mc->is_magcache >= 0 && kc->live != m->nmag[mc->is_magcache])
		return sim_fail(err, "magazine %s: %llu objects allocated but %llu magazines of %d "
				"rounds exist", kc->name, (unsigned long long)kc->live,
				(unsigned long long)m->nmag[mc->is_magcache],
				kmem_magtype[mc->is_magcache].magsize);
	return 0;
}

/* --- the policy --- */

/* The policy's state: magazine_size checked against kmem_magtype[], the parameters, SLAB's
 * costs, kernel-named symbols and the kmem_update worker on CPU 0. */
static int mag_create(struct kernel *k, const struct param_set *ps, void **state,
		      struct sim_err *err)
{
	int size = (int)param_int(ps, "magazine_size");
	bool known = size <= 0;
	for (int t = 0; t < NR_MAGTYPES; t++)
		known |= kmem_magtype[t].magsize == size;
	if (!known)
		return sim_fail(err, "magazine_size=%d: not a magazine type (-1, 0, or one of 1 3 "
				"7 15 31 47 63 95 143)", size);
	struct mag *m = calloc(1, sizeof(*m));
	if (!m)
		return sim_fail(err, "out of memory");
	m->k = k;
	m->hw = k->hw;
	m->ncpus = k->m->ncpus;
	m->making = -1;
	m->fixed_magsize = size;
	m->contention_limit = (long)param_int(ps, "magazine_contention");
	m->reap_on_update = param_bool(ps, "magazine_reap");
	const struct cost_ref costs[] = {	/* SLAB's paths, one for one (the header) */
		{ "slab.alloc_hit", &m->cost_alloc },	  { "slab.free_hit", &m->cost_free },
		{ "slab.free_block", &m->cost_list },	  { "slab.per_object", &m->cost_per_object },
		{ "slab.grow", &m->slab_cost.grow },
		{ "slab.init_per_object", &m->slab_cost.init_object },
		{ "slab.destroy", &m->slab_cost.destroy },	  { "slab.reap", &m->cost_update },
	};
	if (machine_costs(k->m, costs, ARRAY_SIZE(costs), err) < 0) {
		free(m);
		return -1;
	}
	struct profile *p = &k->eng->prof;
	m->sym_slab_alloc = profile_sym(p, "kmem_slab_alloc", SYM_SLAB);
	m->sym_slab_free = profile_sym(p, "kmem_slab_free", SYM_SLAB);
	m->slab_cost.sym_grow = profile_sym(p, "kmem_slab_create", SYM_SLAB);
	m->sym_depot_alloc = profile_sym(p, "kmem_depot_alloc", SYM_SLAB);
	m->sym_depot_free = profile_sym(p, "kmem_depot_free", SYM_SLAB);
	m->sym_mag_alloc = profile_sym(p, "kmem_cpucache_magazine_alloc", SYM_SLAB);
	m->sym_mag_destroy = profile_sym(p, "kmem_magazine_destroy", SYM_SLAB);
	m->sym_update = profile_sym(p, "kmem_cache_update", SYM_SLAB);
	uint64_t interval = (uint64_t)(param_double(ps, "magazine_update_ms") * k->m->ghz * 1e6);
	if (housekeeping_init(&m->update, k, 1, interval ? interval : 1, kmem_update, m) < 0) {
		free(m);
		return sim_fail(err, "out of memory");
	}
	*state = m;
	return 0;
}

/* A magazine's host record and its rounds' array freed (NULL: nothing). */
static void free_magazine(struct kmem_magazine *mp)
{
	if (mp)
		sb_array_destroy(&mp->a);
	free(mp);
}

/* The host records of a chain of magazines (a depot list, the pool) freed. */
static void free_magazine_list(struct kmem_magazine *mp)
{
	while (mp) {
		struct kmem_magazine *next = mag_of(mp->a.next);
		free_magazine(mp);
		mp = next;
	}
}

/* Every cache's magazines, lists and arrays, the magazine pool, the update worker, then
 * the state. */
static void mag_destroy(void *state)
{
	struct mag *m = state;
	for (int i = 0; i < m->ncaches; i++) {
		struct mcache *mc = m->caches[i];
		for (int c = 0; c < m->ncpus; c++) {
			free_magazine(mc->cpu[c].cc_loaded);
			free_magazine(mc->cpu[c].cc_ploaded);
		}
		free_magazine_list(mag_of(mc->depot.full.top));
		free_magazine_list(mag_of(mc->depot.empty.top));
		free(mc->cpu);
		sb_cache_destroy(&mc->sc);
		free(mc);
	}
	for (int t = 0; t < NR_MAGTYPES; t++)
		free_magazine_list(m->pool[t]);
	housekeeping_destroy(&m->update);
	free(m->caches);
	free(m);
}

const struct slab_policy magazine_policy = {
	SLAB_POLICY_HEADER,
	.name = "magazine",
	.description = "magazines (Bonwick & Adams, USENIX 2001; Solaris/illumos kmem): per-CPU "
		       "loaded and previous magazines, a depot per cache, magazine sizes that grow "
		       "under depot contention",
	.params = mag_params,
	.create = mag_create,
	.destroy = mag_destroy,
	.cache_create = mag_cache_create,
	.kmalloc_max = mag_kmalloc_max,
	.kmalloc_prefix = "kmem_alloc_",
	.kmalloc_min_shift = 3,
	.kmalloc_odd = KMALLOC_96 | KMALLOC_192,
	.alloc = mag_alloc,
	.free = mag_free,
	.cache_info = mag_cache_info,
	.check = mag_check,
};
