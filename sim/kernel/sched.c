/* sched.c - CFS-like per-CPU scheduling of simulated tasks (2.6.24-26). */
#include "sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

#define NICE_0_SHIFT 0		/* all tasks nice 0: vruntime = runtime */
#define WAKE_IMBALANCE_PCT 112	/* 100 + (imbalance_pct 125 - 100) / 2 */

static void idle_loop(struct task *t, void *arg);

/* --- the run queue: a binary min-heap of runnable tasks by vruntime --- */

static inline bool vr_before(const struct task *a, const struct task *b)
{
	return a->vruntime < b->vruntime || (a->vruntime == b->vruntime && a->pid < b->pid);
}

static void heap_swap(struct rq *rq, int i, int j)
{
	struct task *t = rq->heap[i];
	rq->heap[i] = rq->heap[j];
	rq->heap[j] = t;
	rq->heap[i]->heap_idx = i;
	rq->heap[j]->heap_idx = j;
}

static void heap_up(struct rq *rq, int i)
{
	while (i > 0) {
		int p = (i - 1) / 2;
		if (!vr_before(rq->heap[i], rq->heap[p]))
			break;
		heap_swap(rq, i, p);
		i = p;
	}
}

static void heap_down(struct rq *rq, int i)
{
	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;
		if (l < rq->nheap && vr_before(rq->heap[l], rq->heap[m]))
			m = l;
		if (r < rq->nheap && vr_before(rq->heap[r], rq->heap[m]))
			m = r;
		if (m == i)
			break;
		heap_swap(rq, i, m);
		i = m;
	}
}

static void heap_push(struct rq *rq, struct task *t)
{
	if (rq->nheap == rq->heap_cap) {
		int cap = rq->heap_cap ? 2 * rq->heap_cap : 64;
		struct task **h = realloc(rq->heap, (size_t)cap * sizeof(*h));
		if (!h)
			abort();
		rq->heap = h;
		rq->heap_cap = cap;
	}
	rq->heap[rq->nheap] = t;
	t->heap_idx = rq->nheap++;
	heap_up(rq, t->heap_idx);
}

static void heap_remove(struct rq *rq, struct task *t)
{
	int i = t->heap_idx;
	rq->nheap--;
	if (i != rq->nheap) {
		heap_swap(rq, i, rq->nheap);
		heap_down(rq, i);
		heap_up(rq, i);
	}
	t->heap_idx = -1;
}

static struct task *heap_pop(struct rq *rq)
{
	if (!rq->nheap)
		return NULL;
	struct task *t = rq->heap[0];
	heap_remove(rq, t);
	return t;
}

/* --- CFS bookkeeping --- */

static void update_min_vruntime(struct rq *rq)
{
	uint64_t v = rq->min_vruntime;
	bool any = false;
	if (rq->curr && rq->curr != rq->idle) {
		v = rq->curr->vruntime;
		any = true;
	}
	if (rq->nheap && (!any || rq->heap[0]->vruntime < v)) {
		v = rq->heap[0]->vruntime;
		any = true;
	}
	if (any && v > rq->min_vruntime)
		rq->min_vruntime = v;
}

/* update_curr(): charge the running task's time to its vruntime. */
static void update_curr(struct rq *rq, uint64_t now)
{
	struct task *c = rq->curr;
	if (!c || c == rq->idle || now <= c->exec_start)
		return;
	uint64_t delta = now - c->exec_start;
	c->sum_exec += delta;
	c->vruntime += delta >> NICE_0_SHIFT;
	c->exec_start = now;
	update_min_vruntime(rq);
}

/* sched_slice(): the task's share of the period. */
static uint64_t sched_slice(const struct sched *s, const struct rq *rq)
{
	uint64_t nr = (uint64_t)(rq->nr_running > 0 ? rq->nr_running : 1);
	uint64_t period = s->latency;
	uint64_t nr_latency = s->latency / s->min_granularity;
	if (nr > nr_latency)
		period = nr * s->min_granularity;
	return period / nr;
}

/* update_avg(): avg += (sample - avg) / 8 */
static void update_avg(uint64_t *avg, uint64_t sample)
{
	int64_t diff = (int64_t)sample - (int64_t)*avg;
	*avg = (uint64_t)((int64_t)*avg + diff / 8);
}

/* --- switching --- */

/* finish_task_switch(): in the task switched to, release the run queue's
 * lock held across the switch, and free the stack of a task that exited. */
static void finish_task_switch(struct sched *s, struct task *t)
{
	struct rq *rq = &s->rq[t->cpu];
	struct task *dead = rq->dead;
	if (dead && dead != t) {
		rq->dead = NULL;
		fiber_destroy(&dead->fiber);
	}
	hw_spin_unlock(s->k->hw, task_cpu(t), &rq->lock);
}

/* context_switch(): switch_mm if the address space changes, then switch_to.
 * Called with rq->lock held: as in the kernel, no wake-up can see `prev`
 * half switched out; the task switched to releases the lock. */
static void context_switch(struct sched *s, struct rq *rq, struct sim_cpu *cpu,
			   struct task *prev, struct task *next)
{
	int psym = sym_enter(cpu, s->sym_switch);
	cpu_charge(cpu, s->cost_switch);
	static struct mm_struct *const no_mm = NULL;
	struct mm_struct *last = prev->mm ? prev->mm : no_mm;
	if (next->mm && last && next->mm != last)
		cpu_charge(cpu, s->cost_switch_mm);
	if (next != rq->idle)	/* its stack, thread_info, mm: cold */
		hw_mem_lines(s->k->hw, cpu, (int)s->switch_cold_lines, s->k->m->topo[cpu->id].node);
	prev->saved_sym = psym;
	prev->on_cpu = false;
	next->on_cpu = true;
	next->cpu = cpu->id;
	next->exec_start = cpu->clock;
	rq->curr = next;
	rq->slice_end = cpu->clock + sched_slice(s, rq);
	rq->nr_switches++;
	s->context_switches++;
	cpu->sym = next->saved_sym;
	cpu_switch_fiber(cpu, &next->fiber);
	/* back in prev, perhaps on another CPU */
	finish_task_switch(s, prev);
}

void schedule(struct task *prev)
{
	struct sched *s = &prev->k->sched;
	struct hw *hw = prev->k->hw;
	struct sim_cpu *cpu = task_cpu(prev);
	struct rq *rq = &s->rq[cpu->id];
	int psym = sym_enter(cpu, s->sym_schedule);
	cpu_charge(cpu, s->cost_schedule);
	hw_spin_lock(hw, cpu, &rq->lock);
	update_curr(rq, cpu->clock);
	rq->need_resched = false;
	if (prev != rq->idle) {
		if (prev->state != TASK_RUNNING) {	/* deactivate_task(): it sleeps */
			rq->nr_running--;
			if (prev->last_wakeup) {
				update_avg(&prev->avg_overlap, prev->sum_exec - prev->last_wakeup);
				prev->last_wakeup = 0;
			}
			prev->nvcsw++;
		} else {				/* preempted: back in the queue */
			prev->on_rq = true;
			heap_push(rq, prev);
			prev->nivcsw++;
		}
	}
	struct task *next = heap_pop(rq);
	if (next)
		next->on_rq = false;
	else
		next = rq->idle;
	if (next == prev) {
		rq->slice_end = cpu->clock + sched_slice(s, rq);
		prev->exec_start = cpu->clock;
		hw_spin_unlock(hw, cpu, &rq->lock);
		sym_exit(cpu, psym);
		return;
	}
	hw_read(hw, cpu, &next->line);	/* its task_struct, last written by its waker */
	context_switch(s, rq, cpu, prev, next);
	sym_exit(task_cpu(prev), psym);
}

/* --- load balancing --- */

/* Move tasks from `src` (locked) to `dst` (locked), keeping vruntime fair. */
static int move_tasks(struct sched *s, struct rq *dst, struct rq *src, int n)
{
	int moved = 0;
	while (moved < n && src->nheap > 0) {
		struct task *t = src->heap[src->nheap - 1];	/* the last in line */
		heap_remove(src, t);
		src->nr_running--;
		t->vruntime = t->vruntime - src->min_vruntime + dst->min_vruntime;
		t->cpu = dst->cpu;
		heap_push(dst, t);
		dst->nr_running++;
		dst->migrations_in++;
		s->migrations++;
		moved++;
	}
	return moved;
}

/* load_balance(): pull from the busiest run queue if it has clearly more.
 * Reading other queues' lengths is racy in the kernel too. */
static int load_balance(struct sched *s, struct sim_cpu *cpu, bool newidle)
{
	struct hw *hw = s->k->hw;
	struct rq *rq = &s->rq[cpu->id];
	int psym = sym_enter(cpu, s->sym_balance);
	cpu_charge(cpu, s->cost_balance);
	rq->next_balance = cpu->clock + s->balance_interval;
	cpu_sync(cpu);	/* the scan reads other queues' lengths (racy, as in the kernel) */
	int busiest = -1, most = rq->nr_running;
	for (int i = 0; i < s->ncpus; i++)
		if (s->rq[i].nr_running > most && s->rq[i].nheap > 0) {
			most = s->rq[i].nr_running;
			busiest = i;
		}
	int moved = 0;
	int want = newidle ? 1 : (most - rq->nr_running) / 2;
	if (busiest >= 0 && want > 0 && most - rq->nr_running >= (newidle ? 1 : 2)) {
		struct rq *b = &s->rq[busiest];
		struct rq *first = b->cpu < rq->cpu ? b : rq;	/* double_rq_lock order */
		struct rq *second = first == b ? rq : b;
		hw_spin_lock(hw, cpu, &first->lock);
		hw_spin_lock(hw, cpu, &second->lock);
		moved = move_tasks(s, rq, b, want);
		hw_spin_unlock(hw, cpu, &second->lock);
		hw_spin_unlock(hw, cpu, &first->lock);
	}
	sym_exit(cpu, psym);
	return moved;
}

/* Wake a CPU that sleeps in its idle loop; a CPU spinning on a lock is
 * suspended too, but only the lock's release may resume it. */
static void wake_idle_cpu(struct sched *s, int cpu, uint64_t t)
{
	struct sim_cpu *c = &s->k->eng->cpus[cpu];
	if (c->idle_wait)
		eng_wake_cpu(c, t, -1);
}

static void balance_timer_fn(struct sim_event *ev)
{
	struct rq *rq = ev->arg;
	struct sched *s = (struct sched *)(uintptr_t)ev->data;
	rq->balance_timer = NULL;
	wake_idle_cpu(s, rq->cpu, ev->time);
}

/* An idle CPU's tick: it wakes at its next balance time to look for work. */
static void arm_idle_tick(struct sched *s, struct rq *rq, uint64_t now)
{
	if (rq->balance_timer)
		return;
	uint64_t t = rq->next_balance > now ? rq->next_balance : now;
	rq->balance_timer = eng_timer_at(s->k->eng, t, balance_timer_fn, rq,
					 (uint64_t)(uintptr_t)s);
	if (rq->idle_unarmed) {
		rq->idle_unarmed = false;
		s->nr_idle_unarmed--;
	}
}

/* A task now waits behind a running one: idle CPUs whose ticks were
 * stopped (nothing to steal when they went idle) start them again, as the
 * nohz idle balancer would. */
static void kick_idle_cpus(struct sched *s, uint64_t now)
{
	if (!s->nr_idle_unarmed)
		return;
	for (int i = 0; i < s->ncpus && s->nr_idle_unarmed; i++)
		if (s->rq[i].idle_unarmed)
			arm_idle_tick(s, &s->rq[i], now);
}

/* cpu_idle(): run what is queued here; else pull work; else sleep until a
 * wake-up (or the next balance tick, while other CPUs have work queued). */
static void idle_loop(struct task *idle, void *arg)
{
	struct sched *s = arg;
	struct hw *hw = s->k->hw;
	for (;;) {
		struct sim_cpu *cpu = task_cpu(idle);
		struct rq *rq = &s->rq[cpu->id];
		hw_spin_lock(hw, cpu, &rq->lock);
		struct task *next = heap_pop(rq);
		if (next) {
			next->on_rq = false;
			hw_read(hw, cpu, &next->line);
			cpu_charge(cpu, s->cost_idle_exit);
			context_switch(s, rq, cpu, idle, next);
			continue;
		}
		hw_spin_unlock(hw, cpu, &rq->lock);
		if (load_balance(s, cpu, true))
			continue;
		/* No yield from this check to cpu_suspend(): a wake-up that
		 * queued a task meanwhile is seen here, none is lost. */
		cpu_sync(cpu);
		if (rq->nheap)
			continue;
		bool work = false;
		for (int i = 0; i < s->ncpus && !work; i++)
			work = s->rq[i].nheap > 0;
		if (work) {
			arm_idle_tick(s, rq, cpu->clock);
		} else if (!rq->balance_timer && !rq->idle_unarmed) {
			rq->idle_unarmed = true;	/* tick stopped: nothing to steal */
			s->nr_idle_unarmed++;
		}
		cpu->sym = s->k->eng->sym_idle;
		cpu->idle_wait = true;
		cpu_suspend(cpu);
		cpu->idle_wait = false;
		if (rq->balance_timer) {
			eng_timer_cancel(s->k->eng, rq->balance_timer);
			rq->balance_timer = NULL;
		}
		if (rq->idle_unarmed) {
			rq->idle_unarmed = false;
			s->nr_idle_unarmed--;
		}
	}
}

void sched_preempt_point(struct task *t)
{
	struct sched *s = &t->k->sched;
	struct sim_cpu *cpu = task_cpu(t);
	struct rq *rq = &s->rq[cpu->id];
	if (cpu->clock >= rq->next_balance)
		load_balance(s, cpu, false);
	if (rq->need_resched || (cpu->clock >= rq->slice_end && rq->nheap > 0))
		schedule(t);
}

/* --- wake-up --- */

/* select_task_rq_fair() of 2.6.25, with run-queue lengths for loads:
 * wake-affine pulls a sync wakee to the waker's CPU when both run briefly
 * after waking others (avg_overlap), or when that keeps the load balanced
 * (imbalance_pct); passive balancing (SD_WAKE_BALANCE) takes it there when
 * the waker's CPU is not busier. Else it stays where it last ran. The
 * kernel's "idle enough" test on tl_per_task is approximated by the last. */
static int select_task_rq(struct sched *s, struct task *waker, struct task *p, bool sync)
{
	int prev = p->cpu, this = waker->cpu;
	if (prev == this || !s->wake_affine)
		return prev;
	long load = s->rq[prev].nr_running;
	long this_load = s->rq[this].nr_running - (sync ? 1 : 0);
	if (this_load < 0)
		this_load = 0;
	if (sync && waker->avg_overlap < s->migration_cost && p->avg_overlap < s->migration_cost)
		return this;
	if (100 * (this_load + 1) <= WAKE_IMBALANCE_PCT * load)
		return this;
	if (WAKE_IMBALANCE_PCT * this_load <= 100 * load)
		return this;
	return prev;
}

/* Queue a sleeper on rq (locked): sleeper credit of one latency period. */
static void enqueue_sleeper(struct sched *s, struct rq *rq, struct task *p)
{
	uint64_t floor = rq->min_vruntime > s->latency ? rq->min_vruntime - s->latency : 0;
	if (p->vruntime < floor)
		p->vruntime = floor;
	p->on_rq = true;
	heap_push(rq, p);
	rq->nr_running++;
	if (rq->curr != rq->idle)
		kick_idle_cpus(s, s->k->eng->running ? s->k->eng->running->clock : s->k->eng->now);
}

/* check_preempt_wakeup(): the wakee preempts if it is owed more than the
 * wake-up granularity. An idle CPU is kicked awake. */
static void check_preempt(struct sched *s, struct rq *rq, struct task *p, uint64_t now)
{
	if (rq->curr == rq->idle) {
		wake_idle_cpu(s, rq->cpu, now);
		return;
	}
	update_curr(rq, now);
	if (p->vruntime + s->wakeup_granularity < rq->curr->vruntime)
		rq->need_resched = true;
}

bool try_to_wake_up(struct task *waker, struct task *p, bool sync)
{
	struct sched *s = &p->k->sched;
	struct hw *hw = p->k->hw;
	struct sim_cpu *cpu = task_cpu(waker);
	int psym = sym_enter(cpu, s->sym_wake);
	cpu_charge(cpu, s->cost_wake);
	struct rq *prq;
	for (;;) {	/* task_rq_lock(): p may move while we wait for the lock */
		prq = &s->rq[p->cpu];
		hw_spin_lock(hw, cpu, &prq->lock);
		if (prq->cpu == p->cpu)
			break;
		hw_spin_unlock(hw, cpu, &prq->lock);
	}
	hw_write(hw, cpu, &p->line);
	bool woke = false;
	if (p->state != TASK_RUNNING && p->state != TASK_DEAD) {
		woke = true;
		p->state = TASK_RUNNING;
		waker->last_wakeup = waker->sum_exec + (cpu->clock - waker->exec_start);
		s->wakeups++;
		if (!p->on_cpu && !p->on_rq) {	/* it really sleeps: queue it */
			int target = select_task_rq(s, waker, p, sync);
			struct rq *trq = &s->rq[target];
			if (target != p->cpu) {	/* set_task_cpu() */
				uint64_t rel = p->vruntime - prq->min_vruntime;
				hw_spin_unlock(hw, cpu, &prq->lock);
				hw_spin_lock(hw, cpu, &trq->lock);
				p->vruntime = rel + trq->min_vruntime;
				p->cpu = target;
				s->migrations++;
				prq = trq;
			}
			enqueue_sleeper(s, trq, p);
			check_preempt(s, trq, p, cpu->clock);
		}
	}
	hw_spin_unlock(hw, cpu, &prq->lock);
	sym_exit(cpu, psym);
	return woke;
}

/* --- task life --- */

static void task_entry(void *arg)
{
	struct task *t = arg;
	if (t->fn != idle_loop)	/* the idle tasks start the CPUs: no switch to finish */
		finish_task_switch(&t->k->sched, t);
	t->fn(t, t->arg);
	do_exit(t);
}

static struct task *task_alloc(struct sched *s, task_fn fn, void *arg, const char *comm)
{
	struct task *t = calloc(1, sizeof(*t));
	if (!t || fiber_create(&t->fiber, task_entry, t, s->stack_size) < 0) {
		fprintf(stderr, "slabsim: out of memory creating task %s\n", comm);
		exit(1);
	}
	if (s->nall == s->all_cap) {
		s->all_cap = s->all_cap ? 2 * s->all_cap : 256;
		s->all = realloc(s->all, (size_t)s->all_cap * sizeof(*s->all));
		if (!s->all)
			abort();
	}
	s->all[s->nall++] = t;
	t->k = s->k;
	t->pid = s->next_pid++;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->fn = fn;
	t->arg = arg;
	t->heap_idx = -1;
	t->saved_sym = s->k->sym_user;
	INIT_LIST_HEAD(&t->wait_entry);
	hw_line_init(s->k->hw, &t->line, 0);
	s->nr_tasks++;
	return t;
}

/* The idlest CPU for a new task (sched_balance_self with SD_BALANCE_FORK).
 * The kernel compares decaying load averages, so a CPU that just took a
 * child looks busier for a while; equal run queues are therefore taken in
 * turn, starting after the last CPU chosen. */
static int find_idlest_cpu(struct sched *s)
{
	int start = (s->last_fork_cpu + 1) % s->ncpus;
	int best = start, least = s->rq[start].nr_running;
	for (int i = 1; i < s->ncpus; i++) {
		int c = (start + i) % s->ncpus;
		if (s->rq[c].nr_running < least) {
			least = s->rq[c].nr_running;
			best = c;
		}
	}
	s->last_fork_cpu = best;
	return best;
}

struct task *task_create(struct sched *s, struct task *creator, task_fn fn, void *arg,
			 const char *comm, struct mm_struct *share_mm, int cpu_hint)
{
	struct hw *hw = s->k->hw;
	struct task *t = task_alloc(s, fn, arg, comm);
	if (share_mm) {
		t->mm = share_mm;
	} else {
		t->own_mm.id = s->next_mm++;
		t->mm = &t->own_mm;
	}
	t->parent = creator;
	if (!creator) {
		struct rq *rq = &s->rq[cpu_hint];
		t->cpu = cpu_hint;
		t->vruntime = rq->min_vruntime;
		t->on_rq = true;
		heap_push(rq, t);
		rq->nr_running++;
		return t;
	}
	struct sim_cpu *cpu = task_cpu(creator);
	int psym = sym_enter(cpu, s->sym_fork);
	cpu_charge(cpu, share_mm ? s->cost_fork_thread : s->cost_fork_process);
	hw_write(hw, cpu, &creator->line);
	creator->live_children++;
	int target = find_idlest_cpu(s);
	struct rq *rq = &s->rq[target];
	hw_spin_lock(hw, cpu, &rq->lock);
	t->cpu = target;
	t->vruntime = rq->min_vruntime + sched_slice(s, rq);	/* START_DEBIT */
	t->on_rq = true;
	heap_push(rq, t);
	rq->nr_running++;
	check_preempt(s, rq, t, cpu->clock);
	if (rq->curr != rq->idle)
		kick_idle_cpus(s, cpu->clock);
	hw_spin_unlock(hw, cpu, &rq->lock);
	sym_exit(cpu, psym);
	return t;
}

void do_exit(struct task *t)
{
	struct sched *s = &t->k->sched;
	struct hw *hw = t->k->hw;
	struct sim_cpu *cpu = task_cpu(t);
	sym_enter(cpu, s->sym_exit);
	cpu_charge(cpu, s->cost_exit);
	t->state = TASK_DEAD;
	s->nr_exited++;
	struct task *parent = t->parent;
	if (parent) {
		hw_write(hw, cpu, &parent->line);
		parent->live_children--;
		if (parent->live_children == 0 && parent->reaping)
			try_to_wake_up(t, parent, false);
	}
	cpu = task_cpu(t);
	s->rq[cpu->id].dead = t;
	schedule(t);
	fprintf(stderr, "slabsim: internal error: a dead task ran again\n");
	abort();
}

void wait_for_children(struct task *t)
{
	struct hw *hw = t->k->hw;
	for (;;) {
		struct sim_cpu *cpu = task_cpu(t);
		hw_write(hw, cpu, &t->line);
		t->state = TASK_INTERRUPTIBLE;
		t->reaping = true;
		if (t->live_children == 0)
			break;
		schedule(t);
	}
	t->state = TASK_RUNNING;
	t->reaping = false;
}

int sched_init(struct sched *s, struct kernel *k, struct sim_err *err)
{
	memset(s, 0, sizeof(*s));
	s->k = k;
	s->ncpus = k->m->ncpus;
	s->next_pid = 1;
	s->stack_size = 64 * 1024;
	s->rq = calloc((size_t)s->ncpus, sizeof(*s->rq));
	if (!s->rq)
		return sim_fail(err, "out of memory for run queues");
	/* sched_init_granularity(): tunables scale with 1 + ilog2(ncpus) */
	int factor = 1;
	for (int n = s->ncpus; n > 1; n >>= 1)
		factor++;
	double cyc_per_ns = k->m->ghz;
	s->latency = (uint64_t)(param_double(&k->params, "sched_latency_ns") * factor * cyc_per_ns);
	s->min_granularity = (uint64_t)(param_double(&k->params, "sched_min_granularity_ns") *
					factor * cyc_per_ns);
	s->wakeup_granularity = (uint64_t)(param_double(&k->params, "sched_wakeup_granularity_ns") *
					   factor * cyc_per_ns);
	s->migration_cost = (uint64_t)(param_double(&k->params, "sched_migration_cost_ns") * cyc_per_ns);
	s->balance_interval = (uint64_t)(param_double(&k->params, "sched_balance_interval_us") *
					 1000 * cyc_per_ns);
	s->wake_affine = param_bool(&k->params, "wake_affine");
	const struct cost_ref costs[] = {
		{ "schedule", &s->cost_schedule }, { "context_switch", &s->cost_switch },
		{ "switch_mm", &s->cost_switch_mm }, { "try_to_wake_up", &s->cost_wake },
		{ "fork_process", &s->cost_fork_process }, { "fork_thread", &s->cost_fork_thread },
		{ "exit", &s->cost_exit }, { "load_balance", &s->cost_balance },
		{ "idle_exit", &s->cost_idle_exit },
		{ "switch_cold_lines", &s->switch_cold_lines },
	};
	if (machine_costs(k->m, costs, (int)(sizeof(costs) / sizeof(costs[0])), err) < 0)
		return -1;
	struct profile *pr = &k->eng->prof;
	s->sym_schedule = profile_sym(pr, "schedule", SYM_KERNEL);
	s->sym_switch = profile_sym(pr, "__switch_to", SYM_KERNEL);
	s->sym_wake = profile_sym(pr, "try_to_wake_up", SYM_KERNEL);
	s->sym_balance = profile_sym(pr, "load_balance", SYM_KERNEL);
	s->sym_fork = profile_sym(pr, "do_fork", SYM_KERNEL);
	s->sym_exit = profile_sym(pr, "do_exit", SYM_KERNEL);
	hw_lock_class_init(k->hw, &s->rq_lock_class, "&rq->lock", k->hw->sym_spin_lock);
	for (int c = 0; c < s->ncpus; c++) {
		struct rq *rq = &s->rq[c];
		rq->cpu = c;
		hw_line_init(k->hw, &rq->line, k->m->topo[c].node);
		hw_lock_init(&rq->lock, k->lock_kind, &rq->line, &s->rq_lock_class);
		rq->next_balance = s->balance_interval;
		char comm[32];
		snprintf(comm, sizeof(comm), "swapper/%d", c);
		struct task *idle = task_alloc(s, idle_loop, s, comm);
		s->nr_tasks--;
		idle->cpu = c;
		idle->on_cpu = true;
		idle->saved_sym = k->eng->sym_idle;
		rq->idle = idle;
		rq->curr = idle;
		eng_start_cpu(k->eng, &k->eng->cpus[c], &idle->fiber, 0);
	}
	return 0;
}

void sched_destroy(struct sched *s)
{
	for (int i = 0; i < s->nall; i++) {
		fiber_destroy(&s->all[i]->fiber);
		free(s->all[i]);
	}
	free(s->all);
	for (int c = 0; c < s->ncpus; c++)
		free(s->rq[c].heap);
	free(s->rq);
	memset(s, 0, sizeof(*s));
}
