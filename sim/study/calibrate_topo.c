/* calibrate_topo.c - the host's topology from hwloc (calibrate_topo.h). */
#include "calibrate_topo.h"

#include <hwloc.h>
#include <stdio.h>
#include <string.h>

/* The index of `pu`'s ancestor of `type`, or -1. */
static int ancestor(hwloc_topology_t t, hwloc_obj_t pu, hwloc_obj_type_t type)
{
	hwloc_obj_t a = hwloc_get_ancestor_obj_by_type(t, type, pu);
	return a ? (int)a->logical_index : -1;
}

/* The deepest cache level that exists (3, 2 or 1) and its type. */
static int last_level(hwloc_topology_t t, hwloc_obj_type_t *type)
{
	static const hwloc_obj_type_t types[] = { HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE,
						  HWLOC_OBJ_L1CACHE };
	for (int i = 0; i < 3; i++)
		if (hwloc_get_nbobjs_by_type(t, types[i]) > 0) {
			*type = types[i];
			return 3 - i;
		}
	return 0;
}

/* *out = a / b when b divides a (the same number of what_a in each what_b), else -1 with a
 * message in err. */
static int count_whole(int a, int b, const char *what_a, const char *what_b, int *out,
		       struct sim_err *err)
{
	if (b <= 0 || a % b)
		return sim_fail(err, "%d %s on %d %s: slabsim's machine files need the same "
				"number of %s in each", a, what_a, b, what_b, what_a);
	*out = a / b;
	return 0;
}

/* Each CPU's place: its core, die (last-level cache), package and node. */
static void place_cpus(struct host_topo *h, hwloc_topology_t t, int npu, int nnuma,
		       hwloc_obj_type_t llc_type)
{
	for (int i = 0; i < npu; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, (unsigned)i);
		struct host_cpu *c = &h->cpu[i];
		c->os = (int)pu->os_index;
		c->core = ancestor(t, pu, HWLOC_OBJ_CORE);
		c->die = h->llc_level ? ancestor(t, pu, llc_type) : -1;
		c->socket = ancestor(t, pu, HWLOC_OBJ_PACKAGE);
		c->node = 0;
		for (int n = 0; n < nnuma; n++) {
			hwloc_obj_t node = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, (unsigned)n);
			if (node && hwloc_bitmap_isset(node->cpuset, pu->os_index))
				c->node = n;
		}
		if (c->core < 0)
			c->core = i;
		if (c->die < 0)
			c->die = c->socket;
	}
}

/* The caches' sizes and ways (defaults where hwloc gives none), the CPU's model and vendor. */
static void read_caches(struct host_topo *h, hwloc_topology_t t, hwloc_obj_type_t llc_type)
{
	if (h->llc_level) {
		hwloc_obj_t llc = hwloc_get_obj_by_type(t, llc_type, 0);
		h->llc_kb = (unsigned)(llc->attr->cache.size >> 10);
		int ways = llc->attr->cache.associativity;
		h->llc_ways = ways > 0 ? (unsigned)ways : 16;
	}
	if (h->llc_level == 3) {
		hwloc_obj_t l2 = hwloc_get_obj_by_type(t, HWLOC_OBJ_L2CACHE, 0);
		h->l2_kb = l2 ? (unsigned)(l2->attr->cache.size >> 10) : 0;
	}
	hwloc_obj_t l1 = hwloc_get_obj_by_type(t, HWLOC_OBJ_L1CACHE, 0);
	if (l1) {
		h->l1_kb = (unsigned)(l1->attr->cache.size >> 10);
		int ways = l1->attr->cache.associativity;
		h->l1_ways = ways > 0 ? (unsigned)ways : 8;
	}
	hwloc_obj_t root = hwloc_get_root_obj(t);
	hwloc_obj_t pkg = hwloc_get_obj_by_type(t, HWLOC_OBJ_PACKAGE, 0);
	const char *model = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
	const char *vendor = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUVendor") : NULL;
	if (!model)
		model = hwloc_obj_get_info_by_name(root, "CPUModel");
	snprintf(h->cpu_model, sizeof(h->cpu_model), "%s", model ? model : "unknown CPU");
	snprintf(h->vendor, sizeof(h->vendor), "%s", vendor ? vendor : "");
}

int host_topo_read(struct host_topo *h, struct sim_err *err)
{
	memset(h, 0, sizeof(*h));
	hwloc_topology_t t;
	if (hwloc_topology_init(&t) < 0 || hwloc_topology_load(t) < 0)
		return sim_fail(err, "hwloc cannot read this host's topology");
	int rc = -1;
	/* only the CPUs this process may run on (taskset, cgroups): those are
	 * the ones it can measure */
	hwloc_bitmap_t bound = hwloc_bitmap_alloc();
	if (bound && hwloc_get_cpubind(t, bound, HWLOC_CPUBIND_PROCESS) == 0 &&
	    !hwloc_bitmap_iszero(bound) &&
	    hwloc_topology_restrict(t, bound, HWLOC_RESTRICT_FLAG_REMOVE_CPULESS) < 0) {
		hwloc_bitmap_free(bound);
		sim_fail(err, "hwloc cannot restrict the topology to this process's CPUs");
		goto out;
	}
	hwloc_bitmap_free(bound);
	int npu = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
	int ncore = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
	int npkg = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
	int nnuma = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
	hwloc_obj_type_t llc_type = HWLOC_OBJ_L1CACHE;
	h->llc_level = (unsigned)last_level(t, &llc_type);
	int nllc = h->llc_level ? hwloc_get_nbobjs_by_type(t, llc_type) : npkg;
	if (npu > HOST_MAX_CPUS) {
		sim_fail(err, "%d CPUs: more than the %d calibrate handles", npu, HOST_MAX_CPUS);
		goto out;
	}
	if (npkg < 1)
		npkg = 1;
	if (nnuma < 1)
		nnuma = 1;
	if (ncore < 1)
		ncore = npu;
	if (nllc < npkg)	/* one cache for several packages: a die per package */
		nllc = npkg;
	h->nodes = nnuma;
	if (count_whole(npkg, nnuma, "packages", "NUMA nodes", &h->sockets_per_node, err) < 0 ||
	    count_whole(nllc, npkg, "last-level caches", "packages", &h->dies_per_socket,
			err) < 0 ||
	    count_whole(ncore, nllc, "cores", "last-level caches", &h->cores_per_die, err) < 0 ||
	    count_whole(npu, ncore, "hardware threads", "cores", &h->threads_per_core, err) < 0)
		goto out;
	h->ncpus = npu;
	place_cpus(h, t, npu, nnuma, llc_type);
	read_caches(h, t, llc_type);
	rc = 0;
out:
	hwloc_topology_destroy(t);
	return rc;
}

enum hw_dist host_dist(const struct host_topo *h, int i, int j)
{
	const struct host_cpu *a = &h->cpu[i], *b = &h->cpu[j];
	if (i == j)
		return DIST_SAME_CORE;
	if (a->core == b->core)
		return DIST_SMT;
	if (a->die == b->die)
		return h->dies_per_socket > 1 ? DIST_SAME_DIE : DIST_SAME_SOCKET;
	if (a->socket == b->socket)
		return DIST_SAME_SOCKET;
	if (a->node == b->node || h->sockets_per_node == 1)
		return DIST_OTHER_SOCKET;
	return DIST_OTHER_NODE;
}

long host_pairs(const struct host_topo *h, enum hw_dist d)
{
	long n = 0;
	for (int i = 0; i < h->ncpus; i++)
		for (int j = i + 1; j < h->ncpus; j++)
			n += host_dist(h, i, j) == d;
	return n;
}
