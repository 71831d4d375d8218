/* spinlock.c - the byte (test-and-set) and ticket spinlock models. */
#include "spinlock.h"

#include <stdio.h>
#include <string.h>

const char *const hw_lock_kind_name[NR_LOCK_KINDS] = { "byte", "ticket", "queued" };

int hw_lock_kind_parse(const char *s)
{
	for (int i = 0; i < NR_LOCK_KINDS; i++)
		if (strcmp(s, hw_lock_kind_name[i]) == 0)
			return i;
	return -1;
}

const char *const hw_lock_owner_name[NR_LOCK_OWNERS] = { "kernel", "allocator", "workload" };

int hw_lock_owner_set(struct hw *hw, int owner)
{
	int prev = hw->lock_owner;
	hw->lock_owner = owner;
	return prev;
}

void hw_lock_class_init(struct hw *hw, struct hw_lock_class *cls, const char *name,
			int spin_sym)
{
	memset(cls, 0, sizeof(*cls));
	snprintf(cls->name, sizeof(cls->name), "%s", name);
	cls->spin_sym = spin_sym;
	cls->owner = hw->lock_owner;
	cls->wait_min = cls->hold_min = UINT64_MAX;
	for (int i = 0; i < LOCKSTAT_POINTS; i++)
		cls->contention_point[i].sym = cls->contending_point[i].sym = -1;
	cls->next = hw->classes;
	hw->classes = cls;
	hw->nclasses++;
}

/* The profile symbol a lock's spin is charged to: its class's own (_spin_lock), else the
 * caller's (an inlined lock such as bit_spin_lock). */
static inline int lock_sym(const struct hw_lock *lk, const struct sim_cpu *cpu)
{
	return lk->cls->spin_sym >= 0 ? lk->cls->spin_sym : cpu->sym;
}

/* The instructions around the atomic: a lock with a symbol of its own is
 * a call (_spin_lock: call, preempt_disable, compare); one charged to its
 * caller is inlined (bit_spin_lock: preempt_disable and the bit op only). */
static inline uint32_t lock_cost(const struct hw *hw, const struct hw_lock *lk, uint32_t call)
{
	return lk->cls->spin_sym >= 0 ? call : 0;
}

/* lock_point() of lockdep: the slot of `sym` among the first
 * LOCKSTAT_POINTS call sites seen, or LOCKSTAT_POINTS once they are taken. */
static int lock_point(struct hw_lock_point *p, int sym)
{
	int i;
	for (i = 0; i < LOCKSTAT_POINTS; i++) {
		if (p[i].sym < 0)
			p[i].sym = sym;
		if (p[i].sym == sym)
			break;
	}
	return i;
}

/* CPU cpu holds the lock from t, taken at `caller`: lock_stat's acquisitions, and the class's
 * count of locks held. */
static void got_lock(struct hw_lock *lk, int cpu, uint64_t t, int caller)
{
	struct hw_lock_class *c = lk->cls;
	lk->holder = (int16_t)cpu;
	lk->holder_sym = (int16_t)caller;
	lk->hold_start = t;
	c->acquisitions++;
	c->held++;
}

/* Add a wait for the lock to the class's lock_stat wait total, min and max. */
static void count_wait(struct hw_lock_class *c, uint64_t wait)
{
	c->wait_total += wait;
	if (wait > c->wait_max)
		c->wait_max = wait;
	if (wait < c->wait_min)
		c->wait_min = wait;
}

/* Add the hold that ends at `now` to the class's lock_stat hold total, min and max. */
static void count_hold(struct hw_lock *lk, uint64_t now)
{
	struct hw_lock_class *c = lk->cls;
	uint64_t hold = now - lk->hold_start;
	c->hold_total += hold;
	if (hold > c->hold_max)
		c->hold_max = hold;
	if (hold < c->hold_min)
		c->hold_min = hold;
}

/* The lock is held: join its waiters and spin until a release hands it over.
 * `bounce` says the lock's line came from another CPU (lock_stat's bounces);
 * `caller` and the holder's own are the class's contention points. */
static void wait_for_lock(struct hw *hw, struct sim_cpu *cpu, struct hw_lock *lk,
			  uint32_t ticket, bool bounce, int caller)
{
	struct hw_waiter *w = &hw->waiter[cpu->id];
	struct hw_lock_class *c = lk->cls;
	w->lock = lk;
	w->ticket = ticket;
	w->caller = (int16_t)caller;
	w->point = (int16_t)lock_point(c->contention_point, caller);
	if (w->point < LOCKSTAT_POINTS)
		c->contention_point[w->point].contentions++;
	int held = lock_point(c->contending_point, lk->holder_sym);
	if (held < LOCKSTAT_POINTS)
		c->contending_point[held].contentions++;
	w->since = cpu->clock;
	w->sym = lock_sym(lk, cpu);
	w->next = NULL;
	if (lk->wq_tail)
		lk->wq_tail->next = w;
	else
		lk->wq_head = w;
	lk->wq_tail = w;
	lk->nwaiters++;
	lk->line->spin = lk->wq_head;
	lk->cls->contentions++;
	lk->cls->con_bounces += bounce;
	while (lk->holder != cpu->id)
		cpu_suspend(cpu);	/* resumed by the release that hands it over */
}

/* Remove waiter w (whose predecessor is prev) from the queue. */
static void unqueue(struct hw_lock *lk, struct hw_waiter *prev, struct hw_waiter *w)
{
	if (prev)
		prev->next = w->next;
	else
		lk->wq_head = w->next;
	if (lk->wq_tail == w)
		lk->wq_tail = prev;
	w->next = NULL;
	lk->nwaiters--;
	lk->line->spin = lk->wq_head;
}

/* Give the lock to waiter w at t: book its wait (also at its contention point) and wake its
 * CPU then. */
static void hand_over(struct hw *hw, struct hw_lock *lk, struct hw_waiter *w, uint64_t t)
{
	got_lock(lk, w->cpu, t, w->caller);
	count_wait(lk->cls, t - w->since);
	if (w->point < LOCKSTAT_POINTS)
		lk->cls->contention_point[w->point].wait += t - w->since;
	eng_wake_cpu(&hw->eng->cpus[w->cpu], t, w->sym);
}

/* spin_lock(): the atomic (lock xadd for a ticket, test-and-set for a byte
 * lock) is ordered where it reaches the line; the lock is ours if it was
 * free then, else we queue and spin. */
void hw_spin_lock(struct hw *hw, struct sim_cpu *cpu, struct hw_lock *lk)
{
	__builtin_prefetch(lk->line, 1);	/* host only: with the class's line */
	int prev = sym_enter(cpu, lock_sym(lk, cpu));
	cpu_charge(cpu, lock_cost(hw, lk, hw->cost_spin_lock));
	hw_drain_stores(hw, cpu);
	cpu_sync(cpu);
	bool bounce = lk->line->owner != cpu->id;
	bool free = lk->holder < 0;
	hw_atomic(hw, cpu, lk->line);
	uint32_t ticket = lk->ops->ticketed ? lk->tail++ : 0;
	lk->cls->acq_bounces += bounce;
	if (free)
		got_lock(lk, cpu->id, cpu->clock, prev);
	else
		wait_for_lock(hw, cpu, lk, ticket, bounce, prev);
	sym_exit(cpu, prev);
}

/* spin_trylock(): a ticket lock reads first and cmpxchg's only if free; a
 * byte lock does its test-and-set either way. */
bool hw_spin_trylock(struct hw *hw, struct sim_cpu *cpu, struct hw_lock *lk)
{
	__builtin_prefetch(lk->line, 1);	/* host only: with the class's line */
	int prev = sym_enter(cpu, lock_sym(lk, cpu));
	cpu_charge(cpu, lock_cost(hw, lk, hw->cost_spin_lock));
	hw_drain_stores(hw, cpu);
	cpu_sync(cpu);
	bool ticketed = lk->ops->ticketed, read_first = lk->ops->read_first;
	if (read_first)
		hw_read(hw, cpu, lk->line);	/* may advance the clock ... */
	bool ok = lk->holder < 0;
	if (ok || !read_first) {
		lk->cls->acq_bounces += lk->line->owner != cpu->id;
		hw_atomic(hw, cpu, lk->line);	/* ... so this may yield */
		ok = ok && lk->holder < 0;	/* a cmpxchg that lost fails */
	}
	if (ok) {
		lk->tail += ticketed;
		got_lock(lk, cpu->id, cpu->clock, prev);
	}
	sym_exit(cpu, prev);
	return ok;
}

/* spin_unlock(): it syncs, so every CPU that arrived before it in simulated
 * time is queued; with waiters the unlock store invalidates their copies and
 * the kind decides who sees the lock free first. */
void hw_spin_unlock(struct hw *hw, struct sim_cpu *cpu, struct hw_lock *lk)
{
	__builtin_prefetch(lk->line, 1);	/* host only: with the class's line */
	int prev = sym_enter(cpu, lk->cls->spin_sym >= 0 ? hw->sym_spin_unlock : cpu->sym);
	cpu_charge(cpu, lock_cost(hw, lk, hw->cost_spin_unlock));
	cpu_sync(cpu);
	if (lk->holder != cpu->id && !hw->lock_error[0])
		snprintf(hw->lock_error, sizeof(hw->lock_error), "lock %s released by CPU %d "
			 "but held by %d", lk->cls->name, cpu->id, lk->holder);
	lk->cls->held--;
	count_hold(lk, cpu->clock);
	lk->head += lk->ops->ticketed;
	if (!lk->wq_head) {
		lk->holder = -1;
		hw_write(hw, cpu, lk->line);
	} else {
		lk->line->spin = NULL;
		uint64_t when, t = hw_store_posted(hw, cpu, lk->line);
		/* the unlock's store is in the store buffer too: the CPU's next
		 * locked instruction waits for it (Intel SDM vol. 3A, 8.2.2) */
		hw->sb[cpu->id].stores_done = t;
		struct hw_waiter *w = lk->ops->handoff(hw, cpu, lk, t, &when);
		hand_over(hw, lk, w, when);
	}
	sym_exit(cpu, prev);
}

/* Ticket lock (x86, 2.6.25-4.1): the waiters re-read in an order the fabric
 * decides (uniformly random here); the next ticket's owner sees the lock
 * when its own re-read completes. */
static struct hw_waiter *ticket_handoff(struct hw *hw, struct sim_cpu *cpu, struct hw_lock *lk,
					uint64_t t, uint64_t *when)
{
	struct hw_line *l = lk->line;
	int k = 0;
	for (struct hw_waiter *w = lk->wq_head; w; w = w->next)
		hw->scratch[k++] = w;
	for (int i = k - 1; i > 0; i--) {	/* Fisher-Yates with the run's RNG */
		int j = (int)gsl_rng_uniform_int(hw->eng->rng, (unsigned long)i + 1);
		struct hw_waiter *tmp = hw->scratch[i];
		hw->scratch[i] = hw->scratch[j];
		hw->scratch[j] = tmp;
	}
	struct hw_waiter *next = lk->wq_head;
	uint64_t at = t;
	bool chain = hw->m->fabric == FABRIC_IDEAL;
	*when = t;
	for (int i = 0; i < k; i++) {
		/* the re-reads queue on the line; an ideal fabric serves them
		 * strictly one after the other (the Markov model's c each) */
		uint64_t done = hw_reread(hw, hw->scratch[i]->cpu, l, cpu->id, chain ? at : t);
		at = done;
		if (hw->scratch[i] == next)
			*when = done;
	}
	unqueue(lk, NULL, next);
	return next;
}

/* Byte lock (x86 up to 2.6.24; and bit_spin_lock on page->flags): the
 * spinners re-read nearest first; the first to see the lock free wins it
 * with its own test-and-set, the rest see it taken and spin again. */
static struct hw_waiter *byte_handoff(struct hw *hw, struct sim_cpu *cpu, struct hw_lock *lk,
				      uint64_t t, uint64_t *when)
{
	struct hw_line *l = lk->line;
	struct hw_waiter *win = NULL, *win_prev = NULL, *p = NULL;
	int best = NR_DIST;
	for (struct hw_waiter *w = lk->wq_head; w; p = w, w = w->next) {
		int d = (int)machine_dist(hw->m, cpu->id, w->cpu);
		if (d < best) {
			best = d;
			win = w;
			win_prev = p;
		}
	}
	uint64_t seen = hw_reread(hw, win->cpu, l, cpu->id, t);
	*when = hw_transaction(hw, win->cpu, l, cpu->id, seen) + hw->m->atomic;
	hw_line_set_owner(hw, l, win->cpu);
	l->written = *when;	/* its test-and-set: the others' copies are stale */
	unqueue(lk, win_prev, win);
	if (lk->wq_head)
		hw_spinners_reread(hw, l, win->cpu, *when);
	return win;
}

int hw_locks_check(const struct hw *hw, bool at_end, struct sim_err *err)
{
	if (hw->lock_error[0])
		return sim_fail(err, "%s", hw->lock_error);
	for (const struct hw_lock_class *c = hw->classes; at_end && c; c = c->next)
		if (c->held)
			return sim_fail(err, "lock class %s: %lld lock(s) still held at the end",
					c->name, (long long)c->held);
	return 0;
}

/* Queued lock (qspinlock, 4.2+): the first waiter spins on the lock word and
 * sees the release with one re-read; the others wait on their own nodes. */
static struct hw_waiter *queued_handoff(struct hw *hw, struct sim_cpu *cpu, struct hw_lock *lk,
					uint64_t t, uint64_t *when)
{
	struct hw_waiter *next = lk->wq_head;
	*when = hw_reread(hw, next->cpu, lk->line, cpu->id, t);
	unqueue(lk, NULL, next);
	return next;
}

static const struct hw_lock_ops lock_ops[NR_LOCK_KINDS] = {
	[LOCK_BYTE] = { .ticketed = false, .read_first = false, .handoff = byte_handoff },
	[LOCK_TICKET] = { .ticketed = true, .read_first = true, .handoff = ticket_handoff },
	[LOCK_QUEUED] = { .ticketed = false, .read_first = true, .handoff = queued_handoff },
};

void hw_lock_init(struct hw_lock *lk, enum hw_lock_kind kind, struct hw_line *line,
		  struct hw_lock_class *cls)
{
	memset(lk, 0, sizeof(*lk));
	lk->ops = &lock_ops[kind];
	lk->line = line;
	lk->cls = cls;
	lk->holder = -1;
	line->spin_first_only = kind == LOCK_QUEUED;
}
