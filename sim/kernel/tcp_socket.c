/* tcp_socket.c - TCP sockets over lo: a connected pair, the system calls
 * (send, recv, shutdown, close) and the end-of-run checks. */
#include "tcp_internal.h"

#include <string.h>

/* An established socket: tcp_wmem[1] for sk_sndbuf unless SO_SNDBUF set
 * it (and locked it), tcp_initialize_rcv_mss()'s TCP_MIN_RCVMSS. */
static void tcp_sock_init(struct tcp_net *net, struct tcp_sock *sk, int node)
{
	struct kernel *k = net->k;
	memset(sk, 0, sizeof(*sk));
	sk->net = net;
	sk->node = node;
	hw_line_init(k->hw, &sk->sk_line, node);
	hw_line_init(k->hw, &sk->slock_line, node);
	hw_lock_init(&sk->slock, k->lock_kind, &sk->slock_line, &net->slock_class);
	init_waitqueue_head(k, &sk->sk_sleep, &net->sleep_class, node);
	sk->sk_sndbuf = net->sndbuf ? net->sndbuf : SYSCTL_TCP_WMEM1;
	sk->sndbuf_locked = net->sndbuf != 0;
	sk->rcv_mss = TCP_MIN_RCVMSS;
	sk->sndmsg_page = -1;
}

/* connect() over lo, handshake done: two established peers. */
void tcp_socketpair(struct tcp_net *net, struct tcp_sock *a, struct tcp_sock *b, int node)
{
	tcp_sock_init(net, a, node);
	tcp_sock_init(net, b, node);
	a->peer = b;
	b->peer = a;
}

/* Free a socket's host storage. */
void tcp_sock_free(struct tcp_sock *sk)
{
	tcp_queue_free(&sk->backlog);
	tcp_queue_free(&sk->receive_queue);
	tcp_queue_free(&sk->write_queue);
}

/* A system call from user space: the user side of the call, system_call,
 * sys_sendto / sys_recvfrom and sockfd_lookup. netperf's two tasks keep
 * their task, file and socket lines cached (no syscall_cold_lines). */
static void tcp_syscall_enter(struct task *t, int sym)
{
	struct kernel *k = t->k;
	struct sim_cpu *cpu = task_cpu(t);
	cpu->sym = k->sym_user;
	cpu_charge(cpu, k->cost.user_per_call);
	cpu->sym = k->sym_syscall;
	cpu_charge(cpu, k->cost.syscall);
	cpu->sym = sym;
	cpu_charge(cpu, k->cost.sys_rw);
}

/* Back to user space: a preemption point. */
static void tcp_syscall_exit(struct task *t)
{
	sched_preempt_point(t);
	task_cpu(t)->sym = t->k->sym_user;
}

/* send(2): sys_sendto() .. tcp_sendmsg(). */
long sys_send_tcp(struct task *t, struct tcp_sock *sk, size_t len)
{
	tcp_syscall_enter(t, sk->net->sym_sendto);
	long r = tcp_sendmsg(t, sk, len);
	tcp_syscall_exit(t);
	return r;
}

/* recv(2): sys_recvfrom() .. tcp_recvmsg(). */
long sys_recv_tcp(struct task *t, struct tcp_sock *sk, size_t len)
{
	tcp_syscall_enter(t, sk->net->sym_recvfrom);
	long r = tcp_recvmsg(t, sk, len);
	tcp_syscall_exit(t);
	return r;
}

/* shutdown(SHUT_WR): tcp_shutdown() sends the FIN. */
void sys_shutdown_tcp(struct task *t, struct tcp_sock *sk)
{
	tcp_syscall_enter(t, t->k->sym_syscall);
	lock_sock(t, sk);
	if (!sk->fin_sent)
		tcp_send_fin(t, sk);
	release_sock(t, sk);
	tcp_syscall_exit(t);
}

/* close(): tcp_close() sends the FIN if shutdown() did not, and the socket
 * gives back its sk_sndmsg_page (tcp_v4_destroy_sock). The socket lives on
 * for the ACKs still to come, processed by the peer's softirqs. */
void sys_close_tcp(struct task *t, struct tcp_sock *sk)
{
	tcp_syscall_enter(t, t->k->sym_syscall);
	lock_sock(t, sk);
	if (!sk->fin_sent)
		tcp_send_fin(t, sk);
	tcp_put_sndmsg_page(t, sk);
	release_sock(t, sk);
	tcp_syscall_exit(t);
}

/* After both closes: nothing queued, in flight, owned or charged. */
int tcp_sock_check(const struct tcp_sock *sk, const char *name, struct sim_err *err)
{
	if (sk->write_queue.len || sk->receive_queue.len || sk->backlog.len)
		return sim_fail(err, "%s: %u skbs unacknowledged, %u unread, %u on the backlog "
				"at the end", name, sk->write_queue.len, sk->receive_queue.len,
				sk->backlog.len);
	if (sk->sk_wmem_queued != 0)
		return sim_fail(err, "%s: sk_wmem_queued is %ld at the end", name,
				sk->sk_wmem_queued);
	if (sk->owned || sk->ucopy_task || sk->sndmsg_page >= 0)
		return sim_fail(err, "%s: still owned, read or holding its page at the end", name);
	if (sk->snd_una != sk->write_seq || sk->rcv_nxt != sk->peer->write_seq)
		return sim_fail(err, "%s: sent %llu, %llu acknowledged; received %llu of %llu",
				name, (unsigned long long)sk->write_seq,
				(unsigned long long)sk->snd_una, (unsigned long long)sk->rcv_nxt,
				(unsigned long long)sk->peer->write_seq);
	return 0;
}
