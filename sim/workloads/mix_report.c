/* mix_report.c - what a cache mix reports: allocations per second over the
 * duration, who freed the objects (locally, on another CPU, on another
 * node), per cache; and its own invariant: every object allocated was freed
 * exactly once by the end. */
#include <stdlib.h>
#include <string.h>

#include "kernel/slab.h"
#include "mix.h"
#include "kernel/slab_policy.h"

static const char *const how_names[MIX_NHOW] = {
	"local", "remote_cpu", "remote_node", "remote_unavailable",
};

/* Allocations over every cache of the mix. */
static uint64_t total_allocs(const struct mix *mx)
{
	uint64_t n = 0;
	for (int i = 0; i < mx->ncaches; i++)
		n += mx->cache[i].allocs;
	return n;
}

/* Frees of one cache, whoever made them. */
static uint64_t cache_frees(const struct mix_cache *mc)
{
	uint64_t n = 0;
	for (int h = 0; h < MIX_NHOW; h++)
		n += mc->frees[h];
	return n;
}

/* The cache whose statistics count this one's objects: itself, the cache
 * it is merged into, kmalloc's size class, or none (the page allocator). */
static const char *slab_cache_name(const struct mix *mx, const struct mix_cache *mc)
{
	const struct kmem_cache *c = mc->kc ? mc->kc : kmalloc_slab(mx->k, mc->spec->size);
	if (!c)
		return "(page allocator)";
	return c->alias ? c->alias->name : c->name;
}

/* Mix: N allocations in S s (R allocs/s), and the JSON figures. */
void mix_result(void *state, struct workload_result *r)
{
	struct mix *mx = state;
	uint64_t allocs = total_allocs(mx);
	r->finished = mx->finished == mx->ntasks;
	r->sim_seconds = mx->duration_ms / 1e3;
	double aps = (double)allocs / r->sim_seconds;
	snprintf(r->line, sizeof(r->line), "%s: %llu allocations in %.3f s (%.0f allocs/s)",
		 mx->names->line, (unsigned long long)allocs, r->sim_seconds, aps);
	cJSON *x = r->extra = cJSON_CreateObject();
	cJSON_AddStringToObject(x, "description", mx->spec.description);
	cJSON_AddNumberToObject(x, "tasks", mx->ntasks);
	cJSON_AddNumberToObject(x, "duration_ms", mx->duration_ms);
	cJSON_AddNumberToObject(x, "allocations", (double)allocs);
	cJSON_AddNumberToObject(x, "allocs_per_second", aps);
	cJSON_AddNumberToObject(x, "alloc_failures", (double)mx->alloc_failures);
	cJSON *fr = cJSON_AddObjectToObject(x, "frees");
	for (int h = 0; h < MIX_NHOW; h++) {
		uint64_t n = 0;
		for (int i = 0; i < mx->ncaches; i++)
			n += mx->cache[i].frees[h];
		cJSON_AddNumberToObject(fr, how_names[h], (double)n);
	}
	cJSON *caches = cJSON_AddArrayToObject(x, "caches");
	for (int i = 0; i < mx->ncaches; i++) {
		const struct mix_cache *mc = &mx->cache[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", mc->spec->name);
		cJSON_AddStringToObject(o, "slab_cache", slab_cache_name(mx, mc));
		cJSON_AddNumberToObject(o, "size", mc->spec->size);
		cJSON_AddBoolToObject(o, "kmalloc", mc->spec->kmalloc);
		cJSON_AddNumberToObject(o, "allocs", (double)mc->allocs);
		for (int h = 0; h < MIX_NHOW; h++) {
			char key[40];
			snprintf(key, sizeof(key), "frees_%s", how_names[h]);
			cJSON_AddNumberToObject(o, key, (double)mc->frees[h]);
		}
		cJSON_AddItemToArray(caches, o);
	}
}

/* Per cache: allocations and who freed them. */
void mix_print(void *state, FILE *out, const struct wl_published *published)
{
	(void)published;
	struct mix *mx = state;
	if (*mx->spec.description)
		fprintf(out, "# %s\n", mx->spec.description);
	fprintf(out, "%-20s %8s %-18s %10s %10s %10s %11s %11s\n", "cache", "size", "slab cache",
		"allocs", "local", "remote_cpu", "remote_node", "unavailable");
	for (int i = 0; i < mx->ncaches; i++) {
		const struct mix_cache *mc = &mx->cache[i];
		fprintf(out, "%-20s %8u %-18s %10llu %10llu %10llu %11llu %11llu\n", mc->spec->name,
			mc->spec->size, slab_cache_name(mx, mc), (unsigned long long)mc->allocs,
			(unsigned long long)mc->frees[MIX_LOCAL],
			(unsigned long long)mc->frees[MIX_REMOTE_CPU],
			(unsigned long long)mc->frees[MIX_REMOTE_NODE],
			(unsigned long long)mc->frees[MIX_UNAVAILABLE]);
	}
}

/* Every object freed once: per cache, by the mix's books and by the
 * kernel's (the live count of the caches the mix created). */
int mix_check(void *state, struct sim_err *err)
{
	struct mix *mx = state;
	const char *w = mx->names->workload;
	for (int i = 0; i < mx->ncaches; i++) {
		const struct mix_cache *mc = &mx->cache[i];
		if (mc->allocs != cache_frees(mc))
			return sim_fail(err, "%s: cache %s: %llu allocations but %llu frees", w,
					mc->spec->name, (unsigned long long)mc->allocs,
					(unsigned long long)cache_frees(mc));
		if (mc->created && mc->kc->live)
			return sim_fail(err, "%s: cache %s ends with %llu live objects", w,
					mc->spec->name, (unsigned long long)mc->kc->live);
	}
	if (mx->live)
		return sim_fail(err, "%s: %llu objects still held at the end", w,
				(unsigned long long)mx->live);
	for (int i = 0; i < mx->ntasks; i++)
		if (mx->task[i].pending.n || mx->task[i].inbox.n)
			return sim_fail(err, "%s: task %d ends holding %d objects", w, i,
					mx->task[i].pending.n + mx->task[i].inbox.n);
	return 0;
}

/* Everything the mix allocated on the host (the caches are the kernel's). */
void mix_destroy(void *state)
{
	struct mix *mx = state;
	for (int i = 0; mx->task && i < mx->ntasks; i++) {
		free(mx->task[i].pending.v);
		free(mx->task[i].inbox.v);
	}
	free(mx->task);
	free(mx->by_node);
	free(mx->node_start);
	free(mx->node_count);
	free(mx->cpu_start);
	free(mx->cpu_count);
	free(mx);
}
