/* wait.h - wait queues: a lock and a list of sleeping tasks, as in
 * kernel/wait.c (prepare_to_wait, finish_wait, __wake_up with the sync hint). */
#ifndef SIM_WAIT_H
#define SIM_WAIT_H

#include <stdbool.h>

#include "hw/spinlock.h"
#include "list.h"

struct task;
struct kernel;

struct wait_queue_head {
	struct hw_line line;
	struct hw_lock lock;
	struct list_head task_list;
};

void init_waitqueue_head(struct kernel *k, struct wait_queue_head *q,
			 struct hw_lock_class *cls, int node);

/* Queue t (if not queued) and mark it TASK_INTERRUPTIBLE. */
void prepare_to_wait(struct task *t, struct wait_queue_head *q);

/* Mark t running and take it off q if still there. */
void finish_wait(struct task *t, struct wait_queue_head *q);

/* Wake every task on q (they leave the queue: autoremove_wake_function). */
void wake_up(struct task *waker, struct wait_queue_head *q, bool sync);

/* waitqueue_active(): a racy look, as the kernel's, reading the queue's line. */
bool waitqueue_active(struct task *t, struct wait_queue_head *q);

#endif
