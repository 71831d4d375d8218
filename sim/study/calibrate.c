/* calibrate.c - measure the host and fit its machine file (calibrate.h). */
#include "calibrate.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "calibrate_probe.h"

/* The options name a machine and a number of pairs calibrate can take; 0,
 * or -1 with a message. */
static int check_opts(const struct calibrate_opts *o, struct sim_err *err)
{
	if (!o->name || !*o->name || strlen(o->name) > CALIBRATE_NAME_MAX)
		return sim_fail(err, "name '%s': 1 to %d characters", o->name ? o->name : "",
				CALIBRATE_NAME_MAX);
	if (o->pairs < 1 || o->pairs > CALIBRATE_PAIRS_MAX)
		return sim_fail(err, "pairs %d: expected 1..%d", o->pairs, CALIBRATE_PAIRS_MAX);
	return 0;
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
 * each, spread evenly over all its pairs; 0, or -1 with a message. */
static int measure_handoffs(const struct host_topo *h, int want, struct calibrate_measured *ms,
			    struct sim_err *err)
{
	for (int d = DIST_SMT; d < NR_DIST; d++) {
		long n = host_pairs(h, (enum hw_dist)d);
		if (!n)
			continue;
		int take = n < want ? (int)n : want;
		double v[CALIBRATE_PAIRS_MAX];
		for (int k = 0; k < take; k++) {
			int a = 0, b = 0;
			nth_pair(h, (enum hw_dist)d, (long)k * n / take, &a, &b);
			double ns = probe_pingpong_ns(a, b, PROBE_PINGPONG_SAMPLES,
						      PROBE_PINGPONG_ROUNDS);
			if (ns < 0)
				return sim_fail(err, "cannot pin threads to CPUs %d and %d (%s): "
						"calibrate needs sched_setaffinity, which this host "
						"or container denies", a, b, strerror(errno));
			v[k] = ns;
		}
		ms->handoff_ns[d] = probe_median(v, take);
		ms->handoff_lo[d] = v[0];
		ms->handoff_hi[d] = v[take - 1];
		ms->handoff_pairs[d] = take;
	}
	return 0;
}

/* The memory to chase: 8 times the caches, so nearly every load misses
 * them, in 256 MB to 2 GB (a guest may report its host's whole L3 per die,
 * 520 MB on one VM here, and setting up a chase of 8 GB took minutes). */
static size_t memory_chase_bytes(const struct host_topo *h)
{
	size_t llc_total = (size_t)h->llc_kb * 1024 * (size_t)(h->nodes * h->sockets_per_node *
								h->dies_per_socket);
	size_t want = 8 * llc_total;
	return want < ((size_t)256 << 20) ? (size_t)256 << 20
	     : want > ((size_t)2 << 30) ? (size_t)2 << 30 : want;
}

/* Memory of node 0 (local) and of each other node (remote, the median) from
 * a CPU of node 0; latencies of the L1, the last-level cache and a locked
 * op. 0, or -1 with a message. */
static int measure_latencies(const struct host_topo *h, struct calibrate_measured *ms,
			     struct sim_err *err)
{
	int home = 0;
	while (home < h->ncpus && h->cpu[home].node != 0)
		home++;
	if (probe_pin(h->cpu[home].os) < 0)
		return sim_fail(err, "cannot pin a thread to CPU %d (%s): calibrate needs "
				"sched_setaffinity, which this host or container denies",
				h->cpu[home].os, strerror(errno));
	ms->mem_bytes = memory_chase_bytes(h);
	ms->mem_local_ns = probe_chase_ns(ms->mem_bytes, h->nodes > 1 ? 0 : -1);
	double remote[64];
	int nr = 0;
	for (int n = 1; n < h->nodes && nr < 64; n++)
		remote[nr++] = probe_chase_ns(ms->mem_bytes, n);
	if (nr) {
		probe_sort(remote, nr);
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
		return sim_fail(err, "out of memory for the %zu MB pointer chase",
				ms->mem_bytes >> 20);
	return 0;
}

/* Read the host's topology into r, tell o->on_host, measure it; 0, or -1
 * with a message. */
static int measure_host(const struct calibrate_opts *o, struct calibrate_result *r,
			struct sim_err *err)
{
	r->host = calloc(1, sizeof(*r->host));
	if (!r->host)
		return sim_fail(err, "out of memory");
	if (host_topo_read(r->host, err) < 0 || calibrate_check_host(r->host, err) < 0)
		return -1;
	if (o->on_host)
		o->on_host(r->host);
	if (measure_latencies(r->host, &r->measured, err) < 0 ||
	    measure_handoffs(r->host, o->pairs, &r->measured, err) < 0)
		return -1;
	r->measured.ghz = probe_clock_ghz();
	return 0;
}

int calibrate_host(const struct calibrate_opts *o, struct calibrate_result *r,
		   struct sim_err *err)
{
	memset(r, 0, sizeof(*r));
	if (check_opts(o, err) < 0)
		return -1;
	if (measure_host(o, r, err) < 0) {
		calibrate_result_free(r);
		return -1;
	}
	char host[256] = "this host", date[32];
	gethostname(host, sizeof(host));
	time_t now = time(NULL);
	strftime(date, sizeof(date), "%Y-%m-%d", gmtime(&now));
	struct calibrate_label label = { o->name, host, date };
	if (calibrate_fit(r->host, &r->measured, &label, &r->fitted, err) < 0) {
		calibrate_result_free(r);
		return -1;
	}
	return 0;
}

void calibrate_result_free(struct calibrate_result *r)
{
	calibrate_fitted_free(&r->fitted);
	free(r->host);
	r->host = NULL;
}
