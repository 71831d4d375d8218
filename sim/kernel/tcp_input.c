/* tcp_input.c - the receiving side: the socket lock and its backlog,
 * tcp_v4_rcv in the softirq, tcp_rcv_established, tcp_ack, tcp_recvmsg. */
#include "tcp_internal.h"

#include "slab.h"

/* lock_sock(): own the socket; softirqs now leave segments on the backlog. */
void lock_sock(struct task *t, struct tcp_sock *sk)
{
	struct hw *hw = t->k->hw;
	hw_spin_lock(hw, task_cpu(t), &sk->slock);
	sk->owned = true;
	hw_spin_unlock(hw, task_cpu(t), &sk->slock);
}

/* tcp_ack(): tcp_clean_rtx_queue() drops the acknowledged originals and
 * their memory; tcp_check_space() grows sk_sndbuf (tcp_new_space) and, once
 * a third of it is free, wakes the writer (sk_stream_write_space). */
static void tcp_ack(struct task *t, struct tcp_sock *sk, uint64_t ack)
{
	struct tcp_net *net = sk->net;
	int psym = sym_enter(task_cpu(t), net->sym_ack);
	cpu_charge(task_cpu(t), net->cost.ack);
	for (;;) {
		int id = tcp_queue_peek(&sk->write_queue);
		if (id < 0 || tcp_skb_at(net, id)->end_seq > ack)
			break;
		tcp_queue_pop(&sk->write_queue);
		sk->sk_wmem_queued -= (long)tcp_skb_at(net, id)->truesize;	/* sk_wmem_free_skb() */
		tcp_skb_put(t, sk, id);
	}
	hw_write(t->k->hw, task_cpu(t), &sk->sk_line);
	sk->snd_una = ack;
	if (sk->nospace) {
		if (!sk->sndbuf_locked) {	/* tcp_new_space(), at the initial cwnd */
			int demanded = TCP_INIT_CWND > SYSCTL_TCP_REORDERING + 1 ?
				TCP_INIT_CWND : SYSCTL_TCP_REORDERING + 1;
			int sndmem = (int)(net->advmss + MAX_TCP_HEADER + 16 +
					   t->k->skb->sizeof_sk_buff) * 2 * demanded;
			if (sndmem > sk->sk_sndbuf)
				sk->sk_sndbuf = sndmem < SYSCTL_TCP_WMEM2 ? sndmem : SYSCTL_TCP_WMEM2;
		}
		if (sk->sk_sndbuf - sk->sk_wmem_queued >= sk->sk_wmem_queued / 2) {
			sk->nospace = false;
			if (waitqueue_active(t, &sk->sk_sleep))
				wake_up(t, &sk->sk_sleep, false);
		}
	}
	sym_exit(task_cpu(t), psym);
}

/* tcp_rcv_established(): the segment's ACK first (tcp_ack), then its data
 * (or FIN) onto sk_receive_queue for the reader, woken by sk_data_ready; a
 * pure ACK is freed here. A FIN after our own FIN is ACKed at once. */
static void tcp_rcv_established(struct task *t, struct tcp_sock *sk, int id)
{
	struct kernel *k = t->k;
	struct tcp_net *net = sk->net;
	int psym = sym_enter(task_cpu(t), net->sym_rcv_established);
	cpu_charge(task_cpu(t), net->cost.rcv_established);
	struct tcp_skb *skb = tcp_skb_at(net, id);
	slab_obj_touch(k, task_cpu(t), skb->data, 1, false);	/* the headers */
	hw_write(k->hw, task_cpu(t), &sk->sk_line);
	if (skb->ack_seq > sk->snd_una)
		tcp_ack(t, sk, skb->ack_seq);
	if (!skb->len && !skb->fin) {
		tcp_skb_put(t, sk, id);		/* __kfree_skb() of a pure ACK */
		sym_exit(task_cpu(t), psym);
		return;
	}
	hw_write(k->hw, task_cpu(t), &sk->sk_line);
	if (skb->len > sk->rcv_mss)	/* tcp_measure_rcv_mss() */
		sk->rcv_mss = skb->len < net->advmss ? skb->len : net->advmss;
	sk->rcv_nxt = skb->end_seq;
	tcp_queue_push(&sk->receive_queue, id);
	if (skb->fin && sk->fin_sent)
		tcp_send_ack(t, sk);	/* FIN_WAIT2 -> TIME_WAIT */
	if (waitqueue_active(t, &sk->sk_sleep))	/* sock_def_readable() */
		wake_up(t, &sk->sk_sleep, net->sync_readable);
	sym_exit(task_cpu(t), psym);
}

/* tcp_v4_rcv() in the NET_RX softirq of the sending CPU (net_rx_action,
 * netif_receive_skb, ip_rcv, the socket lookup): under bh_lock_sock the
 * segment goes to the backlog of an owned socket, to the prequeue of a
 * reader asleep in tcp_recvmsg (the first one wakes it), else it is
 * processed here and now. */
void tcp_v4_rcv(struct task *t, struct tcp_sock *sk, int id)
{
	struct kernel *k = t->k;
	struct tcp_net *net = sk->net;
	int psym = sym_enter(task_cpu(t), net->sym_v4_rcv);
	cpu_charge(task_cpu(t), net->cost.v4_rcv);
	slab_obj_touch(k, task_cpu(t), tcp_skb_at(net, id)->head, SKB_HEAD_LINES, false);
	hw_spin_lock(k->hw, task_cpu(t), &sk->slock);
	if (sk->owned || sk->ucopy_task) {
		tcp_queue_push(&sk->backlog, id);
		if (!sk->owned && sk->backlog.len == 1)		/* tcp_prequeue() */
			wake_up(t, &sk->sk_sleep, net->sync_prequeue);
	} else {
		tcp_rcv_established(t, sk, id);
	}
	hw_spin_unlock(k->hw, task_cpu(t), &sk->slock);
	sym_exit(task_cpu(t), psym);
}

/* tcp_prequeue_process() / __release_sock(): the owner processes what the
 * softirq left for it, as much as was there when it looked. */
static void tcp_process_backlog(struct task *t, struct tcp_sock *sk)
{
	struct hw *hw = t->k->hw;
	hw_spin_lock(hw, task_cpu(t), &sk->slock);
	unsigned int n = sk->backlog.len;
	hw_spin_unlock(hw, task_cpu(t), &sk->slock);
	while (n--)
		tcp_rcv_established(t, sk, tcp_queue_pop(&sk->backlog));
}

/* release_sock(): process the backlog until it is empty, then give up
 * ownership (under the spinlock, so nothing is left behind). */
void release_sock(struct task *t, struct tcp_sock *sk)
{
	struct hw *hw = t->k->hw;
	for (;;) {
		hw_spin_lock(hw, task_cpu(t), &sk->slock);
		if (!sk->backlog.len) {
			sk->owned = false;
			hw_spin_unlock(hw, task_cpu(t), &sk->slock);
			return;
		}
		hw_spin_unlock(hw, task_cpu(t), &sk->slock);
		tcp_process_backlog(t, sk);
	}
}

/* sk_wait_data(): sleep as the prequeue's reader (ucopy.task) with the
 * socket released, until data or a deferred segment arrives. */
static void sk_wait_data(struct task *t, struct tcp_sock *sk)
{
	struct hw *hw = t->k->hw;
	hw_write(hw, task_cpu(t), &sk->slock_line);
	sk->ucopy_task = t;
	prepare_to_wait(t, &sk->sk_sleep);
	release_sock(t, sk);
	hw_read(hw, task_cpu(t), &sk->slock_line);
	if (!sk->receive_queue.len && !sk->backlog.len)
		schedule(t);
	finish_wait(t, &sk->sk_sleep);
	lock_sock(t, sk);
}

/* tcp_cleanup_rbuf(): with the queue drained, ACK what was consumed, unless
 * the connection is interactive (pingpong: the reply will carry the ACK,
 * or the delayed-ACK timer, not modelled, would send it) and no more than
 * a full segment waits, or the FIN was read (close() sends one). */
static void tcp_cleanup_rbuf(struct task *t, struct tcp_sock *sk)
{
	int64_t owed = (int64_t)(sk->copied_seq - sk->rcv_wup);
	if (owed <= 0 || sk->receive_queue.len || sk->fin_seen)
		return;
	if (!sk->pingpong || owed > (int64_t)sk->rcv_mss)
		tcp_send_ack(t, sk);
}

/* tcp_recvmsg(): copy what is queued, up to len, freeing each clone as it
 * is consumed (a batch: a reader that slept finds all that came); with
 * nothing queued and nothing copied, wait. Every second full-sized segment
 * consumed is ACKed at once. Returns 0 at the FIN. */
long tcp_recvmsg(struct task *t, struct tcp_sock *sk, size_t len)
{
	struct tcp_net *net = sk->net;
	struct hw *hw = t->k->hw;
	int psym = sym_enter(task_cpu(t), net->sym_recvmsg);
	cpu_charge(task_cpu(t), net->cost.recvmsg);
	lock_sock(t, sk);
	size_t copied = 0;
	while (copied < len) {
		int id = tcp_queue_peek(&sk->receive_queue);
		if (id < 0) {
			hw_read(hw, task_cpu(t), &sk->slock_line);	/* sk_backlog.tail */
			if (sk->backlog.len)
				tcp_process_backlog(t, sk);
			else if (copied || sk->fin_seen)
				break;
			else
				sk_wait_data(t, sk);
			continue;
		}
		struct tcp_skb *skb = tcp_skb_at(net, id);
		if (skb->fin) {		/* FIN segments carry no data here */
			if (copied)
				break;
			tcp_queue_pop(&sk->receive_queue);
			sk->copied_seq = skb->end_seq;
			sk->fin_seen = true;
			tcp_skb_put(t, sk, id);		/* sk_eat_skb() */
			break;
		}
		unsigned int chunk = skb->len - skb->rcv_off;
		if (chunk > len - copied)
			chunk = (unsigned int)(len - copied);
		tcp_copy_to_user(t, sk, id, skb->rcv_off, chunk);
		skb->rcv_off += chunk;
		copied += chunk;
		sk->copied_seq += chunk;
		sk->bytes_received += chunk;
		if (skb->rcv_off == skb->len) {
			tcp_queue_pop(&sk->receive_queue);
			tcp_skb_put(t, sk, id);		/* sk_eat_skb() */
		}
		if ((int64_t)(sk->copied_seq - sk->rcv_wup) > (int64_t)sk->rcv_mss)
			tcp_send_ack(t, sk);
	}
	tcp_cleanup_rbuf(t, sk);
	hw_write(hw, task_cpu(t), &sk->slock_line);
	sk->ucopy_task = NULL;
	release_sock(t, sk);
	sym_exit(task_cpu(t), psym);
	return (long)copied;
}
