/* hw.h - the machine at run time: modelled cache lines, the fabric queues
 * coherence requests wait in, atomics, and spinlocks.
 *
 * A modelled line knows which CPU holds it modified (owner) or which CPUs
 * hold it shared, its home node, when its in-flight transfers finish (ready),
 * and which CPUs are spinning on it. Every access that leaves the core is a
 * transaction: it waits for the line and for the fabric resources on its way
 * (front-side bus and memory hub, or home agent and link), holds them for
 * their occupancy, and costs the machine's hand-off latency by distance. When
 * a line that CPUs spin on is written, each spinner re-reads it: those
 * transfers queue on the line and the fabric, so a lock holder that touches
 * the line (or anything behind the same hub) slows down as waiters pile up. */
#ifndef SIM_HW_H
#define SIM_HW_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "machine.h"

struct hw_waiter;
struct hw_llc;

struct hw_line {
	int16_t owner;		/* CPU holding it modified/exclusive, or -1 */
	int16_t src;		/* CPU that last got a copy: sources shared reads */
	uint16_t nsharers;	/* CPUs holding it shared (owner == -1) */
	uint16_t home;		/* home node (memory it belongs to) */
	uint64_t ready;		/* earlier transfers of this line finish then */
	uint64_t written;	/* the last write to it completed then */
	struct hw_waiter *spin;	/* CPUs spinning on it (a lock's waiters) */
	struct hw_waiter *watch;	/* CPUs waiting for its next write (hw_spin_until) */
	bool spin_first_only;	/* queued lock: only the first waiter spins here */
	bool far_spilled;	/* sharers among CPUs 64.. are in more[], not far[] */
	uint16_t far[3];	/* up to 3 sharers among CPUs 64.. (0: none), on
				 * this host line: most lines have few sharers */
	uint64_t sharers0;	/* sharers among CPUs 0-63 */
	uint64_t *more;		/* sharers among CPUs 64.., once far[] is full */
};

/* A line of a slab object: only its last writer is tracked (objects move
 * between at most a few CPUs; that is enough to price the transfer). */
typedef int16_t hw_objline;

struct hw_res {
	uint64_t free_at;	/* the resource is busy until then */
	uint64_t busy;		/* cycles it was held, for utilisation */
};

struct hw_stats {
	uint64_t transfers[NR_DIST];	/* line transfers by distance */
	uint64_t mem_loads;		/* lines loaded from DRAM */
	uint64_t rereads;		/* spinner re-reads after a write */
	uint64_t queue_cycles;		/* cycles requests waited for the fabric */
	uint64_t locked_ops;		/* locked instructions (hw_atomic) */
};

struct hw_lock_class;

/* A CPU's store buffer (x86 TSO): when its stores have drained, and the
 * stride of its store misses (a steady stride is prefetched). */
struct hw_store_buffer {
	uint64_t stores_done;		/* the store buffer has drained by then */
	uint64_t last_store_line;	/* the line of the last store miss, and */
	int64_t store_stride;		/* its distance from the one before */
};

/* The copy of a spun-on line a die's shared cache got by a spinner's
 * re-read after the line's last write (written): the die's other spinners
 * take it from there. */
struct hw_die_copy {
	const struct hw_line *line;
	uint64_t written;		/* the write it follows */
	uint64_t at;			/* when it arrived */
};

struct hw {
	struct engine *eng;
	const struct machine *m;
	int nwords;			/* 64-bit words of a sharer bitmap */
	struct hw_res *bus;		/* FSB per socket */
	struct hw_res *hub;		/* memory hub per node */
	struct hw_res *home;		/* home agent per node */
	struct hw_res *link;		/* inter-socket link per socket */
	struct hw_waiter *waiter;	/* one per CPU: a CPU spins on one lock */
	struct hw_store_buffer *sb;	/* one per CPU: x86's store buffer */
	struct hw_die_copy *die_copy;	/* [ndies]: the line a die last re-read */
	struct hw_waiter **scratch;	/* ncpus slots for ordering re-reads */
	struct hw_stats stats;
	struct hw_lock_class *classes;	/* registered lock classes, for reports */
	char lock_error[256];		/* first broken lock invariant, if any */
	int nclasses;
	int lock_owner;			/* of classes registered now (hw_lock_owner_set) */
	int sym_spin_lock, sym_spin_unlock;
	uint32_t cost_spin_lock, cost_spin_unlock;
	uint32_t mlp;			/* extra lines of a multi-line access cost 1/mlp */
	struct hw_llc *llc;		/* [ndies]: each die's last-level cache */
	struct hw_llc *l1;		/* [ncores]: each core's L1 data cache */
	void *cache_mem;		/* the tags of all of them */
	size_t cache_bytes;
	uint64_t narrow_reach;		/* lines of a node the narrow tags tell apart */
	uint32_t stream_mlp;		/* misses of a sequential walk overlap this much */
	void **arena;			/* sharer bitmaps, freed with the hw */
	int narena;
	uint64_t *arena_next;
	size_t arena_left;
};

int hw_init(struct hw *hw, struct engine *eng, const struct machine *m, struct sim_err *err);
void hw_destroy(struct hw *hw);

/* Lay the caches out afresh (empty) for a memory of `nodes` nodes of
 * 2^node_shift 64-byte lines each: 16-bit tags where they fit (llc.h).
 * hw_init lays them out for any memory; the kernel calls this once it knows
 * its own, before any access. -1 if the host has no memory for them. */
int hw_caches_layout(struct hw *hw, uint32_t nodes, int node_shift);

/* Make narrow die caches wide, keeping what they hold (hw_memory_reach). */
int hw_caches_widen(struct hw *hw);

/* Lines up to offset `off` of a node (from its start) may be used from now
 * on: caches whose narrow tags cannot tell them apart widen first. */
static inline int hw_memory_reach(struct hw *hw, uint64_t off)
{
	return off > hw->narrow_reach ? hw_caches_widen(hw) : 0;
}

/* A line homed on `node`, cached nowhere yet. */
void hw_line_init(struct hw *hw, struct hw_line *l, int node);

/* Make an initialised line fresh again (no copies anywhere, home `node`),
 * keeping its sharer words: for a line reused many times. */
void hw_line_reset(struct hw *hw, struct hw_line *l, int node);

/* Accesses by the CPU running now. Each one obeys the ordering rule (it
 * syncs before a transaction) and charges the CPU its latency. */
void hw_read(struct hw *hw, struct sim_cpu *cpu, struct hw_line *l);
/* A store to a line others spin on is posted: the CPU goes on, the store
 * lands after the spinners' queued re-reads, and the CPU's next locked op or
 * posted store (the unlock) waits for it. */
void hw_write(struct hw *hw, struct sim_cpu *cpu, struct hw_line *l);
void hw_atomic(struct hw *hw, struct sim_cpu *cpu, struct hw_line *l);

/* `lines` lines of an object the CPU owns (allocated, or taken off a queue
 * under a lock), from line number `line` (address / 64): no other CPU can
 * touch them now, so a hit needs no sync. A line comes from its last user's
 * cache if that die's last-level cache still holds it (sim/hw/llc.c), else
 * from memory; it then sits in this CPU's die's cache. */
void hw_obj_access(struct hw *hw, struct sim_cpu *cpu, hw_objline *ol, uint64_t line, int lines,
		   bool write, int home);

/* Start the host's loads of the cache sets that hw_obj_access() will look
 * `lines` lines from `line` up in for this CPU (its die's cache and its
 * L1): the caller knows the address before it has walked to the object's
 * books, so the two waits overlap. Host-side only: nothing is modelled. */
void hw_obj_prefetch(const struct hw *hw, const struct sim_cpu *cpu, uint64_t line, int lines);

/* A locked instruction first waits for the store buffer to drain (x86
 * TSO). Lock paths call this before they sync, so no yield separates their
 * look at the lock from their atomic. */
static inline void hw_drain_stores(struct hw *hw, struct sim_cpu *cpu)
{
	uint64_t done = hw->sb[cpu->id].stores_done;
	if (done > cpu->clock)
		cpu_charge(cpu, done - cpu->clock);
}

/* hw_obj_access with write: a store that misses costs the CPU only its
 * issue (latency / stream_mlp) and drains before the CPU's next locked
 * instruction (hw_atomic, a spinlock), as x86's store buffer does. */

/* A sequential walk writing `count` lines, ol[0], ol[stride], ... (a slab's
 * objects being initialised): the misses overlap as a prefetched stream
 * does, one every latency / stream_mlp, each still queuing on the fabric. */
void hw_stream_access(struct hw *hw, struct sim_cpu *cpu, hw_objline *ol, uint64_t line,
		      int count, int stride, int home);

/* `lines` lines that are in no cache any more (kernel data pushed out by the
 * working set: task, file and socket structures of thousands of tasks), read
 * from the memory of `node` in one go: they wait for the fabric like any miss. */
void hw_mem_lines(struct hw *hw, struct sim_cpu *cpu, int lines, int node);

/* Spin reading `l` until the int `word` it holds equals `want` (a flag
 * polled in a loop): between writes of the line the CPU is suspended and
 * resumes when a write completes (its read request already in flight), the
 * wait charged as spinning. The word is read only in time order. */
void hw_spin_until(struct hw *hw, struct sim_cpu *cpu, struct hw_line *l, const int *word,
		   int want);

/* The same until *word >= min (a slot counter filled by another CPU). */
void hw_spin_until_at_least(struct hw *hw, struct sim_cpu *cpu, struct hw_line *l,
			    const int *word, int min);

/* A transfer of `l` to `cpu` starting no earlier than `t`, from CPU `from`
 * (-1: memory); returns when it completes. Updates queues, not the CPU. */
uint64_t hw_transaction(struct hw *hw, int cpu, struct hw_line *l, int from, uint64_t t);

/* The spinners of `l` re-read it after a write by `writer` done at `t`. */
void hw_spinners_reread(struct hw *hw, struct hw_line *l, int writer, uint64_t t);

/* A store that takes the line exclusively but does not stall the CPU (it
 * sits in the store buffer): returns when it completes. No re-reads. */
uint64_t hw_store_posted(struct hw *hw, struct sim_cpu *cpu, struct hw_line *l);

/* `cpu` now holds `l` modified and no one else has a copy. */
void hw_line_set_owner(struct hw *hw, struct hw_line *l, int cpu);

/* CPU `cpu` (a spinner) re-reads `l` from `from` no earlier than `t`;
 * returns when it has its shared copy. */
uint64_t hw_reread(struct hw *hw, int cpu, struct hw_line *l, int from, uint64_t t);

#endif
