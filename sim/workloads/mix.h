/* mix.h - the cache-mix engine shared by the workloads `mix` (a JSON
 * description) and `kbuild` (a built-in one): pinned tasks that allocate
 * from a set of caches as a Poisson process, keep each object for a drawn
 * lifetime, and free it themselves or hand it to a task on another CPU or
 * node, which frees it when it is due. */
#ifndef SIM_MIX_H
#define SIM_MIX_H

#include <stdio.h>

#include "mix_spec.h"
#include "workload.h"

/* Who frees an object. */
enum mix_how {
	MIX_LOCAL,		/* the allocating task */
	MIX_REMOTE_CPU,		/* a task on another CPU of the node */
	MIX_REMOTE_NODE,	/* a task on another node */
	MIX_UNAVAILABLE,	/* meant for another CPU or node, but no task was
				 * there (or it had finished): freed locally */
	MIX_NHOW
};

/* One object waiting to be freed. */
struct mix_obj {
	uint64_t due;		/* simulated time it is freed at (or after) */
	kaddr_t obj;
	uint16_t cache;
	uint8_t how;
};

/* An array of objects: a min-heap by due time, or an inbox in order. */
struct mix_objs {
	struct mix_obj *v;
	int n, cap;
};

struct mix;

struct mix_task {
	struct mix *mx;
	int idx, cpu, node;
	struct mix_objs pending;	/* private: its objects, by due time */
	struct mix_objs inbox;		/* shared: objects handed to it */
	struct hw_line inbox_line;	/* the llist head hand-offs are added to */
	bool done;			/* stopped; hand-offs go back to the sender */
};

struct mix_cache {
	const struct mix_cache_spec *spec;
	struct kmem_cache *kc;		/* NULL: __kmalloc(spec->size) */
	bool created;			/* kc is ours, not a cache the kernel had */
	double cum;			/* cumulative share of the allocations */
	uint64_t allocs, frees[MIX_NHOW];
};

/* The names a workload gives its runs. */
struct mix_names {
	const char *workload;		/* task comm and messages: "mix" */
	const char *line;		/* the result line's first word: "Mix" */
	const char *user_sym;		/* profile symbol of the code between allocations */
};

struct mix {
	struct kernel *k;
	struct mix_spec spec;
	const struct mix_names *names;
	int ntasks;
	double duration_ms;
	struct mix_task *task;
	int *by_node;			/* task indices by node, then CPU */
	int *node_start, *node_count;	/* per node: its run of by_node */
	int *cpu_start, *cpu_count;	/* per CPU: its run of by_node */
	int ncaches;
	struct mix_cache cache[MIX_MAX_CACHES];
	double think_mean;		/* cycles between allocations */
	double cycles_per_us;
	uint64_t end;			/* tasks stop allocating then */
	int sym_user, sym_llist_add, sym_llist_del;
	int finished;			/* tasks done */
	uint64_t live;			/* objects held by the tasks */
	uint64_t alloc_failures;
};

/* Create (or find) the caches of `spec` (read from `who`, which messages
 * name), place `tasks` tasks (0: the spec's, else one per CPU) and start
 * them; they allocate for `duration_ms` simulated milliseconds. */
int mix_start(struct kernel *k, const struct mix_spec *spec, const char *who, int tasks,
	      double duration_ms, const struct mix_names *names, void **state,
	      struct sim_err *err);

/* The workload hooks both workloads share (mix_report.c). */
void mix_result(void *state, struct workload_result *r);
int mix_check(void *state, struct sim_err *err);
void mix_print(void *state, FILE *out, const struct wl_published *published);
void mix_destroy(void *state);

#endif
