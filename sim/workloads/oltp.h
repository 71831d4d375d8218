/* oltp.h - the OLTP workload's shared state: database server processes,
 * their direct IOs in flight and their client connections, and the device
 * interrupt lines (FC HBAs, NIC) that complete them. */
#ifndef SIM_OLTP_H
#define SIM_OLTP_H

#include "kernel/irq.h"
#include "kernel/skbuff.h"
#include "kernel/wait.h"
#include "workload.h"

/* Object sizes of 2.6.25 on x86-64 (struct sizes, as slabinfo's objsize). */
#define SIZEOF_KIOCB 184		/* struct kiocb */
#define SIZEOF_BIO 104			/* struct bio */
#define SIZEOF_BIOVEC_4 64		/* biovec-4: 4 x struct bio_vec (an 8 KB IO) */
#define SIZEOF_REQUEST 264		/* struct request (blkdev_requests) */
#define SIZEOF_SCSI_CMND 320		/* struct scsi_cmnd (scsi_cmd_cache) */
#define SIZEOF_SGPOOL_8 256		/* sgpool-8: 8 x struct scatterlist */

struct oltp;

/* One direct IO in flight: the objects the submit path allocated. */
struct oltp_io {
	struct oltp_proc *p;
	kaddr_t kiocb, bio, bvec, rq, cmd, sgl;
	struct oltp_io *next_free;
};

/* A NIC event: a client's request arriving, or a sent reply's completion. */
struct oltp_nic_ev {
	bool rx;
	struct oltp_proc *p;
	struct sk_buff skb;		/* tx: the reply to free */
	struct oltp_nic_ev *next_free;
};

/* One database server process and its client connection. */
struct oltp_proc {
	struct oltp *o;
	int id;
	struct wait_queue_head io_wait;	/* the aio context's wait (io_getevents) */
	struct wait_queue_head sk_sleep;	/* the client socket's */
	struct hw_line sk_line;		/* struct sock: receive queue */
	struct hw_line ctx_line;	/* struct kioctx: completions */
	struct sk_buff req;		/* the client's request, when queued */
	bool req_queued;
	int inflight;			/* IOs submitted and not completed */
	uint64_t tx;			/* transactions done */
};

struct oltp_costs {
	uint32_t irq_entry, dio_submit, dio_complete, aio_getevents;
	uint32_t net_rx, net_tx, net_tx_done, net_recvmsg;
};

struct oltp {
	struct kernel *k;
	int clients, hbas, nirq_hba;
	double ios_per_tx;
	uint64_t user_cycles, user_chunk, io_latency, client_rtt, tx_done_delay;
	uint64_t warmup, duration;	/* cycles */
	int req_bytes, reply_bytes, touch_lines;
	bool submitter_irq;
	struct oltp_costs cost;
	int sym_submit, sym_getevents, sym_recvmsg, sym_sendmsg;
	struct kmem_cache *kiocb, *bio, *bvec, *rq, *cmd, *sgl, *fclone;
	struct oltp_proc *procs;
	struct irq_line *hba;		/* nirq_hba lines: per HBA, or per CPU (submitter) */
	struct irq_line nic;
	struct oltp_io *io_pool, *io_free;
	struct oltp_nic_ev **ev_pool_chunks, *ev_free;	/* the NIC event pool */
	int nev_chunks, ev_chunks_cap;
	uint64_t next_hba;
	struct hw_lock_class wait_class;
	bool stop, done;
	uint64_t t0, t1;		/* the measured window */
	uint64_t tx0, tx1, cs0, cs1, irq0, irq1, nic0, nic1;
	uint64_t ios, rx, replies;
};

/* The kernel paths (oltp_paths.c). */
int oltp_paths_init(struct oltp *o, struct sim_err *err);
/* Route the interrupt lines: irq=spread puts the HBAs and the NIC on CPUs
 * spread over the machine (irqbalance); cpu0 puts them all on CPU 0;
 * submitter completes each IO on the CPU that submitted it. */
int oltp_irqs_init(struct oltp *o, const char *routing, uint64_t hba_gap, uint64_t nic_gap,
		   struct sim_err *err);
void oltp_recv_request(struct task *t, struct oltp_proc *p);
void oltp_submit_ios(struct task *t, struct oltp_proc *p, int n);
void oltp_wait_ios(struct task *t, struct oltp_proc *p);
void oltp_send_reply(struct task *t, struct oltp_proc *p);
void oltp_client_request(struct oltp *o, struct sim_cpu *from, struct oltp_proc *p, uint64_t at);
uint64_t oltp_interrupts(const struct oltp *o);

#endif
