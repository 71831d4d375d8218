/* irq.c - device interrupt lines with batching and moderation. */
#include "irq.h"

#include <stdlib.h>

#include "kernel.h"

/* Min-heap on due time (ties: the order raised, by position). */
static void heap_up(struct irq_event *h, int i)
{
	while (i > 0) {
		int p = (i - 1) / 2;
		if (h[p].due <= h[i].due)
			break;
		struct irq_event x = h[p];
		h[p] = h[i];
		h[i] = x;
		i = p;
	}
}

/* Restore the heap below i. */
static void heap_down(struct irq_event *h, int n, int i)
{
	for (;;) {
		int l = 2 * i + 1, m = i;
		if (l < n && h[l].due < h[m].due)
			m = l;
		if (l + 1 < n && h[l + 1].due < h[m].due)
			m = l + 1;
		if (m == i)
			return;
		struct irq_event x = h[m];
		h[m] = h[i];
		h[i] = x;
		i = m;
	}
}

/* Arm the interrupt for the earliest completion, moderated. */
static void irq_arm(struct irq_line *irq)
{
	if (!irq->n)
		return;
	uint64_t at = irq->heap[0].due;
	if (irq->count && at < irq->last + irq->min_gap)
		at = irq->last + irq->min_gap;
	if (irq->work.queued) {
		if (!irq->work.timer || irq->armed_for <= at)
			return;		/* fires (or is pending) no later */
		cancel_delayed_work(&irq->work);
	}
	irq->armed_for = at;
	schedule_delayed_work_on(irq->k, irq->cpu, &irq->work, at);
}

/* The interrupt: entry cost, then every completion due by now. */
static void irq_take(struct delayed_work *w, struct task *cur)
{
	struct irq_line *irq = w->arg;
	struct sim_cpu *cpu = task_cpu(cur);
	cpu_sync(cpu);
	int psym = sym_enter(cpu, irq->sym);
	cpu_charge(cpu, irq->entry_cost);
	irq->count++;
	irq->last = cpu->clock;
	while (irq->n && irq->heap[0].due <= cpu->clock) {
		void *arg = irq->heap[0].arg;
		irq->heap[0] = irq->heap[--irq->n];
		heap_down(irq->heap, irq->n, 0);
		irq->events++;
		irq->handler(irq, cur, arg);
		cpu = task_cpu(cur);
	}
	sym_exit(cpu, psym);
	irq_arm(irq);
}

int irq_line_init(struct irq_line *irq, struct kernel *k, int cpu, const char *sym,
		  uint32_t entry_cost, uint64_t min_gap, irq_handler_fn handler, void *arg)
{
	*irq = (struct irq_line){ .k = k, .cpu = cpu, .entry_cost = entry_cost,
				  .min_gap = min_gap, .handler = handler, .arg = arg };
	irq->sym = profile_sym(&k->eng->prof, sym, SYM_KERNEL);
	irq->work.fn = irq_take;
	irq->work.arg = irq;
	irq->cap = 64;
	irq->heap = malloc((size_t)irq->cap * sizeof(*irq->heap));
	return irq->heap && irq->sym >= 0 ? 0 : -1;
}

void irq_line_destroy(struct irq_line *irq)
{
	cancel_delayed_work(&irq->work);
	free(irq->heap);
	irq->heap = NULL;
}

void irq_raise(struct irq_line *irq, struct sim_cpu *from, uint64_t due, void *arg)
{
	cpu_sync(from);
	if (irq->n == irq->cap) {
		int cap = 2 * irq->cap;
		struct irq_event *h = realloc(irq->heap, (size_t)cap * sizeof(*h));
		if (!h) {
			kernel_violation(irq->k, "irq: out of memory for %d pending completions",
					 irq->n);
			return;
		}
		irq->heap = h;
		irq->cap = cap;
	}
	irq->heap[irq->n] = (struct irq_event){ .due = due, .arg = arg };
	heap_up(irq->heap, irq->n++);
	irq_arm(irq);
}
