/* machine.h - a machine as its JSON file describes it: topology, the cost of
 * moving a cache line by distance, interconnect occupancy, memory latency and
 * the instruction-cost table of its microarchitecture. Every figure comes
 * from machines/ (with its source there); none is written in C. */
#ifndef SIM_MACHINE_H
#define SIM_MACHINE_H

#include <stdint.h>

#include <stddef.h>

#include "engine/error.h"

/* Distance between two CPUs, nearest first. A class names the level that
 * differs: on a machine with one die per socket, two cores of a socket are
 * `same_socket` (there is no `same_die`); with one socket per node, two
 * sockets are `other_socket` (there is no `other_node`). */
enum hw_dist {
	DIST_SAME_CORE = 0,	/* the same hardware thread */
	DIST_SMT,		/* another thread of the same core */
	DIST_SAME_DIE,		/* another core of the die (a cache cluster: die, CCX) */
	DIST_SAME_SOCKET,	/* another core or die of the same package */
	DIST_OTHER_SOCKET,	/* another package */
	DIST_OTHER_NODE,	/* a package of another node of several packages */
	NR_DIST
};

extern const char *const hw_dist_name[NR_DIST];

/* How coherence traffic is carried, which decides where requests queue. */
enum hw_fabric {
	FABRIC_FSB,	/* front-side buses into a memory hub (Core 2 era) */
	FABRIC_HOME,	/* point-to-point links, a home agent per node (QPI, HT, IF) */
	FABRIC_IDEAL,	/* nothing queues and taking a line exclusively is free:
			 * only reads that move data cost, by distance. These are
			 * the assumptions of the Markov lock model (docs/calibration.md
			 * C4), where a hand-off costs the waiters' re-reads only. */
};

struct hw_cpu_topo {
	int node, socket, die, core, thread;	/* socket/die/core numbered machine-wide */
};

#define MACHINE_MAX_COSTS 128

#define MACHINE_MAX_FITTED 48

/* A figure fitted to a published result: where it lives ("tigerton.json",
 * "costs/core2.json"), its name there, its value and the case (validation/). */
struct machine_fit {
	char file[48], name[64], fit_case[16];
	double value;
};

struct machine {
	char name[64];
	char description[256];
	char path[512];
	double ghz;
	int nodes, sockets_per_node, dies_per_socket, cores_per_die, threads_per_core;
	int ncpus, nsockets;
	struct hw_cpu_topo *topo;	/* by CPU number */
	uint64_t *loc;			/* by CPU: node, socket, die and core numbers,
					 * 16 bits each from the top, for machine_dist */
	uint8_t dist_by_level[5];	/* the class of two CPUs whose loc words first
					 * differ in the core (1), die (2), socket (3),
					 * node (4) field, or (0) not at all */
	uint32_t handoff[NR_DIST];	/* one-way hand-off of a line written at that
					 * distance, locked cmpxchg included (what the
					 * core-to-core-latency tool measures) */
	uint32_t mem_local, mem_remote;	/* cycles to load a line from DRAM */
	uint32_t atomic;		/* cycles of a locked op on a line held here */
	uint32_t llc_kb, llc_ways;	/* the last-level cache each die shares */
	uint32_t llc_hit;		/* cycles to load a line from it (not in the L1) */
	uint32_t l1_kb, l1_ways;	/* each core's L1 data cache */
	int ndies, ncores;
	enum hw_fabric fabric;
	uint32_t occ_bus;		/* FSB: cycles a transaction holds its bus */
	uint32_t occ_hub;		/* FSB: cycles it holds the memory hub */
	uint32_t occ_home;		/* HOME: cycles it holds the line's home agent */
	uint32_t occ_link;		/* HOME: cycles it holds the inter-socket link */
	uint32_t occ_line;		/* cycles a request keeps its line busy at the
					 * hub / home: later requests for it wait */
	char cost_table[64];
	int ncosts;
	char cost_name[MACHINE_MAX_COSTS][48];
	double cost[MACHINE_MAX_COSTS];
	int nsources;
	int nfitted;			/* the figures fitted to a published result */
	struct machine_fit fitted[MACHINE_MAX_FITTED];
};

/* Find a machine by name (machines/NAME.json) or by path (./file.json). */
int machine_resolve(const char *name_or_path, char *path, int size, struct sim_err *err);
int machine_load(struct machine *m, const char *name_or_path, struct sim_err *err);
void machine_free(struct machine *m);

static inline enum hw_dist machine_dist(const struct machine *m, int a, int b)
{
	if (a == b)
		return DIST_SAME_CORE;
	uint64_t x = m->loc[a] ^ m->loc[b];
	return (enum hw_dist)m->dist_by_level[x ? (63 - __builtin_clzll(x)) / 16 + 1 : 0];
}

/* Cycles of a named entry of the cost table; sets err if it is missing. */
int machine_cost(const struct machine *m, const char *name, uint32_t *cycles,
		 struct sim_err *err);

/* Several entries at once: a table of names and where to put each. */
struct cost_ref {
	const char *name;
	uint32_t *cycles;
};

int machine_costs(const struct machine *m, const struct cost_ref *refs, int n,
		  struct sim_err *err);

/* A cost a policy brings with it (struct slab_policy's costs): its
 * default in cycles and where that figure comes from. */
struct cost_def {
	const char *name;	/* "mine.remote_push": the policy's name first */
	double cycles;
	const char *source;	/* a citation, or "est: why" */
};

/* Add each entry of defs (ended by a NULL name) that m's cost table lacks,
 * with its default (a table's or machine file's own entry wins); returns
 * how many were added, or -1 with err. */
int machine_cost_defaults(struct machine *m, const struct cost_def *defs, struct sim_err *err);

/* Every cost entry of m with the file it was read from and its source, in
 * the order the table holds them: fn(name, cycles, file, source, arg). An
 * entry no file gave (a policy's default) has file NULL. 0, or -1 with err. */
int machine_cost_walk(const struct machine *m,
		      void (*fn)(const char *name, double cycles, const char *file,
				 const char *source, void *arg),
		      void *arg, struct sim_err *err);

/* The path of cost table NAME for m (costs/NAME.json beside its file or in
 * a machine directory). */
int machine_cost_table_path(const struct machine *m, const char *name, char *cpath, size_t size,
			    struct sim_err *err);

/* The directories searched for machines, ':'-separated, for messages. */
const char *machine_dirs(void);

#define MACHINE_MAX_FILES 256

/* Names of the machine files found (sorted, malloc'ed); returns how many. */
int machine_names(char **names, int max);

#endif
