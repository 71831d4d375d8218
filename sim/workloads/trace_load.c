/* trace_load.c - a whole kmem trace into replayable operations: every line
 * is parsed (trace_parse.c), allocations become objects, frees are matched
 * to the live object of their pointer, and every line ends up replayed, a
 * header, or a problem with its line number. Frees of pointers allocated
 * before the capture get an object "preexisting" whose cache is inferred
 * from the objects of the same slab page. Open-addressing hash tables keep
 * each line O(1). */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/json_in.h"
#include "workloads/trace_load.h"

#define PAGE_SHIFT 12
/* What an unknown free is taken to be when no object of its page is known:
 * a kmalloc of 64 bytes (a common small size; the replay only needs some
 * object to free). */
#define UNKNOWN_SIZE 64
#define EMPTY_IDX UINT32_MAX

/* uint64 key (never 0) -> uint32 value. */
struct u64map {
	uint64_t *keys;
	uint32_t *vals;
	size_t cap;		/* a power of two, or 0 */
	size_t n;
	unsigned bits;
};

/* String -> index into an array of strings held elsewhere. */
struct strmap {
	struct strslot {
		uint32_t hash, idx;	/* idx EMPTY_IDX: free slot */
	} *slots;
	size_t cap, n;
};

/* A free of a pointer never allocated, its object's cache to infer. */
struct pending {
	uint64_t ptr;
	uint32_t obj;
	bool named;		/* kmem_cache_free with name= */
};

struct loader {
	struct trace *tr;
	struct u64map ptrs;	/* pointer -> its latest object */
	struct u64map pages;	/* (ptr >> PAGE_SHIFT) + 1 -> first object allocated there */
	struct strmap sites, cache_names;
	struct pending *pending;
	uint32_t npending, pending_cap;
	uint32_t ops_cap, objs_cap, diags_cap, caches_cap, sites_cap;
	char first_problem[200];	/* "line N: ...", for the no-event message */
};

/* Fibonacci hashing: pointers differ in their middle bits. */
static size_t u64_slot(const struct u64map *m, uint64_t key)
{
	return (size_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - m->bits));
}

/* The slot holding key, or the free slot where it would go. */
static size_t u64map_find(const struct u64map *m, uint64_t key)
{
	size_t i = u64_slot(m, key);
	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* The value of key, if present. */
static bool u64map_get(const struct u64map *m, uint64_t key, uint32_t *val)
{
	size_t i;
	if (!m->cap)
		return false;
	i = u64map_find(m, key);
	if (!m->keys[i])
		return false;
	*val = m->vals[i];
	return true;
}

/* Double the table (from 64 slots), rehashing; -1 if out of memory. */
static int u64map_grow(struct u64map *m)
{
	struct u64map g = { .bits = m->cap ? m->bits + 1 : 6 };
	g.cap = (size_t)1 << g.bits;
	g.keys = calloc(g.cap, sizeof(*g.keys));
	g.vals = malloc(g.cap * sizeof(*g.vals));
	if (!g.keys || !g.vals) {
		free(g.keys);
		free(g.vals);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (m->keys[i]) {
			size_t j = u64map_find(&g, m->keys[i]);
			g.keys[j] = m->keys[i];
			g.vals[j] = m->vals[i];
		}
	}
	g.n = m->n;
	free(m->keys);
	free(m->vals);
	*m = g;
	return 0;
}

/* Set key's value (replace = false: only if key is absent); -1 if out of memory. */
static int u64map_put(struct u64map *m, uint64_t key, uint32_t val, bool replace)
{
	size_t i;
	if ((m->n + 1) * 2 > m->cap && u64map_grow(m) < 0)
		return -1;
	i = u64map_find(m, key);
	if (m->keys[i] && !replace)
		return 0;
	if (!m->keys[i])
		m->n++;
	m->keys[i] = key;
	m->vals[i] = val;
	return 0;
}

/* Release a table, leaving it empty. */
static void u64map_free(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

/* FNV-1a of a string. */
static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The index of string s among the strings at base (every `stride` bytes),
 * or EMPTY_IDX. */
static uint32_t strmap_get(const struct strmap *m, const char *base, size_t stride,
			   const char *s, uint32_t h)
{
	if (!m->cap)
		return EMPTY_IDX;
	for (size_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		const struct strslot *sl = &m->slots[i];
		if (sl->idx == EMPTY_IDX)
			return EMPTY_IDX;
		if (sl->hash == h && strcmp(base + (size_t)sl->idx * stride, s) == 0)
			return sl->idx;
	}
}

/* Place (h, idx) in the first free slot of its probe sequence. */
static void strmap_place(struct strmap *m, uint32_t h, uint32_t idx)
{
	size_t i = h & (m->cap - 1);
	while (m->slots[i].idx != EMPTY_IDX)
		i = (i + 1) & (m->cap - 1);
	m->slots[i].hash = h;
	m->slots[i].idx = idx;
}

/* Add a string known to be absent; -1 if out of memory. */
static int strmap_add(struct strmap *m, uint32_t h, uint32_t idx)
{
	if ((m->n + 1) * 2 > m->cap) {
		struct strmap g = { .cap = m->cap ? m->cap * 2 : 64, .n = m->n };
		g.slots = malloc(g.cap * sizeof(*g.slots));
		if (!g.slots)
			return -1;
		for (size_t i = 0; i < g.cap; i++)
			g.slots[i].idx = EMPTY_IDX;
		for (size_t i = 0; i < m->cap; i++)
			if (m->slots[i].idx != EMPTY_IDX)
				strmap_place(&g, m->slots[i].hash, m->slots[i].idx);
		free(m->slots);
		*m = g;
	}
	strmap_place(m, h, idx);
	m->n++;
	return 0;
}

/* Room for one more element in a growing array; NULL (arr kept) if out of
 * memory or the uint32 count is exhausted. */
static void *grow(void *arr, uint32_t *cap, uint32_t n, size_t size)
{
	uint32_t c;
	void *a;
	if (n < *cap)
		return arr;
	if (*cap >= UINT32_MAX / 2)
		return NULL;
	c = *cap ? *cap * 2 : 256;
	a = realloc(arr, (size_t)c * size);
	if (a)
		*cap = c;
	return a;
}

/* A new object; its index, or EMPTY_IDX if out of memory. */
static uint32_t new_obj(struct loader *ld, uint32_t cache, uint32_t req, uint32_t alloc,
			gfp_t gfp, bool preexisting)
{
	struct trace *tr = ld->tr;
	struct trace_obj *o = grow(tr->objs, &ld->objs_cap, tr->nobjs, sizeof(*o));
	if (!o)
		return EMPTY_IDX;
	tr->objs = o;
	o += tr->nobjs;
	o->cache = cache;
	o->bytes_req = req;
	o->bytes_alloc = alloc;
	o->gfp = gfp;
	o->preexisting = preexisting;
	o->freed = false;
	return tr->nobjs++;
}

/* The cache of this name, created with `size` if new (size 0: unknown yet,
 * set by the first allocation that names it); EMPTY_IDX if out of memory. */
static uint32_t cache_get(struct loader *ld, const char *name, uint32_t size)
{
	struct trace *tr = ld->tr;
	uint32_t h = str_hash(name);
	uint32_t i = strmap_get(&ld->cache_names, tr->caches ? tr->caches->name : NULL,
				sizeof(*tr->caches), name, h);
	struct trace_cache *c;
	if (i != EMPTY_IDX) {
		if (!tr->caches[i].size)
			tr->caches[i].size = size;
		return i;
	}
	c = grow(tr->caches, &ld->caches_cap, tr->ncaches, sizeof(*c));
	if (!c)
		return EMPTY_IDX;
	tr->caches = c;
	c += tr->ncaches;
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->size = size;
	if (strmap_add(&ld->cache_names, h, tr->ncaches) < 0)
		return EMPTY_IDX;
	return tr->ncaches++;
}

/* The index of a call site, interned; EMPTY_IDX if out of memory. */
static uint32_t site_get(struct loader *ld, const char *site)
{
	struct trace *tr = ld->tr;
	uint32_t h = str_hash(site);
	uint32_t i = strmap_get(&ld->sites, tr->sites ? tr->sites[0] : NULL, sizeof(*tr->sites),
				site, h);
	char (*s)[64];
	if (i != EMPTY_IDX)
		return i;
	s = grow(tr->sites, &ld->sites_cap, tr->nsites, sizeof(*s));
	if (!s)
		return EMPTY_IDX;
	tr->sites = s;
	snprintf(s[tr->nsites], sizeof(*s), "%s", site);
	if (strmap_add(&ld->sites, h, tr->nsites) < 0)
		return EMPTY_IDX;
	return tr->nsites++;
}

/* Record a problem of a line (diags in line order, as lines come in). */
static int add_diag(struct loader *ld, uint32_t line, enum trace_problem p, const char *why)
{
	struct trace *tr = ld->tr;
	struct trace_diag *d = grow(tr->diags, &ld->diags_cap, tr->ndiags, sizeof(*d));
	if (!d)
		return -1;
	tr->diags = d;
	d[tr->ndiags].line = line;
	d[tr->ndiags].problem = (uint8_t)p;
	tr->ndiags++;
	tr->problems[p]++;
	if (p == TP_UNPARSABLE && !tr->first_bad[0])
		snprintf(tr->first_bad, sizeof(tr->first_bad), "line %u: %s", line, why);
	if (!ld->first_problem[0])
		snprintf(ld->first_problem, sizeof(ld->first_problem), "line %u: %s%s%s", line,
			 p == TP_UNPARSABLE ? "" : trace_problem_name(p),
			 p == TP_UNPARSABLE || !why[0] ? "" : ": ", why);
	return 0;
}

/* Append the replayed operation of an event line. */
static int add_op(struct loader *ld, const struct trace_event *ev, uint32_t line, uint32_t obj)
{
	struct trace *tr = ld->tr;
	uint32_t site = site_get(ld, ev->call_site);
	struct trace_op *op = grow(tr->ops, &ld->ops_cap, tr->nops, sizeof(*op));
	if (site == EMPTY_IDX || !op)
		return -1;
	tr->ops = op;
	op += tr->nops;
	op->line = line;
	op->kind = (uint8_t)ev->kind;
	op->cpu = (uint16_t)ev->cpu;
	op->obj = obj;
	op->site = site;
	op->ts_ns = ev->ts_ns;
	if (!tr->nops++)
		tr->first_ts_ns = ev->ts_ns;
	tr->kind_count[ev->kind]++;
	if (ev->cpu > tr->max_cpu)
		tr->max_cpu = ev->cpu;
	return 0;
}

/* The cache of a kmem_cache_alloc: by name= when printed (size bytes_req),
 * else one per bytes_alloc, "cache-<bytes_alloc>". */
static uint32_t alloc_cache(struct loader *ld, const struct trace_event *ev)
{
	char name[32];
	if (ev->name[0])
		return cache_get(ld, ev->name, ev->bytes_req);
	snprintf(name, sizeof(name), "cache-%u", ev->bytes_alloc);
	return cache_get(ld, name, ev->bytes_alloc);
}

/* An allocation: a new object, also when its pointer is still live (the
 * old object's free was not captured: it stays live). A NULL result (a
 * failed allocation) is replayed but can never be freed. */
static int load_alloc(struct loader *ld, const struct trace_event *ev, uint32_t line)
{
	struct trace *tr = ld->tr;
	uint32_t cache = TRACE_KMALLOC, old, id;
	if (ev->kind == TR_CACHE_ALLOC && (cache = alloc_cache(ld, ev)) == EMPTY_IDX)
		return -1;
	if (ev->ptr && u64map_get(&ld->ptrs, ev->ptr, &old) && !tr->objs[old].freed &&
	    add_diag(ld, line, TP_LIVE_REALLOC, "") < 0)
		return -1;
	id = new_obj(ld, cache, ev->bytes_req, ev->bytes_alloc, ev->gfp, false);
	if (id == EMPTY_IDX)
		return -1;
	if (ev->ptr && (u64map_put(&ld->ptrs, ev->ptr, id, true) < 0 ||
			u64map_put(&ld->pages, (ev->ptr >> PAGE_SHIFT) + 1, id, false) < 0))
		return -1;
	return add_op(ld, ev, line, id);
}

/* A free of a pointer never allocated in the trace: a preexisting object,
 * freed, whose cache is inferred once the whole trace is read. */
static int load_unknown_free(struct loader *ld, const struct trace_event *ev, uint32_t line)
{
	struct trace *tr = ld->tr;
	uint32_t cache = TRACE_KMALLOC, id;
	struct pending *pd;
	if (add_diag(ld, line, TP_UNKNOWN_FREE, "") < 0)
		return -1;
	if (ev->name[0] && (cache = cache_get(ld, ev->name, 0)) == EMPTY_IDX)
		return -1;
	id = new_obj(ld, cache, UNKNOWN_SIZE, UNKNOWN_SIZE, GFP_KERNEL, true);
	if (id == EMPTY_IDX)
		return -1;
	tr->objs[id].freed = true;
	pd = grow(ld->pending, &ld->pending_cap, ld->npending, sizeof(*pd));
	if (!pd || u64map_put(&ld->ptrs, ev->ptr, id, true) < 0)
		return -1;
	ld->pending = pd;
	pd[ld->npending++] = (struct pending){ ev->ptr, id, ev->name[0] != 0 };
	return add_op(ld, ev, line, id);
}

/* A free: of the live object of its pointer, of NULL (a no-op call, still
 * replayed), of a pointer already freed (not replayed), or unknown. */
static int load_free(struct loader *ld, const struct trace_event *ev, uint32_t line)
{
	struct trace *tr = ld->tr;
	uint32_t id;
	if (!ev->ptr) {
		if (add_diag(ld, line, TP_NULL_FREE, "") < 0)
			return -1;
		return add_op(ld, ev, line, TRACE_NO_OBJ);
	}
	if (!u64map_get(&ld->ptrs, ev->ptr, &id))
		return load_unknown_free(ld, ev, line);
	if (tr->objs[id].freed)
		return add_diag(ld, line, TP_DOUBLE_FREE, "");
	tr->objs[id].freed = true;
	return add_op(ld, ev, line, id);
}

/* One line: parsed, then counted as a header, a problem, or replayed. */
static int load_line(struct loader *ld, const char *p, size_t n, uint32_t line)
{
	struct trace_event ev;
	char why[128];
	switch (trace_parse_line(p, n, &ev, why, sizeof(why))) {
	case TRACE_LINE_HEADER:
		ld->tr->header_lines++;
		return 0;
	case TRACE_LINE_OTHER:
		return add_diag(ld, line, TP_OTHER_EVENT, why);
	case TRACE_LINE_BAD:
		return add_diag(ld, line, TP_UNPARSABLE, why);
	case TRACE_LINE_EVENT:
		break;
	}
	if (ev.kind == TR_KMALLOC || ev.kind == TR_CACHE_ALLOC)
		return load_alloc(ld, &ev, line);
	return load_free(ld, &ev, line);
}

/* Give each preexisting object the cache and sizes of an object allocated
 * in the same slab page (anywhere in the trace); with none, a kmalloc of
 * UNKNOWN_SIZE bytes. A kmem_cache_free with name= keeps its cache, and
 * takes the cache's size when the page tells nothing about that cache. */
static void infer_preexisting(struct loader *ld)
{
	struct trace *tr = ld->tr;
	for (uint32_t i = 0; i < ld->npending; i++) {
		struct pending *pd = &ld->pending[i];
		struct trace_obj *o = &tr->objs[pd->obj], *nb = NULL;
		struct trace_cache *c;
		uint32_t id;
		if (u64map_get(&ld->pages, (pd->ptr >> PAGE_SHIFT) + 1, &id))
			nb = &tr->objs[id];
		if (!pd->named) {
			if (nb) {
				o->cache = nb->cache;
				o->bytes_req = nb->bytes_req;
				o->bytes_alloc = nb->bytes_alloc;
			}
			continue;
		}
		c = &tr->caches[o->cache];
		if (nb && (nb->cache == o->cache || !c->size)) {
			o->bytes_req = nb->bytes_req;
			o->bytes_alloc = nb->bytes_alloc;
		} else if (c->size) {
			o->bytes_req = o->bytes_alloc = c->size;
		}
		if (!c->size)
			c->size = o->bytes_req;
	}
}

/* Release the loader's tables (not the trace it filled). */
static void loader_free(struct loader *ld)
{
	u64map_free(&ld->ptrs);
	u64map_free(&ld->pages);
	free(ld->sites.slots);
	free(ld->cache_names.slots);
	free(ld->pending);
}

/* Every line of the text, split at '\n' (a last line may lack it). */
static int load_lines(struct loader *ld, const char *text, size_t len)
{
	const char *p = text, *end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (ld->tr->nlines == UINT32_MAX - 1)
			return -2;
		if (load_line(ld, p, n, ++ld->tr->nlines) < 0)
			return -1;
		p = nl ? nl + 1 : end;
	}
	return 0;
}

/* Replace what is not printable ASCII: names go into reports and JSON. */
static void make_printable(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			*s = '?';
}

/* Parse and match a trace held in memory (see trace_load.h). */
int trace_load_text(const char *name, const char *text, size_t len, struct trace *tr,
		    struct sim_err *err)
{
	struct loader ld = { .tr = tr };
	int rc;
	memset(tr, 0, sizeof(*tr));
	tr->max_cpu = -1;
	snprintf(tr->path, sizeof(tr->path), "%s", name ? name : "");
	rc = text && len ? load_lines(&ld, text, len) : 0;
	if (!rc)
		infer_preexisting(&ld);
	loader_free(&ld);
	for (uint32_t i = 0; !rc && i < tr->nsites; i++)
		make_printable(tr->sites[i]);
	for (uint32_t i = 0; !rc && i < tr->ncaches; i++)
		make_printable(tr->caches[i].name);
	if (rc == -2)
		sim_fail(err, "%s: more than %u lines", tr->path, UINT32_MAX - 2);
	else if (rc)
		sim_fail(err, "%s: out of memory at line %u", tr->path, tr->nlines);
	else if (!tr->nops)
		sim_fail(err,
			 "%s: no kmem events (kmalloc, kmem_cache_alloc, kfree, kmem_cache_free) "
			 "in %u lines%s%s", tr->path, tr->nlines,
			 ld.first_problem[0] ? "; first problem: " : "", ld.first_problem);
	if (rc || !tr->nops) {
		trace_free(tr);
		return -1;
	}
	return 0;
}

/* Read a trace file and load it. */
int trace_load(const char *path, struct trace *tr, struct sim_err *err)
{
	size_t len = 0;
	char *text;
	int rc;
	memset(tr, 0, sizeof(*tr));
	tr->max_cpu = -1;
	errno = 0;
	text = file_read_text(path, &len);
	if (!text)
		return sim_fail(err, "%s: cannot read: %s", path, strerror(errno ? errno : ENOMEM));
	rc = trace_load_text(path, text, len, tr, err);
	free(text);
	return rc;
}

/* Free what a load allocated and zero the struct; safe twice. */
void trace_free(struct trace *tr)
{
	free(tr->ops);
	free(tr->objs);
	free(tr->caches);
	free(tr->sites);
	free(tr->diags);
	memset(tr, 0, sizeof(*tr));
}
