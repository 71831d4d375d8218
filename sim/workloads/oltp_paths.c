/* oltp_paths.c - the kernel paths of an OLTP database server (2.6.2x), as the
 * slab sees them. Direct IO through aio: io_submit allocates the kiocb, the
 * bio and its biovec, the block request, the SCSI command and its
 * scatter-gather list on the submitting CPU; the HBA's completion interrupt
 * frees them all on the CPU it is routed to (scsi_io_completion, bio_endio,
 * aio_complete), in batches. The network: a client's request arrives by the
 * NIC's interrupt (an skb from skbuff_head_cache and kmalloc), the process
 * frees it in recvmsg; the reply is an skbuff_fclone_cache skb that the NIC's
 * transmit completion frees, again on the interrupt's CPU. */
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "kernel/slab.h"
#include "engine/array_size.h"
#include "kernel/tcp_loopback.h"
#include "oltp.h"
#include "kernel/slab_policy.h"

#define E1000_RX_ALLOC (1522 + 2 + 16)	/* rx_buffer_len + NET_IP_ALIGN + NET_SKB_PAD */

/* The cache of that name, or a new one: caches are the kernel's, shared. */
static struct kmem_cache *cache_get(struct kernel *k, const char *name, unsigned int size,
				    struct sim_err *err)
{
	for (int i = 0; i < k->ncaches; i++)
		if (!strcmp(k->caches[i]->name, name))
			return k->caches[i];
	return kmem_cache_create(k, name, size, 0, SLAB_HWCACHE_ALIGN, err);
}

static void hba_complete(struct irq_line *irq, struct task *cur, void *arg);
static void nic_event(struct irq_line *irq, struct task *cur, void *arg);

/* A free IO record (pool: clients x the most IOs of one transaction). */
static struct oltp_io *io_get(struct oltp *o)
{
	struct oltp_io *io = o->io_free;
	if (io)
		o->io_free = io->next_free;
	return io;
}

/* A free NIC event record; the pool grows by chunks, never on a hot path
 * once the number of events in flight has been reached. */
static struct oltp_nic_ev *ev_get(struct oltp *o)
{
	if (!o->ev_free) {
		if (o->nev_chunks == o->ev_chunks_cap) {
			int cap = o->ev_chunks_cap ? 2 * o->ev_chunks_cap : 8;
			struct oltp_nic_ev **a = realloc(o->ev_pool_chunks, (size_t)cap * sizeof(*a));
			if (!a)
				return NULL;
			o->ev_pool_chunks = a;
			o->ev_chunks_cap = cap;
		}
		int n = o->clients * 2 + 64;
		struct oltp_nic_ev *c = calloc((size_t)n, sizeof(*c));
		if (!c)
			return NULL;
		o->ev_pool_chunks[o->nev_chunks++] = c;
		for (int i = 0; i < n; i++) {
			c[i].next_free = o->ev_free;
			o->ev_free = &c[i];
		}
	}
	struct oltp_nic_ev *e = o->ev_free;
	o->ev_free = e->next_free;
	return e;
}

int oltp_paths_init(struct oltp *o, struct sim_err *err)
{
	struct kernel *k = o->k;
	const struct cost_ref refs[] = {
		{ "irq.entry", &o->cost.irq_entry }, { "dio.submit", &o->cost.dio_submit },
		{ "dio.complete", &o->cost.dio_complete },
		{ "aio.getevents", &o->cost.aio_getevents }, { "net.rx", &o->cost.net_rx },
		{ "net.tx", &o->cost.net_tx }, { "net.tx_done", &o->cost.net_tx_done },
		{ "net.recvmsg", &o->cost.net_recvmsg },
	};
	if (machine_costs(k->m, refs, ARRAY_SIZE(refs), err) < 0)
		return -1;
	struct profile *prof = &k->eng->prof;
	o->sym_submit = profile_sym(prof, "__blockdev_direct_IO", SYM_KERNEL);
	o->sym_getevents = profile_sym(prof, "sys_io_getevents", SYM_KERNEL);
	o->sym_recvmsg = profile_sym(prof, "tcp_recvmsg", SYM_KERNEL);
	o->sym_sendmsg = profile_sym(prof, "tcp_sendmsg", SYM_KERNEL);
	unsigned int skb = k->skb->sizeof_sk_buff;
	if (!(o->kiocb = cache_get(k, "kiocb", SIZEOF_KIOCB, err)) ||
	    !(o->bio = cache_get(k, "bio", SIZEOF_BIO, err)) ||
	    !(o->bvec = cache_get(k, "biovec-4", SIZEOF_BIOVEC_4, err)) ||
	    !(o->rq = cache_get(k, "blkdev_requests", SIZEOF_REQUEST, err)) ||
	    !(o->cmd = cache_get(k, "scsi_cmd_cache", SIZEOF_SCSI_CMND, err)) ||
	    !(o->sgl = cache_get(k, "sgpool-8", SIZEOF_SGPOOL_8, err)) ||
	    !(o->fclone = cache_get(k, "skbuff_fclone_cache", 2 * skb + 4, err)))
		return -1;
	int ncpus = k->eng->ncpus;
	o->nirq_hba = o->submitter_irq ? ncpus : o->hbas;
	o->hba = calloc((size_t)o->nirq_hba, sizeof(*o->hba));
	int max_ios = (int)o->ios_per_tx + 1;
	o->io_pool = calloc((size_t)o->clients * (size_t)max_ios, sizeof(*o->io_pool));
	if (!o->hba || !o->io_pool)
		return sim_fail(err, "out of memory");
	for (int i = o->clients * max_ios - 1; i >= 0; i--) {
		o->io_pool[i].next_free = o->io_free;
		o->io_free = &o->io_pool[i];
	}
	return 0;
}

/* One line per HBA (or per CPU), and the NIC's. */
int oltp_irqs_init(struct oltp *o, const char *routing, uint64_t hba_gap, uint64_t nic_gap,
		   struct sim_err *err)
{
	struct kernel *k = o->k;
	int ncpus = k->eng->ncpus, lines = o->hbas + 1;
	bool cpu0 = !strcmp(routing, "cpu0");
	for (int i = 0; i < o->nirq_hba; i++) {
		int cpu = o->submitter_irq ? i : cpu0 ? 0 : (int)((long)i * ncpus / lines);
		if (irq_line_init(&o->hba[i], k, cpu, "qla2x00_intr_handler", o->cost.irq_entry,
				  hba_gap, hba_complete, o) < 0)
			return sim_fail(err, "out of memory");
	}
	int nic_cpu = cpu0 ? 0 : (int)((long)o->hbas * ncpus / lines);
	if (irq_line_init(&o->nic, k, nic_cpu, "e1000_intr", o->cost.irq_entry, nic_gap,
			  nic_event, o) < 0)
		return sim_fail(err, "out of memory");
	return 0;
}

/* Allocate and initialise one object of a direct IO. */
static kaddr_t io_obj(struct oltp *o, struct sim_cpu *cpu, struct kmem_cache *c, gfp_t gfp)
{
	kaddr_t p = kmem_cache_alloc(o->k, cpu, c, gfp);
	if (p)
		slab_obj_touch(o->k, cpu, p, o->touch_lines, true);
	return p;
}

/* Free one object of a completed IO (reading it first: it is cache-cold
 * on the interrupt's CPU). */
static void io_put(struct oltp *o, struct sim_cpu *cpu, struct kmem_cache *c, kaddr_t p)
{
	if (!p)
		return;
	slab_obj_touch(o->k, cpu, p, 1, false);
	kmem_cache_free(o->k, cpu, c, p);
}

void oltp_submit_ios(struct task *t, struct oltp_proc *p, int n)
{
	struct oltp *o = p->o;
	struct kernel *k = o->k;
	struct sim_cpu *cpu = task_cpu(t);
	int psym = sym_enter(cpu, o->sym_submit);
	cpu_charge(cpu, k->cost.syscall);
	for (int i = 0; i < n; i++) {
		struct oltp_io *io = io_get(o);
		if (!io)
			break;
		if (i) {	/* interrupts are enabled between two requests */
			cpu_sync(cpu);
			run_pending_work(t);
			cpu = task_cpu(t);
		}
		cpu_charge(cpu, o->cost.dio_submit);
		io->p = p;
		/* the flags each of 2.6.2x's callers passes: the SCSI ones run
		 * from the request function, under the queue lock */
		io->kiocb = io_obj(o, cpu, o->kiocb, GFP_KERNEL);	/* aio_get_req */
		io->bio = io_obj(o, cpu, o->bio, GFP_KERNEL);		/* dio_bio_alloc */
		io->bvec = io_obj(o, cpu, o->bvec, GFP_KERNEL);		/* bvec_alloc_bs */
		io->rq = io_obj(o, cpu, o->rq, GFP_NOIO);		/* get_request */
		io->cmd = io_obj(o, cpu, o->cmd, GFP_ATOMIC);		/* scsi_get_command */
		io->sgl = io_obj(o, cpu, o->sgl, GFP_ATOMIC);		/* scsi_alloc_sgtable */
		cpu_sync(cpu);
		hw_write(k->hw, cpu, &p->ctx_line);
		p->inflight++;
		o->ios++;
		int line = o->submitter_irq ? cpu->id : (int)(o->next_hba++ % (uint64_t)o->hbas);
		double lat = gsl_ran_exponential(k->eng->rng, (double)o->io_latency);
		irq_raise(&o->hba[line], cpu, cpu->clock + (uint64_t)lat, io);
	}
	sym_exit(cpu, psym);
}

/* The HBA's interrupt, for one completed IO: scsi_io_completion frees the
 * sg table and the command, end_that_request frees the request, bio_endio
 * the bio and its biovec, aio_complete the kiocb; the waiter is woken. */
static void hba_complete(struct irq_line *irq, struct task *cur, void *arg)
{
	struct oltp_io *io = arg;
	struct oltp *o = irq->arg;
	struct sim_cpu *cpu = task_cpu(cur);
	cpu_charge(cpu, o->cost.dio_complete);
	io_put(o, cpu, o->sgl, io->sgl);
	io_put(o, cpu, o->cmd, io->cmd);
	io_put(o, cpu, o->rq, io->rq);
	io_put(o, cpu, o->bvec, io->bvec);
	io_put(o, cpu, o->bio, io->bio);
	io_put(o, cpu, o->kiocb, io->kiocb);
	struct oltp_proc *p = io->p;
	cpu_sync(cpu);
	hw_write(o->k->hw, cpu, &p->ctx_line);
	if (--p->inflight == 0)
		wake_up(cur, &p->io_wait, false);
	io->next_free = o->io_free;
	o->io_free = io;
}

void oltp_wait_ios(struct task *t, struct oltp_proc *p)
{
	struct oltp *o = p->o;
	struct kernel *k = o->k;
	struct sim_cpu *cpu = task_cpu(t);
	int psym = sym_enter(cpu, o->sym_getevents);
	cpu_charge(cpu, k->cost.syscall + o->cost.aio_getevents);
	sym_exit(cpu, psym);
	for (;;) {	/* read_events(): sleep until every IO completed */
		prepare_to_wait(t, &p->io_wait);
		cpu = task_cpu(t);
		cpu_sync(cpu);
		hw_read(k->hw, cpu, &p->ctx_line);
		if (p->inflight == 0)
			break;
		schedule(t);
	}
	finish_wait(t, &p->io_wait);
}

/* A client's request reaches the NIC at `at`. */
void oltp_client_request(struct oltp *o, struct sim_cpu *from, struct oltp_proc *p, uint64_t at)
{
	struct oltp_nic_ev *e = ev_get(o);
	if (!e) {
		kernel_violation(o->k, "oltp: out of memory for NIC events");
		return;
	}
	e->rx = true;
	e->p = p;
	irq_raise(&o->nic, from, at, e);
}

/* The NIC's interrupt, for one event: a request is received (netif_rx,
 * tcp_v4_rcv: the skb is queued on the process's socket, which is woken),
 * or a sent reply's skb is freed (dev_kfree_skb_irq, net_tx_action). */
static void nic_event(struct irq_line *irq, struct task *cur, void *arg)
{
	struct oltp_nic_ev *e = arg;
	struct oltp *o = irq->arg;
	struct kernel *k = o->k;
	struct sim_cpu *cpu = task_cpu(cur);
	if (e->rx) {
		struct oltp_proc *p = e->p;
		cpu_charge(cpu, o->cost.net_rx);
		struct sk_buff skb;
		if (alloc_skb(k, k->skb, cpu, E1000_RX_ALLOC, &skb)) {
			cpu = task_cpu(cur);
			cpu_sync(cpu);
			hw_write(k->hw, cpu, &p->sk_line);
			p->req = skb;
			p->req_queued = true;
			o->rx++;
			wake_up(cur, &p->sk_sleep, false);
		} else {
			kernel_violation(k, "oltp: the NIC could not allocate an skb");
		}
	} else {
		cpu_charge(cpu, o->cost.net_tx_done);
		slab_obj_touch(k, cpu, e->skb.head, 1, false);
		kfree(k, cpu, e->skb.data);
		kmem_cache_free(k, cpu, o->fclone, e->skb.head);
	}
	e->next_free = o->ev_free;
	o->ev_free = e;
}

void oltp_recv_request(struct task *t, struct oltp_proc *p)
{
	struct oltp *o = p->o;
	struct kernel *k = o->k;
	for (;;) {	/* sk_wait_data() */
		prepare_to_wait(t, &p->sk_sleep);
		struct sim_cpu *cpu = task_cpu(t);
		cpu_sync(cpu);
		hw_read(k->hw, cpu, &p->sk_line);
		if (p->req_queued)
			break;
		schedule(t);
	}
	finish_wait(t, &p->sk_sleep);
	struct sim_cpu *cpu = task_cpu(t);
	int psym = sym_enter(cpu, o->sym_recvmsg);
	cpu_charge(cpu, k->cost.syscall + o->cost.net_recvmsg);
	cpu_sync(cpu);
	hw_write(k->hw, cpu, &p->sk_line);
	struct sk_buff skb = p->req;
	p->req_queued = false;
	slab_obj_touch(k, cpu, skb.data, (o->req_bytes + 63) / 64, false);	/* the copy */
	__kfree_skb(k, k->skb, cpu, &skb);
	sym_exit(cpu, psym);
}

void oltp_send_reply(struct task *t, struct oltp_proc *p)
{
	struct oltp *o = p->o;
	struct kernel *k = o->k;
	struct sim_cpu *cpu = task_cpu(t);
	int psym = sym_enter(cpu, o->sym_sendmsg);
	cpu_charge(cpu, k->cost.syscall + o->cost.net_tx);
	struct oltp_nic_ev *e = ev_get(o);
	kaddr_t head = kmem_cache_alloc(k, cpu, o->fclone, GFP_KERNEL);	/* sk_stream_alloc_skb */
	unsigned int dsize = SKB_DATA_ALIGN((unsigned int)o->reply_bytes + MAX_TCP_HEADER);
	kaddr_t data = head ? __kmalloc_track_caller(k, cpu, dsize + SIZEOF_SKB_SHARED_INFO,
						     GFP_KERNEL) : 0;
	if (!e || !head || !data) {
		kernel_violation(k, "oltp: out of memory sending a reply");
		if (data)
			kfree(k, cpu, data);
		if (head)
			kmem_cache_free(k, cpu, o->fclone, head);
		if (e) {
			e->next_free = o->ev_free;
			o->ev_free = e;
		}
		sym_exit(cpu, psym);
		return;
	}
	slab_obj_touch(k, cpu, head, SKB_HEAD_LINES, true);
	slab_obj_touch(k, cpu, data, 1 + (int)(dsize / 64), true);
	e->rx = false;
	e->p = p;
	e->skb = (struct sk_buff){ .head = head, .data = data, .len = (unsigned int)o->reply_bytes };
	o->replies++;
	irq_raise(&o->nic, cpu, cpu->clock + o->tx_done_delay, e);
	sym_exit(cpu, psym);
}

uint64_t oltp_interrupts(const struct oltp *o)
{
	uint64_t n = o->nic.count;
	for (int i = 0; i < o->nirq_hba; i++)
		n += o->hba[i].count;
	return n;
}
