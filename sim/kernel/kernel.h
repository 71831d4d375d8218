/* kernel.h - one simulated kernel: the machine it runs on, its parameters
 * (kernel=VERSION presets), page allocator, scheduler, the slab policy and the
 * kmalloc caches, and the costs of its non-slab paths. */
#ifndef SIM_KERNEL_H
#define SIM_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/engine.h"
#include "engine/params.h"
#include "engine/steady.h"
#include "hw/hw.h"
#include "hw/machine.h"
#include "hw/spinlock.h"
#include "kmem_stat.h"
#include "fault_inject.h"
#include "page_alloc.h"
#include "sched.h"

struct slab_policy;
struct kmem_cache;
struct skb_state;

#define KMALLOC_SHIFT_HIGH 22		/* SLAB's size-4194304 (x86-64, MAX_ORDER 11) */
#define KMALLOC_CACHES (KMALLOC_SHIFT_HIGH + 1)

/* Costs of non-slab kernel paths, in cycles (machines/costs/). */
struct kcosts {
	uint32_t syscall;		/* system_call entry and exit */
	uint32_t sys_rw;		/* sys_write / sys_read, vfs and fget */
	uint32_t unix_sendmsg;		/* unix_stream_sendmsg, without callees */
	uint32_t unix_recvmsg;		/* unix_stream_recvmsg, without callees */
	uint32_t alloc_skb;		/* __alloc_skb, without the slab calls */
	uint32_t free_skb;		/* __kfree_skb, without the slab calls */
	uint32_t skb_queue;		/* skb_queue_tail / skb_dequeue */
	uint32_t copy_line;		/* copying one 64-byte line to/from user */
	uint32_t wake_up;		/* __wake_up_common per queue */
	uint32_t sock_wfree;		/* sock_wfree + unix_write_space */
	uint32_t user_per_call;		/* the user side of one read/write */
	uint32_t syscall_cold_lines;	/* task/file/socket lines missed per call */
};

struct kernel {
	struct engine *eng;
	struct hw *hw;
	const struct machine *m;
	struct param_set params;
	int era;			/* e.g. 20625 for 2.6.25 */
	int rc;				/* its release candidate (2.6.25-rc5: 5); 0: the release */
	enum hw_lock_kind lock_kind;
	struct page_alloc pa;
	struct sched sched;
	const struct slab_policy *policy;
	void *pstate;			/* the policy's state */
	struct kmem_cache *kmalloc_caches[KMALLOC_CACHES];
	struct kmem_cache **caches;	/* every cache created, in order */
	int ncaches, caches_cap;
	struct kcosts cost;
	struct skb_state *skb;		/* skbuff_head_cache and skb records */
	int sym_user, sym_syscall, sym_sys_write, sym_sys_read, sym_sendmsg, sym_recvmsg,
		sym_alloc_skb, sym_kfree_skb, sym_copy, sym_wake_up, sym_sock_wfree,
		sym_kmalloc, sym_kmalloc_track, sym_kfree, sym_cache_alloc, sym_cache_free;
	uint64_t kmalloc_large, kfree_large;
	struct kmem_stat kmem;		/* perf kmem stat's books, the recorder */
	struct {			/* the workload's measured window */
		bool marked[2];
		uint64_t time[2];
		uint64_t busy[2], slab[2], spin[2];
		uint64_t cycles[2][PROFILE_MAX_SYMS];
		uint64_t ahead[2];	/* cycles the CPUs had charged past the mark */
	} win;
	struct steady steady;		/* sample=: the workload reports its units here */
	struct fault_attr failslab, fail_page_alloc;	/* fault injection */
	unsigned int fail_page_alloc_min_order;
	gfp_t *gfp_context;		/* [cpu]: the flags of the slab allocation
					 * in progress, which its page allocations
					 * take (allocate_slab() passes them down);
					 * GFP_KERNEL outside one */
	int works_running;		/* delayed works in flight (they may yield) */
	struct {			/* tasks in an AF_UNIX wait now, asleep or woken
					 * and not yet run (run --timeline shows it;
					 * the model never reads it) */
		int wmem;		/* writers in sock_wait_for_wmem() */
		int data;		/* readers in unix_stream_data_wait() */
	} unix_waiting;
	struct {			/* checks mid-run (slabsim run --check-interval) */
		uint64_t every;		/* cycles between them; 0: none */
		uint64_t due;		/* the next one, in simulated cycles */
		uint64_t every_ops;	/* or slab operations between them; 0: none */
		uint64_t ops, due_ops;	/* slab operations so far, the next check's */
		uint64_t done;		/* made so far */
		uint64_t longest_wait;	/* cycles the longest waited for idle allocators */
	} check;
	bool violated;			/* an invariant failed */
	char violation[1024];
};

/* The kernel's own parameters (kernel=, spinlock=, scheduler tunables). */
extern const struct param_def kernel_param_defs[];

/* Apply the presets of kernel=VERSION (e.g. the lock kind) to `ps`. */
int kernel_presets(struct param_set *ps, struct sim_err *err);

/* Why allocations have failed so far, for a message: the injected failures
 * (failslab, fail_page_alloc) and the page allocator's own (into buf). */
const char *kernel_alloc_failures(const struct kernel *k, char *buf, size_t size);

/* Parse "2.6.25" (or "2.6.25-rc5") into 20625. */
int kernel_version_code(const char *v);

/* The release candidate a version names: 5 for "2.6.25-rc5", 0 for a release. */
int kernel_release_candidate(const char *v);

/* Whether `era`/`rc` has the scheduler work merged for 2.6.25-rc7 (March
 * 2008, after the hackbench and volanomark reports of 2.6.25-rc5): socket
 * wake-ups are sync (6f3d09291b4, sock_def_readable), sync wake-ups are
 * affine by avg_overlap (4ae7d5cefd4, wake_affine) instead of by a cold
 * wakee (task_hot), and the wake-up granularity is 5 ms (74e3cd7f480).
 * 2.6.24 and 2.6.25-rc1..rc6 have none of them. */
static inline bool kernel_has_2625rc7_sched(int era, int rc)
{
	return era > 20625 || (era == 20625 && (rc == 0 || rc >= 7));
}

int kernel_init(struct kernel *k, struct engine *eng, struct hw *hw,
		const struct machine *m, const struct param_set *params,
		const struct slab_policy *policy, const struct param_set *policy_params,
		struct sim_err *err);
void kernel_destroy(struct kernel *k);

/* Every cache of the run exists (the boot caches and the workload's): the
 * policy's init_done checks and applies what names them. */
int kernel_caches_ready(struct kernel *k, struct sim_err *err);

/* Record a broken invariant (the first one wins) and stop the run. */
void kernel_violation(struct kernel *k, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Snapshot CPU time and the profile at the start / end of the workload's
 * measured window (called by the workload from its task). */
void kernel_mark(struct kernel *k, bool start);

/* Every check the kernel and its policy can make; 0 if all hold. */
int kernel_check(struct kernel *k, struct sim_err *err);

/* The same, mid-run when at_end is false: while tasks sleep outside the
 * allocator, but other CPUs may still hold scheduler locks. */
int kernel_check_state(struct kernel *k, bool at_end, struct sim_err *err);

/* Check every invariant mid-run every `cycles` (0: only at the end). */
void kernel_check_every(struct kernel *k, uint64_t cycles);

/* A check due (kernel_check_every) is made as a CPU leaves the slab
 * allocator, once no allocator is half-way: no event is added, so the run
 * is the same as one without checks. */
void kernel_check_due(struct kernel *k, struct sim_cpu *cpu);

/* Checks every `ops` slab operations (allocations and frees) instead,
 * or as well: a design's bug shows at the same operation on every machine. */
void kernel_check_every_ops(struct kernel *k, uint64_t ops);

static inline void kernel_check_if_due(struct kernel *k, struct sim_cpu *cpu)
{
	if (__builtin_expect(k->check.every && cpu->clock >= k->check.due, 0))
		kernel_check_due(k, cpu);
	else if (__builtin_expect(k->check.every_ops != 0, 0) &&
		 ++k->check.ops >= k->check.due_ops)
		kernel_check_due(k, cpu);
}

static inline struct sim_cpu *task_cpu(const struct task *t)
{
	return &t->k->eng->cpus[t->cpu];
}

#endif
