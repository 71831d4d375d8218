/* trace.c - replay of a captured kmem trace: each traced CPU's stream of
 * kmalloc, kmem_cache_alloc, kfree and kmem_cache_free runs in a kthread
 * pinned to the simulated CPU cpu_map= gives it, in file order, either at the
 * recorded times (pace=recorded: the gaps are idle) or back to back
 * (pace=asap). A free waits until its object's allocation, which may be on
 * another stream, has been replayed. Objects the trace frees but never
 * allocated were allocated before the capture: they are allocated before the
 * replay starts. Objects never freed stay allocated, as on the traced
 * machine. Every line of the file is replayed or reported with its number. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/slab.h"
#include "kernel/slab_policy.h"
#include "trace_load.h"
#include "trace_replay.h"
#include "workload.h"

static const struct param_def trace_params[] = {
	{ "file", PT_STR, "", 0, 0, NULL,
	  "the trace: /sys/kernel/tracing/trace text, trace-cmd report or perf script output" },
	{ "cpu_map", PT_STR, "modulo", 0, 0, NULL,
	  "traced CPU -> simulated CPU: modulo, identity, spread, or a list 0,4,8 / 0:0,1:4" },
	{ "pace", PT_ENUM, "recorded", 0, 0, "recorded|asap",
	  "issue events at their recorded times (gaps idle) or as fast as possible" },
	{ "strict", PT_BOOL, "0", 0, 0, NULL,
	  "refuse (exit 2) a trace with unparsable lines, NULL, unknown or double frees" },
	{ "touch_lines", PT_INT, "1", 0, 64, NULL,
	  "cache lines of each new object the caller writes (its initialisation)" },
	{ NULL },
};

struct replay_stream {
	struct trace_replay *tr;
	int trace_cpu, cpu;
	uint32_t *ops;			/* indices into tr->t.ops, in file order */
	uint32_t nops;
};

struct trace_replay {
	struct kernel *k;
	struct trace t;
	bool asap;
	int touch_lines;
	kaddr_t *addr;			/* per object: its simulated address, 0 if none yet */
	uint8_t *alloc_done;		/* per object: its allocation was replayed (or failed) */
	struct kmem_cache **cache;	/* per trace cache */
	uint16_t *site;			/* per call site: its kmem site */
	int ntrace_cpus;
	struct replay_stream *streams;
	int nstreams;
	uint64_t start, stop, max_lag;
	bool done;
	uint64_t replayed[TR_NKINDS];
	uint64_t failed_allocs, waits, preallocated;
	uint64_t *cache_allocs, *cache_frees;	/* by simulated cache id, replayed ops */
	int ncache_books;
};

/* The simulated cache of a trace object (NULL: a kmalloc too big for one). */
static struct kmem_cache *obj_cache(struct trace_replay *tr, const struct trace_obj *o)
{
	if (o->cache == TRACE_KMALLOC)
		return kmalloc_slab(tr->k, o->bytes_req ? o->bytes_req : 1);
	return tr->cache[o->cache];
}

/* Allocate object `id` on this CPU, the way its event says. */
static kaddr_t replay_alloc(struct trace_replay *tr, struct sim_cpu *cpu, uint32_t id)
{
	const struct trace_obj *o = &tr->t.objs[id];
	size_t size = o->bytes_req ? o->bytes_req : 1;	/* kmalloc(0): smallest class */
	kaddr_t p = o->cache == TRACE_KMALLOC ? __kmalloc(tr->k, cpu, size, o->gfp)
					       : kmem_cache_alloc(tr->k, cpu, tr->cache[o->cache], o->gfp);
	if (p && tr->touch_lines)
		slab_obj_touch(tr->k, cpu, p, tr->touch_lines, true);
	return p;
}

/* Free object `id` the way its event says. */
static void replay_free(struct trace_replay *tr, struct sim_cpu *cpu, uint32_t id, int kind)
{
	const struct trace_obj *o = &tr->t.objs[id];
	kaddr_t p = tr->addr[id];
	tr->addr[id] = 0;
	if (kind == TR_CACHE_FREE && o->cache != TRACE_KMALLOC)
		kmem_cache_free(tr->k, cpu, tr->cache[o->cache], p);
	else
		kfree(tr->k, cpu, p);
}

/* Count a replayed op against the simulated cache it used. */
static void book_cache(struct trace_replay *tr, uint32_t id, bool alloc)
{
	struct kmem_cache *c = obj_cache(tr, &tr->t.objs[id]);
	int i = c ? c->id : tr->ncache_books - 1;	/* the last row: kmalloc_large */
	if (i >= tr->ncache_books - 1 && c)
		return;
	(alloc ? tr->cache_allocs : tr->cache_frees)[i]++;
}

/* Wait (idle, polling each microsecond) until another stream has allocated
 * the object this stream frees. */
static void wait_for_alloc(struct task *t, struct trace_replay *tr, uint32_t id)
{
	uint64_t us = (uint64_t)(t->k->m->ghz * 1e3);
	for (;;) {
		cpu_sync(task_cpu(t));
		if (tr->alloc_done[id])
			return;
		tr->waits++;
		schedule_timeout_until(t, task_cpu(t)->clock + us);
	}
}

/* One traced CPU's stream. */
static void replay_stream_fn(struct task *t, void *arg)
{
	struct replay_stream *s = arg;
	struct trace_replay *tr = s->tr;
	double cyc_per_ns = tr->k->m->ghz;
	for (uint32_t i = 0; i < s->nops; i++) {
		const struct trace_op *op = &tr->t.ops[s->ops[i]];
		if (!tr->asap) {
			uint64_t rel = op->ts_ns > tr->t.first_ts_ns ?	/* clocks can step back */
				op->ts_ns - tr->t.first_ts_ns : 0;
			uint64_t at = tr->start + (uint64_t)((double)rel * cyc_per_ns);
			uint64_t now = task_cpu(t)->clock;
			if (now > at && now - at > tr->max_lag)
				tr->max_lag = now - at;
			schedule_timeout_until(t, at);
		}
		struct sim_cpu *cpu = task_cpu(t);
		tr->k->kmem.cpu_site[cpu->id] = tr->site[op->site];
		if (op->kind == TR_KMALLOC || op->kind == TR_CACHE_ALLOC) {
			kaddr_t p = replay_alloc(tr, cpu, op->obj);
			cpu_sync(cpu);	/* published: another stream may free it */
			tr->alloc_done[op->obj] = 1;
			if (p) {
				tr->addr[op->obj] = p;
				book_cache(tr, op->obj, true);
			} else {
				tr->failed_allocs++;
			}
		} else if (op->obj == TRACE_NO_OBJ) {
			kfree(tr->k, cpu, 0);	/* kfree(NULL): returns at once */
		} else {
			const struct trace_obj *o = &tr->t.objs[op->obj];
			if (!tr->alloc_done[op->obj] && !o->preexisting) {
				tr->k->kmem.cpu_site[cpu->id] = KMEM_SITE_NONE;
				wait_for_alloc(t, tr, op->obj);
				cpu = task_cpu(t);
				tr->k->kmem.cpu_site[cpu->id] = tr->site[op->site];
			}
			if (tr->addr[op->obj]) {
				book_cache(tr, op->obj, false);
				replay_free(tr, cpu, op->obj, op->kind);
			}
		}
		tr->k->kmem.cpu_site[cpu->id] = KMEM_SITE_NONE;
		tr->replayed[op->kind]++;
		sched_preempt_point(t);
	}
}

/* The parent: allocate what was allocated before the capture, start the
 * streams, wait for them. */
static void replay_parent(struct task *t, void *arg)
{
	struct trace_replay *tr = arg;
	struct kernel *k = tr->k;
	for (uint32_t i = 0; i < tr->t.nobjs; i++)
		if (tr->t.objs[i].preexisting) {
			tr->addr[i] = replay_alloc(tr, task_cpu(t), i);
			tr->alloc_done[i] = 1;
			tr->preallocated++;
		}
	tr->start = task_cpu(t)->clock;
	kernel_mark(k, true);
	for (int i = 0; i < tr->nstreams; i++)
		task_create_pinned(&k->sched, t, replay_stream_fn, &tr->streams[i], "replay",
				   NULL, tr->streams[i].cpu);
	wait_for_children(t);
	tr->stop = task_cpu(t)->clock;
	kernel_mark(k, false);
	tr->done = true;
}

/* Message for strict=1: the first problem and the counts. */
static int strict_refusal(const struct trace *t, struct sim_err *err)
{
	for (uint32_t i = 0; i < t->ndiags; i++) {
		const struct trace_diag *d = &t->diags[i];
		if (d->problem == TP_OTHER_EVENT)
			continue;
		return sim_fail(err, "%s:%u: %s (strict=1; %llu unparsable, %llu kfree(NULL), "
				"%llu unknown and %llu double frees, %llu reallocations of a live "
				"pointer)", t->path, d->line,
				d->problem == TP_UNPARSABLE && t->first_bad[0] ? t->first_bad
				: trace_problem_name(d->problem),
				(unsigned long long)t->problems[TP_UNPARSABLE],
				(unsigned long long)t->problems[TP_NULL_FREE],
				(unsigned long long)t->problems[TP_UNKNOWN_FREE],
				(unsigned long long)t->problems[TP_DOUBLE_FREE],
				(unsigned long long)t->problems[TP_LIVE_REALLOC]);
	}
	return 0;
}

/* The caches the trace names: reuse the kernel's of that name, else create. */
static int make_caches(struct trace_replay *tr, struct sim_err *err)
{
	struct kernel *k = tr->k;
	tr->cache = calloc(tr->t.ncaches + 1, sizeof(*tr->cache));
	if (!tr->cache)
		return sim_fail(err, "out of memory");
	for (uint32_t i = 0; i < tr->t.ncaches; i++) {
		const struct trace_cache *tc = &tr->t.caches[i];
		for (int j = 0; j < k->ncaches && !tr->cache[i]; j++)
			if (!strcmp(k->caches[j]->name, tc->name))
				tr->cache[i] = k->caches[j];
		if (!tr->cache[i] && tc->size > (1u << 22))
			return sim_fail(err, "%s: cache %s: objects of %u bytes are larger than "
					"any slab (4 MiB)", tr->t.path, tc->name, tc->size);
		if (!tr->cache[i])
			tr->cache[i] = kmem_cache_create(k, tc->name, tc->size ? tc->size : 8, 0, 0,
							 err);
		if (!tr->cache[i])
			return -1;
	}
	return 0;
}

/* One stream per traced CPU with events, on the CPU the map gives it. */
static int make_streams(struct trace_replay *tr, const char *map_spec, struct sim_err *err)
{
	int ntrace = tr->t.max_cpu + 1;
	bool *used = calloc((size_t)ntrace + 1, sizeof(*used));
	int *map = calloc((size_t)ntrace + 1, sizeof(*map));
	uint32_t *count = calloc((size_t)ntrace + 1, sizeof(*count));
	tr->streams = calloc((size_t)ntrace + 1, sizeof(*tr->streams));
	int rc = -1;
	if (!used || !map || !count || !tr->streams) {
		sim_fail(err, "out of memory");
		goto out;
	}
	for (uint32_t i = 0; i < tr->t.nops; i++) {
		used[tr->t.ops[i].cpu] = true;
		count[tr->t.ops[i].cpu]++;
	}
	if (trace_cpu_map(map_spec, map, ntrace, tr->k->eng->ncpus, used, err) < 0)
		goto out;
	int *stream_of = map;	/* reuse: trace CPU -> stream index after this */
	for (int c = 0; c < ntrace; c++) {
		if (!used[c])
			continue;
		struct replay_stream *s = &tr->streams[tr->nstreams];
		*s = (struct replay_stream){ .tr = tr, .trace_cpu = c, .cpu = map[c] };
		s->ops = malloc(((size_t)count[c] + 1) * sizeof(*s->ops));
		if (!s->ops) {
			sim_fail(err, "out of memory");
			goto out;
		}
		stream_of[c] = tr->nstreams++;
	}
	for (int c = 0; c < ntrace; c++)
		if (!used[c])
			stream_of[c] = -1;
	for (uint32_t i = 0; i < tr->t.nops; i++) {
		struct replay_stream *s = &tr->streams[stream_of[tr->t.ops[i].cpu]];
		s->ops[s->nops++] = i;
	}
	tr->ntrace_cpus = ntrace;
	rc = 0;
out:
	free(used);
	free(map);
	free(count);
	return rc;
}

static void trace_destroy(void *state);

/* Load the trace (strict=1 refuses one with problems), then its sites, caches and streams,
 * and the replaying parent task. */
static int trace_start(struct kernel *k, const struct param_set *ps, void **state,
		       struct sim_err *err)
{
	const char *file = param_str(ps, "file");
	if (!*file)
		return sim_fail(err, "trace: file= is required (a kmem trace, e.g. "
				"-w 'trace file=kmem.log')");
	struct trace_replay *tr = calloc(1, sizeof(*tr));
	if (!tr)
		return sim_fail(err, "out of memory");
	tr->k = k;
	tr->asap = !strcmp(param_str(ps, "pace"), "asap");
	tr->touch_lines = (int)param_int(ps, "touch_lines");
	*state = tr;
	if (trace_load(file, &tr->t, err) < 0)
		goto fail;
	if (param_bool(ps, "strict") && strict_refusal(&tr->t, err) < 0)
		goto fail;
	tr->addr = calloc(tr->t.nobjs + 1, sizeof(*tr->addr));
	tr->alloc_done = calloc(tr->t.nobjs + 1, sizeof(*tr->alloc_done));
	tr->site = malloc((tr->t.nsites + 1) * sizeof(*tr->site));
	if (!tr->addr || !tr->alloc_done || !tr->site) {
		sim_fail(err, "out of memory");
		goto fail;
	}
	for (uint32_t i = 0; i < tr->t.nsites; i++)
		tr->site[i] = kmem_site_named(&k->kmem, tr->t.sites[i]);
	if (make_caches(tr, err) < 0 || make_streams(tr, param_str(ps, "cpu_map"), err) < 0)
		goto fail;
	tr->ncache_books = k->ncaches + 1;
	tr->cache_allocs = calloc((size_t)tr->ncache_books, sizeof(uint64_t));
	tr->cache_frees = calloc((size_t)tr->ncache_books, sizeof(uint64_t));
	if (!tr->cache_allocs || !tr->cache_frees) {
		sim_fail(err, "out of memory");
		goto fail;
	}
	task_create(&k->sched, NULL, replay_parent, tr, "replay", NULL, 0);
	return 0;
fail:
	trace_destroy(tr);
	*state = NULL;
	return -1;
}

/* The line numbers of the first `max` problems of kind p, as JSON. */
static cJSON *problem_lines(const struct trace *t, enum trace_problem p, int max)
{
	cJSON *a = cJSON_CreateArray();
	for (uint32_t i = 0, n = 0; i < t->ndiags && (int)n < max; i++)
		if (t->diags[i].problem == p) {
			cJSON_AddItemToArray(a, cJSON_CreateNumber(t->diags[i].line));
			n++;
		}
	return a;
}

/* `Replayed N events in S s`; counts by kind, problems with their lines, per-cache counts and
 * objects left live in the JSON. */
static void trace_result(void *state, struct workload_result *r)
{
	struct trace_replay *tr = state;
	double hz = tr->k->m->ghz * 1e9;
	uint64_t events = 0;
	for (int i = 0; i < TR_NKINDS; i++)
		events += tr->replayed[i];
	r->finished = tr->done;
	r->sim_seconds = tr->done ? (double)(tr->stop - tr->start) / hz : 0;
	snprintf(r->line, sizeof(r->line), "Replayed %llu events in %.6f s (%s)",
		 (unsigned long long)events, r->sim_seconds, tr->asap ? "as fast as possible" : "as recorded");
	cJSON *x = r->extra = cJSON_CreateObject();
	cJSON_AddStringToObject(x, "file", tr->t.path);
	cJSON_AddNumberToObject(x, "lines", tr->t.nlines);
	cJSON_AddNumberToObject(x, "header_lines", tr->t.header_lines);
	cJSON_AddNumberToObject(x, "events", (double)events);
	if (r->sim_seconds > 0)
		cJSON_AddNumberToObject(x, "events_per_second", (double)events / r->sim_seconds);
	cJSON *rep = cJSON_AddObjectToObject(x, "replayed");
	for (int i = 0; i < TR_NKINDS; i++)
		cJSON_AddNumberToObject(rep, trace_kind_name(i), (double)tr->replayed[i]);
	cJSON *pr = cJSON_AddObjectToObject(x, "problems");
	for (int p = 0; p < TP_NPROBLEMS; p++) {
		cJSON *o = cJSON_AddObjectToObject(pr, trace_problem_name(p));
		cJSON_AddNumberToObject(o, "count", (double)tr->t.problems[p]);
		cJSON_AddItemToObject(o, "lines", problem_lines(&tr->t, p, 1000));
	}
	cJSON *caches = cJSON_AddArrayToObject(x, "caches");
	for (int i = 0; i < tr->ncache_books; i++) {
		if (!tr->cache_allocs[i] && !tr->cache_frees[i])
			continue;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", i < tr->ncache_books - 1 ?
					tr->k->caches[i]->name : "kmalloc_large");
		cJSON_AddNumberToObject(o, "allocs", (double)tr->cache_allocs[i]);
		cJSON_AddNumberToObject(o, "frees", (double)tr->cache_frees[i]);
		cJSON_AddItemToArray(caches, o);
	}
	uint64_t live = 0;
	for (uint32_t i = 0; i < tr->t.nobjs; i++)
		live += tr->addr && tr->addr[i] != 0;
	cJSON_AddNumberToObject(x, "live_at_end", (double)live);
	cJSON_AddNumberToObject(x, "preallocated", (double)tr->preallocated);
	cJSON_AddNumberToObject(x, "failed_allocs", (double)tr->failed_allocs);
	cJSON_AddNumberToObject(x, "streams", tr->nstreams);
	cJSON_AddNumberToObject(x, "max_lag_seconds", (double)tr->max_lag / hz);
}

/* The replay's own lines: what was replayed, and each problem with lines. */
static void trace_print(void *state, FILE *out, const struct wl_published *published)
{
	struct trace_replay *tr = state;
	const struct trace *t = &tr->t;
	fprintf(out, "%s: %u lines: %llu kmalloc, %llu kmem_cache_alloc, %llu kfree, "
		"%llu kmem_cache_free replayed on %d stream(s); %u header lines\n", t->path,
		t->nlines, (unsigned long long)tr->replayed[TR_KMALLOC],
		(unsigned long long)tr->replayed[TR_CACHE_ALLOC],
		(unsigned long long)tr->replayed[TR_KFREE],
		(unsigned long long)tr->replayed[TR_CACHE_FREE], tr->nstreams, t->header_lines);
	for (int p = 0; p < TP_NPROBLEMS; p++) {
		if (!t->problems[p])
			continue;
		fprintf(out, "  %llu x %s: line", (unsigned long long)t->problems[p],
			trace_problem_name(p));
		int shown = 0;
		for (uint32_t i = 0; i < t->ndiags && shown < 10; i++)
			if (t->diags[i].problem == p)
				fprintf(out, "%s %u", shown++ ? "," : "", t->diags[i].line);
		fprintf(out, "%s\n", t->problems[p] > 10 ? ", ... (all in the JSON)" : "");
	}
	if (t->first_bad[0])
		fprintf(out, "  first unparsable: %s\n", t->first_bad);
	uint64_t live = 0;
	for (uint32_t i = 0; i < t->nobjs; i++)
		live += tr->addr[i] != 0;
	fprintf(out, "  %llu objects allocated before the capture, %llu never freed in it "
		"(left allocated)\n", (unsigned long long)tr->preallocated,
		(unsigned long long)live);
	if (tr->failed_allocs)
		fprintf(out, "  %llu allocations failed (NULL: bigger than the largest kmalloc, or out "
			"of memory); their frees were skipped\n", (unsigned long long)tr->failed_allocs);
}

/* Every event read was replayed, kind by kind. */
static int trace_check(void *state, struct sim_err *err)
{
	struct trace_replay *tr = state;
	for (int i = 0; tr->done && i < TR_NKINDS; i++)
		if (tr->replayed[i] != tr->t.kind_count[i])
			return sim_fail(err, "trace: %llu %s events replayed of %llu read",
					(unsigned long long)tr->replayed[i], trace_kind_name(i),
					(unsigned long long)tr->t.kind_count[i]);
	return 0;
}

/* `trace FILE`: the one word is the file. */
static int trace_parse_cmdline(struct param_set *ps, int argc, char **argv, struct sim_err *err)
{
	if (argc > 2)
		return sim_fail(err, "trace: unexpected argument '%s' (usage: trace FILE "
				"[cpu_map=..] [pace=recorded|asap] [strict=1])", argv[2]);
	return argc == 2 ? params_set(ps, "file", argv[1], true, err) : 0;
}

/* Free the streams, the per-object and per-cache books and the loaded trace; NULL is fine. */
static void trace_destroy(void *state)
{
	struct trace_replay *tr = state;
	if (!tr)
		return;
	for (int i = 0; tr->streams && i < tr->nstreams; i++)
		free(tr->streams[i].ops);
	free(tr->streams);
	free(tr->addr);
	free(tr->alloc_done);
	free(tr->cache);
	free(tr->site);
	free(tr->cache_allocs);
	free(tr->cache_frees);
	trace_free(&tr->t);
	free(tr);
}

const struct workload trace_workload = {
	.name = "trace",
	.description = "replay a captured kmem trace (ftrace text, trace-cmd report, perf script)",
	.usage = "trace FILE [cpu_map=modulo|identity|spread|LIST] [pace=recorded|asap] [strict=1]",
	.params = trace_params,
	.parse_cmdline = trace_parse_cmdline,
	.start = trace_start,
	.result = trace_result,
	.check = trace_check,
	.print = trace_print,
	.destroy = trace_destroy,
};
