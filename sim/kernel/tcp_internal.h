/* tcp_internal.h - what the TCP files share: skb records and queues
 * (tcp_skb.c), the output path (tcp_output.c), the input path and the socket
 * lock (tcp_input.c). */
#ifndef SIM_TCP_INTERNAL_H
#define SIM_TCP_INTERNAL_H

#include "tcp_loopback.h"

static inline struct tcp_skb *tcp_skb_at(struct tcp_net *net, int id)
{
	return &net->skb_chunks[id / TCP_CHUNK][id % TCP_CHUNK];
}

static inline struct tcp_frag_page *tcp_page_at(struct tcp_net *net, int id)
{
	return &net->page_chunks[id / TCP_CHUNK][id % TCP_CHUNK];
}

void tcp_queue_push(struct tcp_queue *q, int id);
int tcp_queue_pop(struct tcp_queue *q);
static inline int tcp_queue_peek(const struct tcp_queue *q)
{
	return q->len ? q->ring[q->head] : -1;
}
void tcp_queue_free(struct tcp_queue *q);

/* sk_stream_alloc_skb(): an fclone with a `linear`-byte data area. */
int tcp_alloc_skb_fclone(struct task *t, struct tcp_sock *sk, unsigned int linear);
/* alloc_skb(MAX_TCP_HEADER): a pure ACK. */
int tcp_alloc_skb_ack(struct task *t, struct tcp_net *net);
/* Drop one half of an skb (kfree_skb); the last one frees its objects. */
void tcp_skb_put(struct task *t, struct tcp_sock *sk, int id);
/* Copy `len` bytes from the user into the skb (page fragments or linear). */
void tcp_copy_from_user(struct task *t, struct tcp_sock *sk, int id, unsigned int len);
/* Copy `len` bytes of the skb from offset `off` to the user. */
void tcp_copy_to_user(struct task *t, struct tcp_sock *sk, int id, unsigned int off,
		      unsigned int len);
/* The socket's last reference to its sk_sndmsg_page. */
void tcp_put_sndmsg_page(struct task *t, struct tcp_sock *sk);

void lock_sock(struct task *t, struct tcp_sock *sk);
void release_sock(struct task *t, struct tcp_sock *sk);
void tcp_transmit_skb(struct task *t, struct tcp_sock *sk, int id, bool clone);
void tcp_send_ack(struct task *t, struct tcp_sock *sk);
void tcp_send_fin(struct task *t, struct tcp_sock *sk);
/* netif_rx(): the packet onto this CPU's backlog, drained at once by
 * net_rx_action() unless it already runs (a packet sent while processing one). */
void netif_rx(struct task *t, struct tcp_sock *sk, int id);
void tcp_v4_rcv(struct task *t, struct tcp_sock *sk, int id);
long tcp_sendmsg(struct task *t, struct tcp_sock *sk, size_t size);
long tcp_recvmsg(struct task *t, struct tcp_sock *sk, size_t len);

#endif
