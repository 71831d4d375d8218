/* cmd_calibrate.c - `slabsim calibrate`: a machine file for the host it runs
 * on. The topology comes from hwloc; the clock, the hand-off of a line at
 * each distance, the load latencies and the cost of a locked op are
 * measured (calibrate_probe.c); what user space cannot measure (the
 * fabric's occupancy, the instruction costs) comes from the nearest modelled
 * machine and says so. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "study/calibrate_probe.h"
#include "study/calibrate_topo.h"
#include "cli.h"
#include "engine/json_in.h"
#include "report/outfile.h"

static const char calibrate_help[] =
	"usage: slabsim calibrate [--out FILE.json] [--name NAME] [--pairs N]\n"
	"\n"
	"Measure the host and write a machine file for it (standard output without\n"
	"--out): the topology from hwloc; the core clock; the one-way hand-off of a\n"
	"cache line between two pinned threads at each distance (lock cmpxchg\n"
	"ping-pong, the core-to-core-latency method, medians); load-to-use\n"
	"latencies by pointer chasing (the L1, the last-level cache, memory of each\n"
	"node); a locked op on a line in the L1. The fabric's occupancy and the\n"
	"instruction costs cannot be measured from user space: they come from the\n"
	"nearest modelled machine, and the file's sources say so. Run it with\n"
	"  slabsim run -m ./FILE.json -p slub -w pingpong\n"
	"\n"
	"  --out FILE   write the machine file there\n"
	"  --name NAME  the machine's name (default: host)\n"
	"  --pairs N    CPU pairs measured per distance (default 4)\n"
	"\n"
	"It takes a few seconds; run it on an idle host. It refuses where threads\n"
	"cannot be pinned to CPUs (sched_setaffinity denied) or only one CPU is\n"
	"available.\n"
	"\n"
	"exit status: 0 done, 2 bad usage, or the host cannot be measured\n";

#define PP_SAMPLES 15
#define PP_ROUNDS 2000

struct measured {
	double ghz;
	double handoff_ns[NR_DIST], handoff_lo[NR_DIST], handoff_hi[NR_DIST];
	int handoff_pairs[NR_DIST];
	double l1_ns, llc_ns, atomic_ns, mem_local_ns, mem_remote_ns;
	size_t llc_bytes, mem_bytes;
};

/* qsort() order of doubles, ascending. */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The k-th pair (i < j) of CPUs at distance d, or false. */
static bool nth_pair(const struct host_topo *h, enum hw_dist d, long k, int *a, int *b)
{
	for (int i = 0; i < h->ncpus; i++)
		for (int j = i + 1; j < h->ncpus; j++)
			if (host_dist(h, i, j) == d && k-- == 0) {
				*a = h->cpu[i].os;
				*b = h->cpu[j].os;
				return true;
			}
	return false;
}

/* The hand-off of every distance class the host has: up to `want` pairs of
 * each, spread evenly over all its pairs; 0, or 2 after a message. */
static int measure_handoffs(const struct host_topo *h, int want, struct measured *ms)
{
	for (int d = DIST_SMT; d < NR_DIST; d++) {
		long n = 0;
		for (int i = 0; i < h->ncpus; i++)
			for (int j = i + 1; j < h->ncpus; j++)
				n += host_dist(h, i, j) == (enum hw_dist)d;
		if (!n)
			continue;
		int take = n < want ? (int)n : want;
		double v[64];
		for (int k = 0; k < take; k++) {
			int a = 0, b = 0;
			nth_pair(h, (enum hw_dist)d, (long)k * n / take, &a, &b);
			double ns = probe_pingpong_ns(a, b, PP_SAMPLES, PP_ROUNDS);
			if (ns < 0)
				return cli_usage_error("calibrate: cannot pin threads to CPUs %d and %d "
						       "(%s): calibrate needs sched_setaffinity, which "
						       "this host or container denies", a, b,
						       strerror(errno));
			v[k] = ns;
		}
		qsort(v, (size_t)take, sizeof(v[0]), cmp_double);
		ms->handoff_ns[d] = take % 2 ? v[take / 2] : (v[take / 2 - 1] + v[take / 2]) / 2;
		ms->handoff_lo[d] = v[0];
		ms->handoff_hi[d] = v[take - 1];
		ms->handoff_pairs[d] = take;
	}
	return 0;
}

/* Memory of node 0 (local) and of each other node (remote, the median) from
 * a CPU of node 0; latencies of the L1 and the last-level cache. */
static int measure_latencies(const struct host_topo *h, struct measured *ms)
{
	int home = 0;
	while (home < h->ncpus && h->cpu[home].node != 0)
		home++;
	if (probe_pin(h->cpu[home].os) < 0)
		return cli_usage_error("calibrate: cannot pin a thread to CPU %d (%s): calibrate "
				       "needs sched_setaffinity, which this host or container "
				       "denies", h->cpu[home].os, strerror(errno));
	size_t llc_total = (size_t)h->llc_kb * 1024 * (size_t)(h->nodes * h->sockets_per_node *
								h->dies_per_socket);
	/* 8 times the caches, so nearly every load misses them, in 256 MB to 2 GB:
	 * a guest may report its host's whole L3 per die (520 MB on one VM here),
	 * and setting up a chase of 8 GB took minutes */
	size_t want = 8 * llc_total;
	ms->mem_bytes = want < ((size_t)256 << 20) ? (size_t)256 << 20
		      : want > ((size_t)2 << 30) ? (size_t)2 << 30 : want;
	ms->mem_local_ns = probe_chase_ns(ms->mem_bytes, h->nodes > 1 ? 0 : -1);
	double remote[64];
	int nr = 0;
	for (int n = 1; n < h->nodes && nr < 64; n++)
		remote[nr++] = probe_chase_ns(ms->mem_bytes, n);
	if (nr) {
		qsort(remote, (size_t)nr, sizeof(remote[0]), cmp_double);
		ms->mem_remote_ns = remote[nr / 2];
	}
	ms->l1_ns = probe_chase_ns((size_t)(h->l1_kb ? h->l1_kb : 32) * 1024 / 2, -1);
	/* between the L2 and the last-level cache: loads the LLC serves */
	if (h->l2_kb && h->llc_kb >= 4 * h->l2_kb) {
		ms->llc_bytes = (size_t)h->l2_kb * 1024 * 4;
		ms->llc_ns = probe_chase_ns(ms->llc_bytes, -1);
	}
	ms->atomic_ns = probe_atomic_ns();
	if (ms->mem_local_ns <= 0 || ms->l1_ns <= 0 || (nr && ms->mem_remote_ns <= 0))
		return cli_usage_error("calibrate: out of memory for the %zu MB pointer chase",
				       ms->mem_bytes >> 20);
	return 0;
}

/* ns at `ghz` as whole cycles, rounded, at least 1. */
static unsigned cycles(double ns, double ghz)
{
	double c = ns * ghz + 0.5;
	return c < 1 ? 1 : (unsigned)c;
}

/* The modelled machine with home agents nearest the host: the smallest mean
 * |log ratio| of the hand-offs (in ns) of the classes both have and of
 * local memory, and a penalty for another number of nodes. */
static int nearest_machine(const struct host_topo *h, const struct measured *ms,
			   struct machine *best, double *score)
{
	char *names[256];
	int n = machine_names(names, 256), found = -1;
	*score = INFINITY;
	for (int i = 0; i < n; i++) {
		struct machine m;
		struct sim_err err;
		/* a host's memory controller is on the die (every x86 since Nehalem
		 * and K8): only machines with home agents compare */
		if (machine_load(&m, names[i], &err) < 0) {
			free(names[i]);
			continue;
		}
		if (m.fabric != FABRIC_HOME) {
			machine_free(&m);
		} else {
			double s = fabs(log(ms->mem_local_ns / (m.mem_local / m.ghz))), k = 1;
			for (int d = DIST_SMT; d < NR_DIST; d++)
				if (ms->handoff_pairs[d] && m.handoff[d] > 0) {
					s += fabs(log(ms->handoff_ns[d] / (m.handoff[d] / m.ghz)));
					k++;
				}
			s /= k;
			s += m.nodes == h->nodes ? 0 : 0.5;	/* one node: no remote figures */
			if (s < *score) {
				if (found >= 0)
					machine_free(best);
				*best = m;
				*score = s;
				found = i;
			} else {
				machine_free(&m);
			}
		}
		free(names[i]);
	}
	return found >= 0 ? 0 : -1;
}

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

/* The instruction costs (machines/costs/): the newest modelled core of the
 * host's vendor, else the nearest machine's. */
static const char *cost_table_for(const struct host_topo *h, const struct machine *near)
{
	if (strstr(h->vendor, "AMD") || strstr(h->cpu_model, "AMD"))
		return "zen4";
	if (strstr(h->vendor, "Intel") || strstr(h->cpu_model, "Intel"))
		return "golden_cove";
	return near->cost_table;
}

/* The measured hand-offs, memory latencies and locked op, with their sources. */
static void add_latencies(cJSON *root, cJSON *src, const struct host_topo *h,
			  const struct measured *ms)
{
	double g = ms->ghz;
	cJSON *ho = cJSON_AddObjectToObject(root, "handoff_cycles");
	cJSON_AddNumberToObject(ho, "same_core", cycles(ms->l1_ns, g));
	add_source(src, "handoff_cycles.same_core", "measured: an L1 hit, %.2f ns (pointer chase "
		   "through half the %u KB L1)", ms->l1_ns, h->l1_kb);
	for (int d = DIST_SMT; d < NR_DIST; d++) {
		if (!ms->handoff_pairs[d])
			continue;
		cJSON_AddNumberToObject(ho, hw_dist_name[d], cycles(ms->handoff_ns[d], g));
		char key[64];
		snprintf(key, sizeof(key), "handoff_cycles.%s", hw_dist_name[d]);
		add_source(src, key, "measured: %.1f ns one way, the median of %d CPU pair(s) "
			   "(%.1f-%.1f ns), each the median of %d samples of %d lock cmpxchg "
			   "round trips", ms->handoff_ns[d], ms->handoff_pairs[d], ms->handoff_lo[d],
			   ms->handoff_hi[d], PP_SAMPLES, PP_ROUNDS);
	}
	cJSON *mem = cJSON_AddObjectToObject(root, "memory_cycles");
	cJSON_AddNumberToObject(mem, "local", cycles(ms->mem_local_ns, g));
	add_source(src, "memory_cycles.local", "measured: %.1f ns per load, the fastest of %d "
		   "walks of %d loads of a random pointer chase through %zu MB%s",
		   ms->mem_local_ns, PROBE_CHASE_WALKS, PROBE_CHASE_STEPS, ms->mem_bytes >> 20,
		   h->nodes > 1 ? " bound to node 0, from a CPU of node 0" : "");
	if (h->nodes > 1) {
		cJSON_AddNumberToObject(mem, "remote", cycles(ms->mem_remote_ns, g));
		add_source(src, "memory_cycles.remote", "measured: %.1f ns, the same chase bound "
			   "to each other node (the median), from a CPU of node 0",
			   ms->mem_remote_ns);
	}
	cJSON_AddNumberToObject(root, "atomic_cycles", cycles(ms->atomic_ns, g));
	add_source(src, "atomic_cycles", "measured: %.2f ns per lock cmpxchg on a line in the L1, "
		   "each depending on the one before", ms->atomic_ns);
}

/* The last-level cache and the L1 (hwloc's geometry, the measured hit). */
static void add_caches(cJSON *root, cJSON *src, const struct host_topo *h,
		       const struct measured *ms, const struct machine *near)
{
	double g = ms->ghz;
	cJSON *llc = cJSON_AddObjectToObject(root, "llc");
	cJSON_AddNumberToObject(llc, "kb", h->llc_kb);
	cJSON_AddNumberToObject(llc, "ways", h->llc_ways);
	add_source(src, "llc.kb", "hwloc: the L%u cache, %u KB", h->llc_level, h->llc_kb);
	add_source(src, "llc.ways", "hwloc: the L%u cache, %u-way", h->llc_level, h->llc_ways);
	if (ms->llc_ns > 0) {
		cJSON_AddNumberToObject(llc, "hit_cycles", cycles(ms->llc_ns, g));
		add_source(src, "llc.hit_cycles", "measured: %.1f ns per load of a pointer chase "
			   "through %zu KB, beyond the %u KB L2 and within the L%u", ms->llc_ns,
			   ms->llc_bytes >> 10, h->l2_kb, h->llc_level);
	} else {
		cJSON_AddNumberToObject(llc, "hit_cycles", cycles(near->llc_hit / near->ghz, g));
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
static void add_record(cJSON *root, const struct measured *ms, const struct machine *near,
		       const char *table, const char *host, const char *date)
{
	cJSON *cal = cJSON_AddObjectToObject(root, "_calibration");
	cJSON_AddStringToObject(cal, "host", host);
	cJSON_AddStringToObject(cal, "date", date);
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

/* The machine file: the measured figures in cycles at the measured clock, the nearest
 * machine's where none can be measured, each figure's source, and the raw measurements. */
static cJSON *machine_json(const struct host_topo *h, const struct measured *ms,
			   const struct machine *near, const char *name)
{
	double g = ms->ghz;
	char host[256] = "this host", date[32];
	gethostname(host, sizeof(host));
	time_t now = time(NULL);
	strftime(date, sizeof(date), "%Y-%m-%d", gmtime(&now));
	cJSON *root = cJSON_CreateObject(), *src = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "name", name);
	char desc[1024];
	snprintf(desc, sizeof(desc), "%s, %d node(s) x %d package(s) x %d die(s) x %d core(s) x "
		 "%d thread(s), %d CPUs: measured on '%s' by slabsim calibrate, %s", h->cpu_model,
		 h->nodes, h->sockets_per_node, h->dies_per_socket, h->cores_per_die,
		 h->threads_per_core, h->ncpus, host, date);
	cJSON_AddStringToObject(root, "description", desc);
	cJSON_AddNumberToObject(root, "clock_ghz", round(g * 1000) / 1000);
	add_source(src, "clock_ghz", "measured: chains of 320 million dependent adds, one cycle "
		   "each, the fastest of 5 (%s)", date);
	cJSON *topo = cJSON_AddObjectToObject(root, "topology");
	cJSON_AddNumberToObject(topo, "nodes", h->nodes);
	cJSON_AddNumberToObject(topo, "sockets_per_node", h->sockets_per_node);
	cJSON_AddNumberToObject(topo, "dies_per_socket", h->dies_per_socket);
	cJSON_AddNumberToObject(topo, "cores_per_die", h->cores_per_die);
	cJSON_AddNumberToObject(topo, "threads_per_core", h->threads_per_core);
	add_source(src, "topology", "hwloc: NUMA nodes, packages, last-level (L%u) caches as dies, "
		   "cores, hardware threads", h->llc_level);
	add_latencies(root, src, h, ms);
	add_caches(root, src, h, ms, near);
	add_fabric(root, src, near, g);
	const char *table = cost_table_for(h, near);
	cJSON_AddStringToObject(root, "cost_table", table);
	cJSON_AddItemToObject(root, "sources", src);
	add_record(root, ms, near, table, host, date);
	return root;
}

/* The options; -1 to go on, else the exit status (0 after --help). */
static int calibrate_opts(int argc, char **argv, const char **out, const char **name, int *pairs)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' }, { "out", required_argument, NULL, 'o' },
		{ "name", required_argument, NULL, 'n' }, { "pairs", required_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 } };
	optind = 0;
	for (int c; (c = cli_getopt("calibrate", argc, argv, "h", longopts)) != -1;) {
		char *end;
		switch (c) {
		case 'h': return fputs(calibrate_help, stdout), 0;
		case 'o': *out = optarg; break;
		case 'n':
			if (!*optarg || strlen(optarg) > 60)
				return cli_usage_error("calibrate: --name '%s': 1 to 60 characters",
						       optarg);
			*name = optarg;
			break;
		case 'P': {
			long v = strtol(optarg, &end, 10);
			if (!*optarg || *end || v < 1 || v > 64)
				return cli_usage_error("calibrate: --pairs %s: expected 1..64", optarg);
			*pairs = (int)v;
			break;
		}
		default: return 2;
		}
	}
	if (optind < argc)
		return cli_usage_error("calibrate: unknown argument '%s' (slabsim calibrate --help)",
				       argv[optind]);
	return -1;
}

/* What was measured on stderr, the machine file to OUT (or stdout); the exit status. */
static int write_machine(const cJSON *root, const struct host_topo *h, const struct measured *ms,
			 const struct machine *near, const char *out)
{
	fprintf(stderr, "calibrate: clock %.3f GHz; hand-off", ms->ghz);
	for (int d = DIST_SMT; d < NR_DIST; d++)
		if (ms->handoff_pairs[d])
			fprintf(stderr, " %s %.1f ns", hw_dist_name[d], ms->handoff_ns[d]);
	fprintf(stderr, "; memory %.1f ns", ms->mem_local_ns);
	if (h->nodes > 1)
		fprintf(stderr, " (remote %.1f ns)", ms->mem_remote_ns);
	fprintf(stderr, "; fabric from %s, instruction costs %s\n", near->name,
		cost_table_for(h, near));
	char *text = cJSON_Print(root);
	int rc = 0;
	if (!out) {
		printf("%s\n", text);
	} else {
		FILE *f = fopen(out, "w");
		if (!f || fprintf(f, "%s\n", text) < 0 || fclose(f) != 0)
			rc = cli_usage_error("calibrate: cannot write %s: %s", out, strerror(errno));
		else
			fprintf(stderr, "calibrate: wrote %s; run it with: slabsim run -m %s%s -p slub "
				"-w pingpong\n", out, strchr(out, '/') ? "" : "./", out);
	}
	free(text);
	return rc;
}

int cmd_calibrate(int argc, char **argv)
{
	const char *out = NULL, *name = "host";
	int pairs = 4, rc = calibrate_opts(argc, argv, &out, &name, &pairs);
	if (rc >= 0)
		return rc;
	struct sim_err err;
	if (out && out_check(out, &err) < 0)
		return cli_usage_error("calibrate: %s", err.msg);
	struct host_topo *h = calloc(1, sizeof(*h));
	if (!h)
		return cli_usage_error("calibrate: out of memory");
	char msg[512];
	struct measured ms = { 0 };
	struct machine near;
	double score;
	cJSON *root = NULL;
	rc = 0;
	if (host_topo_read(h, msg, sizeof(msg)) < 0) {
		rc = cli_usage_error("calibrate: %s", msg);
		goto done;
	}
	if (h->ncpus < 2) {
		rc = cli_usage_error("calibrate: only one CPU is available to this process: there "
				     "is no core-to-core hand-off to measure");
		goto done;
	}
	fprintf(stderr, "calibrate: %s, %d CPUs (%d node(s) x %d package(s) x %d die(s) x %d "
		"core(s) x %d thread(s))\n", h->cpu_model, h->ncpus, h->nodes, h->sockets_per_node,
		h->dies_per_socket, h->cores_per_die, h->threads_per_core);
	if ((rc = measure_latencies(h, &ms)) != 0 || (rc = measure_handoffs(h, pairs, &ms)) != 0)
		goto done;
	ms.ghz = probe_clock_ghz();
	if (nearest_machine(h, &ms, &near, &score) < 0) {
		rc = cli_usage_error("calibrate: no modelled machine to take the fabric from "
				     "(SLABSIM_MACHINES: %s)", machine_dirs());
		goto done;
	}
	root = machine_json(h, &ms, &near, name);
	rc = write_machine(root, h, &ms, &near, out);
	machine_free(&near);
done:
	cJSON_Delete(root);
	free(h);
	return rc;
}
