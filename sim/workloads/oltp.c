/* oltp.c - the seeds' "well-known OLTP benchmark" as a synthetic model of
 * Intel's 2008 setup (docs/workloads.md): SCHED_RR database server processes,
 * each serving one client connection in a loop: receive a request, run the
 * transaction's user code, read/write the database with direct IO through
 * aio (io_submit, io_getevents) and send the reply. IO completions and
 * network packets arrive by interrupts routed to fixed CPUs (irq=), so the
 * IO path's objects are freed in batches on CPUs that did not allocate
 * them. The mix it assumes (published figures give none per cache) is in
 * the parameters below and in README.md; its defaults are set so that on
 * core2-ep the system profile matches the published one (about 25% system
 * time, 43,000 context switches/s, 22,000-30,000 interrupts/s). Reports
 * transactions per simulated second. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "oltp.h"

static const struct param_def oltp_params[] = {
	{ "clients", PT_INT, "0", 0, 100000, NULL,
	  "database server processes, one client connection each (0: 32 per CPU)" },
	{ "user_us", PT_DOUBLE, "285", 0, 1e6, NULL,
	  "user time of one transaction, mean of an exponential (microseconds)" },
	{ "ios_per_tx", PT_DOUBLE, "5", 0, 16, NULL,
	  "direct IOs (8 KB, one bio each) per transaction, on average" },
	{ "io_latency_us", PT_DOUBLE, "4000", 1, 1e6, NULL,
	  "disk service time, mean of an exponential (450 disks: no queueing)" },
	{ "client_rtt_us", PT_DOUBLE, "100", 0, 1e6, NULL,
	  "from a reply to the client's next request arriving at the NIC" },
	{ "req_bytes", PT_INT, "300", 1, 1460, NULL, "bytes of a client request" },
	{ "reply_bytes", PT_INT, "1000", 1, 16384, NULL, "bytes of a reply" },
	{ "irq", PT_ENUM, "spread", 0, 0, "spread|cpu0|submitter",
	  "interrupt routing: HBAs and NIC spread over CPUs (irqbalance), all on CPU 0, "
	  "or IO completion on the submitting CPU" },
	{ "hbas", PT_INT, "3", 1, 64, NULL, "FC host bus adapters (interrupt lines)" },
	{ "hba_coalesce_us", PT_DOUBLE, "150", 0, 1e5, NULL,
	  "an HBA's interrupt coalescing: least time between its interrupts" },
	{ "nic_itr_us", PT_DOUBLE, "125", 0, 1e5, NULL,
	  "the NIC's interrupt throttling (e1000 InterruptThrottleRate 8000/s)" },
	{ "tx_done_us", PT_DOUBLE, "20", 0, 1e5, NULL,
	  "from sending a reply to the NIC reporting it transmitted" },
	{ "touch_lines", PT_INT, "1", 0, 16, NULL, "lines of each IO object initialised" },
	{ "warmup_ms", PT_DOUBLE, "20", 0, 1e5, NULL, "simulated time before the measurement" },
	{ "duration_ms", PT_DOUBLE, "100", 0.1, 1e6, NULL, "simulated time measured" },
	{ NULL },
};

/* Published system profile of Intel's OLTP setup (docs/workloads.md). */
#define PUB_SYS_PERCENT 25.0
#define PUB_CS_PER_S 43000.0
#define PUB_IRQ_LOW 22000.0
#define PUB_IRQ_HIGH 30000.0

/* User code of the transaction, in slices between which interrupts land. */
static void run_user(struct task *t, struct oltp *o, uint64_t cycles)
{
	while (cycles) {
		uint64_t c = cycles < o->user_chunk ? cycles : o->user_chunk;
		struct sim_cpu *cpu = task_cpu(t);
		int psym = sym_enter(cpu, o->k->sym_user);
		cpu_charge(cpu, c);
		sym_exit(cpu, psym);
		cycles -= c;
		cpu_sync(cpu);	/* a due interrupt's timer has fired by now */
		sched_preempt_point(t);
	}
}

/* The IOs of one transaction: ios_per_tx on average. */
static int ios_this_tx(struct oltp *o)
{
	int n = (int)o->ios_per_tx;
	double frac = o->ios_per_tx - n;
	if (frac > 0 && gsl_rng_uniform(o->k->eng->rng) < frac)
		n++;
	return n;
}

/* A database server process: one transaction per client request. */
static void oltp_process(struct task *t, void *arg)
{
	struct oltp_proc *p = arg;
	struct oltp *o = p->o;
	gsl_rng *rng = o->k->eng->rng;
	for (;;) {
		oltp_recv_request(t, p);
		uint64_t user = (uint64_t)gsl_ran_exponential(rng, (double)o->user_cycles);
		run_user(t, o, user / 2);
		int n = ios_this_tx(o);
		if (n) {
			oltp_submit_ios(t, p, n);
			oltp_wait_ios(t, p);
		}
		run_user(t, o, user - user / 2);
		oltp_send_reply(t, p);
		p->tx++;
		struct sim_cpu *cpu = task_cpu(t);
		cpu_sync(cpu);
		if (o->stop)
			break;
		oltp_client_request(o, cpu, p, cpu->clock + o->client_rtt);
	}
}

/* Sums over the processes and the kernel, at one edge of the window. */
static void snapshot(struct oltp *o, uint64_t *tx, uint64_t *cs, uint64_t *irq)
{
	*tx = 0;
	for (int i = 0; i < o->clients; i++)
		*tx += o->procs[i].tx;
	*cs = o->k->sched.context_switches;
	*irq = oltp_interrupts(o);
}

/* The NIC's interrupts so far (the rest are the HBAs'). */
static uint64_t nic_irqs(const struct oltp *o)
{
	return o->nic.count;
}

/* The benchmark driver: start the processes and their clients, measure
 * after the warm-up, stop, and wait for the processes to finish. */
static void oltp_parent(struct task *t, void *arg)
{
	struct oltp *o = arg;
	struct kernel *k = o->k;
	t->rt = true;
	for (int i = 0; i < o->clients; i++) {
		struct task *c = task_create(&k->sched, t, oltp_process, &o->procs[i], "oracle",
					     NULL, 0);
		c->rt = true;
	}
	struct sim_cpu *cpu = task_cpu(t);
	uint64_t spread = o->client_rtt + o->user_cycles + 1;
	for (int i = 0; i < o->clients; i++)
		oltp_client_request(o, cpu, &o->procs[i],
				    cpu->clock + gsl_rng_uniform_int(k->eng->rng, spread));
	schedule_timeout_until(t, task_cpu(t)->clock + o->warmup);
	o->t0 = task_cpu(t)->clock;
	kernel_mark(k, true);
	snapshot(o, &o->tx0, &o->cs0, &o->irq0);
	o->nic0 = nic_irqs(o);
	schedule_timeout_until(t, o->t0 + o->duration);
	o->t1 = task_cpu(t)->clock;
	kernel_mark(k, false);
	snapshot(o, &o->tx1, &o->cs1, &o->irq1);
	o->nic1 = nic_irqs(o);
	cpu_sync(task_cpu(t));
	o->stop = true;
	wait_for_children(t);
	o->done = true;
}

static void oltp_destroy(void *state);

/* The processes with their wait queues and lines, the IO and interrupt paths, and the driver. */
static int oltp_start(struct kernel *k, const struct param_set *ps, void **state,
		      struct sim_err *err)
{
	struct oltp *o = calloc(1, sizeof(*o));
	if (!o)
		return sim_fail(err, "out of memory");
	*state = o;
	double cyc_us = k->m->ghz * 1e3;
	o->k = k;
	o->clients = (int)param_int(ps, "clients");
	if (!o->clients)
		o->clients = 32 * k->eng->ncpus;
	o->hbas = (int)param_int(ps, "hbas");
	o->ios_per_tx = param_double(ps, "ios_per_tx");
	o->user_cycles = (uint64_t)(param_double(ps, "user_us") * cyc_us);
	o->user_chunk = (uint64_t)(10 * cyc_us);
	o->io_latency = (uint64_t)(param_double(ps, "io_latency_us") * cyc_us);
	o->client_rtt = (uint64_t)(param_double(ps, "client_rtt_us") * cyc_us);
	o->tx_done_delay = (uint64_t)(param_double(ps, "tx_done_us") * cyc_us);
	o->warmup = (uint64_t)(param_double(ps, "warmup_ms") * 1e3 * cyc_us);
	o->duration = (uint64_t)(param_double(ps, "duration_ms") * 1e3 * cyc_us);
	o->req_bytes = (int)param_int(ps, "req_bytes");
	o->reply_bytes = (int)param_int(ps, "reply_bytes");
	o->touch_lines = (int)param_int(ps, "touch_lines");
	o->submitter_irq = !strcmp(param_str(ps, "irq"), "submitter");
	o->procs = calloc((size_t)o->clients, sizeof(*o->procs));
	if (!o->procs) {
		oltp_destroy(o);
		*state = NULL;
		return sim_fail(err, "out of memory for %d oltp processes", o->clients);
	}
	if (oltp_paths_init(o, err) < 0 ||
	    oltp_irqs_init(o, param_str(ps, "irq"),
			   (uint64_t)(param_double(ps, "hba_coalesce_us") * cyc_us),
			   (uint64_t)(param_double(ps, "nic_itr_us") * cyc_us), err) < 0) {
		oltp_destroy(o);
		*state = NULL;
		return -1;
	}
	hw_lock_class_init(k->hw, &o->wait_class, "&ctx->wait / sk_sleep (oltp)",
			   k->hw->sym_spin_lock);
	for (int i = 0; i < o->clients; i++) {
		struct oltp_proc *p = &o->procs[i];
		int node = k->m->topo[i % k->eng->ncpus].node;
		p->o = o;
		p->id = i;
		init_waitqueue_head(k, &p->io_wait, &o->wait_class, node);
		init_waitqueue_head(k, &p->sk_sleep, &o->wait_class, node);
		hw_line_init(k->hw, &p->sk_line, node);
		hw_line_init(k->hw, &p->ctx_line, node);
	}
	task_create(&k->sched, NULL, oltp_parent, o, "runbench", NULL, 0);
	return 0;
}

/* The window's shares of all CPU time: user, system, idle. */
static void shares(const struct oltp *o, double *user, double *sys, double *idle)
{
	const struct kernel *k = o->k;
	double total = (double)(o->t1 - o->t0) * k->eng->ncpus;
	double u = (double)(k->win.cycles[1][k->sym_user] - k->win.cycles[0][k->sym_user]);
	double busy = (double)(k->win.busy[1] - k->win.busy[0]);
	*user = total > 0 ? u / total : 0;
	*sys = total > 0 ? (busy - u) / total : 0;
	*idle = total > 0 && busy < total ? 1 - busy / total : 0;
}

/* Transactions per second over the window; the system profile and the published one in the
 * JSON. */
static void oltp_result(void *state, struct workload_result *r)
{
	struct oltp *o = state;
	double hz = o->k->m->ghz * 1e9;
	double secs = o->done ? (double)(o->t1 - o->t0) / hz : 0;
	r->finished = o->done;
	r->sim_seconds = secs;
	double tps = secs > 0 ? (double)(o->tx1 - o->tx0) / secs : 0;
	snprintf(r->line, sizeof(r->line), "OLTP: %.0f transactions/s (%d clients, irq=%s)", tps,
		 o->clients, o->submitter_irq ? "submitter" : o->hba[0].cpu == o->nic.cpu ? "cpu0"
										   : "spread");
	double user, sys, idle;
	shares(o, &user, &sys, &idle);
	cJSON *x = r->extra = cJSON_CreateObject();
	cJSON_AddNumberToObject(x, "transactions", (double)(o->tx1 - o->tx0));
	cJSON_AddNumberToObject(x, "transactions_per_second", tps);
	cJSON_AddNumberToObject(x, "user_percent", 100 * user);
	cJSON_AddNumberToObject(x, "system_percent", 100 * sys);
	cJSON_AddNumberToObject(x, "idle_percent", 100 * idle);
	cJSON_AddNumberToObject(x, "context_switches_per_second",
				secs > 0 ? (double)(o->cs1 - o->cs0) / secs : 0);
	cJSON_AddNumberToObject(x, "interrupts_per_second",
				secs > 0 ? (double)(o->irq1 - o->irq0) / secs : 0);
	cJSON_AddNumberToObject(x, "nic_interrupts_per_second",
				secs > 0 ? (double)(o->nic1 - o->nic0) / secs : 0);
	cJSON_AddNumberToObject(x, "ios", (double)o->ios);
	cJSON_AddNumberToObject(x, "clients", o->clients);
	cJSON *pub = cJSON_AddObjectToObject(x, "published_core2_ep");
	cJSON_AddNumberToObject(pub, "system_percent", PUB_SYS_PERCENT);
	cJSON_AddNumberToObject(pub, "context_switches_per_second", PUB_CS_PER_S);
	cJSON_AddNumberToObject(pub, "interrupts_per_second_low", PUB_IRQ_LOW);
	cJSON_AddNumberToObject(pub, "interrupts_per_second_high", PUB_IRQ_HIGH);
}

/* vmstat's view of the window, beside the published profile. */
static void oltp_print(void *state, FILE *out, const struct wl_published *published)
{
	struct oltp *o = state;
	double secs = (double)(o->t1 - o->t0) / (o->k->m->ghz * 1e9);
	if (!o->done || secs <= 0)
		return;
	double user, sys, idle;
	shares(o, &user, &sys, &idle);
	fprintf(out, "System profile (vmstat over %.3f s): us %.1f%% sy %.1f%% id %.1f%%, "
		"cs %.0f/s, in %.0f/s (HBAs %.0f/s, NIC %.0f/s)\n", secs, 100 * user, 100 * sys,
		100 * idle, (double)(o->cs1 - o->cs0) / secs, (double)(o->irq1 - o->irq0) / secs,
		(double)(o->irq1 - o->irq0 - (o->nic1 - o->nic0)) / secs,
		(double)(o->nic1 - o->nic0) / secs);
	fprintf(out, "Published (Intel OLTP, 2 sockets x 4 cores, LKML 2008): us 75%% sy %.0f%%, "
		"cs ~%.0f/s, in %.0f-%.0f/s\n", PUB_SYS_PERCENT, PUB_CS_PER_S, PUB_IRQ_LOW,
		PUB_IRQ_HIGH);
}

/* At the end no process has IOs in flight or a request queued, and no HBA or NIC has events
 * pending. */
static int oltp_check(void *state, struct sim_err *err)
{
	struct oltp *o = state;
	for (int i = 0; o->done && i < o->clients; i++) {
		const struct oltp_proc *p = &o->procs[i];
		if (p->inflight || p->req_queued)
			return sim_fail(err, "oltp: process %d ends with %d IOs in flight and %s "
					"request queued", i, p->inflight, p->req_queued ? "a" : "no");
	}
	for (int i = 0; o->done && i < o->nirq_hba; i++)
		if (o->hba[i].n)
			return sim_fail(err, "oltp: HBA %d ends with %d completions pending", i,
					o->hba[i].n);
	if (o->done && o->nic.n)
		return sim_fail(err, "oltp: the NIC ends with %d events pending", o->nic.n);
	return 0;
}

/* `oltp [CLIENTS]`: the one word is the number of clients. */
static int oltp_parse_cmdline(struct param_set *ps, int argc, char **argv, struct sim_err *err)
{
	if (argc > 2)
		return sim_fail(err, "oltp: unexpected argument '%s' (usage: oltp [CLIENTS])",
				argv[2]);
	return argc == 2 ? params_set(ps, "clients", argv[1], true, err) : 0;
}

/* Free the interrupt lines, pools, processes and state; also after a failed start. */
static void oltp_destroy(void *state)
{
	struct oltp *o = state;
	if (!o)
		return;
	for (int i = 0; o->hba && i < o->nirq_hba; i++)
		irq_line_destroy(&o->hba[i]);
	if (o->nic.heap)
		irq_line_destroy(&o->nic);
	for (int i = 0; i < o->nev_chunks; i++)
		free(o->ev_pool_chunks[i]);
	free(o->ev_pool_chunks);
	free(o->hba);
	free(o->io_pool);
	free(o->procs);
	free(o);
}

const struct workload oltp_workload = {
	.name = "oltp",
	.description = "OLTP database server (Intel's 2008 setup): SCHED_RR processes; each "
		       "transaction does ios_per_tx 8 KB direct IOs (kiocb 184 B, bio 104, "
		       "biovec-4 64, blkdev_requests 264, scsi_cmd_cache 320, sgpool-8 256, "
		       "freed in batches by the HBA interrupt's CPU), receives a request (skb + "
		       "2 KB buffer, allocated by the NIC interrupt) and sends a reply "
		       "(skbuff_fclone_cache + data, freed by the NIC interrupt)",
	.usage = "oltp [CLIENTS]",
	.params = oltp_params,
	.parse_cmdline = oltp_parse_cmdline,
	.start = oltp_start,
	.result = oltp_result,
	.check = oltp_check,
	.print = oltp_print,
	.destroy = oltp_destroy,
};
