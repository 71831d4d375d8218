/* kmem_report.c - `perf kmem stat` of a run: the call-site table (Total_alloc/Per,
 * Total_req/Per, Hit, Ping-pong, Frag), the same by cache, and the SUMMARY
 * with internal fragmentation and the "Cross CPU allocations" line. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

struct kmem_row {
	const char *name;
	const struct kmem_site_stat *st;
};

/* Most bytes allocated first, then by name: a stable, deterministic order. */
static int row_cmp(const void *a, const void *b)
{
	const struct kmem_row *x = a, *y = b;
	if (x->st->bytes_alloc != y->st->bytes_alloc)
		return x->st->bytes_alloc > y->st->bytes_alloc ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The rows of call sites (by_cache false) or caches that allocated. */
static int kmem_rows(const struct kernel *k, bool by_cache, struct kmem_row **out)
{
	const struct kmem_stat *s = &k->kmem;
	int n = by_cache ? (k->ncaches < s->caches_cap ? k->ncaches : s->caches_cap) : s->nsites;
	struct kmem_row *v = calloc((size_t)n + 1, sizeof(*v));
	int m = 0;
	for (int i = 0; v && i < n; i++) {
		const struct kmem_site_stat *st = by_cache ? &s->cache[i] : &s->site[i];
		if (!st->allocs && !st->frees)
			continue;
		v[m].name = by_cache ? k->caches[i]->name : s->site_name[i];
		v[m++].st = st;
	}
	if (v)
		qsort(v, (size_t)m, sizeof(*v), row_cmp);
	*out = v;
	return v ? m : 0;
}

/* 100 - 100 * requested / allocated, perf kmem's fragmentation. */
static double frag(const struct kmem_site_stat *st)
{
	return st->bytes_alloc ? 100.0 - 100.0 * (double)st->bytes_req / (double)st->bytes_alloc : 0;
}

/* One table, the first `rows` rows. */
static void print_table(FILE *out, const struct kernel *k, bool by_cache, int rows)
{
	struct kmem_row *v;
	int n = kmem_rows(k, by_cache, &v);
	const char *rule = "-------------------------------------------------------------------"
			   "---------------------------------------";
	fprintf(out, "%s\n %-34s | Total_alloc/Per | Total_req/Per   | Hit       | Ping-pong "
		"| Frag\n%s\n", rule, by_cache ? "Cache" : "Callsite", rule);
	for (int i = 0; i < n && i < rows; i++) {
		const struct kmem_site_stat *st = v[i].st;
		char a[32], q[32];
		snprintf(a, sizeof(a), "%llu/%llu", (unsigned long long)st->bytes_alloc,
			 (unsigned long long)(st->allocs ? st->bytes_alloc / st->allocs : 0));
		snprintf(q, sizeof(q), "%llu/%llu", (unsigned long long)st->bytes_req,
			 (unsigned long long)(st->allocs ? st->bytes_req / st->allocs : 0));
		fprintf(out, " %-34.34s | %15s | %15s | %9llu | %9llu | %6.3f%%\n", v[i].name, a, q,
			(unsigned long long)st->allocs, (unsigned long long)st->pingpong, frag(st));
	}
	if (n > rows)
		fprintf(out, " ... %d more\n", n - rows);
	fprintf(out, "%s\n", rule);
	free(v);
}

void report_kmem_text(FILE *out, const struct run *r, int rows)
{
	const struct kmem_site_stat *t = &r->k.kmem.total;
	fprintf(out, "\n# perf kmem stat (the whole run)\n");
	print_table(out, &r->k, false, rows);
	print_table(out, &r->k, true, rows);
	fprintf(out, "\nSUMMARY (%s allocator)\n", r->policy->name);
	fprintf(out, "Total bytes requested: %llu\n", (unsigned long long)t->bytes_req);
	fprintf(out, "Total bytes allocated: %llu\n", (unsigned long long)t->bytes_alloc);
	fprintf(out, "Total bytes freed:     %llu\n", (unsigned long long)t->bytes_freed);
	fprintf(out, "Net total bytes allocated: %lld\n",
		(long long)t->bytes_alloc - (long long)t->bytes_freed);
	fprintf(out, "Total bytes wasted on internal fragmentation: %llu\n",
		(unsigned long long)(t->bytes_alloc - t->bytes_req));
	fprintf(out, "Internal fragmentation: %.6f%%\n", frag(t));
	fprintf(out, "Cross CPU allocations: %llu/%llu\n", (unsigned long long)t->pingpong,
		(unsigned long long)t->allocs);
	fprintf(out, "Page allocator (kmalloc_large): %llu allocs, %llu frees\n",
		(unsigned long long)r->k.kmem.large_allocs, (unsigned long long)r->k.kmem.large_frees);
}

/* One row as JSON. */
static cJSON *row_json(const char *key, const char *name, const struct kmem_site_stat *st)
{
	cJSON *o = cJSON_CreateObject();
	if (key)
		cJSON_AddStringToObject(o, key, name);
	cJSON_AddNumberToObject(o, "allocs", (double)st->allocs);
	cJSON_AddNumberToObject(o, "frees", (double)st->frees);
	cJSON_AddNumberToObject(o, "bytes_req", (double)st->bytes_req);
	cJSON_AddNumberToObject(o, "bytes_alloc", (double)st->bytes_alloc);
	cJSON_AddNumberToObject(o, "bytes_freed", (double)st->bytes_freed);
	cJSON_AddNumberToObject(o, "pingpong", (double)st->pingpong);
	cJSON_AddNumberToObject(o, "remote_node_frees", (double)st->remote_node);
	cJSON_AddNumberToObject(o, "fragmentation_percent", frag(st));
	return o;
}

cJSON *report_kmem_json(const struct run *r)
{
	cJSON *o = cJSON_CreateObject();
	const struct kmem_site_stat *t = &r->k.kmem.total;
	cJSON_AddItemToObject(o, "summary", row_json(NULL, NULL, t));
	cJSON *s = cJSON_GetObjectItem(o, "summary");
	cJSON_AddNumberToObject(s, "cross_cpu_allocations", (double)t->pingpong);
	cJSON_AddNumberToObject(s, "large_allocs", (double)r->k.kmem.large_allocs);
	cJSON_AddNumberToObject(s, "large_frees", (double)r->k.kmem.large_frees);
	for (int by_cache = 0; by_cache < 2; by_cache++) {
		struct kmem_row *v;
		int n = kmem_rows(&r->k, by_cache, &v);
		cJSON *a = cJSON_AddArrayToObject(o, by_cache ? "caches" : "callers");
		for (int i = 0; i < n; i++)
			cJSON_AddItemToArray(a, row_json(by_cache ? "cache" : "callsite", v[i].name,
							 v[i].st));
		free(v);
	}
	return o;
}
