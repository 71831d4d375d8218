/* trace_load.h - reading a captured kmem trace (ftrace's trace file, the
 * output of `trace-cmd report`, or of `perf script`) into the operations a
 * replay performs: each allocation becomes an object, and each free names
 * the object it frees (matched by pointer), so a replay never depends on
 * the addresses of the machine that was traced. Every line is accounted
 * for: replayed, a header/comment line, or a problem with its line number.
 * Pure data: no simulated kernel is involved. */
#ifndef SIM_TRACE_LOAD_H
#define SIM_TRACE_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/error.h"
#include "kernel/gfp.h"

/* The four kmem events replayed (the _node variants map onto the first two). */
enum trace_kind { TR_KMALLOC, TR_CACHE_ALLOC, TR_KFREE, TR_CACHE_FREE, TR_NKINDS };

/* One event line, as parsed. */
struct trace_event {
	enum trace_kind kind;
	bool node_variant;		/* kmalloc_node / kmem_cache_alloc_node */
	int cpu;			/* the [CPU] column */
	int pid;
	uint64_t ts_ns;			/* the timestamp, in nanoseconds */
	uint64_t ptr;			/* 0 for "(null)" */
	uint32_t bytes_req, bytes_alloc;	/* allocations only */
	int node;			/* node=, or -1 */
	gfp_t gfp;			/* gfp_flags=, as the model's flags (GFP_KERNEL if absent) */
	char comm[16];			/* the task's name, truncated */
	char call_site[64];		/* as printed: "c104dd2f", "__alloc_skb+0x4f/0x1f0" */
	char name[32];			/* name= (the cache), or "" */
};

enum trace_line_kind {
	TRACE_LINE_EVENT,		/* one of the four kmem events: *ev is filled */
	TRACE_LINE_HEADER,		/* blank, '#' comment, trace-cmd/perf header */
	TRACE_LINE_OTHER,		/* a well-formed line of another event (why: its name) */
	TRACE_LINE_BAD,			/* unparsable (why: what is wrong) */
};

/* Parse one line (no newline needed; `len` bytes, not NUL-terminated).
 * Never reads past len. `why` receives a short reason for OTHER and BAD. */
enum trace_line_kind trace_parse_line(const char *line, size_t len, struct trace_event *ev,
				      char *why, size_t whylen);

/* What is wrong with a line, or what was assumed to replay it. */
enum trace_problem {
	TP_UNPARSABLE,		/* not replayed */
	TP_OTHER_EVENT,		/* not a kmem alloc/free event: not replayed */
	TP_NULL_FREE,		/* kfree(NULL): replayed as the no-op call it is */
	TP_UNKNOWN_FREE,	/* free of a pointer never allocated in the trace:
				 * replayed on an object allocated before the replay
				 * (it was allocated before the capture started) */
	TP_DOUBLE_FREE,		/* free of a pointer already freed: not replayed */
	TP_LIVE_REALLOC,	/* allocation of a pointer that is live: its free was
				 * not captured; replayed, the old object stays live */
	TP_NPROBLEMS
};

/* One replayed operation, in file order. */
struct trace_op {
	uint32_t line;		/* 1-based line number in the file */
	uint8_t kind;		/* enum trace_kind */
	uint16_t cpu;		/* the trace's CPU */
	uint32_t obj;		/* index into objs; TRACE_NO_OBJ for kfree(NULL) */
	uint32_t site;		/* index into sites (the call site) */
	uint64_t ts_ns;
};
#define TRACE_NO_OBJ UINT32_MAX

/* One object's life: allocated once (or before the replay), freed at most once. */
struct trace_obj {
	uint32_t cache;		/* index into caches; TRACE_KMALLOC for kmalloc */
	uint32_t bytes_req, bytes_alloc;
	gfp_t gfp;		/* its allocation's flags */
	bool preexisting;	/* allocated before the capture (an unknown free) */
	bool freed;		/* a free of it is in the trace */
};
#define TRACE_KMALLOC UINT32_MAX

/* A kmem_cache of the trace: by name= when the trace has it, otherwise one
 * per bytes_alloc of kmem_cache_alloc events, named "cache-<bytes_alloc>". */
struct trace_cache {
	char name[32];
	uint32_t size;		/* object size: bytes_req when named, else bytes_alloc */
};

struct trace_diag {
	uint32_t line;
	uint8_t problem;	/* enum trace_problem */
};

struct trace {
	char path[256];
	uint32_t nlines;
	uint32_t header_lines;
	struct trace_op *ops;
	uint32_t nops;
	struct trace_obj *objs;
	uint32_t nobjs;
	struct trace_cache *caches;
	uint32_t ncaches;
	char (*sites)[64];	/* call sites, as printed */
	uint32_t nsites;
	struct trace_diag *diags;	/* every problem, in line order */
	uint32_t ndiags;
	uint64_t problems[TP_NPROBLEMS];
	uint64_t kind_count[TR_NKINDS];	/* events of each kind replayed */
	int max_cpu;		/* the highest [CPU] of a replayed event, -1 if none */
	uint64_t first_ts_ns;	/* of the first replayed event */
	char first_bad[160];	/* the first unparsable line's reason, for messages */
};

/* Read and match a whole trace file. -1 with a message (naming the file)
 * if it cannot be read or holds no kmem event at all; problems in lines
 * are not errors here (strict= decides). */
int trace_load(const char *path, struct trace *tr, struct sim_err *err);

/* The same from memory (tests); `name` is used in messages. */
int trace_load_text(const char *name, const char *text, size_t len, struct trace *tr,
		    struct sim_err *err);

void trace_free(struct trace *tr);

/* "kfree(NULL)", "free of a pointer never allocated", ... */
const char *trace_problem_name(enum trace_problem p);
/* "kmalloc", "kmem_cache_alloc", "kfree", "kmem_cache_free" */
const char *trace_kind_name(enum trace_kind k);

#endif
