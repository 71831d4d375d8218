/* af_unix_era.h - what one AF_UNIX stream message does outside the allocator,
 * by kernel era: the locked instructions and shared stores of write(2) and
 * read(2) on a socket, beside the ones every era has (sk_wmem_alloc's add,
 * unix_state_lock, the receive queue's lock). Each field names the code and
 * the commit that changed it; docs/model.md ("The socket path") has the
 * table of locked operations per message. */
#ifndef SIM_AF_UNIX_ERA_H
#define SIM_AF_UNIX_ERA_H

#include <stdbool.h>

struct unix_path {
	/* skb_set_owner_w()'s sock_hold() and sock_wfree()'s sock_put() on the
	 * writer's sk_refcnt; gone in 2.6.31 (2b85a34e911b) */
	bool sock_refcnt;
	/* read_lock/read_unlock of sk_callback_lock in sock_def_readable()
	 * (the reader's socket) and unix_write_space() (the writer's); RCU
	 * from 2.6.35 (43815482370c) */
	bool callback_rwlock;
	/* dnotify_parent()'s spin_lock(&dentry->d_lock) on every read and
	 * write; fsnotify tests a flag from 2.6.31 (3c5119c05d62) */
	bool dnotify_d_lock;
	/* file_pos_write()'s store to file->f_pos on every read and write;
	 * stream sockets have no f_pos from 5.5 (d8e464ecc17b) */
	bool f_pos_store;
	/* locked ops of sock_wfree() on sk_wmem_alloc: one, two from 2.6.32
	 * (d99927f4d93f: atomic_sub, then atomic_sub_and_test(1)) */
	int wfree_atomics;
	/* SCM credentials: get_pid/get_cred and their puts, three of each a
	 * message on each side, on the writer's struct pid and struct cred;
	 * 2.6.36 (257b5358b32f, 7361c36c5224) to 3.1, 3.2 stopped sending
	 * them by default (16e572626961) */
	bool scm_creds;
	/* the receive queue's list pointers on struct sock's line with
	 * sk_wmem_alloc and sk_sndbuf, its lock and qlen on the next (the
	 * layout of 2.6.25-rc5's x86_64 defconfig) */
	bool rq_head_split;
};

/* The socket path of kernel `era` (20625 for 2.6.25); scm_creds < 0 takes
 * the era's, 0 or 1 sets it (what the measured tree sent). */
void unix_path_for_era(struct unix_path *p, int era, int scm_creds);

/* Locked instructions a writer / a reader makes for one message that
 * nobody waits for (the audit's count, for docs and tests). */
int unix_path_writer_locked_ops(const struct unix_path *p);
int unix_path_reader_locked_ops(const struct unix_path *p);

#endif
