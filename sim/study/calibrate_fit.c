/* calibrate_fit.c - a machine file fitted to a host's measurements
 * (calibrate_fit.h). */
#include "calibrate_fit.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate_json.h"

unsigned calibrate_cycles(double ns, double ghz)
{
	double c = ns * ghz + 0.5;
	return c < 1 ? 1 : (unsigned)c;
}

int calibrate_check_host(const struct host_topo *h, struct sim_err *err)
{
	if (h->ncpus < 2)
		return sim_fail(err, "only one CPU is available to this process: there is no "
				"core-to-core hand-off to measure");
	long cpus = (long)h->nodes * h->sockets_per_node * h->dies_per_socket *
		    h->cores_per_die * h->threads_per_core;
	if (h->ncpus > HOST_MAX_CPUS || cpus != h->ncpus)
		return sim_fail(err, "%d node(s) x %d package(s) x %d die(s) x %d core(s) x %d "
				"thread(s) do not make the host's %d CPUs", h->nodes,
				h->sockets_per_node, h->dies_per_socket, h->cores_per_die,
				h->threads_per_core, h->ncpus);
	return 0;
}

/* 0 if the measured `what` is a positive number, else -1 with a message: a
 * figure of no machine (and a logarithm of none in the nearest machine). */
static int check_positive(double v, const char *what, struct sim_err *err)
{
	if (v > 0 && isfinite(v))
		return 0;
	return sim_fail(err, "the measured %s, %g, is not a positive number", what, v);
}

/* The measurements make a machine of h: every figure positive, a hand-off
 * for each distance class h has and for no other. 0, or -1 with err. */
static int check_measured(const struct host_topo *h, const struct calibrate_measured *ms,
			  struct sim_err *err)
{
	if (check_positive(ms->ghz, "clock (GHz)", err) < 0 ||
	    check_positive(ms->l1_ns, "L1 hit (ns)", err) < 0 ||
	    check_positive(ms->atomic_ns, "locked op (ns)", err) < 0 ||
	    check_positive(ms->mem_local_ns, "local memory latency (ns)", err) < 0 ||
	    (h->nodes > 1 && check_positive(ms->mem_remote_ns, "remote memory latency (ns)",
					    err) < 0))
		return -1;
	for (int d = DIST_SMT; d < NR_DIST; d++) {
		bool has = host_pairs(h, (enum hw_dist)d) > 0, measured = ms->handoff_pairs[d] > 0;
		char what[64];
		snprintf(what, sizeof(what), "%s hand-off (ns)", hw_dist_name[d]);
		if (has && !measured)
			return sim_fail(err, "no hand-off measured at distance %s, and the host has "
					"CPUs that far apart", hw_dist_name[d]);
		if (!has && measured)
			return sim_fail(err, "a hand-off measured at distance %s, and the host has "
					"no CPUs that far apart", hw_dist_name[d]);
		if (has && check_positive(ms->handoff_ns[d], what, err) < 0)
			return -1;
	}
	return 0;
}

/* How far modelled machine m is from the host: the mean |log ratio| of the
 * hand-offs (in ns) of the classes both have and of local memory, and a
 * penalty for another number of nodes. */
static double distance(const struct host_topo *h, const struct calibrate_measured *ms,
		       const struct machine *m)
{
	double s = fabs(log(ms->mem_local_ns / (m->mem_local / m->ghz))), k = 1;
	for (int d = DIST_SMT; d < NR_DIST; d++)
		if (ms->handoff_pairs[d] && m->handoff[d] > 0) {
			s += fabs(log(ms->handoff_ns[d] / (m->handoff[d] / m->ghz)));
			k++;
		}
	s /= k;
	return s + (m->nodes == h->nodes ? 0 : 0.5);	/* one node: no remote figures */
}

/* The modelled machine with home agents nearest the host into *best; 0, or
 * -1 with a message when there is none. */
static int nearest_machine(const struct host_topo *h, const struct calibrate_measured *ms,
			   struct machine *best, struct sim_err *err)
{
	char *names[256];
	int n = machine_names(names, 256), found = -1;
	double score = INFINITY;
	for (int i = 0; i < n; i++) {
		struct machine m;
		struct sim_err load_err;
		/* a host's memory controller is on the die (every x86 since Nehalem
		 * and K8): only machines with home agents compare */
		if (machine_load(&m, names[i], &load_err) == 0) {
			double s = m.fabric == FABRIC_HOME ? distance(h, ms, &m) : INFINITY;
			if (s < score) {
				if (found >= 0)
					machine_free(best);
				*best = m;
				score = s;
				found = i;
			} else {
				machine_free(&m);
			}
		}
		free(names[i]);
	}
	if (found < 0)
		return sim_fail(err, "no modelled machine to take the fabric from "
				"(SLABSIM_MACHINES: %s)", machine_dirs());
	return 0;
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

int calibrate_fit(const struct host_topo *h, const struct calibrate_measured *ms,
		  const struct calibrate_label *label, struct calibrate_fitted *fit,
		  struct sim_err *err)
{
	memset(fit, 0, sizeof(*fit));
	struct machine near;
	if (calibrate_check_host(h, err) < 0 || check_measured(h, ms, err) < 0 ||
	    nearest_machine(h, ms, &near, err) < 0)
		return -1;
	const char *table = cost_table_for(h, &near);
	fit->machine = calibrate_machine_json(h, ms, &near, table, label);
	snprintf(fit->nearest, sizeof(fit->nearest), "%s", near.name);
	snprintf(fit->cost_table, sizeof(fit->cost_table), "%s", table);
	machine_free(&near);
	return 0;
}

void calibrate_fitted_free(struct calibrate_fitted *fit)
{
	cJSON_Delete(fit->machine);
	fit->machine = NULL;
}
