/* tcp_output.c - the sending side: tcp_sendmsg, tcp_transmit_skb through
 * the loopback device into the NET_RX softirq, pure ACKs and FINs. */
#include "tcp_internal.h"
#include "engine/oom.h"

#include <stdlib.h>

#include "slab.h"

/* sk_stream_memory_free(): the write queue holds less than sk_sndbuf. */
static bool sk_stream_memory_free(struct task *t, struct tcp_sock *sk)
{
	hw_read(t->k->hw, task_cpu(t), &sk->sk_line);
	return sk->sk_wmem_queued < sk->sk_sndbuf;
}

/* sk_stream_wait_memory(): SOCK_NOSPACE, then sleep with the socket
 * released until tcp_check_space() finds room and wakes the writer. */
static void sk_stream_wait_memory(struct task *t, struct tcp_sock *sk)
{
	prepare_to_wait(t, &sk->sk_sleep);
	hw_write(t->k->hw, task_cpu(t), &sk->sk_line);
	sk->nospace = true;
	release_sock(t, sk);
	if (!sk_stream_memory_free(t, sk))
		schedule(t);
	finish_wait(t, &sk->sk_sleep);
	lock_sock(t, sk);
}

/* skb_entail(): seq numbers, then onto the write queue, charged to the socket. */
static void skb_entail(struct task *t, struct tcp_sock *sk, int id, unsigned int len, bool fin)
{
	hw_write(t->k->hw, task_cpu(t), &sk->sk_line);
	struct tcp_skb *skb = tcp_skb_at(sk->net, id);
	skb->seq = sk->write_seq;
	skb->len = len;
	skb->fin = fin;
	skb->end_seq = skb->seq + len + (fin ? 1 : 0);
	sk->write_seq = skb->end_seq;
	sk->sk_wmem_queued += (long)skb->truesize;
	tcp_queue_push(&sk->write_queue, id);
}

/* tcp_sendmsg(): one skb per segment of at most the MSS, its linear area
 * select_size() long (nothing on lo, whose NETIF_F_SG takes the payload in
 * page fragments; the MSS without SG), queued, then transmitted while the
 * socket is owned. Each send is pushed at once, as with TCP_NODELAY:
 * Nagle's coalescing of small sends into one segment is not modelled. */
long tcp_sendmsg(struct task *t, struct tcp_sock *sk, size_t size)
{
	struct tcp_net *net = sk->net;
	int psym = sym_enter(task_cpu(t), net->sym_sendmsg);
	cpu_charge(task_cpu(t), net->cost.sendmsg);
	lock_sock(t, sk);
	size_t copied = 0;
	while (copied < size) {
		if (!sk_stream_memory_free(t, sk)) {
			sk_stream_wait_memory(t, sk);
			continue;
		}
		unsigned int copy = size - copied < net->mss ? (unsigned int)(size - copied) : net->mss;
		int id = tcp_alloc_skb_fclone(t, sk, net->sg ? 0 : net->mss);
		if (id < 0)
			break;
		tcp_copy_from_user(t, sk, id, copy);
		skb_entail(t, sk, id, copy, false);
		tcp_transmit_skb(t, sk, id, true);
		copied += copy;
		sk->bytes_sent += copy;
	}
	release_sock(t, sk);
	sym_exit(task_cpu(t), psym);
	return copied ? (long)copied : -1;
}

/* tcp_transmit_skb() .. ip_queue_xmit() .. loopback_xmit(): the segment (a
 * clone if the original stays queued for retransmission) carries the ACK
 * of everything received, and netif_rx() hands it to the softirq. */
void tcp_transmit_skb(struct task *t, struct tcp_sock *sk, int id, bool clone)
{
	struct kernel *k = t->k;
	struct tcp_net *net = sk->net;
	struct sim_cpu *cpu = task_cpu(t);
	int psym = sym_enter(cpu, net->sym_transmit);
	cpu_charge(cpu, net->cost.transmit);
	struct tcp_skb *skb = tcp_skb_at(net, id);
	if (clone) {	/* skb_clone(): the fclone companion, no allocation */
		skb->users++;
		slab_obj_touch(k, cpu, skb->head, (int)net->fclone_lines, true);
	}
	slab_obj_touch(k, cpu, skb->data, 1, true);	/* skb_push() the TCP and IP headers */
	hw_write(k->hw, task_cpu(t), &sk->sk_line);
	skb->ack_seq = sk->rcv_nxt;
	sk->rcv_wup = sk->rcv_nxt;	/* tcp_select_window(): the window is advertised */
	if (skb->len && sk->rcv_nxt)	/* tcp_event_data_sent(): data after data received */
		sk->pingpong = true;
	sym_exit(task_cpu(t), psym);
	netif_rx(t, sk->peer, id);
}

/* Append to a CPU's backlog of received packets. */
static void rx_push(struct tcp_rx_queue *q, struct tcp_sock *sk, int id)
{
	if ((int)q->len == q->cap) {
		int cap = q->cap ? 2 * q->cap : 64;
		struct tcp_rx_entry *r = malloc((size_t)cap * sizeof(*r));
		if (!r)
			host_oom(__func__);
		for (unsigned int i = 0; i < q->len; i++)
			r[i] = q->ring[(q->head + i) % (unsigned int)q->cap];
		free(q->ring);
		q->ring = r;
		q->cap = cap;
		q->head = 0;
	}
	q->ring[(q->head + q->len) % (unsigned int)q->cap] = (struct tcp_rx_entry){ sk, id };
	q->len++;
}

/* netif_rx(): onto this CPU's backlog; net_rx_action() drains it at once
 * unless it is already running here (a packet sent while one is processed). */
void netif_rx(struct task *t, struct tcp_sock *sk, int id)
{
	struct tcp_rx_queue *q = &sk->net->rx[task_cpu(t)->id];
	rx_push(q, sk, id);
	if (q->running)
		return;
	q->running = true;	/* do_softirq() at local_bh_enable(): net_rx_action() */
	while (q->len) {
		struct tcp_rx_entry e = q->ring[q->head];
		q->head = (q->head + 1) % (unsigned int)q->cap;
		q->len--;
		tcp_v4_rcv(t, e.sk, e.id);
	}
	q->running = false;
}

/* tcp_send_ack(): a pure ACK, alloc_skb(MAX_TCP_HEADER), sent and not queued. */
void tcp_send_ack(struct task *t, struct tcp_sock *sk)
{
	struct tcp_net *net = sk->net;
	int psym = sym_enter(task_cpu(t), net->sym_send_ack);
	cpu_charge(task_cpu(t), net->cost.send_ack);
	int id = tcp_alloc_skb_ack(t, net);
	sym_exit(task_cpu(t), psym);
	if (id < 0)
		return;
	hw_read(t->k->hw, task_cpu(t), &sk->sk_line);
	struct tcp_skb *skb = tcp_skb_at(net, id);
	skb->seq = skb->end_seq = sk->write_seq;
	tcp_transmit_skb(t, sk, id, false);
}

/* tcp_send_fin(): a FIN, an fclone with no data, queued and sent. */
void tcp_send_fin(struct task *t, struct tcp_sock *sk)
{
	int id = tcp_alloc_skb_fclone(t, sk, 0);
	if (id < 0)
		return;
	skb_entail(t, sk, id, 0, true);
	sk->fin_sent = true;
	tcp_transmit_skb(t, sk, id, true);
}
