/* slab_blocks_depot.c - the blocks' depot: a cache's (or a node's) full
 * and empty arrays under one lock, each list a stack with its working set
 * (layout and what each models: slab_blocks.h). */
#include "slab_blocks.h"

#include <string.h>

void sb_depot_init(struct sb_depot *d, struct hw *hw, enum hw_lock_kind kind, int node,
		   struct hw_lock_class *cls)
{
	memset(&d->full, 0, sizeof(d->full));
	memset(&d->empty, 0, sizeof(d->empty));
	hw_line_init(hw, &d->line, node);
	hw_lock_init(&d->lock, kind, &d->line, cls);
}

void sb_stack_push(struct sb_stack *s, struct sb_array *a)
{
	a->next = s->top;
	s->top = a;
	s->total++;
}

/* kmem_depot_alloc()'s list work: the top off, the working set's low
 * mark follows. */
struct sb_array *sb_stack_pop(struct sb_stack *s)
{
	struct sb_array *a = s->top;
	if (!a)
		return NULL;
	s->top = a->next;
	if (--s->total < s->min)
		s->min = s->total;
	s->taken++;
	return a;
}

struct sb_array *sb_stack_take_all(struct sb_stack *s)
{
	struct sb_array *a = s->top;
	s->top = NULL;
	s->total = s->min = s->reaplimit = 0;
	return a;
}

void sb_stack_ws_update(struct sb_stack *s)
{
	s->reaplimit = s->min;
	s->min = s->total;
}

long sb_stack_length(const struct sb_stack *s, long max)
{
	long n = 0;
	for (const struct sb_array *a = s->top; a && n <= max; a = a->next)
		n++;
	return n;
}
