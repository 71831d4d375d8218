/* hw.c - modelled cache lines, the fabric's queues, and spinner re-reads. */
#include "hw.h"
#include "engine/oom.h"
#include "llc.h"

#include <stdlib.h>
#include <string.h>

#include "engine/hostmem.h"
#include "spinlock.h"

#define HW_ARENA_WORDS (1u << 16)

int hw_init(struct hw *hw, struct engine *eng, const struct machine *m, struct sim_err *err)
{
	memset(hw, 0, sizeof(*hw));
	hw->eng = eng;
	hw->m = m;
	hw->nwords = (m->ncpus + 63) / 64;
	hw->bus = calloc((size_t)m->nsockets, sizeof(*hw->bus));
	hw->link = calloc((size_t)m->nsockets, sizeof(*hw->link));
	hw->hub = calloc((size_t)m->nodes, sizeof(*hw->hub));
	hw->home = calloc((size_t)m->nodes, sizeof(*hw->home));
	hw->waiter = calloc((size_t)m->ncpus, sizeof(*hw->waiter));
	hw->sb = calloc((size_t)m->ncpus, sizeof(*hw->sb));
	hw->die_copy = calloc((size_t)m->ndies, sizeof(*hw->die_copy));
	hw->scratch = calloc((size_t)m->ncpus, sizeof(*hw->scratch));
	hw->llc = calloc((size_t)m->ndies, sizeof(*hw->llc));
	hw->l1 = calloc((size_t)m->ncores, sizeof(*hw->l1));
	if (!hw->llc || !hw->l1 || hw_caches_layout(hw, 1, 32) < 0)	/* any memory: wide */
		return sim_fail(err, "out of memory for the caches");
	if (!hw->bus || !hw->link || !hw->hub || !hw->home || !hw->waiter || !hw->sb ||
	    !hw->scratch || !hw->die_copy)
		return sim_fail(err, "out of memory");
	for (int i = 0; i < m->ncpus; i++)
		hw->waiter[i].cpu = i;
	hw->sym_spin_lock = profile_sym(&eng->prof, "_spin_lock", SYM_LOCK);
	hw->sym_spin_unlock = profile_sym(&eng->prof, "_spin_unlock", SYM_LOCK);
	const struct cost_ref costs[] = {
		{ "spin_lock", &hw->cost_spin_lock }, { "spin_unlock", &hw->cost_spin_unlock },
		{ "mlp", &hw->mlp }, { "stream_mlp", &hw->stream_mlp },
	};
	if (machine_costs(m, costs, 4, err) < 0)
		return -1;
	if (hw->mlp < 1)
		hw->mlp = 1;
	if (hw->stream_mlp < 1)
		hw->stream_mlp = 1;
	return 0;
}

/* Lay every cache out afresh in a new arena: each die's cache with
 * llc_span bits of narrow tags (0: wide), each core's L1 with l1_span. */
static int caches_arena(struct hw *hw, int llc_span, int l1_span, int node_shift)
{
	const struct machine *m = hw->m;
	size_t llc_each = llc_bytes(m->llc_kb, m->llc_ways, llc_span > 0);
	size_t l1_each = llc_bytes(m->l1_kb, m->l1_ways, l1_span > 0);
	/* every die's cache and every core's L1 in one huge-page arena */
	hw->cache_bytes = llc_each * (size_t)m->ndies + l1_each * (size_t)m->ncores;
	hw->cache_mem = hostmem_alloc(hw->cache_bytes);
	if (!hw->cache_mem)
		return -1;
	char *mem = hw->cache_mem;
	for (int d = 0; d < m->ndies; d++, mem += llc_each)
		llc_init(&hw->llc[d], m->llc_kb, m->llc_ways, llc_span, node_shift, mem);
	for (int c = 0; c < m->ncores; c++, mem += l1_each)
		llc_init(&hw->l1[c], m->l1_kb, m->l1_ways, l1_span, node_shift, mem);
	return 0;
}

int hw_caches_layout(struct hw *hw, uint32_t nodes, int node_shift)
{
	const struct machine *m = hw->m;
	int llc_span = llc_narrow_span(m->llc_kb, m->llc_ways, nodes, node_shift);
	int l1_span = llc_narrow_span(m->l1_kb, m->l1_ways, nodes, node_shift);
	if (l1_span < node_shift)
		l1_span = 0;	/* L1s are small: narrow only if they never widen */
	if (getenv("SLABSIM_WIDE_TAGS"))	/* tests: narrow tags change no result */
		llc_span = l1_span = 0;
	hostmem_free(hw->cache_mem, hw->cache_bytes);
	hw->cache_mem = NULL;
	hw->narrow_reach = llc_span > 0 && llc_span < node_shift ? 1ull << llc_span : UINT64_MAX;
	return caches_arena(hw, llc_span, l1_span, node_shift);
}

int hw_caches_widen(struct hw *hw)
{
	const struct machine *m = hw->m;
	void *old = hw->cache_mem;
	size_t old_bytes = hw->cache_bytes;
	struct hw_llc *narrow = malloc((size_t)m->ndies * sizeof(*narrow));
	struct hw_llc *l1 = malloc((size_t)m->ncores * sizeof(*l1));
	if (!narrow || !l1) {
		free(narrow);
		free(l1);
		return -1;
	}
	memcpy(narrow, hw->llc, (size_t)m->ndies * sizeof(*narrow));
	memcpy(l1, hw->l1, (size_t)m->ncores * sizeof(*l1));
	size_t l1_each = llc_bytes(m->l1_kb, m->l1_ways, l1[0].span_bits > 0);
	if (caches_arena(hw, 0, l1[0].span_bits, l1[0].node_shift) < 0) {
		hw->cache_mem = old;
		hw->cache_bytes = old_bytes;
		memcpy(hw->llc, narrow, (size_t)m->ndies * sizeof(*narrow));
		memcpy(hw->l1, l1, (size_t)m->ncores * sizeof(*l1));
		free(narrow);
		free(l1);
		return -1;
	}
	for (int d = 0; d < m->ndies; d++)
		llc_widen(&narrow[d], &hw->llc[d], hw->llc[d].tag);
	for (int c = 0; c < m->ncores; c++)	/* L1s keep their layout: copy them */
		memcpy(hw->l1[c].tag, l1[c].tag, l1_each);
	hostmem_free(old, old_bytes);
	free(narrow);
	free(l1);
	hw->narrow_reach = UINT64_MAX;
	return 0;
}

void hw_destroy(struct hw *hw)
{
	for (int i = 0; i < hw->narena; i++)
		free(hw->arena[i]);
	free(hw->arena);
	free(hw->bus);
	free(hw->link);
	free(hw->hub);
	free(hw->home);
	free(hw->waiter);
	free(hw->sb);
	free(hw->die_copy);
	free(hw->scratch);
	hostmem_free(hw->cache_mem, hw->cache_bytes);
	free(hw->llc);
	free(hw->l1);
	memset(hw, 0, sizeof(*hw));
}

/* Carve n zeroed words out of the arena for a line's more[] sharer bitmap, adding a chunk of
 * at least HW_ARENA_WORDS words when it runs short. */
static uint64_t *arena_words(struct hw *hw, int n)
{
	if (hw->arena_left < (size_t)n) {
		size_t words = HW_ARENA_WORDS > (size_t)n ? HW_ARENA_WORDS : (size_t)n;
		void **a = realloc(hw->arena, (size_t)(hw->narena + 1) * sizeof(*a));
		uint64_t *chunk = calloc(words, sizeof(uint64_t));
		if (!a || !chunk)
			host_oom(__func__);
		hw->arena = a;
		hw->arena[hw->narena++] = chunk;
		hw->arena_next = chunk;
		hw->arena_left = words;
	}
	uint64_t *w = hw->arena_next;
	hw->arena_next += n;
	hw->arena_left -= (size_t)n;
	return w;
}

void hw_line_init(struct hw *hw, struct hw_line *l, int node)
{
	l->owner = -1;
	l->src = -1;
	l->nsharers = 0;
	l->home = (uint16_t)node;
	l->ready = 0;
	l->written = 0;
	l->spin = NULL;
	l->watch = NULL;
	l->spin_first_only = false;
	l->far_spilled = false;
	l->far[0] = l->far[1] = l->far[2] = 0;
	l->sharers0 = 0;
	l->more = hw->nwords > 1 ? arena_words(hw, hw->nwords - 1) : NULL;
}

/* The sharers are a set of CPUs: CPUs 0-63 in sharers0; CPUs from 64 on
 * in far[] while there are at most 3 of them, then all in more[]. */
static inline uint64_t *more_word(struct hw_line *l, int cpu)
{
	return &l->more[(cpu >> 6) - 1];
}

/* Is `cpu` among the line's sharers? */
static inline bool sharer_test(struct hw_line *l, int cpu)
{
	if (cpu < 64)
		return (l->sharers0 >> cpu) & 1;
	if (l->far_spilled)
		return (*more_word(l, cpu) >> (cpu & 63)) & 1;
	return l->far[0] == cpu || l->far[1] == cpu || l->far[2] == cpu;
}

/* Add `cpu` to the line's sharers: a fourth CPU from 64 on moves far[] into more[]. */
static inline void sharer_set(struct hw_line *l, int cpu)
{
	if (sharer_test(l, cpu))
		return;
	l->nsharers++;
	if (cpu < 64) {
		l->sharers0 |= 1ull << cpu;
		return;
	}
	if (!l->far_spilled) {
		for (int i = 0; i < 3; i++)
			if (!l->far[i]) {
				l->far[i] = (uint16_t)cpu;
				return;
			}
		for (int i = 0; i < 3; i++)	/* a fourth: all go to more[] */
			*more_word(l, l->far[i]) |= 1ull << (l->far[i] & 63);
		l->far_spilled = true;
	}
	*more_word(l, cpu) |= 1ull << (cpu & 63);
}

/* Empty the line's sharer set (more[] is cleared only if it was in use). */
static inline void sharers_clear(struct hw *hw, struct hw_line *l)
{
	if (l->nsharers) {
		l->sharers0 = 0;
		l->far[0] = l->far[1] = l->far[2] = 0;
		if (l->far_spilled)
			memset(l->more, 0, (size_t)(hw->nwords - 1) * sizeof(uint64_t));
		l->far_spilled = false;
	}
	l->nsharers = 0;
}

void hw_line_reset(struct hw *hw, struct hw_line *l, int node)
{
	uint64_t *more = l->more;
	bool spilled = l->far_spilled;
	memset(l, 0, sizeof(*l));
	l->owner = -1;
	l->src = -1;
	l->home = (uint16_t)node;
	l->more = more;
	if (spilled)
		memset(more, 0, (size_t)(hw->nwords - 1) * sizeof(uint64_t));
}

void hw_line_set_owner(struct hw *hw, struct hw_line *l, int cpu)
{
	sharers_clear(hw, l);
	l->owner = (int16_t)cpu;
	l->src = (int16_t)cpu;
}

/* The farther of sharer c and the best so far (the first in CPU order wins
 * a tie), other than `cpu` itself. */
static inline void farther(const struct hw *hw, int cpu, int c, int *best, int *bestd)
{
	if (c == cpu)
		return;
	int d = (int)machine_dist(hw->m, cpu, c);
	if (d > *bestd) {
		*bestd = d;
		*best = c;
	}
}

/* The sharer other than `cpu` farthest from it: an invalidation waits for it. */
static int farthest_sharer(const struct hw *hw, const struct hw_line *l, int cpu)
{
	int best = -1, bestd = -1;
	for (uint64_t bits = l->sharers0; bits; bits &= bits - 1)
		farther(hw, cpu, __builtin_ctzll(bits), &best, &bestd);
	if (l->far_spilled) {
		for (int w = 1; w < hw->nwords; w++)
			for (uint64_t bits = l->more[w - 1]; bits; bits &= bits - 1)
				farther(hw, cpu, w * 64 + __builtin_ctzll(bits), &best, &bestd);
	} else {	/* far[] in CPU order */
		uint16_t f[3] = { l->far[0], l->far[1], l->far[2] };
		for (int i = 0; i < 2; i++)
			for (int j = i + 1; j < 3; j++)
				if ((f[j] && f[j] < f[i]) || (f[j] && !f[i])) {
					uint16_t t = f[i];
					f[i] = f[j];
					f[j] = t;
				}
		for (int i = 0; i < 3 && f[i]; i++)
			farther(hw, cpu, f[i], &best, &bestd);
	}
	return best;
}

/* A transfer that needs resource r cannot start before r is free. */
static inline void res_take(struct hw_res *r, uint64_t *start)
{
	if (r->free_at > *start)
		*start = r->free_at;
}

/* Hold r from `start` for `occ` cycles, counted in its busy time. */
static inline void res_hold(struct hw_res *r, uint64_t start, uint32_t occ)
{
	r->free_at = start + occ;
	r->busy += occ;
}

/* The fabric resources a transfer to `cpu` holds, from CPU `from` or (-1)
 * the memory of node `home`, and their occupancies; returns its latency and
 * counts it. */
struct fabric_route {
	struct hw_res *r[4];
	uint32_t occ[4];
	uint32_t max_occ;
	int nr;
};

/* Fill rt for a transfer to `cpu` from `from` (or node `home`'s memory), without queueing
 * on the resources; returns its latency and counts the transfer in the stats. */
static inline uint32_t fabric_route(struct hw *hw, int cpu, int from, int home,
				    struct fabric_route *rt)
{
	const struct machine *m = hw->m;
	const struct hw_cpu_topo *me = &m->topo[cpu];
	uint32_t lat;
	enum hw_dist d;
	if (from >= 0) {
		d = machine_dist(m, cpu, from);
		lat = m->handoff[d];
		hw->stats.transfers[d]++;
	} else {
		d = me->node == home ? DIST_OTHER_SOCKET : DIST_OTHER_NODE;
		lat = me->node == home ? m->mem_local : m->mem_remote;
		hw->stats.mem_loads++;
	}
	int nr = 0;
	const struct hw_cpu_topo *peer = from >= 0 ? &m->topo[from] : NULL;
	if (m->fabric == FABRIC_FSB) {
		if (d >= DIST_SAME_SOCKET || from < 0) {
			rt->r[nr] = &hw->bus[me->socket], rt->occ[nr++] = m->occ_bus;
			if (d >= DIST_OTHER_SOCKET || from < 0)
				rt->r[nr] = &hw->hub[me->node], rt->occ[nr++] = m->occ_hub;
			if (peer && d >= DIST_OTHER_SOCKET)
				rt->r[nr] = &hw->bus[peer->socket], rt->occ[nr++] = m->occ_bus;
			if (peer && d == DIST_OTHER_NODE)
				rt->r[nr] = &hw->hub[peer->node], rt->occ[nr++] = m->occ_hub;
		}
	} else if (m->fabric == FABRIC_HOME && (d >= DIST_OTHER_SOCKET || from < 0)) {
		rt->r[nr] = &hw->home[home], rt->occ[nr++] = m->occ_home;
		int home_socket = home * m->sockets_per_node;
		int other = peer ? peer->socket : home_socket;
		if (other != me->socket) {
			rt->r[nr] = &hw->link[me->socket], rt->occ[nr++] = m->occ_link;
			rt->r[nr] = &hw->link[other], rt->occ[nr++] = m->occ_link;
		}
	}
	rt->nr = nr;
	return lat;
}

/* A transfer to `cpu` from CPU `from` or (-1) the memory of node `home`,
 * asked for at t, which cannot start before `start`: it queues on each
 * fabric resource on its way (fabric_route, written out for each fabric
 * kind) and holds them all from when the last is free. Returns when it
 * starts; *lat gets its latency and *held whether it used any resource. */
static inline uint64_t fabric_go(struct hw *hw, int cpu, int from, int home, uint64_t t,
				 uint64_t start, uint32_t *lat, bool *held)
{
	const struct machine *m = hw->m;
	const struct hw_cpu_topo *me = &m->topo[cpu];
	enum hw_dist d;
	if (from >= 0) {
		d = machine_dist(m, cpu, from);
		*lat = m->handoff[d];
		hw->stats.transfers[d]++;
	} else {
		d = me->node == home ? DIST_OTHER_SOCKET : DIST_OTHER_NODE;
		*lat = me->node == home ? m->mem_local : m->mem_remote;
		hw->stats.mem_loads++;
	}
	struct hw_res *r0 = NULL, *r1 = NULL, *r2 = NULL, *r3 = NULL;
	uint32_t o0 = 0, o1 = 0, o2 = 0, o3 = 0;
	if (m->fabric == FABRIC_FSB) {
		if (from >= 0 && d < DIST_SAME_SOCKET)
			goto none;
		r0 = &hw->bus[me->socket], o0 = m->occ_bus;
		if (from < 0 || d >= DIST_OTHER_SOCKET)
			r1 = &hw->hub[me->node], o1 = m->occ_hub;
		if (from >= 0 && d >= DIST_OTHER_SOCKET) {
			r2 = &hw->bus[m->topo[from].socket], o2 = m->occ_bus;
			if (d == DIST_OTHER_NODE)
				r3 = &hw->hub[m->topo[from].node], o3 = m->occ_hub;
		}
	} else if (m->fabric == FABRIC_HOME && (d >= DIST_OTHER_SOCKET || from < 0)) {
		r0 = &hw->home[home], o0 = m->occ_home;
		int other = from >= 0 ? m->topo[from].socket : home * m->sockets_per_node;
		if (other != me->socket) {
			r1 = &hw->link[me->socket], o1 = m->occ_link;
			r2 = &hw->link[other], o2 = m->occ_link;
		}
	} else {
		goto none;
	}
	res_take(r0, &start);
	if (r1)
		res_take(r1, &start);
	if (r2)
		res_take(r2, &start);
	if (r3)
		res_take(r3, &start);
	res_hold(r0, start, o0);
	if (r1)
		res_hold(r1, start, o1);
	if (r2)
		res_hold(r2, start, o2);
	if (r3)
		res_hold(r3, start, o3);
	*held = true;
	hw->stats.queue_cycles += start - t;
	return start;
none:
	*held = false;
	hw->stats.queue_cycles += start - t;
	return start;
}

/* A transfer of a line no CPU waits on or holds (an object line, a cold
 * kernel line): no line to queue behind; returns when it completes. */
static inline uint64_t fabric_transfer(struct hw *hw, int cpu, int from, int home, uint64_t t)
{
	uint32_t lat;
	bool held;
	return fabric_go(hw, cpu, from, home, t, t, &lat, &held) + lat;
}

uint64_t hw_transaction(struct hw *hw, int cpu, struct hw_line *l, int from, uint64_t t)
{
	const struct machine *m = hw->m;
	bool ideal = m->fabric == FABRIC_IDEAL, held;
	uint32_t lat;
	uint64_t start = fabric_go(hw, cpu, from, l->home, t, ideal || t > l->ready ? t : l->ready,
				   &lat, &held);
	uint64_t done = start + lat;
	/* The line stays busy at its serialization point for the transfer.
	 * A request that found the line busy (a conflict) is retried at the
	 * hub or home agent and holds it for the line occupancy, which may
	 * outlast the transfer; alone, a request costs just its latency. */
	if (!ideal) {
		bool conflict = l->ready > t;
		uint64_t busy = held && conflict && m->occ_line > lat ? m->occ_line : lat;
		l->ready = start + busy;
	}
	return done;
}

uint64_t hw_reread(struct hw *hw, int cpu, struct hw_line *l, int from, uint64_t t)
{
	/* A die's cores share its last-level cache: once one spinner's re-read
	 * after this write has brought the line there, the die's others hit
	 * it (their misses wait for that fill) and add no transfer on the
	 * line. An ideal fabric (the Markov chain) serves each on its own. */
	struct hw_die_copy *dc = &hw->die_copy[hw->m->topo[cpu].die];
	uint64_t done;
	if (dc->line == l && dc->written == l->written && hw->m->fabric != FABRIC_IDEAL) {
		done = (t > dc->at ? t : dc->at) + hw->m->llc_hit;
		sharer_set(l, cpu);
		hw->stats.rereads++;
		return done;
	}
	done = hw_transaction(hw, cpu, l, from, t);
	dc->line = l;
	dc->written = l->written;
	dc->at = done;
	if (l->owner >= 0) {
		sharer_set(l, l->owner);
		l->owner = -1;
	}
	sharer_set(l, cpu);
	l->src = (int16_t)cpu;
	hw->stats.rereads++;
	return done;
}

void hw_spinners_reread(struct hw *hw, struct hw_line *l, int writer, uint64_t t)
{
	for (struct hw_waiter *w = l->spin; w; w = w->next) {
		hw_reread(hw, w->cpu, l, writer, t);
		if (l->spin_first_only)
			break;
	}
}

/* Spin on `l` until done(word, arg): suspended between writes of the line. */
static void spin_on(struct hw *hw, struct sim_cpu *cpu, struct hw_line *l, const int *word,
		    int arg, bool at_least)
{
	for (;;) {
		cpu_sync(cpu);	/* every earlier write is in: the test cannot miss one */
		if (at_least ? *word >= arg : *word == arg) {
			/* the writer ran ahead of us: its write lands when the
			 * line does, and that is when we see it */
			if (l->written > cpu->clock)
				cpu_charge_spin(cpu, cpu->sym, l->written - cpu->clock);
			return;
		}
		struct hw_waiter *w = &hw->waiter[cpu->id];
		w->lock = NULL;
		w->sym = cpu->sym;
		w->since = cpu->clock;
		w->next = l->watch;
		l->watch = w;
		cpu_suspend(cpu);
	}
}

void hw_spin_until(struct hw *hw, struct sim_cpu *cpu, struct hw_line *l, const int *word,
		   int want)
{
	spin_on(hw, cpu, l, word, want, false);
}

void hw_spin_until_at_least(struct hw *hw, struct sim_cpu *cpu, struct hw_line *l,
			    const int *word, int min)
{
	spin_on(hw, cpu, l, word, min, true);
}

/* A write to `l` completed at t: the CPUs watching it see it then. */
static void wake_watchers(struct hw *hw, struct hw_line *l, uint64_t t)
{
	struct hw_waiter *w = l->watch;
	l->watch = NULL;
	for (; w; w = w->next)
		eng_wake_cpu(&hw->eng->cpus[w->cpu], t, w->sym);
}

/* A line this CPU holds modified is a hit that needs no sync: no other CPU
 * can hold a copy without a transfer from here. One that runs later but is
 * behind in time may still take it first; that shifts a cost, and the data
 * a lock protects is still seen in lock order (locks sync). Code that makes
 * a decision on an unlocked, racy read syncs itself before reading. */
void hw_read(struct hw *hw, struct sim_cpu *cpu, struct hw_line *l)
{
	if (l->owner == cpu->id)
		return;
	cpu_sync(cpu);
	int c = cpu->id;
	if (l->owner == c || (l->owner < 0 && sharer_test(l, c)))
		return;
	int from = l->owner >= 0 ? l->owner : (l->nsharers ? l->src : -1);
	uint64_t done = hw_transaction(hw, c, l, from, cpu->clock);
	if (l->owner >= 0) {
		sharer_set(l, l->owner);
		l->owner = -1;
	}
	sharer_set(l, c);
	l->src = (int16_t)c;
	if (done > cpu->clock)
		cpu_charge(cpu, done - cpu->clock);
}

/* Take the line exclusively from wherever it is; returns when done. */
static uint64_t hw_take(struct hw *hw, int c, struct hw_line *l, uint64_t t)
{
	uint64_t done = t;
	if (l->owner == c)
		return done;
	int from;
	if (hw->m->fabric == FABRIC_IDEAL)
		from = c;	/* ideal fabric: taking ownership is free */
	else if (l->owner >= 0)
		from = l->owner;
	else if (l->nsharers == 0)
		from = -1;
	else if (l->nsharers == 1 && sharer_test(l, c))
		from = c;	/* sole copy: a silent upgrade */
	else
		from = farthest_sharer(hw, l, c);
	if (from != c)
		done = hw_transaction(hw, c, l, from, t);
	sharers_clear(hw, l);
	l->owner = (int16_t)c;
	l->src = (int16_t)c;
	return done;
}

/* Gain the line exclusively; the CPU waits until it has it. */
static void hw_own(struct hw *hw, struct sim_cpu *cpu, struct hw_line *l)
{
	uint64_t done = hw_take(hw, cpu->id, l, cpu->clock);
	if (done > cpu->clock)
		cpu_charge(cpu, done - cpu->clock);
}

/* When a store issued now can start taking its line: x86 stores leave the
 * store buffer in program order (TSO, Intel SDM vol. 3A, 8.2.2), so not
 * before the CPU's earlier stores have. */
static uint64_t store_start(const struct hw *hw, const struct sim_cpu *cpu)
{
	uint64_t done = hw->sb[cpu->id].stores_done;
	return done > cpu->clock ? done : cpu->clock;
}

uint64_t hw_store_posted(struct hw *hw, struct sim_cpu *cpu, struct hw_line *l)
{
	cpu_sync(cpu);
	uint64_t done = hw_take(hw, cpu->id, l, store_start(hw, cpu));
	l->written = done;
	if (l->watch)
		wake_watchers(hw, l, done);
	return done;
}

/* A store to a line other CPUs spin on (a lock holder's write to the list
 * head beside its lock, as add_partial() does on kmem_cache_node): it
 * retires into the store buffer and the CPU goes on, while the line is
 * taken from behind the spinners' re-reads; the spinners read it again once
 * it lands. A later locked op or the unlock waits for it (store_start). */
static void hw_write_spun(struct hw *hw, struct sim_cpu *cpu, struct hw_line *l)
{
	uint64_t done = hw_take(hw, cpu->id, l, store_start(hw, cpu));
	hw->sb[cpu->id].stores_done = done;
	l->written = done;
	hw_spinners_reread(hw, l, cpu->id, done);
	if (l->watch)
		wake_watchers(hw, l, done);
}

void hw_write(struct hw *hw, struct sim_cpu *cpu, struct hw_line *l)
{
	if (l->owner == cpu->id && !l->watch) {
		l->written = cpu->clock;
		return;
	}
	cpu_sync(cpu);
	if (l->spin) {
		hw_write_spun(hw, cpu, l);
		return;
	}
	/* a store to a line nobody spins on stalls until it has the line: a
	 * simplification (x86 posts it too) that the fits were made with */
	hw_own(hw, cpu, l);
	l->written = cpu->clock;
	if (l->watch)
		wake_watchers(hw, l, cpu->clock);
}

void hw_atomic(struct hw *hw, struct sim_cpu *cpu, struct hw_line *l)
{
	hw->stats.locked_ops++;
	hw_drain_stores(hw, cpu);
	if (l->owner == cpu->id && !l->watch) {
		cpu_charge(cpu, hw->m->atomic);
		l->written = cpu->clock;
		return;
	}
	cpu_sync(cpu);
	/* a locked op on a line from elsewhere costs the hand-off, which the
	 * machine file gives with the locked op included; on a line held
	 * here (or its only copy) it costs the local atomic */
	uint64_t done = hw_take(hw, cpu->id, l, cpu->clock);
	cpu_charge(cpu, done > cpu->clock ? done - cpu->clock : hw->m->atomic);
	l->written = cpu->clock;
	if (l->spin)
		hw_spinners_reread(hw, l, cpu->id, cpu->clock);
	if (l->watch)
		wake_watchers(hw, l, cpu->clock);
}

void hw_mem_lines(struct hw *hw, struct sim_cpu *cpu, int lines, int node)
{
	if (lines <= 0)
		return;
	cpu_sync(cpu);
	uint64_t t = cpu->clock;
	/* `lines` distinct lines from memory at once, each holding the bus and
	 * hub (or home agent and links) in turn: the k-th starts k times the
	 * longest occupancy after the first, all in one step */
	struct fabric_route rt;
	uint32_t lat = fabric_route(hw, cpu->id, -1, node, &rt);
	uint64_t n = (uint64_t)lines, first = t, step = 0;
	for (int i = 0; i < rt.nr; i++) {
		if (rt.r[i]->free_at > first)
			first = rt.r[i]->free_at;
		if (rt.occ[i] > step)
			step = rt.occ[i];
	}
	uint64_t last = first + (rt.nr ? (n - 1) * step : 0);
	for (int i = 0; i < rt.nr; i++) {
		rt.r[i]->free_at = last + rt.occ[i];
		rt.r[i]->busy += n * rt.occ[i];
	}
	hw->stats.mem_loads += n - 1;	/* fabric_route counted one */
	hw->stats.queue_cycles += n * (first - t) + (rt.nr ? step * n * (n - 1) / 2 : 0);
	uint64_t done = last + lat;
	/* the first miss is waited for in full and the others overlap (mlp),
	 * unless the fabric's queue is the longer wait */
	uint64_t overlapped = lat + (uint64_t)(lines - 1) * lat / hw->mlp;
	cpu_charge(cpu, done - t > overlapped ? done - t : overlapped);
}

/* Where an object line comes from: its last user's CPU if that CPU's die
 * still caches it, else memory (-1). */
static int line_source(struct hw *hw, hw_objline owner, uint64_t line)
{
	if (owner < 0 || !llc_present(&hw->llc[hw->m->topo[owner].die], line))
		return -1;
	return owner;
}

/* line_source() for a CPU of die `die` that has just looked the line up in
 * its own die's cache (`here`: it was there), so a last user on the same
 * die needs no second lookup. */
static int obj_line_source(struct hw *hw, hw_objline owner, int die, bool here, uint64_t line)
{
	if (owner < 0)
		return -1;
	if (hw->m->topo[owner].die == die)
		return here ? owner : -1;
	return line_source(hw, owner, line);
}

/* The unqueued latency of a line to CPU c from CPU `from`, or (-1) node `home`'s memory. */
static uint32_t line_latency(const struct hw *hw, int c, int from, int home)
{
	return from >= 0 ? hw->m->handoff[machine_dist(hw->m, c, from)]
		: hw->m->topo[c].node == home ? hw->m->mem_local : hw->m->mem_remote;
}

void hw_stream_access(struct hw *hw, struct sim_cpu *cpu, hw_objline *ol, uint64_t line,
		      int count, int stride, int home)
{
	int c = cpu->id, die = hw->m->topo[c].die;
	struct hw_llc *llc = &hw->llc[die], *l1 = &hw->l1[hw->m->topo[c].core];
	cpu_sync(cpu);
	uint64_t t = cpu->clock, end = t, issue = t;
	for (int i = 0; i < count; i++, ol += stride, line += (uint64_t)stride) {
		int from = obj_line_source(hw, *ol, die, llc_access(llc, line), line);
		if (!llc_access(l1, line) && from == c) {	/* from this die's cache */
			issue += hw->m->llc_hit / hw->stream_mlp;
			if (issue > end)
				end = issue;
		}
		if (from == c)
			continue;
		uint64_t done = fabric_transfer(hw, c, from, home, issue);
		issue += line_latency(hw, c, from, home) / hw->stream_mlp;	/* prefetched */
		if (done > end)
			end = done;
		*ol = (hw_objline)c;
	}
	if (end > t)
		cpu_charge(cpu, end - t);
}

void hw_obj_prefetch(const struct hw *hw, const struct sim_cpu *cpu, uint64_t line, int lines)
{
	const struct hw_cpu_topo *t = &hw->m->topo[cpu->id];
	for (int i = 0; i < lines; i++) {
		llc_prefetch(&hw->llc[t->die], line + (uint64_t)i);
		llc_prefetch(&hw->l1[t->core], line + (uint64_t)i);
	}
}

void hw_obj_access(struct hw *hw, struct sim_cpu *cpu, hw_objline *ol, uint64_t line, int lines,
		   bool write, int home)
{
	int c = cpu->id, die = hw->m->topo[c].die;
	struct hw_llc *llc = &hw->llc[die], *l1 = &hw->l1[hw->m->topo[c].core];
	for (int i = 0; i < lines; i++) {	/* the host's misses overlap */
		llc_prefetch(llc, line + (uint64_t)i);
		llc_prefetch(l1, line + (uint64_t)i);
	}
	hw_objline last = *ol;
	if (last >= 0 && last != c && hw->m->topo[last].die != die)
		llc_prefetch(&hw->llc[hw->m->topo[last].die], line);
	bool here = llc_access(llc, line);	/* the first line decides */
	bool in_l1 = llc_access(l1, line);
	for (int i = 1; i < lines; i++) {
		llc_access(llc, line + (uint64_t)i);
		llc_access(l1, line + (uint64_t)i);
	}
	if (*ol == c && here) {			/* a hit in this die's cache */
		/* a load or store that misses the L1 waits for the die's cache
		 * (a store's read-for-ownership stalls the store buffer's head) */
		if (!in_l1)
			cpu_charge(cpu, hw->m->llc_hit + (uint64_t)(lines - 1) * hw->m->llc_hit / hw->mlp);
		return;
	}
	cpu_sync(cpu);
	int from = obj_line_source(hw, *ol, die, here, line);
	*ol = (hw_objline)c;
	if (from == c)
		return;
	uint64_t t = cpu->clock;
	uint64_t done = fabric_transfer(hw, c, from, home, t);
	uint64_t first = done - t;
	uint64_t all = first + (uint64_t)(lines - 1) * line_latency(hw, c, from, home) / hw->mlp;
	if (write) {
		/* stores retire into the store buffer, which drains in order with
		 * RFOs in flight (stream_mlp of them when the misses keep a stride
		 * within a 4 KB page, which the prefetchers follow, else mlp): an
		 * isolated store miss costs the core nothing until a locked op
		 * drains it, a run of them throttles the core to one every
		 * latency / RFOs in flight */
		struct hw_store_buffer *sb = &hw->sb[c];
		int64_t stride = (int64_t)(line - sb->last_store_line);
		uint32_t rfos = stride == sb->store_stride && stride > 0 && stride < 64
			? hw->stream_mlp : hw->mlp;
		sb->store_stride = stride;
		sb->last_store_line = line;
		uint64_t landed = t + all;
		if (sb->stores_done + all / rfos > landed)
			landed = sb->stores_done + all / rfos;
		sb->stores_done = landed;
		cpu_charge(cpu, landed - (t + all));
	} else {
		cpu_charge(cpu, all);
	}
}
