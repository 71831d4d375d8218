/* calibrate_topo.h - the host's topology as slabsim's machine files describe
 * it (nodes x packages x last-level caches x cores x threads), read with
 * hwloc, and the distance class of every pair of its CPUs. */
#ifndef SIM_STUDY_CALIBRATE_TOPO_H
#define SIM_STUDY_CALIBRATE_TOPO_H

#include "engine/error.h"
#include "hw/machine.h"

#define HOST_MAX_CPUS 4096

struct host_cpu {
	int os;			/* Linux CPU number */
	int core, die, socket, node;	/* hwloc's logical indexes */
};

struct host_topo {
	int nodes, sockets_per_node, dies_per_socket, cores_per_die, threads_per_core;
	int ncpus;
	struct host_cpu cpu[HOST_MAX_CPUS];
	unsigned llc_kb, llc_ways, llc_level;	/* the last-level cache (a die's) */
	unsigned l2_kb;				/* 0 if the LLC is the L2 or there is none */
	unsigned l1_kb, l1_ways;		/* the L1 data cache */
	char cpu_model[128];
	char vendor[32];
};

/* Read the host's topology; 0, or -1 with a message in err (a host whose
 * packages, caches or cores are not all alike is refused). */
int host_topo_read(struct host_topo *h, struct sim_err *err);

/* The distance class of CPUs i and j (indexes into h->cpu), as slabsim's
 * machines number them: smt, same_die, same_socket, other_socket,
 * other_node. */
enum hw_dist host_dist(const struct host_topo *h, int i, int j);

/* How many pairs of the host's CPUs are at distance d. */
long host_pairs(const struct host_topo *h, enum hw_dist d);

#endif
