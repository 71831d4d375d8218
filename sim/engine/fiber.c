/* fiber.c - simulated tasks run as fibers. On x86-64 the switch is our own
 * (fiber_switch_x86_64.S); elsewhere Boost.Context's make_fcontext /
 * jump_fcontext. Every switch hands the resumed fiber a note naming who left
 * and who runs, so any fiber can resume any other directly. */
#include "fiber.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <valgrind/valgrind.h>

#if defined(__x86_64__)
void *fiber_ctx_switch(void **save_sp, void *to_sp, void *data);
void fiber_ctx_start(void);
#define OWN_SWITCH 1
#else
typedef void *fcontext_t;
typedef struct {
	fcontext_t fctx;
	void *data;
} transfer_t;
extern transfer_t jump_fcontext(fcontext_t const to, void *vp);
extern fcontext_t make_fcontext(void *sp, size_t size, void (*fn)(transfer_t));
#define OWN_SWITCH 0
#endif

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#define ASAN_FIBERS 1
/* A new stack may reuse addresses whose shadow still holds an old fiber's
 * poison: clear it when the stack is mapped and before it is unmapped. */
#define FIBER_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define ASAN_FIBERS 0
#define FIBER_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* Fiber stack tops start off page alignment: tops that share their low 12
 * address bits with other stacks alias in the store buffer (4K aliasing). */
#define FIBER_STACK_SKEW 1216

struct fiber_hop {
	struct fiber *from;
	struct fiber *to;
};

/* On arrival: under ASan, record the stack bounds of the fiber we left. */
static struct fiber *arrive(struct fiber_hop *hop, void *fake)
{
#if ASAN_FIBERS
	const void *bottom;
	size_t size;
	__sanitizer_finish_switch_fiber(fake, &bottom, &size);
	hop->from->stack_bottom = bottom;
	hop->from->stack_usable = size;
#else
	(void)fake;
#endif
	return hop->to;
}

/* A new fiber's first run: finish the switch into it and call its entry, which must never
 * return. */
static void fiber_run(struct fiber_hop *hop)
{
	struct fiber *self = arrive(hop, NULL);
	self->entry(self->arg);
	fprintf(stderr, "slabsim: internal error: a fiber returned\n");
	abort();
}

#if OWN_SWITCH
/* A new fiber's entry on x86-64: fiber_ctx_start calls it (from r12) with the first
 * switch's hop. */
static void fiber_start(void *unused, void *hop)
{
	(void)unused;
	fiber_run(hop);
}
#else
/* A new fiber's entry under Boost.Context: save the context of the fiber left, then run. */
static void fiber_trampoline(transfer_t t)
{
	struct fiber_hop *hop = t.data;
	hop->from->ctx = t.fctx;
	fiber_run(hop);
}
#endif

void fiber_init_main(struct fiber *main)
{
	*main = (struct fiber){0};
}

int fiber_create(struct fiber *f, fiber_entry_fn entry, void *arg, size_t stack_size)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t size = (stack_size + page - 1) & ~(page - 1);
	void *mem = mmap(NULL, size + page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED)
		return -1;
	FIBER_UNPOISON(mem, size + page);
	mprotect(mem, page, PROT_NONE);	/* guard page: an overflow faults */
	*f = (struct fiber){0};
	f->stack = mem;
	f->stack_size = size + page;
	f->entry = entry;
	f->arg = arg;
	f->stack_bottom = (char *)mem + page;
	f->stack_usable = size;
	char *top = (char *)mem + f->stack_size;
	f->valgrind_id = VALGRIND_STACK_REGISTER((char *)mem + page, top);
	top -= FIBER_STACK_SKEW;
#if OWN_SWITCH
	/* A frame fiber_ctx_switch can pop: r15 r14 r13 r12 rbx rbp, then the
	 * return address fiber_ctx_start, which calls r12(r13, hop) with the
	 * stack 16-byte aligned as the ABI wants. */
	uintptr_t *sp = (uintptr_t *)((uintptr_t)top & ~(uintptr_t)15);
	*--sp = (uintptr_t)fiber_ctx_start;
	*--sp = 0;			/* rbp */
	*--sp = 0;			/* rbx */
	*--sp = (uintptr_t)fiber_start;	/* r12 */
	*--sp = 0;			/* r13 */
	*--sp = 0;			/* r14 */
	*--sp = 0;			/* r15 */
	f->ctx = sp;
#else
	f->ctx = make_fcontext(top, size - FIBER_STACK_SKEW, fiber_trampoline);
#endif
	return 0;
}

void fiber_destroy(struct fiber *f)
{
	if (!f->stack)
		return;
	VALGRIND_STACK_DEREGISTER(f->valgrind_id);
	FIBER_UNPOISON(f->stack, f->stack_size);
	munmap(f->stack, f->stack_size);
	f->stack = NULL;
}

void fiber_switch(struct fiber *from, struct fiber *to)
{
	struct fiber_hop hop = { from, to };
	void *fake = NULL;
#if ASAN_FIBERS
	__sanitizer_start_switch_fiber(&fake, to->stack_bottom, to->stack_usable);
#endif
#if OWN_SWITCH
	struct fiber_hop *back = fiber_ctx_switch(&from->ctx, to->ctx, &hop);
#else
	transfer_t t = jump_fcontext(to->ctx, &hop);
	struct fiber_hop *back = t.data;
	back->from->ctx = t.fctx;
#endif
	arrive(back, fake);
}
