/* irq.h - a device's interrupt line routed to one CPU (its smp_affinity):
 * the device posts completions that become due at a time; the interrupt is
 * taken on that CPU at its next scheduling point after the earliest is due
 * (as a hardirq lands between two instructions of whatever runs there, the
 * model lands it between two steps of the running task, or in the idle
 * loop), and its handler processes every completion due by then: a batch.
 * An interrupt moderation gap (ITR, FC HBA coalescing) keeps interrupts at
 * least `min_gap` cycles apart. */
#ifndef SIM_IRQ_H
#define SIM_IRQ_H

#include <stdint.h>

#include "workqueue.h"

struct irq_line;
struct task;
struct sim_cpu;

struct irq_event {
	uint64_t due;
	void *arg;
};

/* Called for each due completion, in the context of task `cur` on the
 * interrupt's CPU, with the interrupt's symbol entered. */
typedef void (*irq_handler_fn)(struct irq_line *irq, struct task *cur, void *arg);

struct irq_line {
	struct kernel *k;
	int cpu;			/* where the interrupt is routed */
	int sym;			/* profile symbol of the handler */
	uint32_t entry_cost;		/* do_IRQ entry, ack, exit: cycles per interrupt */
	uint64_t min_gap;		/* interrupt moderation, cycles */
	irq_handler_fn handler;
	void *arg;
	struct irq_event *heap;		/* pending completions, earliest first */
	int n, cap;
	struct delayed_work work;
	uint64_t armed_for;		/* when the armed interrupt fires */
	uint64_t last;			/* when the last interrupt was taken */
	uint64_t count, events;		/* interrupts taken, completions handled */
};

/* 0, or -1 if out of memory. */
int irq_line_init(struct irq_line *irq, struct kernel *k, int cpu, const char *sym,
		  uint32_t entry_cost, uint64_t min_gap, irq_handler_fn handler, void *arg);
void irq_line_destroy(struct irq_line *irq);

/* The device completes something at `due` (called from any CPU). */
void irq_raise(struct irq_line *irq, struct sim_cpu *from, uint64_t due, void *arg);

#endif
