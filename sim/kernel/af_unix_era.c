/* af_unix_era.c - the AF_UNIX socket path of each kernel era. */
#include "af_unix_era.h"

/* Read against v2.6.25-rc5 (net/unix/af_unix.c, net/core/sock.c,
 * include/net/sock.h, fs/read_write.c, fs/dnotify.c) and the commits that
 * changed each step; the model's eras are 2.6.24-2.6.26, 3.0-3.2, 6.18, 7.0. */
void unix_path_for_era(struct unix_path *p, int era, int scm_creds)
{
	p->sock_refcnt = era < 20631;
	p->callback_rwlock = era < 20635;
	p->dnotify_d_lock = era < 20631;
	p->f_pos_store = era < 50500;
	p->wfree_atomics = era >= 20632 ? 2 : 1;
	p->scm_creds = scm_creds >= 0 ? scm_creds != 0 : era >= 20636 && era < 30200;
	p->rq_head_split = era < 20631;
}

/* sk_wmem_alloc's add, unix_state_lock, the queue's lock, plus the era's. */
int unix_path_writer_locked_ops(const struct unix_path *p)
{
	return 3 + p->dnotify_d_lock + p->sock_refcnt + 2 * p->callback_rwlock +
	       6 * p->scm_creds;
}

/* The readlock mutex (lock and unlock), unix_state_lock, the queue's lock
 * and sock_wfree's atomics, plus the era's. */
int unix_path_reader_locked_ops(const struct unix_path *p)
{
	return 4 + p->wfree_atomics + p->dnotify_d_lock + p->sock_refcnt +
	       2 * p->callback_rwlock + 6 * p->scm_creds;
}
