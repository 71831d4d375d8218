/* tcp_loopback.h - TCP over the loopback device (net/ipv4/tcp*.c, 2.6.25) as
 * the slab sees it. A socket pair is connected and established; what runs is
 * its data path:
 *
 *  - tcp_sendmsg() allocates one skb per segment (at most the loopback MSS)
 *    with alloc_skb_fclone(): the sk_buff and its companion clone from
 *    skbuff_fclone_cache, the linear buffer from __kmalloc_track_caller(),
 *    the payload in page fragments (lo has NETIF_F_SG) or, with sg off, in
 *    the linear buffer. The original stays on the write queue, charged to
 *    sk_wmem_queued, until it is acknowledged; the sender sleeps in
 *    sk_stream_wait_memory() while the queue holds sk_sndbuf bytes.
 *  - tcp_transmit_skb() sends the clone through ip_queue_xmit(),
 *    loopback_xmit() and netif_rx(); the NET_RX softirq runs tcp_v4_rcv() on
 *    the sending CPU. The segment goes to the receiver's backlog if its task
 *    holds the socket, to its prequeue if the task sleeps in tcp_recvmsg(),
 *    else it is processed there and then (tcp_rcv_established).
 *  - tcp_recvmsg() copies the data and frees the clones; the receiver ACKs
 *    every second full-sized segment it consumed and when it drained the queue
 *    of a bulk (not request/response) connection; data in the other direction
 *    carries the ACK. Processing an ACK (tcp_ack) frees the acknowledged
 *    originals, and a pure ACK skb, wherever it is processed.
 *
 * An fclone's objects are freed when the last of its two halves goes: the
 * clone consumed by the reader or the original acknowledged.
 *
 * Not modelled: Nagle (every send is pushed at once), the congestion and
 * receive windows, timers (delayed ACK, retransmission) and losses;
 * sk_sndbuf grows by tcp_new_space() as at the initial congestion window. */
#ifndef SIM_TCP_LOOPBACK_H
#define SIM_TCP_LOOPBACK_H

#include "kernel.h"
#include "skbuff.h"
#include "wait.h"

/* include/linux/netdevice.h, include/net/tcp.h: a distribution's config
 * (IP tunnels as modules) has MAX_HEADER = LL_MAX_HEADER 32 + 48. */
#define LL_MAX_HEADER 32
#define MAX_HEADER (LL_MAX_HEADER + 48)
#define MAX_TCP_HEADER (128 + MAX_HEADER)
/* drivers/net/loopback.c: lo's MTU is 16K of payload plus the IP header,
 * the TCP header and the timestamp option. */
#define LOOPBACK_MTU ((16 * 1024) + 20 + 20 + 12)
#define TCP_IPHDR_LEN 20		/* sizeof(struct iphdr) */
#define TCP_TCPHDR_LEN 20		/* sizeof(struct tcphdr) */
#define TCPOLEN_TSTAMP_ALIGNED 12
#define TCP_MIN_RCVMSS 536
#define SYSCTL_TCP_WMEM1 16384		/* tcp_wmem[1]: the initial sk_sndbuf */
#define SYSCTL_TCP_WMEM2 4194304	/* tcp_wmem[2]: what tcp_new_space may grow to */
#define SYSCTL_TCP_REORDERING 3		/* TCP_FASTRETRANS_THRESH */
#define TCP_INIT_CWND 2			/* tcp_init_cwnd(): RFC 3390 for a 16K MSS */
#define SIZEOF_ATOMIC_T 4

struct task;
struct tcp_sock;

/* Costs of TCP's own paths (machines/costs/), without their callees. */
struct tcp_costs {
	uint32_t sendmsg, recvmsg, transmit, v4_rcv, rcv_established, ack, send_ack;
};

/* One skb as the model keeps it: both halves of an fclone share it. */
struct tcp_skb {
	kaddr_t head;			/* fclone pair or skbuff_head_cache object */
	kaddr_t data;			/* the kmalloc'ed linear buffer */
	uint64_t seq, end_seq, ack_seq;
	unsigned int len, truesize, linear;
	unsigned int rcv_off;		/* bytes the reader already copied */
	bool fclone, fin;
	int users;			/* fclone_ref: halves still alive */
	int nfrags;
	int frag[MAX_SKB_FRAGS];	/* page fragments (tcp_frag_page ids) */
	unsigned int frag_off[MAX_SKB_FRAGS], frag_len[MAX_SKB_FRAGS];
	struct task *alloc_task;	/* for the report: who allocated, on which CPU */
	int alloc_cpu;
	int next_free;
};

/* A page of the sender's sk_sndmsg_page chain, with its reference count. */
struct tcp_frag_page {
	struct page *page;
	int refs;
	int next_free;
};

/* A queue of skb ids (sk_receive_queue, sk_write_queue, sk_backlog). */
struct tcp_queue {
	int *ring;
	unsigned int cap, head, len;
};

#define TCP_CHUNK 256			/* skb and page records per host allocation */

/* A CPU's backlog of received packets (softnet_data.input_pkt_queue). */
struct tcp_rx_queue {
	struct tcp_rx_entry {
		struct tcp_sock *sk;
		int id;
	} *ring;
	int cap;
	unsigned int head, len;
	bool running;			/* net_rx_action() is draining it */
};

/* Where frees happened, for the report. */
struct tcp_free_stats {
	uint64_t allocated, freed, freed_by_other_side, freed_on_other_cpu;
};

/* The TCP state of one run: the fclone cache, skb and page records, costs. */
struct tcp_net {
	struct kernel *k;
	struct kmem_cache *skbuff_fclone_cache;
	unsigned int fclone_size, fclone_lines;
	unsigned int mss, advmss;
	bool sg;			/* lo's NETIF_F_SG: payload in page frags */
	int sndbuf;			/* SO_SNDBUF as set (locked), 0: autotuned */
	bool sync_readable;		/* sock_def_readable() wakes with the sync hint */
	bool sync_prequeue;		/* so does tcp_prequeue() */
	struct tcp_costs cost;
	int sym_sendto, sym_recvfrom, sym_sendmsg, sym_recvmsg, sym_transmit, sym_v4_rcv,
		sym_rcv_established, sym_ack, sym_send_ack;
	struct hw_lock_class slock_class, sleep_class;
	struct tcp_skb **skb_chunks;	/* records in chunks: they never move */
	int nskbs, nskb_chunks, skb_chunk_cap, skb_free, skbs_live;
	struct tcp_frag_page **page_chunks;
	int npages, npage_chunks, page_chunk_cap, page_free, pages_live;
	struct tcp_rx_queue *rx;	/* per CPU: netif_rx's input_pkt_queue */
	struct tcp_free_stats data, acks;
	uint64_t pages_allocated, pages_freed;
};

struct tcp_sock {
	struct tcp_net *net;
	struct tcp_sock *peer;
	int node;
	struct hw_line sk_line;		/* struct tcp_sock: sequence numbers, queues */
	struct hw_line slock_line;	/* sk_lock.slock and sk_lock.owned */
	struct hw_lock slock;
	bool owned;			/* sock_owned_by_user() */
	struct task *ucopy_task;	/* tp->ucopy.task: the reader sleeps in recvmsg */
	struct tcp_queue backlog;	/* sk_backlog and ucopy.prequeue, in order */
	struct tcp_queue receive_queue;
	struct tcp_queue write_queue;	/* originals not yet acknowledged */
	struct wait_queue_head sk_sleep;
	int sk_sndbuf;
	bool sndbuf_locked;		/* SOCK_SNDBUF_LOCK */
	bool nospace;			/* SOCK_NOSPACE: a writer waits for room */
	long sk_wmem_queued;
	uint64_t write_seq, snd_una;
	uint64_t rcv_nxt, rcv_wup, copied_seq;
	unsigned int rcv_mss;
	bool pingpong;			/* icsk_ack.pingpong: interactive, ACKs ride on data */
	bool fin_sent, fin_seen;
	int sndmsg_page;		/* sk_sndmsg_page (a tcp_frag_page id), or -1 */
	unsigned int sndmsg_off;
	uint64_t bytes_sent, bytes_received;
};

int tcp_net_init(struct kernel *k, struct tcp_net *net, bool sg, int sndbuf,
		 struct sim_err *err);
void tcp_net_destroy(struct tcp_net *net);

/* Two connected, established sockets, their memory on `node`. */
void tcp_socketpair(struct tcp_net *net, struct tcp_sock *a, struct tcp_sock *b, int node);
/* Free what a socket holds on the host (its queues' storage). */
void tcp_sock_free(struct tcp_sock *sk);

/* send(2) / recv(2) by task t: bytes moved; recv returns 0 at end of file. */
long sys_send_tcp(struct task *t, struct tcp_sock *sk, size_t len);
long sys_recv_tcp(struct task *t, struct tcp_sock *sk, size_t len);
/* shutdown(SHUT_WR): send a FIN. */
void sys_shutdown_tcp(struct task *t, struct tcp_sock *sk);
/* close(2): a FIN if none was sent, and the socket's last page reference. */
void sys_close_tcp(struct task *t, struct tcp_sock *sk);

/* The socket is idle and empty (after both sides closed); 0 if so. */
int tcp_sock_check(const struct tcp_sock *sk, const char *name, struct sim_err *err);

#endif
