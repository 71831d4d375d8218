/* spinlock.h - spinlocks as modelled cache lines with a waiter queue.
 *
 * One interface, several kinds (struct hw_lock_ops): the `ticket` lock of
 * x86 2.6.25-4.1 (FIFO; on release every waiter re-reads the line and the
 * next ticket is somewhere among them, so the hand-off grows with the number
 * of waiters), the `byte` test-and-set lock of x86 up to 2.6.24, which is
 * also what bit_spin_lock() on page->flags is (unfair: the waiter whose
 * re-read completes first wins), and the `queued` lock of 4.2+ (qspinlock,
 * MCS: waiters spin on their own queue node, only the first on the lock
 * word, so a hand-off is one transfer whatever the number of waiters). A waiting CPU is suspended; the release
 * computes when the next holder sees the lock free and resumes it then,
 * charging the gap as spinning to the lock's symbol.
 *
 * Acquisitions and releases obey the ordering rule: an atomic takes effect
 * where it reaches the line (its issue), and a release syncs so that every
 * CPU that arrived before it, in simulated time, is queued and takes its
 * place in the hand-off. */
#ifndef SIM_SPINLOCK_H
#define SIM_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "hw.h"

enum hw_lock_kind { LOCK_BYTE = 0, LOCK_TICKET, LOCK_QUEUED, NR_LOCK_KINDS };

extern const char *const hw_lock_kind_name[NR_LOCK_KINDS];

struct hw_lock;

struct hw_waiter {
	struct hw_waiter *next;
	struct hw_lock *lock;
	int cpu;
	int sym;		/* spinning is charged here */
	uint32_t ticket;
	int16_t caller;		/* the symbol that called spin_lock */
	int16_t point;		/* its contention point, LOCKSTAT_POINTS: none */
	uint64_t since;		/* when it started to wait */
};

/* lock_stat's contention points: the first LOCKSTAT_POINTS call sites
 * (here: symbols) that had to wait for a class, and the first that held it
 * when another had to (contending points), as the kernel keeps them. */
#define LOCKSTAT_POINTS 4

struct hw_lock_point {
	int sym;		/* -1: not yet taken */
	uint64_t contentions;
	uint64_t wait;		/* cycles waited from there (contention points) */
};

/* Who a lock class belongs to, for the allocator's own totals: the slab
 * allocator's (a policy's), the workload's, or the rest of the kernel's. */
enum hw_lock_owner { LOCK_OWNER_KERNEL, LOCK_OWNER_ALLOCATOR, LOCK_OWNER_WORKLOAD,
		     NR_LOCK_OWNERS };
extern const char *const hw_lock_owner_name[NR_LOCK_OWNERS];

/* A lock class, as lock_stat groups locks: one row of the lock table. */
struct hw_lock_class {
	char name[64];
	int spin_sym;		/* symbol spinning is charged to; -1: the caller's */
	int owner;		/* enum hw_lock_owner: hw->lock_owner when registered */
	uint64_t acquisitions, contentions, acq_bounces, con_bounces;
	uint64_t wait_total, wait_min, wait_max;
	uint64_t hold_total, hold_min, hold_max;
	int64_t held;		/* locks of the class held now (0 when all is done) */
	struct hw_lock_point contention_point[LOCKSTAT_POINTS];	/* who waited */
	struct hw_lock_point contending_point[LOCKSTAT_POINTS];	/* who held it */
	struct hw_lock_class *next;
};

/* What differs between lock kinds: who gets a released lock, and when. */
struct hw_lock_ops {
	bool ticketed;		/* xadd a ticket on acquire */
	bool read_first;	/* trylock reads the word, cmpxchg only if free */
	/* Some CPUs wait; the release's store completes at t. Take the next
	 * holder off the queue and say when it sees the lock free. */
	struct hw_waiter *(*handoff)(struct hw *hw, struct sim_cpu *cpu, struct hw_lock *lk,
				     uint64_t t, uint64_t *when);
};

struct hw_lock {
	const struct hw_lock_ops *ops;
	struct hw_line *line;	/* the line the lock word lives in */
	struct hw_lock_class *cls;
	int16_t holder;		/* CPU holding it, -1 if free */
	uint16_t nwaiters;
	uint32_t head, tail;	/* ticket lock: now serving, next ticket */
	int16_t holder_sym;	/* the symbol the holder took it from */
	uint64_t hold_start;
	struct hw_waiter *wq_head, *wq_tail;
};

/* Classes registered from now on belong to `owner` (the kernel sets it
 * around the policy's and the workload's set-up); returns the previous. */
int hw_lock_owner_set(struct hw *hw, int owner);

/* Register a class (a lock_stat row) under `name`; spin_sym as above. */
void hw_lock_class_init(struct hw *hw, struct hw_lock_class *cls, const char *name,
			int spin_sym);

void hw_lock_init(struct hw_lock *lk, enum hw_lock_kind kind, struct hw_line *line,
		  struct hw_lock_class *cls);

void hw_spin_lock(struct hw *hw, struct sim_cpu *cpu, struct hw_lock *lk);
bool hw_spin_trylock(struct hw *hw, struct sim_cpu *cpu, struct hw_lock *lk);
void hw_spin_unlock(struct hw *hw, struct sim_cpu *cpu, struct hw_lock *lk);

static inline bool hw_lock_held(const struct hw_lock *lk)
{
	return lk->holder >= 0;
}

/* Lock invariants: no release by a CPU that did not hold the lock, and, at
 * the end of a run (at_end), each class's locks all released. Mid-run some
 * CPU may hold one (an idle CPU balancing holds run-queue locks). Returns -1
 * with a message if one broke. */
int hw_locks_check(const struct hw *hw, bool at_end, struct sim_err *err);

/* Parse a lock kind name; -1 if unknown. */
int hw_lock_kind_parse(const char *s);

#endif
