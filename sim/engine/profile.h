/* profile.h - kernel-named symbols and the cycles charged to each.
 *
 * Every simulated cycle a CPU spends is charged to the symbol it is "in", the
 * way a perf sample lands on the function whose code was running. Symbols are
 * registered by name (policies register their own) and carry a category so
 * the run can report busy / slab / spin shares. */
#ifndef SIM_PROFILE_H
#define SIM_PROFILE_H

#include <stdint.h>

enum sym_kind {
	SYM_KERNEL = 0,	/* other kernel code */
	SYM_SLAB,	/* code of the slab allocator (policy) */
	SYM_LOCK,	/* lock primitives (_spin_lock ...) */
	SYM_USER,	/* user space of the workload */
	SYM_IDLE,	/* the idle loop */
};

#define PROFILE_MAX_SYMS 256
#define PROFILE_NAME_MAX 64

struct profile {
	int nsyms;
	const char *name[PROFILE_MAX_SYMS];	/* into text[], the table's own copies */
	enum sym_kind kind[PROFILE_MAX_SYMS];
	uint64_t cycles[PROFILE_MAX_SYMS];
	char text[PROFILE_MAX_SYMS][PROFILE_NAME_MAX];
};

void profile_init(struct profile *p);
/* The id of a symbol, registering it (a copy of its name) on first use. A
 * full table, or a name of PROFILE_NAME_MAX characters or more, is a
 * limit of the simulator: it stops with a message, never returns -1. */
int profile_sym(struct profile *p, const char *name, enum sym_kind kind);
/* Id of an already registered symbol, or -1. */
int profile_find(const struct profile *p, const char *name);

#endif
