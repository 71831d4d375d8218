/* fiber.h - cooperative fibers for simulated tasks (Boost.Context fcontext). */
#ifndef SIM_FIBER_H
#define SIM_FIBER_H

#include <stddef.h>

typedef void (*fiber_entry_fn)(void *arg);

struct fiber {
	void *ctx;		/* saved fcontext while not running */
	void *stack;		/* mmap'ed region, guard page at the bottom */
	size_t stack_size;
	fiber_entry_fn entry;
	void *arg;
	const void *stack_bottom;	/* usable stack, for AddressSanitizer */
	size_t stack_usable;
	unsigned int valgrind_id;
};

/* The fiber that stands for the thread's original stack (the engine loop). */
void fiber_init_main(struct fiber *main);

/* Create a fiber that runs entry(arg) on its own stack when first entered.
 * Returns 0, or -1 if no memory could be mapped. */
int fiber_create(struct fiber *f, fiber_entry_fn entry, void *arg, size_t stack_size);

/* Free the stack of a fiber that is not running. */
void fiber_destroy(struct fiber *f);

/* Save the running fiber `from` and continue `to`; returns when some fiber
 * switches back to `from`. */
void fiber_switch(struct fiber *from, struct fiber *to);

#endif
