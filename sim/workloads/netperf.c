/* netperf.c - netperf over loopback TCP (netperf 2.4, netserver on
 * localhost): `instances` netperf/netserver process pairs, each with one
 * connection. TCP_STREAM: netperf sends `size`-byte messages for the test's
 * length, then shuts down and waits for netserver's close; netserver reads
 * `recv_size` bytes at a time. TCP_RR: netperf sends a request and reads the
 * response, netserver the other way round, one transaction after the other.
 * The sending side allocates each segment's skb, the other side's reads and
 * ACK processing free them (sim/kernel/tcp_loopback.h). Reports
 * transactions/s or 10^6 bits/s, each instance over its own elapsed time as
 * netperf measures it, summed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/tcp_loopback.h"
#include "kernel/wait.h"
#include "kernel/slab_policy.h"
#include "workload.h"

#define NETPERF_STREAM_SIZE 16384	/* netperf's default send size: the send buffer */
#define NETPERF_RR_SIZE 1		/* netperf's default request and response */
#define SO_SNDBUF_MIN 32768		/* two full-sized segments fit */

static const struct param_def netperf_params[] = {
	{ "test", PT_ENUM, "TCP_STREAM", 0, 0, "TCP_STREAM|TCP_RR",
	  "bulk transfer or request/response (netperf -t)" },
	{ "instances", PT_INT, "1", 1, 4096, NULL, "netperf/netserver pairs running at once" },
	{ "size", PT_INT, "0", 0, 1 << 20, NULL,
	  "TCP_RR request / TCP_STREAM send bytes (0: 1 / 16384; -r REQ, -m SIZE)" },
	{ "resp_size", PT_INT, "0", 0, 1 << 20, NULL,
	  "TCP_RR response bytes (0: as size; -r ,RESP)" },
	{ "recv_size", PT_INT, "87380", 1, 1 << 24, NULL,
	  "TCP_STREAM: bytes netserver's recv() asks for (-M; default its receive buffer, "
	  "tcp_rmem[1])" },
	{ "duration_ms", PT_DOUBLE, "10", 0.001, 1e7, NULL, "test length in simulated ms (-l SECONDS)" },
	{ "cpu_pin", PT_ENUM, "none", 0, 0, "none|same|cross",
	  "placement: by the scheduler; both of pair i on CPU i; or netperf on CPU i and "
	  "netserver on the farthest CPU from it" },
	{ "netperf_cpu", PT_INT, "-1", -1, 65535, NULL,
	  "pin pair i's netperf to this CPU + i (-T L,R), -1: as cpu_pin" },
	{ "netserver_cpu", PT_INT, "-1", -1, 65535, NULL,
	  "pin pair i's netserver to this CPU + i (-T L,R), -1: as cpu_pin" },
	{ "sndbuf", PT_INT, "0", 0, SYSCTL_TCP_WMEM2, NULL,
	  "sk_sndbuf of each socket, bytes (0: tcp_wmem[1] grown by tcp_new_space; else "
	  ">= 32768, locked)" },
	{ "sg", PT_BOOL, "1", 0, 1, NULL,
	  "lo's scatter-gather: payload in page fragments (0: in the kmalloc'ed linear area, "
	  "as with ethtool -K lo sg off)" },
	{ NULL },
};

struct np_pair {
	struct netperf *np;
	struct tcp_sock sk[2];		/* [0] netperf's socket, [1] netserver's */
	int cpu[2];			/* pinned CPU, or -1 */
	struct task *task[2];
	uint64_t transactions;
	uint64_t stop;			/* netperf's clock when its measurement ended */
};

struct netperf {
	struct kernel *k;
	bool rr;
	int instances, size, resp_size, recv_size;
	uint64_t duration, start, end;
	struct tcp_net net;
	struct np_pair *pair;
	struct hw_line ready_line;	/* the ready pipe and the go signal */
	int ready, total;
	bool started, done;
	struct hw_lock_class barrier_class;
	struct wait_queue_head ready_wait, wake_wait;
};

/* Tell the parent this task is ready, then wait for the go. */
static void np_ready(struct task *t, struct netperf *np)
{
	struct kernel *k = t->k;
	hw_atomic(k->hw, task_cpu(t), &np->ready_line);
	if (++np->ready == np->total)
		wake_up(t, &np->ready_wait, true);
	for (;;) {
		prepare_to_wait(t, &np->wake_wait);
		hw_read(k->hw, task_cpu(t), &np->ready_line);
		if (np->started)
			break;
		schedule(t);
	}
	finish_wait(t, &np->wake_wait);
}

/* send() until all `len` bytes are queued. */
static void send_all(struct task *t, struct tcp_sock *sk, size_t len)
{
	size_t done = 0;
	while (done < len) {
		long r = sys_send_tcp(t, sk, len - done);
		if (r <= 0)
			return;
		done += (size_t)r;
	}
}

/* recv() until `len` bytes came; false at end of file. */
static bool recv_all(struct task *t, struct tcp_sock *sk, size_t len)
{
	size_t done = 0;
	while (done < len) {
		long r = sys_recv_tcp(t, sk, len - done);
		if (r <= 0)
			return false;
		done += (size_t)r;
	}
	return true;
}

/* netperf: the test loop until its timer expires; TCP_STREAM then shuts
 * down and waits for the remote close before it stops the clock. */
static void np_netperf(struct task *t, void *arg)
{
	struct np_pair *p = arg;
	struct netperf *np = p->np;
	struct tcp_sock *sk = &p->sk[0];
	np_ready(t, np);
	while (task_cpu(t)->clock < np->end) {
		send_all(t, sk, (size_t)np->size);
		if (np->rr) {
			if (!recv_all(t, sk, (size_t)np->resp_size))
				break;
			p->transactions++;
		}
	}
	if (np->rr)
		p->stop = task_cpu(t)->clock;
	sys_shutdown_tcp(t, sk);
	while (sys_recv_tcp(t, sk, (size_t)np->recv_size) > 0)
		;
	if (!np->rr)
		p->stop = task_cpu(t)->clock;
	sys_close_tcp(t, sk);
}

/* netserver's child: answer requests or sink the stream until the FIN. */
static void np_netserver(struct task *t, void *arg)
{
	struct np_pair *p = arg;
	struct netperf *np = p->np;
	struct tcp_sock *sk = &p->sk[1];
	np_ready(t, np);
	if (np->rr) {
		while (recv_all(t, sk, (size_t)np->size))
			send_all(t, sk, (size_t)np->resp_size);
	} else {
		while (sys_recv_tcp(t, sk, (size_t)np->recv_size) > 0)
			;
	}
	sys_close_tcp(t, sk);
}

/* The shell that starts the pairs: it creates the processes, waits until
 * all are ready, starts the clock and waits for them to exit. */
static void np_parent(struct task *t, void *arg)
{
	struct netperf *np = arg;
	struct kernel *k = np->k;
	for (int i = 0; i < np->instances; i++) {
		struct np_pair *p = &np->pair[i];
		task_fn fn[2] = { np_netperf, np_netserver };
		const char *comm[2] = { "netperf", "netserver" };
		for (int s = 1; s >= 0; s--)	/* netserver listens first */
			p->task[s] = p->cpu[s] >= 0 ?
				task_create_pinned(&k->sched, t, fn[s], p, comm[s], NULL, p->cpu[s]) :
				task_create(&k->sched, t, fn[s], p, comm[s], NULL, 0);
	}
	for (;;) {
		prepare_to_wait(t, &np->ready_wait);
		hw_read(k->hw, task_cpu(t), &np->ready_line);
		if (np->ready == np->total)
			break;
		schedule(t);
	}
	finish_wait(t, &np->ready_wait);
	np->start = task_cpu(t)->clock;
	np->end = np->start + np->duration;
	kernel_mark(k, true);
	hw_write(k->hw, task_cpu(t), &np->ready_line);
	np->started = true;
	wake_up(t, &np->wake_wait, false);
	wait_for_children(t);
	kernel_mark(k, false);
	np->done = true;
}

/* Split "A,B" (netperf's break_args): "A" sets both, ",B" or "A," one. */
static int set_pair(struct param_set *ps, const char *opt, const char *v, const char *n1,
		    const char *n2, struct sim_err *err)
{
	char a[64], b[64];
	const char *comma = strchr(v, ',');
	size_t la = comma ? (size_t)(comma - v) : strlen(v);
	if (la >= sizeof(a) || (comma && strlen(comma + 1) >= sizeof(b)))
		return sim_fail(err, "netperf %s: '%s' is too long", opt, v);
	memcpy(a, v, la);
	a[la] = 0;
	snprintf(b, sizeof(b), "%s", comma ? comma + 1 : a);
	if (!a[0] && !b[0])
		return sim_fail(err, "netperf %s needs a value like 1,1", opt);
	if ((a[0] && params_set(ps, n1, a, true, err) < 0) ||
	    (b[0] && params_set(ps, n2, b, true, err) < 0))
		return -1;
	return 0;
}

#define NP_USAGE "netperf [-H localhost] [-t TCP_STREAM|TCP_RR] [-l SECONDS] [-T L,R] " \
	"[-- -m SIZE | -M SIZE | -r REQ[,RESP]]"

/* netperf's own options, those that apply to loopback TCP. */
static int np_parse_cmdline(struct param_set *ps, int argc, char **argv, struct sim_err *err)
{
	bool test_opts = false;
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		if (!test_opts && strcmp(o, "--") == 0) {
			test_opts = true;
			continue;
		}
		const char *known = test_opts ? "mMr" : "HtlT";
		if (o[0] != '-')
			return sim_fail(err, "netperf: unexpected argument '%s' (usage: %s)", o,
					NP_USAGE);
		if (!o[1] || o[2] || !strchr(known, o[1]))
			return sim_fail(err, "netperf: unknown %s option '%s' (usage: %s)",
					test_opts ? "test-specific" : "global", o, NP_USAGE);
		if (i + 1 >= argc)
			return sim_fail(err, "netperf %s needs a value (usage: %s)", o, NP_USAGE);
		const char *v = argv[++i];
		int r = 0;
		if (!test_opts && o[1] == 'H') {
			if (strcmp(v, "localhost") && strcmp(v, "127.0.0.1"))
				return sim_fail(err, "netperf -H %s: only loopback is modelled "
						"(localhost, 127.0.0.1)", v);
		} else if (!test_opts && o[1] == 't') {
			r = params_set(ps, "test", v, true, err);
		} else if (!test_opts && o[1] == 'l') {
			char *end;
			double s = strtod(v, &end);
			if (*end || !(s > 0))
				return sim_fail(err, "netperf -l %s: give the test length in seconds, "
						"> 0 (a count of transactions or bytes is not modelled)", v);
			char ms[64];
			snprintf(ms, sizeof(ms), "%.17g", s * 1000.0);
			r = params_set(ps, "duration_ms", ms, true, err);
		} else if (!test_opts && o[1] == 'T') {
			r = set_pair(ps, o, v, "netperf_cpu", "netserver_cpu", err);
		} else if (o[1] == 'r' || o[1] == 'm' || o[1] == 'M') {
			bool rr = !strcmp(param_str(ps, "test"), "TCP_RR");
			if (rr != (o[1] == 'r'))
				return sim_fail(err, "netperf -- %s is not a %s option (TCP_STREAM "
						"takes -m and -M, TCP_RR -r)", o, rr ? "TCP_RR" : "TCP_STREAM");
			r = o[1] == 'r' ? set_pair(ps, o, v, "size", "resp_size", err) :
				params_set(ps, o[1] == 'm' ? "size" : "recv_size", v, true, err);
		}
		if (r < 0)
			return -1;
	}
	return 0;
}

/* The CPU farthest from `c` (another node, socket, die, core), the
 * `nth` of those in numbering order. */
static int farthest_cpu(const struct machine *m, int c, int nth)
{
	int far = 0, count = 0;
	for (int j = 0; j < m->ncpus; j++) {
		int d = (int)machine_dist(m, c, j);
		if (d > far) {
			far = d;
			count = 0;
		}
		count += d == far;
	}
	nth %= count;
	for (int j = 0; j < m->ncpus; j++)
		if ((int)machine_dist(m, c, j) == far && nth-- == 0)
			return j;
	return c;
}

/* Where pair i's two tasks run, or -1 for the scheduler to choose. */
static int np_place(struct netperf *np, const struct param_set *ps, struct sim_err *err)
{
	const struct machine *m = np->k->m;
	const char *pin = param_str(ps, "cpu_pin");
	int fixed[2] = { (int)param_int(ps, "netperf_cpu"), (int)param_int(ps, "netserver_cpu") };
	for (int s = 0; s < 2; s++)
		if (fixed[s] >= m->ncpus)
			return sim_fail(err, "netperf: %s=%d but %s has %d CPUs",
					s ? "netserver_cpu" : "netperf_cpu", fixed[s], m->name, m->ncpus);
	if (m->ncpus < 2 && !strcmp(pin, "cross"))
		return sim_fail(err, "netperf: cpu_pin=cross needs two CPUs");
	for (int i = 0; i < np->instances; i++) {
		struct np_pair *p = &np->pair[i];
		int c = i % m->ncpus;
		p->cpu[0] = p->cpu[1] = -1;
		if (!strcmp(pin, "same")) {
			p->cpu[0] = p->cpu[1] = c;
		} else if (!strcmp(pin, "cross")) {
			p->cpu[0] = c;
			p->cpu[1] = farthest_cpu(m, c, i);
		}
		for (int s = 0; s < 2; s++)
			if (fixed[s] >= 0)
				p->cpu[s] = (fixed[s] + i) % m->ncpus;
	}
	return 0;
}

/* Free the workload's host state (sockets' queues, TCP records). */
static void np_free(struct netperf *np)
{
	for (int i = 0; np->pair && i < np->instances; i++) {
		tcp_sock_free(&np->pair[i].sk[0]);
		tcp_sock_free(&np->pair[i].sk[1]);
	}
	free(np->pair);
	tcp_net_destroy(&np->net);
	free(np);
}

/* Sockets for each pair, their placement, and the parent task. */
static int np_start(struct kernel *k, const struct param_set *ps, void **state,
		    struct sim_err *err)
{
	int sndbuf = (int)param_int(ps, "sndbuf");
	if (sndbuf && sndbuf < SO_SNDBUF_MIN)
		return sim_fail(err, "netperf: sndbuf=%d: give 0 (autotuned) or at least %d bytes",
				sndbuf, SO_SNDBUF_MIN);
	struct netperf *np = calloc(1, sizeof(*np));
	if (!np)
		return sim_fail(err, "out of memory");
	np->k = k;
	np->rr = !strcmp(param_str(ps, "test"), "TCP_RR");
	np->instances = (int)param_int(ps, "instances");
	np->size = (int)param_int(ps, "size");
	if (!np->size)
		np->size = np->rr ? NETPERF_RR_SIZE : NETPERF_STREAM_SIZE;
	np->resp_size = (int)param_int(ps, "resp_size");
	if (!np->resp_size)
		np->resp_size = np->size;
	np->recv_size = (int)param_int(ps, "recv_size");
	np->duration = (uint64_t)(param_double(ps, "duration_ms") * k->m->ghz * 1e6);
	np->total = 2 * np->instances;
	np->pair = calloc((size_t)np->instances, sizeof(*np->pair));
	if (!np->pair) {
		np_free(np);
		return sim_fail(err, "out of memory");
	}
	if (tcp_net_init(k, &np->net, param_bool(ps, "sg"), sndbuf, err) < 0 ||
	    np_place(np, ps, err) < 0) {
		np_free(np);
		return -1;
	}
	for (int i = 0; i < np->instances; i++) {
		struct np_pair *p = &np->pair[i];
		p->np = np;
		int node = p->cpu[1] >= 0 ? k->m->topo[p->cpu[1]].node : 0;
		tcp_socketpair(&np->net, &p->sk[0], &p->sk[1], node);
	}
	hw_line_init(k->hw, &np->ready_line, 0);
	hw_lock_class_init(k->hw, &np->barrier_class, "&pipe->wait (netperf start)",
			   k->hw->sym_spin_lock);
	init_waitqueue_head(k, &np->ready_wait, &np->barrier_class, 0);
	init_waitqueue_head(k, &np->wake_wait, &np->barrier_class, 0);
	task_create(&k->sched, NULL, np_parent, np, "netperf-run", NULL, 0);
	*state = np;
	return 0;
}

/* Free counts of one kind of skb, for the JSON. */
static cJSON *free_stats_json(const struct tcp_free_stats *st)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "allocated", (double)st->allocated);
	cJSON_AddNumberToObject(o, "freed", (double)st->freed);
	cJSON_AddNumberToObject(o, "freed_by_other_side", (double)st->freed_by_other_side);
	cJSON_AddNumberToObject(o, "freed_on_other_cpu", (double)st->freed_on_other_cpu);
	return o;
}

/* netperf's figure: each instance's work over its own elapsed time, summed. */
static void np_result(void *state, struct workload_result *r)
{
	struct netperf *np = state;
	double hz = np->k->m->ghz * 1e9;
	double rate = 0, longest = 0, transactions = 0, bytes = 0;
	for (int i = 0; np->done && i < np->instances; i++) {
		struct np_pair *p = &np->pair[i];
		double secs = (double)(p->stop - np->start) / hz;
		double work = np->rr ? (double)p->transactions : (double)p->sk[1].bytes_received * 8e-6;
		rate += secs > 0 ? work / secs : 0;
		longest = secs > longest ? secs : longest;
		transactions += (double)p->transactions;
		bytes += (double)(p->sk[0].bytes_sent + p->sk[1].bytes_sent);
	}
	r->finished = np->done;
	r->sim_seconds = longest;
	r->extra = cJSON_CreateObject();
	cJSON_AddStringToObject(r->extra, "test", np->rr ? "TCP_RR" : "TCP_STREAM");
	cJSON_AddNumberToObject(r->extra, "instances", np->instances);
	cJSON_AddNumberToObject(r->extra, "bytes", bytes);
	if (np->rr) {
		snprintf(r->line, sizeof(r->line), "TCP_RR: %.1f transactions/s", rate);
		cJSON_AddNumberToObject(r->extra, "transactions", transactions);
		cJSON_AddNumberToObject(r->extra, "transactions_per_second", rate);
	} else {
		snprintf(r->line, sizeof(r->line), "TCP_STREAM: %.1f 10^6bits/s", rate);
		cJSON_AddNumberToObject(r->extra, "throughput_mbps", rate);
	}
	cJSON_AddNumberToObject(r->extra, "sndbuf", np->instances ? np->pair[0].sk[0].sk_sndbuf : 0);
	cJSON *skbs = cJSON_AddObjectToObject(r->extra, "skbs");
	cJSON_AddItemToObject(skbs, "data", free_stats_json(&np->net.data));
	cJSON_AddItemToObject(skbs, "ack", free_stats_json(&np->net.acks));
	cJSON_AddNumberToObject(r->extra, "pages_allocated", (double)np->net.pages_allocated);
	cJSON *cpus = cJSON_AddArrayToObject(r->extra, "cpus");
	for (int i = 0; i < np->instances; i++) {
		cJSON *pair = cJSON_CreateArray();
		for (int s = 0; s < 2; s++)
			cJSON_AddItemToArray(pair, cJSON_CreateNumber(np->pair[i].task[s] ?
								      np->pair[i].task[s]->cpu : -1));
		cJSON_AddItemToArray(cpus, pair);
	}
}

/* Every byte delivered, every skb and page freed, every socket empty. */
static int np_check(void *state, struct sim_err *err)
{
	struct netperf *np = state;
	const struct tcp_net *net = &np->net;
	if (!np->done)
		return 0;
	for (int i = 0; i < np->instances; i++) {
		struct np_pair *p = &np->pair[i];
		char name[64];
		for (int s = 0; s < 2; s++) {
			snprintf(name, sizeof(name), "netperf pair %d, %s socket", i,
				 s ? "netserver's" : "netperf's");
			if (tcp_sock_check(&p->sk[s], name, err) < 0)
				return -1;
			if (p->sk[s].bytes_sent != p->sk[!s].bytes_received)
				return sim_fail(err, "%s sent %llu bytes, %llu were received", name,
						(unsigned long long)p->sk[s].bytes_sent,
						(unsigned long long)p->sk[!s].bytes_received);
		}
	}
	if (net->skbs_live || net->data.allocated != net->data.freed ||
	    net->acks.allocated != net->acks.freed)
		return sim_fail(err, "netperf: %d skbs live at the end (fclones %llu allocated, "
				"%llu freed; ACKs %llu, %llu)", net->skbs_live,
				(unsigned long long)net->data.allocated,
				(unsigned long long)net->data.freed,
				(unsigned long long)net->acks.allocated,
				(unsigned long long)net->acks.freed);
	if (net->pages_live || net->skbuff_fclone_cache->live)
		return sim_fail(err, "netperf: %d payload pages and %llu skbuff_fclone_cache objects "
				"live at the end", net->pages_live,
				(unsigned long long)net->skbuff_fclone_cache->live);
	return 0;
}

/* The workload's destroy hook. */
static void np_destroy(void *state)
{
	np_free(state);
}

const struct workload netperf_workload = {
	.name = "netperf",
	.description = "netperf TCP_STREAM / TCP_RR over loopback TCP: the sender allocates the "
		       "skbs, the reader's side or the ACK's frees them",
	.usage = NP_USAGE,
	.params = netperf_params,
	.parse_cmdline = np_parse_cmdline,
	.start = np_start,
	.result = np_result,
	.check = np_check,
	.destroy = np_destroy,
};
