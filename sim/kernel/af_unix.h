/* af_unix.h - AF_UNIX stream sockets (net/unix/af_unix.c, 2.6.24-26): a
 * writer is limited by its own socket's sk_sndbuf (bytes of skb truesize in
 * flight, sk_wmem_alloc) and sleeps in sock_alloc_send_skb when it is full;
 * it queues each skb on the peer's sk_receive_queue under unix_state_lock and
 * wakes the reader. The reader dequeues, copies, and frees the skb, whose
 * destructor (sock_wfree) gives the bytes back and wakes writers once a
 * quarter of the buffer is free (unix_writable). */
#ifndef SIM_AF_UNIX_H
#define SIM_AF_UNIX_H

#include "af_unix_era.h"
#include "kernel.h"
#include "skbuff.h"
#include "wait.h"

struct unix_classes;

/* One socket with its file and dentry (each end of a pair has its own; the
 * writers of a hackbench group share one end). Lines as 2.6.25-rc5's
 * x86_64 defconfig lays them out. */
struct unix_sock {
	struct unix_sock *peer;
	const struct unix_classes *uc;
	int node;
	struct hw_line refcnt_line;	/* struct sock's first line: sk_refcnt */
	struct hw_line sk_line;		/* sk_wmem_alloc, sk_sndbuf (and the receive
					 * queue's list pointers, rq_head_split) */
	long sk_wmem_alloc;
	int sk_sndbuf;
	struct hw_line rq_line;		/* sk_receive_queue: lock, qlen (and its list) */
	struct hw_lock rq_lock;
	struct hw_line cb_line;		/* sk_callback_lock, sk_err, sk_rcvtimeo, sk_sndtimeo */
	struct sk_buff *ring;		/* the queued skbs, oldest at ring_head */
	unsigned int ring_cap, ring_head, qlen;
	struct hw_line readlock_line;	/* struct unix_sock: the readlock mutex */
	struct hw_line u_line;		/* unix_sock: lock */
	struct hw_lock u_lock;		/* unix_state_lock() */
	struct hw_line file_line;	/* struct file: f_op, f_mode, f_pos */
	struct hw_line dentry_line;	/* the sockfs dentry: d_lock, d_flags */
	struct hw_lock d_lock;
	struct wait_queue_head sk_sleep;
	uint64_t sent, received;	/* messages */
};

/* The lock classes of all AF_UNIX sockets of a run, and the era's path. */
struct unix_classes {
	struct hw_lock_class u_lock, rq_lock, sleep, d_lock;
	struct unix_path path;
};

void unix_classes_init(struct kernel *k, struct unix_classes *uc);

/* socketpair(AF_UNIX, SOCK_STREAM): two connected sockets. */
void unix_socketpair(struct kernel *k, struct unix_classes *uc, struct unix_sock *a,
		     struct unix_sock *b, int node);

/* Free what a socket holds on the host (its queue's storage). */
void unix_sock_free(struct unix_sock *u);

/* write(2) / read(2) of a stream socket by task t; return bytes moved. */
long sys_write_unix(struct task *t, struct unix_sock *sk, size_t len);
long sys_read_unix(struct task *t, struct unix_sock *sk, size_t len);

#endif
