/* hackbench.c - Ingo Molnar's hackbench (and perf bench sched messaging):
 * GROUPS groups of 20 senders and 20 receivers; each receiver owns one
 * AF_UNIX stream socketpair, and every sender of its group writes LOOPS
 * 100-byte messages to each of the group's 20 receivers. Every child reports
 * ready and waits; the parent starts the clock, wakes them all, and stops it
 * once every child has exited and been reaped. Prints `Time: S.MS`.
 *
 * With sample=auto its units of work are the messages read. Once their rate
 * has settled (engine/steady.h), the run moves on in time: every sender
 * skips the loops it would have sent over the same stretch of time at its
 * own recent pace (a group that starves skips none), so that HB_TAIL of the
 * run's messages remain. The end of the run, where senders and groups finish
 * one by one, is simulated from where each would be; the middle is not, and
 * the time of the messages skipped is extrapolated at the settled rate. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/af_unix.h"
#include "kernel/wait.h"
#include "engine/suggest.h"
#include "workload.h"

#define HB_TAIL 0.05	/* sampled: the share of the messages simulated at the end */

static const struct param_def hackbench_params[] = {
	{ "groups", PT_INT, "10", 1, 100000, NULL, "groups of senders and receivers" },
	{ "loops", PT_INT, "100", 1, 100000000, NULL, "messages each sender sends to each receiver" },
	{ "mode", PT_ENUM, "process", 0, 0, "process|thread",
	  "fork processes (own address spaces) or create threads" },
	{ "fds", PT_INT, "20", 1, 1000, NULL, "senders and receivers per group" },
	{ "datasize", PT_INT, "100", 1, 65536, NULL, "bytes per message" },
	{ NULL },
};

struct hb_child {
	struct hackbench *hb;
	int group, idx;
	int loop;		/* a sender's loop, counting the ones it skipped */
	int skip;		/* sampled: loops it skips after the one it is on */
	bool skipped;
	int mark[2];		/* sampled: its loop at the last two marks */
};

struct hackbench {
	struct kernel *k;
	int groups, loops, fds, datasize;
	bool threads;
	struct unix_classes uc;
	struct unix_sock *socks;	/* channel c: [2c] reader side, [2c+1] writer side */
	struct hb_child *child;
	struct hw_line ready_line;	/* the ready pipe and the wake fd */
	int ready, total;
	bool started;
	struct hw_lock_class barrier_class;
	struct wait_queue_head ready_wait, wake_wait;
	uint64_t start, stop;
	bool done;
	uint64_t read_bytes;
	uint64_t half_bytes;	/* half of all bytes: the steady second half starts */
	uint64_t half;		/* when the receivers had read half */
	bool settled;		/* sampled: the rate settled (hb_settled ran) */
	uint64_t skipped;	/* sampled: messages no sender will send */
	int next_mark;		/* sampled: observations at the next mark (doubling) */
	uint64_t mark_time[2];	/* sampled: when the last two marks were taken */
	long *packets;		/* per group: messages each of its receivers reads */
	uint64_t messages_read;
	char barfed[320];	/* the first barf(): why a child exited early */
};

/* ready(): tell the parent, then poll the wake fd until started. */
static void hb_ready(struct task *t, struct hackbench *hb)
{
	struct kernel *k = t->k;
	cpu_charge(task_cpu(t), k->cost.syscall + k->cost.sys_rw);
	hw_atomic(k->hw, task_cpu(t), &hb->ready_line);
	if (++hb->ready == hb->total)
		wake_up(t, &hb->ready_wait, true);
	for (;;) {
		prepare_to_wait(t, &hb->wake_wait);
		hw_read(k->hw, task_cpu(t), &hb->ready_line);
		if (hb->started)
			break;
		schedule(t);
	}
	finish_wait(t, &hb->wake_wait);
}

/* hackbench's sender: after ready(), LOOPS times write one message to each receiver of its
 * group (sampled: skipping the loops set when the rate settled); a failed write ends it. */
static void hb_sender(struct task *t, void *arg)
{
	struct hb_child *c = arg;
	struct hackbench *hb = c->hb;
	hb_ready(t, hb);
	int base = c->group * hb->fds;
	for (c->loop = 0; c->loop < hb->loops; c->loop++) {
		if (c->skip && !c->skipped) {	/* sampled: past the middle of the run */
			c->skipped = true;
			c->loop += c->skip;
			if (c->loop >= hb->loops)
				break;
		}
		for (int j = 0; j < hb->fds; j++) {
			long done = 0;
			while (done < hb->datasize) {
				long r = sys_write_unix(t, &hb->socks[2 * (base + j) + 1],
							(size_t)(hb->datasize - done));
				if (r < 0) {	/* barf("SENDER: write"): this child exits */
					char why[256];
					if (!hb->barfed[0])
						snprintf(hb->barfed, sizeof(hb->barfed),
							 "hackbench: SENDER: write: No buffer space "
							 "available (an skb allocation failed; by then %s)",
							 kernel_alloc_failures(t->k, why, sizeof(why)));
					return;
				}
				done += r;
			}
		}
	}
}

/* Loops sender c has after the one it is on. */
static int hb_loops_left(const struct hackbench *hb, const struct hb_child *c)
{
	return hb->loops - (c->loop < hb->loops ? c->loop + 1 : hb->loops);
}

/* Every sender's loop now, beside the one before (every time the sampler's
 * observations double): its pace over at least the later half of them. */
static void hb_mark(struct hackbench *hb, uint64_t now)
{
	for (int i = 0; i < hb->groups * hb->fds; i++) {
		struct hb_child *c = &hb->child[2 * i + 1];
		c->mark[0] = c->mark[1];
		c->mark[1] = c->loop;
	}
	hb->mark_time[0] = hb->mark_time[1];
	hb->mark_time[1] = now;
	hb->next_mark *= 2;
}

/* The loops sender c skips to move on by `dt` cycles at its pace since the
 * older mark: at most all but one of those it has left, so that every
 * receiver still has a message to come from each sender with loops left
 * (none waits for a message no one will send). */
static int hb_skip_of(const struct hackbench *hb, const struct hb_child *c, double dt,
		      uint64_t now)
{
	int left = hb_loops_left(hb, c);
	double span = (double)(now - hb->mark_time[0]);
	double pace = span > 0 ? (double)(c->loop - c->mark[0]) / span : 0;
	double skip = pace * dt;
	return skip < left - 1 ? (int)skip : (left > 1 ? left - 1 : 0);
}

/* Messages the senders would still send after moving on by `dt` cycles. */
static uint64_t hb_kept(const struct hackbench *hb, double dt, uint64_t now)
{
	uint64_t kept = 0;
	for (int i = 0; i < hb->groups * hb->fds; i++) {
		const struct hb_child *c = &hb->child[2 * i + 1];
		kept += (uint64_t)(hb_loops_left(hb, c) - hb_skip_of(hb, c, dt, now)) *
			(uint64_t)hb->fds;
	}
	return kept;
}

/* The rate has settled: the senders move on by the longest stretch of time
 * that leaves HB_TAIL of all messages to come, each skipping what it would
 * have sent meanwhile at its own pace; its group's receivers expect as many
 * fewer. */
static void hb_settled(struct hackbench *hb, uint64_t now)
{
	hb->settled = true;
	uint64_t tail = (uint64_t)(HB_TAIL * hb->groups * hb->fds * hb->fds * (double)hb->loops);
	if (hb->mark_time[0] >= now || hb_kept(hb, 0, now) <= tail)
		return;	/* no pace to go by, or not much left: run to the end */
	double lo = 0, hi = 1;	/* the longest stretch with hb_kept >= tail */
	while (hb_kept(hb, hi, now) >= tail && hi < 1e18)
		hi *= 2;
	for (int it = 0; it < 64; it++) {
		double mid = (lo + hi) / 2;
		if (hb_kept(hb, mid, now) >= tail)
			lo = mid;
		else
			hi = mid;
	}
	for (int i = 0; i < hb->groups * hb->fds; i++) {
		struct hb_child *c = &hb->child[2 * i + 1];
		c->skip = hb_skip_of(hb, c, lo, now);
		hb->packets[c->group] -= c->skip;
		hb->skipped += (uint64_t)c->skip * (uint64_t)hb->fds;
	}
}

/* hackbench's receiver: after ready(), read its group's messages from its socket, noting
 * each for the sampler, which may settle the rate or take a mark. */
static void hb_receiver(struct task *t, void *arg)
{
	struct hb_child *c = arg;
	struct hackbench *hb = c->hb;
	hb_ready(t, hb);
	struct unix_sock *in = &hb->socks[2 * (c->group * hb->fds + c->idx)];
	for (long i = 0; i < hb->packets[c->group]; i++) {
		long done = 0;
		while (done < hb->datasize) {
			long r = sys_read_unix(t, in, (size_t)(hb->datasize - done));
			done += r;
			hb->read_bytes += (uint64_t)r;
			if (!hb->half && hb->read_bytes >= hb->half_bytes)
				hb->half = task_cpu(t)->clock;
		}
		hb->messages_read++;
		struct steady *st = &t->k->steady;
		if (steady_note(st, 1, task_cpu(t)->clock) && !hb->settled)
			hb_settled(hb, task_cpu(t)->clock);
		if (st->nobs >= hb->next_mark && !hb->settled)
			hb_mark(hb, task_cpu(t)->clock);
	}
}

/* hackbench's parent: create each group's receivers and senders, wait until all are ready,
 * start the clock and wake them, and stop it once every child has been reaped. */
static void hb_parent(struct task *t, void *arg)
{
	struct hackbench *hb = arg;
	struct kernel *k = hb->k;
	struct mm_struct *mm = hb->threads ? t->mm : NULL;
	for (int g = 0; g < hb->groups; g++) {
		for (int i = 0; i < hb->fds; i++) {
			struct hb_child *c = &hb->child[2 * (g * hb->fds + i)];
			c->hb = hb;
			c->group = g;
			c->idx = i;
			task_create(&k->sched, t, hb_receiver, c, "hackbench", mm, 0);
		}
		for (int i = 0; i < hb->fds; i++) {
			struct hb_child *c = &hb->child[2 * (g * hb->fds + i) + 1];
			c->hb = hb;
			c->group = g;
			c->idx = i;
			task_create(&k->sched, t, hb_sender, c, "hackbench", mm, 0);
		}
	}
	for (;;) {	/* read one ready byte per child */
		prepare_to_wait(t, &hb->ready_wait);
		hw_read(k->hw, task_cpu(t), &hb->ready_line);
		if (hb->ready == hb->total)
			break;
		schedule(t);
	}
	finish_wait(t, &hb->ready_wait);
	hb->start = task_cpu(t)->clock;	/* gettimeofday(&start) */
	steady_start(&k->steady, hb->start);
	kernel_mark(k, true);
	hw_write(k->hw, task_cpu(t), &hb->ready_line);
	hb->started = true;
	/* write(wakefd): pipe_write() wakes the pollers with
	 * wake_up_interruptible_sync() (fs/pipe.c, 2.6.24 to 2.6.31 and on) */
	wake_up(t, &hb->wake_wait, true);
	wait_for_children(t);
	hb->stop = task_cpu(t)->clock;
	kernel_mark(k, false);
	hb->done = true;
	/* the parent exits too; the run ends when every CPU is idle, so that
	 * nothing is left half done (a lock held, a switch not finished) */
}

/* hackbench's command line: [GROUPS] [process|thread] [LOOPS]; -pipe is refused. */
static int hb_parse_cmdline(struct param_set *ps, int argc, char **argv, struct sim_err *err)
{
	int pos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-pipe") == 0)
			return sim_fail(err, "hackbench -pipe: pipes are not modelled yet "
					"(AF_UNIX sockets are)");
		if (strcmp(a, "process") == 0 || strcmp(a, "thread") == 0) {
			if (params_set(ps, "mode", a, true, err) < 0)
				return -1;
			continue;
		}
		char *end;
		(void)strtol(a, &end, 10);
		if (end == a && !strchr(a, '=') && pos < 2) {	/* a word: a mistyped mode */
			char near[96];
			return sim_fail(err, "hackbench: '%s' is neither a count nor a mode "
					"(process, thread)%s; usage: hackbench [GROUPS] "
					"[process|thread] [LOOPS]", a,
					suggest_near(a, "process thread", near, sizeof(near)));
		}
		const char *name = pos == 0 ? "groups" : pos == 1 ? "loops" : NULL;
		if (!name)
			return sim_fail(err, "hackbench: unexpected argument '%s' (usage: hackbench "
					"[GROUPS] [process|thread] [LOOPS])", a);
		if (params_set(ps, name, a, true, err) < 0)
			return -1;
		pos++;
	}
	return 0;
}

/* A socketpair per receiver, the ready and wake barrier, the sampler's plan and the parent. */
static int hb_start(struct kernel *k, const struct param_set *ps, void **state,
		    struct sim_err *err)
{
	struct hackbench *hb = calloc(1, sizeof(*hb));
	if (!hb)
		return sim_fail(err, "out of memory");
	hb->k = k;
	hb->groups = (int)param_int(ps, "groups");
	hb->loops = (int)param_int(ps, "loops");
	hb->fds = (int)param_int(ps, "fds");
	hb->datasize = (int)param_int(ps, "datasize");
	hb->threads = strcmp(param_str(ps, "mode"), "thread") == 0;
	int channels = hb->groups * hb->fds;
	hb->total = 2 * channels;
	hb->half_bytes = (uint64_t)channels * hb->fds * hb->loops * hb->datasize / 2;
	hb->socks = calloc((size_t)channels * 2, sizeof(*hb->socks));
	hb->child = calloc((size_t)channels * 2, sizeof(*hb->child));
	hb->packets = calloc((size_t)hb->groups, sizeof(*hb->packets));
	if (!hb->socks || !hb->child || !hb->packets ||
	    steady_plan(&k->steady, (uint64_t)channels * hb->fds * hb->loops, "messages") < 0) {
		free(hb->socks);
		free(hb->child);
		free(hb->packets);
		free(hb);
		return sim_fail(err, "out of memory for %d hackbench channels", channels);
	}
	for (int g = 0; g < hb->groups; g++)
		hb->packets[g] = (long)hb->fds * hb->loops;
	steady_plan_gauge(&k->steady, "slab_pages", &k->pa.slab_pages);	/* ages with the work */
	hb->next_mark = 10;	/* observations at the first mark */
	unix_classes_init(k, &hb->uc);
	for (int c = 0; c < channels; c++)
		unix_socketpair(k, &hb->uc, &hb->socks[2 * c], &hb->socks[2 * c + 1], 0);
	hw_line_init(k->hw, &hb->ready_line, 0);
	hw_lock_class_init(k->hw, &hb->barrier_class, "&pipe->wait (hackbench start)",
			   k->hw->sym_spin_lock);
	init_waitqueue_head(k, &hb->ready_wait, &hb->barrier_class, 0);
	init_waitqueue_head(k, &hb->wake_wait, &hb->barrier_class, 0);
	task_create(&k->sched, NULL, hb_parent, hb, "hackbench", NULL, 0);
	*state = hb;
	return 0;
}

/* hackbench's `Time: S.MS` (extrapolated when sampled); messages and their rate in the JSON. */
static void hb_result(void *state, struct workload_result *r)
{
	struct hackbench *hb = state;
	r->finished = hb->done;
	snprintf(r->stopped, sizeof(r->stopped), "%s", hb->barfed);
	double hz = hb->k->m->ghz * 1e9;
	double cycles = hb->done ? (double)(hb->stop - hb->start) : 0;
	r->sim_seconds = steady_outcome(&hb->k->steady, hb->messages_read, cycles, hz, &r->sample);
	uint64_t ms = (uint64_t)(r->sim_seconds * 1000.0 + 0.5);
	snprintf(r->line, sizeof(r->line), "Time: %llu.%03llu", (unsigned long long)(ms / 1000),
		 (unsigned long long)(ms % 1000));
	if (hb->barfed[0])	/* no Time: line: a child exited on an error */
		snprintf(r->line, sizeof(r->line), "no Time: a child exited early (stopped early, below)");
	else if (r->sample.extrapolated)
		snprintf(r->line + strlen(r->line), sizeof(r->line) - strlen(r->line),
			 " (extrapolated from %.1f%% of the messages, 95%% CI +-%.3f s)",
			 100 * r->sample.simulated_fraction, r->sample.ci_seconds);
	r->extra = cJSON_CreateObject();
	double msgs = (double)hb->groups * hb->fds * hb->fds * hb->loops;
	cJSON_AddNumberToObject(r->extra, "messages", msgs);
	cJSON_AddNumberToObject(r->extra, "tasks", hb->total);
	if (r->sim_seconds > 0)
		cJSON_AddNumberToObject(r->extra, "messages_per_second", msgs / r->sim_seconds);
	/* the second half of the messages, past the start-up (queues filling) */
	if (hb->done && !hb->skipped && hb->half > hb->start && hb->stop > hb->half)
		cJSON_AddNumberToObject(r->extra, "second_half_seconds",
					(double)(hb->stop - hb->half) / hz);
}

/* Every byte the senders wrote was read, and every channel ends empty. */
static int hb_check(void *state, struct sim_err *err)
{
	struct hackbench *hb = state;
	uint64_t want = ((uint64_t)hb->groups * hb->fds * hb->fds * hb->loops - hb->skipped) *
			(uint64_t)hb->datasize;
	if (hb->done && hb->read_bytes != want)
		return sim_fail(err, "hackbench: receivers read %llu bytes, senders wrote %llu",
				(unsigned long long)hb->read_bytes, (unsigned long long)want);
	for (int c = 0; hb->done && c < hb->groups * hb->fds; c++) {
		struct unix_sock *w = &hb->socks[2 * c + 1], *rd = &hb->socks[2 * c];
		if (w->sk_wmem_alloc != 0 || rd->qlen != 0)
			return sim_fail(err, "hackbench: channel %d ends with %ld bytes in flight "
					"and %u skbs queued", c, w->sk_wmem_alloc, rd->qlen);
	}
	return 0;
}

/* Free the sockets and the workload's state. */
static void hb_destroy(void *state)
{
	struct hackbench *hb = state;
	for (int i = 0; i < 2 * hb->groups * hb->fds; i++)
		unix_sock_free(&hb->socks[i]);
	free(hb->socks);
	free(hb->child);
	free(hb->packets);
	free(hb);
}

/* Messages read so far, out of every sender's loops. */
static void hb_progress(const void *state, uint64_t *done, uint64_t *total, const char **unit)
{
	const struct hackbench *hb = state;
	*done = hb->messages_read;
	*total = (uint64_t)hb->groups * hb->fds * hb->fds * hb->loops;
	*unit = "messages";
}

const struct workload hackbench_workload = {
	.name = "hackbench",
	.description = "AF_UNIX messaging: groups of 20 senders x 20 receivers (hackbench, "
		       "perf bench sched messaging)",
	.usage = "hackbench [GROUPS] [process|thread] [LOOPS]",
	.params = hackbench_params,
	.parse_cmdline = hb_parse_cmdline,
	.start = hb_start,
	.result = hb_result,
	.check = hb_check,
	.progress = hb_progress,
	.destroy = hb_destroy,
};
