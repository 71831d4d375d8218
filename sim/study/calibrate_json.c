/* calibrate_json.c - the machine file calibrate writes (calibrate_json.h). */
#include "calibrate_json.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "calibrate_probe.h"

static void add_source(cJSON *src, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* sources.KEY: where a figure came from (printf-style). */
static void add_source(cJSON *src, const char *key, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	cJSON_AddStringToObject(src, key, buf);
}

/* The topology as hwloc gives it. */
static void add_topology(cJSON *root, cJSON *src, const struct host_topo *h)
{
	cJSON *topo = cJSON_AddObjectToObject(root, "topology");
	cJSON_AddNumberToObject(topo, "nodes", h->nodes);
	cJSON_AddNumberToObject(topo, "sockets_per_node", h->sockets_per_node);
	cJSON_AddNumberToObject(topo, "dies_per_socket", h->dies_per_socket);
	cJSON_AddNumberToObject(topo, "cores_per_die", h->cores_per_die);
	cJSON_AddNumberToObject(topo, "threads_per_core", h->threads_per_core);
	add_source(src, "topology", "hwloc: NUMA nodes, packages, last-level (L%u) caches as dies, "
		   "cores, hardware threads", h->llc_level);
}

/* One occupancy of the nearest machine's fabric, kept in nanoseconds. */
static void add_occupancy(cJSON *fab, cJSON *src, const struct machine *near, double ghz,
			  const char *key, uint32_t near_cycles)
{
	cJSON_AddNumberToObject(fab, key, (double)(long)(near_cycles / near->ghz * ghz + 0.5));
	char where[96];
	snprintf(where, sizeof(where), "fabric.%s", key);
	add_source(src, where, "not measurable from user space: %s's %u cycles at %.2f GHz "
		   "(%.1f ns; the nearest modelled machine with its memory controller on the "
		   "die), at this clock", near->name, near_cycles, near->ghz, near_cycles / near->ghz);
}

/* The nearest machine's home-agent fabric, each occupancy kept in ns. */
static void add_fabric(cJSON *root, cJSON *src, const struct machine *near, double ghz)
{
	cJSON *fab = cJSON_AddObjectToObject(root, "fabric");
	cJSON_AddStringToObject(fab, "kind", "home");
	add_occupancy(fab, src, near, ghz, "home_occupancy_cycles", near->occ_home);
	add_occupancy(fab, src, near, ghz, "link_occupancy_cycles", near->occ_link);
	add_occupancy(fab, src, near, ghz, "line_occupancy_cycles", near->occ_line);
}

/* The measured hand-offs, memory latencies and locked op, with their sources. */
static void add_latencies(cJSON *root, cJSON *src, const struct host_topo *h,
			  const struct calibrate_measured *ms)
{
	double g = ms->ghz;
	cJSON *ho = cJSON_AddObjectToObject(root, "handoff_cycles");
	cJSON_AddNumberToObject(ho, "same_core", calibrate_cycles(ms->l1_ns, g));
	add_source(src, "handoff_cycles.same_core", "measured: an L1 hit, %.2f ns (pointer chase "
		   "through half the %u KB L1)", ms->l1_ns, h->l1_kb);
	for (int d = DIST_SMT; d < NR_DIST; d++) {
		if (!ms->handoff_pairs[d])
			continue;
		cJSON_AddNumberToObject(ho, hw_dist_name[d], calibrate_cycles(ms->handoff_ns[d], g));
		char key[64];
		snprintf(key, sizeof(key), "handoff_cycles.%s", hw_dist_name[d]);
		add_source(src, key, "measured: %.1f ns one way, the median of %d CPU pair(s) "
			   "(%.1f-%.1f ns), each the median of %d samples of %d lock cmpxchg "
			   "round trips", ms->handoff_ns[d], ms->handoff_pairs[d], ms->handoff_lo[d],
			   ms->handoff_hi[d], PROBE_PINGPONG_SAMPLES, PROBE_PINGPONG_ROUNDS);
	}
	cJSON *mem = cJSON_AddObjectToObject(root, "memory_cycles");
	cJSON_AddNumberToObject(mem, "local", calibrate_cycles(ms->mem_local_ns, g));
	add_source(src, "memory_cycles.local", "measured: %.1f ns per load, the fastest of %d "
		   "walks of %d loads of a random pointer chase through %zu MB%s",
		   ms->mem_local_ns, PROBE_CHASE_WALKS, PROBE_CHASE_STEPS, ms->mem_bytes >> 20,
		   h->nodes > 1 ? " bound to node 0, from a CPU of node 0" : "");
	if (h->nodes > 1) {
		cJSON_AddNumberToObject(mem, "remote", calibrate_cycles(ms->mem_remote_ns, g));
		add_source(src, "memory_cycles.remote", "measured: %.1f ns, the same chase bound "
			   "to each other node (the median), from a CPU of node 0",
			   ms->mem_remote_ns);
	}
	cJSON_AddNumberToObject(root, "atomic_cycles", calibrate_cycles(ms->atomic_ns, g));
	add_source(src, "atomic_cycles", "measured: %.2f ns per lock cmpxchg on a line in the L1, "
		   "each depending on the one before", ms->atomic_ns);
}

/* The last-level cache and the L1 (hwloc's geometry, the measured hit). */
static void add_caches(cJSON *root, cJSON *src, const struct host_topo *h,
		       const struct calibrate_measured *ms, const struct machine *near)
{
	double g = ms->ghz;
	cJSON *llc = cJSON_AddObjectToObject(root, "llc");
	cJSON_AddNumberToObject(llc, "kb", h->llc_kb);
	cJSON_AddNumberToObject(llc, "ways", h->llc_ways);
	add_source(src, "llc.kb", "hwloc: the L%u cache, %u KB", h->llc_level, h->llc_kb);
	add_source(src, "llc.ways", "hwloc: the L%u cache, %u-way", h->llc_level, h->llc_ways);
	if (ms->llc_ns > 0) {
		cJSON_AddNumberToObject(llc, "hit_cycles", calibrate_cycles(ms->llc_ns, g));
		add_source(src, "llc.hit_cycles", "measured: %.1f ns per load of a pointer chase "
			   "through %zu KB, beyond the %u KB L2 and within the L%u", ms->llc_ns,
			   ms->llc_bytes >> 10, h->l2_kb, h->llc_level);
	} else {
		cJSON_AddNumberToObject(llc, "hit_cycles",
					calibrate_cycles(near->llc_hit / near->ghz, g));
		add_source(src, "llc.hit_cycles", "not measured (no level between the L1 and the "
			   "last-level cache to step over): %s's %.1f ns, the nearest modelled "
			   "machine", near->name, near->llc_hit / near->ghz);
	}
	cJSON *l1 = cJSON_AddObjectToObject(root, "l1");
	cJSON_AddNumberToObject(l1, "kb", h->l1_kb);
	cJSON_AddNumberToObject(l1, "ways", h->l1_ways);
	add_source(src, "l1.kb", "hwloc: the L1 data cache, %u KB", h->l1_kb);
	add_source(src, "l1.ways", "hwloc: the L1 data cache, %u-way", h->l1_ways);
}

/* "_calibration": the measurements as taken, for the tests and for the record. */
static void add_record(cJSON *root, const struct calibrate_measured *ms,
		       const struct machine *near, const char *table,
		       const struct calibrate_label *label)
{
	cJSON *cal = cJSON_AddObjectToObject(root, "_calibration");
	cJSON_AddStringToObject(cal, "host", label->host);
	cJSON_AddStringToObject(cal, "date", label->date);
	cJSON_AddStringToObject(cal, "nearest_machine", near->name);
	char why[256];
	snprintf(why, sizeof(why), "not measurable from user space: %s", strcmp(table, near->cost_table)
		 ? "the newest modelled core of the host's vendor"
		 : "the nearest modelled machine's");
	cJSON_AddStringToObject(cal, "cost_table", why);
	cJSON *hn = cJSON_AddObjectToObject(cal, "handoff_ns");
	for (int d = DIST_SMT; d < NR_DIST; d++)
		if (ms->handoff_pairs[d])
			cJSON_AddNumberToObject(hn, hw_dist_name[d],
						round(ms->handoff_ns[d] * 100) / 100);
}

cJSON *calibrate_machine_json(const struct host_topo *h, const struct calibrate_measured *ms,
			      const struct machine *near, const char *cost_table,
			      const struct calibrate_label *label)
{
	double g = ms->ghz;
	cJSON *root = cJSON_CreateObject(), *src = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "name", label->name);
	char desc[1024];
	snprintf(desc, sizeof(desc), "%s, %d node(s) x %d package(s) x %d die(s) x %d core(s) x "
		 "%d thread(s), %d CPUs: measured on '%s' by slabsim calibrate, %s", h->cpu_model,
		 h->nodes, h->sockets_per_node, h->dies_per_socket, h->cores_per_die,
		 h->threads_per_core, h->ncpus, label->host, label->date);
	cJSON_AddStringToObject(root, "description", desc);
	cJSON_AddNumberToObject(root, "clock_ghz", round(g * 1000) / 1000);
	add_source(src, "clock_ghz", "measured: chains of 320 million dependent adds, one cycle "
		   "each, the fastest of 5 (%s)", label->date);
	add_topology(root, src, h);
	add_latencies(root, src, h, ms);
	add_caches(root, src, h, ms, near);
	add_fabric(root, src, near, g);
	cJSON_AddStringToObject(root, "cost_table", cost_table);
	cJSON_AddItemToObject(root, "sources", src);
	add_record(root, ms, near, cost_table, label);
	return root;
}
