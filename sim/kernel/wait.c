/* wait.c - wait queues (kernel/wait.c): sleeping on a condition and waking. */
#include "wait.h"

#include "kernel.h"

void init_waitqueue_head(struct kernel *k, struct wait_queue_head *q,
			 struct hw_lock_class *cls, int node)
{
	hw_line_init(k->hw, &q->line, node);
	hw_lock_init(&q->lock, k->lock_kind, &q->line, cls);
	INIT_LIST_HEAD(&q->task_list);
}

/* prepare_to_wait(): queue t, if not queued yet, and mark it sleeping. The
 * kernel's __add_wait_queue() is list_add(), at the head (kernel/wait.c,
 * include/linux/wait.h, 2.6.x to 6.x; poll()'s add_wait_queue() too), so a
 * wake_up() of non-exclusive waiters wakes the last to come first. */
void prepare_to_wait(struct task *t, struct wait_queue_head *q)
{
	struct hw *hw = t->k->hw;
	struct sim_cpu *cpu = task_cpu(t);
	hw_spin_lock(hw, cpu, &q->lock);
	if (list_empty(&t->wait_entry)) {
		list_add(&t->wait_entry, &q->task_list);
		t->waitq = q;
	}
	t->state = TASK_INTERRUPTIBLE;
	hw_spin_unlock(hw, cpu, &q->lock);
}

void finish_wait(struct task *t, struct wait_queue_head *q)
{
	struct hw *hw = t->k->hw;
	struct sim_cpu *cpu = task_cpu(t);
	t->state = TASK_RUNNING;
	if (!list_empty(&t->wait_entry)) {
		hw_spin_lock(hw, cpu, &q->lock);
		if (!list_empty(&t->wait_entry)) {
			list_del(&t->wait_entry);
			t->waitq = NULL;
		}
		hw_spin_unlock(hw, cpu, &q->lock);
	}
}

void wake_up(struct task *waker, struct wait_queue_head *q, bool sync)
{
	struct kernel *k = waker->k;
	struct sim_cpu *cpu = task_cpu(waker);
	int psym = sym_enter(cpu, k->sym_wake_up);
	cpu_charge(cpu, k->cost.wake_up);
	hw_spin_lock(k->hw, cpu, &q->lock);
	struct task *t, *n;
	list_for_each_entry_safe(t, n, &q->task_list, wait_entry) {
		if (try_to_wake_up(waker, t, sync)) {	/* autoremove_wake_function */
			list_del(&t->wait_entry);
			t->waitq = NULL;
		}
	}
	hw_spin_unlock(k->hw, task_cpu(waker), &q->lock);
	sym_exit(task_cpu(waker), psym);
}

bool waitqueue_active(struct task *t, struct wait_queue_head *q)
{
	hw_read(t->k->hw, task_cpu(t), &q->line);
	return !list_empty(&q->task_list);
}
