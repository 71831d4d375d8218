/* af_unix.c - unix_stream_sendmsg / unix_stream_recvmsg and their syscalls. */
#include "af_unix.h"
#include "engine/array_size.h"
#include "engine/oom.h"
#include "sched.h"

#include <stdlib.h>

#include "slab.h"

#define SK_WMEM_PACKETS 256	/* _SK_MEM_PACKETS */
#define SK_WMEM_OVERHEAD 256	/* _SK_MEM_OVERHEAD = sizeof(struct sk_buff) + 256 */
#define CACHE_LINE 64

void unix_classes_init(struct kernel *k, struct unix_classes *uc)
{
	int spin = k->hw->sym_spin_lock;
	int owner = hw_lock_owner_set(k->hw, LOCK_OWNER_KERNEL);	/* AF_UNIX's */
	hw_lock_class_init(k->hw, &uc->u_lock, "&u->lock", spin);
	hw_lock_class_init(k->hw, &uc->rq_lock, "&sk->sk_receive_queue.lock", spin);
	hw_lock_class_init(k->hw, &uc->sleep, "&sk->sk_sleep (wait queue)", spin);
	hw_lock_class_init(k->hw, &uc->d_lock, "&dentry->d_lock", spin);
	hw_lock_owner_set(k->hw, owner);
	unix_path_for_era(&uc->path, k->era, (int)param_int(&k->params, "unix_scm_creds"));
}

/* One socket of a pair on node `node`: its lines, u->lock, the receive queue's lock and the
 * sk_sleep wait queue, sock_init_data()'s sk_sndbuf, and an empty queue. */
static void unix_sock_init(struct kernel *k, struct unix_classes *uc, struct unix_sock *u,
			   int node)
{
	u->node = node;
	u->uc = uc;
	struct hw_line *lines[] = { &u->refcnt_line, &u->sk_line, &u->rq_line, &u->cb_line,
				    &u->readlock_line, &u->u_line, &u->file_line,
				    &u->dentry_line };
	for (int i = 0; i < ARRAY_SIZE(lines); i++)
		hw_line_init(k->hw, lines[i], node);
	hw_lock_init(&u->rq_lock, k->lock_kind, &u->rq_line, &uc->rq_lock);
	hw_lock_init(&u->u_lock, k->lock_kind, &u->u_line, &uc->u_lock);
	hw_lock_init(&u->d_lock, k->lock_kind, &u->dentry_line, &uc->d_lock);
	init_waitqueue_head(k, &u->sk_sleep, &uc->sleep, node);
	/* sock_init_data(): sk_sndbuf = sysctl_wmem_default = SK_WMEM_MAX */
	u->sk_sndbuf = (int)((k->skb->sizeof_sk_buff + SK_WMEM_OVERHEAD) * SK_WMEM_PACKETS);
	u->sk_wmem_alloc = 0;
	u->ring = NULL;
	u->ring_cap = u->ring_head = u->qlen = 0;
}

void unix_sock_free(struct unix_sock *u)
{
	free(u->ring);
	u->ring = NULL;
	u->ring_cap = u->ring_head = u->qlen = 0;
}

/* The i-th queued skb; the ring's size is a power of two (64, doubling). */
static inline struct sk_buff *ring_at(struct unix_sock *u, unsigned int i)
{
	return &u->ring[(u->ring_head + i) & (u->ring_cap - 1)];
}

/* Make room for one more queued skb (the queue's storage doubles). */
static void ring_reserve(struct unix_sock *u)
{
	if (u->qlen < u->ring_cap)
		return;
	unsigned int cap = u->ring_cap ? 2 * u->ring_cap : 64;
	struct sk_buff *r = malloc(cap * sizeof(*r));
	if (!r)
		host_oom(__func__);
	for (unsigned int i = 0; i < u->qlen; i++)
		r[i] = *ring_at(u, i);
	free(u->ring);
	u->ring = r;
	u->ring_cap = cap;
	u->ring_head = 0;
}

void unix_socketpair(struct kernel *k, struct unix_classes *uc, struct unix_sock *a,
		     struct unix_sock *b, int node)
{
	unix_sock_init(k, uc, a, node);
	unix_sock_init(k, uc, b, node);
	a->peer = b;
	b->peer = a;
}

/* skb_queue_tail(): append under the queue's own lock. */
static void skb_queue_tail(struct kernel *k, struct sim_cpu *cpu, struct unix_sock *u,
			   const struct sk_buff *skb)
{
	hw_spin_lock(k->hw, cpu, &u->rq_lock);
	cpu_charge(cpu, k->cost.skb_queue);
	hw_write(k->hw, cpu, &u->rq_line);
	if (u->uc->path.rq_head_split)	/* list->prev, a line before qlen and the lock */
		hw_write(k->hw, cpu, &u->sk_line);
	if (u->qlen)	/* the old tail's next pointer */
		slab_obj_touch(k, cpu, ring_at(u, u->qlen - 1)->head, 1, true);
	ring_reserve(u);
	*ring_at(u, u->qlen) = *skb;
	u->qlen++;
	hw_spin_unlock(k->hw, cpu, &u->rq_lock);
}

/* skb_dequeue(): take the head skb off the receive queue under the queue's own lock; false
 * if the queue is empty. */
static bool skb_dequeue(struct kernel *k, struct sim_cpu *cpu, struct unix_sock *u,
			struct sk_buff *skb)
{
	hw_spin_lock(k->hw, cpu, &u->rq_lock);
	cpu_charge(cpu, k->cost.skb_queue);
	hw_write(k->hw, cpu, &u->rq_line);
	if (u->uc->path.rq_head_split && u->qlen)	/* list->next */
		hw_write(k->hw, cpu, &u->sk_line);
	bool got = u->qlen > 0;
	if (got) {
		*skb = *ring_at(u, 0);
		u->ring_head = (u->ring_head + 1) & (u->ring_cap - 1);
		u->qlen--;
	}
	hw_spin_unlock(k->hw, cpu, &u->rq_lock);
	return got;
}

/* get_pid()/get_cred() or their puts: `n` locked ops on each of the
 * writer's two lines (SCM credentials, 2.6.36-3.1). */
static void scm_creds_ref(struct kernel *k, struct sim_cpu *cpu, struct task_ids *ids, int n)
{
	for (int i = 0; i < n; i++) {
		hw_atomic(k->hw, cpu, &ids->pid);
		hw_atomic(k->hw, cpu, &ids->cred);
	}
}

/* read_lock() or read_unlock() of the socket's sk_callback_lock, one locked
 * op on its line: sock_def_readable() and unix_write_space() take and drop
 * it up to 2.6.34, so each call site calls this twice. */
static void callback_read_lock(struct kernel *k, struct sim_cpu *cpu, struct unix_sock *u)
{
	if (u->uc->path.callback_rwlock)
		hw_atomic(k->hw, cpu, &u->cb_line);
}

/* sock_wfree() + unix_write_space(): give back truesize (one atomic_sub, or
 * from 2.6.32 all but one byte, then the last after the wake-up), wake
 * writers when a quarter of the buffer is free again, drop the socket's
 * reference (sock_put, to 2.6.30). */
static void sock_wfree(struct task *t, const struct sk_buff *skb)
{
	struct kernel *k = t->k;
	struct unix_sock *sk = skb->sk;
	const struct unix_path *path = &sk->uc->path;
	struct sim_cpu *cpu = task_cpu(t);
	int psym = sym_enter(cpu, k->sym_sock_wfree);
	cpu_charge(cpu, k->cost.sock_wfree);
	hw_atomic(k->hw, cpu, &sk->sk_line);
	sk->sk_wmem_alloc -= (long)skb->truesize;
	bool writable = (sk->sk_wmem_alloc << 2) <= sk->sk_sndbuf;
	callback_read_lock(k, cpu, sk);
	if (writable && waitqueue_active(t, &sk->sk_sleep))
		wake_up(t, &sk->sk_sleep, true);
	callback_read_lock(k, task_cpu(t), sk);	/* read_unlock */
	if (path->wfree_atomics > 1)	/* atomic_sub_and_test(1, &sk->sk_wmem_alloc) */
		hw_atomic(k->hw, task_cpu(t), &sk->sk_line);
	if (path->sock_refcnt)		/* sock_put() */
		hw_atomic(k->hw, task_cpu(t), &sk->refcnt_line);
	sym_exit(task_cpu(t), psym);
}

/* sock_alloc_send_skb(): wait for room in sk_sndbuf, then alloc_skb. */
static bool sock_alloc_send_skb(struct task *t, struct unix_sock *sk, unsigned int size,
				struct sk_buff *skb)
{
	struct kernel *k = t->k;
	for (;;) {
		struct sim_cpu *cpu = task_cpu(t);
		hw_read(k->hw, cpu, &sk->cb_line);	/* sk_sndtimeo, sock_error()'s sk_err */
		hw_read(k->hw, cpu, &sk->sk_line);
		if (sk->sk_wmem_alloc < sk->sk_sndbuf) {
			if (!alloc_skb(k, k->skb, cpu, size, skb))
				return false;
			/* skb_set_owner_w(): sock_hold() to 2.6.30, then the charge */
			skb->sk = sk;
			skb->creds = NULL;
			if (sk->uc->path.sock_refcnt)
				hw_atomic(k->hw, task_cpu(t), &sk->refcnt_line);
			hw_atomic(k->hw, task_cpu(t), &sk->sk_line);
			sk->sk_wmem_alloc += (long)skb->truesize;
			return true;
		}
		/* sock_wait_for_wmem() */
		prepare_to_wait(t, &sk->sk_sleep);
		hw_read(k->hw, task_cpu(t), &sk->sk_line);
		if (sk->sk_wmem_alloc >= sk->sk_sndbuf) {
			k->unix_waiting.wmem++;
			schedule(t);
			k->unix_waiting.wmem--;
		}
		finish_wait(t, &sk->sk_sleep);
	}
}

/* unix_stream_sendmsg(): send len bytes in skbs of at most sk_sndbuf/2 - 64, each queued on
 * the peer under unix_state_lock(other), waking the peer's readers. */
static long unix_stream_sendmsg(struct task *t, struct unix_sock *sk, size_t len)
{
	struct kernel *k = t->k;
	struct unix_sock *other = sk->peer;
	bool creds = sk->uc->path.scm_creds;
	size_t sent = 0;
	if (creds)	/* scm_send(): get_pid(task_tgid), get_cred */
		scm_creds_ref(k, task_cpu(t), t->ids, 1);
	while (sent < len) {
		int psym = sym_enter(task_cpu(t), k->sym_sendmsg);
		cpu_charge(task_cpu(t), k->cost.unix_sendmsg);
		size_t size = len - sent;
		size_t cap = (size_t)(sk->sk_sndbuf >> 1) - 64;	/* two messages in the pipe */
		if (size > cap)
			size = cap;
		struct sk_buff skb_rec, *skb = &skb_rec;
		bool ok = sock_alloc_send_skb(t, sk, (unsigned int)size, skb);
		struct sim_cpu *cpu = task_cpu(t);
		if (!ok) {	/* out_err: scm_destroy() puts the references too */
			if (creds)
				scm_creds_ref(k, cpu, t->ids, 1);
			sym_exit(cpu, psym);
			return sent ? (long)sent : -1;
		}
		/* memcpy_fromiovec() into the data buffer */
		sym_enter(cpu, k->sym_copy);
		cpu_charge(cpu, k->cost.copy_line * (uint32_t)((size + CACHE_LINE - 1) / CACHE_LINE));
		sym_enter(cpu, k->sym_sendmsg);
		skb->len = (unsigned int)size;
		if (creds) {	/* unix_scm_to_skb(): the skb's own references */
			scm_creds_ref(k, cpu, t->ids, 1);
			skb->creds = t->ids;
		}
		hw_spin_lock(k->hw, cpu, &other->u_lock);	/* unix_state_lock(other) */
		skb_queue_tail(k, cpu, other, skb);
		hw_spin_unlock(k->hw, cpu, &other->u_lock);
		other->received++;
		/* other->sk_data_ready() = sock_def_readable(): a sync wake-up
		 * from 2.6.25-rc7 (6f3d09291b4), a plain one before */
		callback_read_lock(k, task_cpu(t), other);
		if (waitqueue_active(t, &other->sk_sleep))
			wake_up(t, &other->sk_sleep, kernel_has_2625rc7_sched(k->era, k->rc));
		callback_read_lock(k, task_cpu(t), other);	/* read_unlock */
		sent += size;
		sk->sent++;
		sym_exit(task_cpu(t), psym);
	}
	if (creds)	/* scm_destroy(): put_pid, put_cred */
		scm_creds_ref(k, task_cpu(t), t->ids, 1);
	return (long)sent;
}

/* unix_stream_recvmsg(): copy up to `size` bytes out of the queued skbs, sleeping while the
 * queue is empty and nothing is copied yet; a partly read skb goes back at the head. */
static long unix_stream_recvmsg(struct task *t, struct unix_sock *sk, size_t size)
{
	struct kernel *k = t->k;
	size_t copied = 0;
	const size_t target = 1;	/* sock_rcvlowat() without MSG_WAITALL */
	int psym = sym_enter(task_cpu(t), k->sym_recvmsg);
	cpu_charge(task_cpu(t), k->cost.unix_recvmsg);
	hw_read(k->hw, task_cpu(t), &sk->cb_line);	/* sock_rcvtimeo() */
	hw_atomic(k->hw, task_cpu(t), &sk->readlock_line);	/* mutex_lock(&u->readlock) */
	while (size) {
		struct sim_cpu *cpu = task_cpu(t);
		hw_spin_lock(k->hw, cpu, &sk->u_lock);		/* unix_state_lock(sk) */
		struct sk_buff skb_rec, *skb = &skb_rec;
		if (!skb_dequeue(k, cpu, sk, skb)) {
			if (copied >= target) {
				hw_spin_unlock(k->hw, cpu, &sk->u_lock);
				break;
			}
			/* unix_stream_data_wait() */
			hw_atomic(k->hw, task_cpu(t), &sk->readlock_line);	/* mutex_unlock */
			prepare_to_wait(t, &sk->sk_sleep);
			bool empty = !sk->qlen;
			hw_spin_unlock(k->hw, task_cpu(t), &sk->u_lock);
			if (empty) {
				k->unix_waiting.data++;
				schedule(t);
				k->unix_waiting.data--;
			}
			finish_wait(t, &sk->sk_sleep);
			hw_atomic(k->hw, task_cpu(t), &sk->readlock_line);	/* mutex_lock */
			continue;
		}
		size_t chunk = skb->len < size ? skb->len : size;
		int chunk_lines = (int)((chunk + CACHE_LINE - 1) / CACHE_LINE);
		slab_obj_prefetch(k, cpu, skb->data, chunk_lines);	/* while the head is touched */
		hw_spin_unlock(k->hw, cpu, &sk->u_lock);
		if (skb->creds)	/* scm_set_cred(): get_pid, get_cred */
			scm_creds_ref(k, cpu, skb->creds, 1);
		slab_obj_touch(k, cpu, skb->head, SKB_HEAD_LINES, false);
		/* memcpy_toiovec() */
		int csym = sym_enter(cpu, k->sym_copy);
		slab_obj_touch(k, cpu, skb->data, chunk_lines, false);
		cpu_charge(cpu, k->cost.copy_line * (uint32_t)chunk_lines);
		sym_exit(cpu, csym);
		copied += chunk;
		size -= chunk;
		skb->len -= (unsigned int)chunk;
		if (skb->len) {	/* partly read: back at the head (skb_queue_head) */
			if (skb->creds)	/* scm_recv()'s put of the copy it took */
				scm_creds_ref(k, cpu, skb->creds, 1);
			hw_spin_lock(k->hw, cpu, &sk->rq_lock);
			ring_reserve(sk);
			sk->ring_head = (sk->ring_head + sk->ring_cap - 1) & (sk->ring_cap - 1);
			*ring_at(sk, 0) = *skb;
			sk->qlen++;
			hw_spin_unlock(k->hw, cpu, &sk->rq_lock);
			break;
		}
		sk->received++;
		if (skb->creds)	/* unix_destruct_scm() and scm_recv(): the two puts */
			scm_creds_ref(k, cpu, skb->creds, 2);
		sock_wfree(t, skb);	/* kfree_skb(): the destructor first */
		__kfree_skb(k, k->skb, task_cpu(t), skb);
	}
	hw_atomic(k->hw, task_cpu(t), &sk->readlock_line);	/* mutex_unlock */
	sym_exit(task_cpu(t), psym);
	return (long)copied;
}

/* A system call: user side, entry/exit, vfs, then preemption on return;
 * vfs_read/vfs_write read the socket's struct file. */
static void syscall_enter(struct task *t, int sym, struct unix_sock *sk)
{
	struct kernel *k = t->k;
	struct sim_cpu *cpu = task_cpu(t);
	cpu->sym = k->sym_user;
	cpu_charge(cpu, k->cost.user_per_call);
	cpu->sym = k->sym_syscall;
	cpu_charge(cpu, k->cost.syscall);
	cpu->sym = sym;
	cpu_charge(cpu, k->cost.sys_rw);
	/* task, file and socket state that thousands of tasks push out of
	 * the caches between two calls */
	hw_mem_lines(k->hw, cpu, (int)k->cost.syscall_cold_lines, k->m->topo[cpu->id].node);
	hw_read(k->hw, cpu, &sk->file_line);	/* file_pos_read(), f_op, f_mode */
}

/* The end of vfs_read/vfs_write and sys_read/sys_write: dnotify_parent()
 * locks the dentry (to 2.6.30), file_pos_write() stores f_pos (to 5.4),
 * then the return to user space: a preemption point, user code. */
static void syscall_exit(struct task *t, struct unix_sock *sk)
{
	struct kernel *k = t->k;
	const struct unix_path *path = &sk->uc->path;
	if (path->dnotify_d_lock) {
		hw_spin_lock(k->hw, task_cpu(t), &sk->d_lock);
		hw_spin_unlock(k->hw, task_cpu(t), &sk->d_lock);
	}
	if (path->f_pos_store)
		hw_write(k->hw, task_cpu(t), &sk->file_line);
	sched_preempt_point(t);
	task_cpu(t)->sym = t->k->sym_user;
}

long sys_write_unix(struct task *t, struct unix_sock *sk, size_t len)
{
	syscall_enter(t, t->k->sym_sys_write, sk);
	long r = unix_stream_sendmsg(t, sk, len);
	syscall_exit(t, sk);
	return r;
}

long sys_read_unix(struct task *t, struct unix_sock *sk, size_t len)
{
	syscall_enter(t, t->k->sym_sys_read, sk);
	long r = unix_stream_recvmsg(t, sk, len);
	syscall_exit(t, sk);
	return r;
}
