/* tcp_skb.c - the TCP state of a run (skbuff_fclone_cache, costs, symbols)
 * and TCP's socket buffers: their records, allocation, page fragments,
 * copies and release. */
#include "tcp_internal.h"
#include "engine/array_size.h"
#include "engine/oom.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/slab_policy.h"
#include "slab.h"

#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))

/* The named costs of TCP's paths, from the machine's cost table. */
static int load_tcp_costs(struct tcp_net *net, struct sim_err *err)
{
	const struct cost_ref costs[] = {
		{ "tcp_sendmsg", &net->cost.sendmsg },
		{ "tcp_recvmsg", &net->cost.recvmsg },
		{ "tcp_transmit_skb", &net->cost.transmit },
		{ "tcp_v4_rcv", &net->cost.v4_rcv },
		{ "tcp_rcv_established", &net->cost.rcv_established },
		{ "tcp_ack", &net->cost.ack },
		{ "tcp_send_ack", &net->cost.send_ack },
	};
	return machine_costs(net->k->m, costs, ARRAY_SIZE(costs), err);
}

/* The profile symbols TCP's time is charged to, named as the kernel's. */
static void register_tcp_symbols(struct tcp_net *net)
{
	struct profile *p = &net->k->eng->prof;
	net->sym_sendto = profile_sym(p, "sys_sendto", SYM_KERNEL);
	net->sym_recvfrom = profile_sym(p, "sys_recvfrom", SYM_KERNEL);
	net->sym_sendmsg = profile_sym(p, "tcp_sendmsg", SYM_KERNEL);
	net->sym_recvmsg = profile_sym(p, "tcp_recvmsg", SYM_KERNEL);
	net->sym_transmit = profile_sym(p, "tcp_transmit_skb", SYM_KERNEL);
	net->sym_v4_rcv = profile_sym(p, "tcp_v4_rcv", SYM_KERNEL);
	net->sym_rcv_established = profile_sym(p, "tcp_rcv_established", SYM_KERNEL);
	net->sym_ack = profile_sym(p, "tcp_ack", SYM_KERNEL);
	net->sym_send_ack = profile_sym(p, "tcp_send_ack", SYM_KERNEL);
}

/* skb_init()'s second cache and TCP's constants for a run. The kernel
 * creates skbuff_fclone_cache at boot; it is created here, when a workload
 * uses TCP, so that other runs keep their list of caches. */
int tcp_net_init(struct kernel *k, struct tcp_net *net, bool sg, int sndbuf,
		 struct sim_err *err)
{
	memset(net, 0, sizeof(*net));
	net->k = k;
	net->sg = sg;
	net->sndbuf = sndbuf;
	net->mss = LOOPBACK_MTU - TCP_IPHDR_LEN - TCP_TCPHDR_LEN - TCPOLEN_TSTAMP_ALIGNED;
	net->advmss = LOOPBACK_MTU - TCP_IPHDR_LEN - TCP_TCPHDR_LEN;
	/* sock_def_readable() wakes with wake_up_interruptible_sync() from
	 * 2.6.25-rc7 (6f3d09291b4, "sched, net: socket wakeups are sync");
	 * tcp_prequeue() (include/net/tcp.h) with a plain wake-up until
	 * 2.6.34-rc2 (c839d30a41d, "net: add scheduler sync hint to
	 * tcp_prequeue()") */
	net->sync_readable = kernel_has_2625rc7_sched(k->era, k->rc);
	net->sync_prequeue = k->era >= 20634;
	net->skb_free = net->page_free = -1;
	if (load_tcp_costs(net, err) < 0)
		return -1;
	register_tcp_symbols(net);
	net->rx = calloc((size_t)k->m->ncpus, sizeof(*net->rx));
	if (!net->rx)
		return sim_fail(err, "out of memory");
	/* two sk_buffs and the atomic_t fclone_ref (struct sk_buff_fclones) */
	net->fclone_size = 2 * k->skb->sizeof_sk_buff + SIZEOF_ATOMIC_T;
	net->fclone_lines = DIV_ROUND_UP(net->fclone_size, SMP_CACHE_BYTES);
	net->skbuff_fclone_cache = kmem_cache_create(k, "skbuff_fclone_cache", net->fclone_size, 0,
						     SLAB_HWCACHE_ALIGN | SLAB_PANIC, err);
	if (!net->skbuff_fclone_cache)
		return -1;
	int spin = k->hw->sym_spin_lock;
	int owner = hw_lock_owner_set(k->hw, LOCK_OWNER_KERNEL);	/* the TCP stack's */
	hw_lock_class_init(k->hw, &net->slock_class, "slock-AF_INET", spin);
	hw_lock_class_init(k->hw, &net->sleep_class, "&sk->sk_sleep (AF_INET)", spin);
	hw_lock_owner_set(k->hw, owner);
	return 0;
}

/* Free the run's host records (the slab objects belong to the kernel). */
void tcp_net_destroy(struct tcp_net *net)
{
	for (int c = 0; net->rx && c < net->k->m->ncpus; c++)
		free(net->rx[c].ring);
	free(net->rx);
	for (int i = 0; i < net->nskb_chunks; i++)
		free(net->skb_chunks[i]);
	for (int i = 0; i < net->npage_chunks; i++)
		free(net->page_chunks[i]);
	free(net->skb_chunks);
	free(net->page_chunks);
	memset(net, 0, sizeof(*net));
}

/* Grow a host array geometrically (rare, amortised over the packets). */
static void *grow(void *a, int *cap, size_t elem)
{
	int n = *cap ? 2 * *cap : 64;
	void *r = realloc(a, (size_t)n * elem);
	if (!r)
		host_oom(__func__);
	*cap = n;
	return r;
}

/* __skb_queue_tail() on a ring of skb ids; the ring doubles when full. */
void tcp_queue_push(struct tcp_queue *q, int id)
{
	if (q->len == q->cap) {
		int cap = (int)q->cap;
		int *r = grow(NULL, &cap, sizeof(int));
		for (unsigned int i = 0; i < q->len; i++)
			r[i] = q->ring[(q->head + i) % q->cap];
		free(q->ring);
		q->ring = r;
		q->cap = (unsigned int)cap;
		q->head = 0;
	}
	q->ring[(q->head + q->len) % q->cap] = id;
	q->len++;
}

/* __skb_dequeue(): the oldest id, -1 if the queue is empty. */
int tcp_queue_pop(struct tcp_queue *q)
{
	if (!q->len)
		return -1;
	int id = q->ring[q->head];
	q->head = (q->head + 1) % q->cap;
	q->len--;
	return id;
}

/* Free a queue's host storage. */
void tcp_queue_free(struct tcp_queue *q)
{
	free(q->ring);
	memset(q, 0, sizeof(*q));
}

/* A new chunk of TCP_CHUNK records: records never move, so a pointer to
 * one stays good while the task yields and other CPUs allocate. */
static void *chunk_add(void ***chunks, int *nchunks, int *cap, size_t elem)
{
	if (*nchunks == *cap)
		*chunks = grow(*chunks, cap, sizeof(void *));
	void *c = calloc(TCP_CHUNK, elem);
	if (!c)
		host_oom(__func__);
	(*chunks)[(*nchunks)++] = c;
	return c;
}

/* A free skb record (the host side of one sk_buff). */
static int skb_record_new(struct tcp_net *net)
{
	int id = net->skb_free;
	if (id >= 0) {
		net->skb_free = tcp_skb_at(net, id)->next_free;
	} else {
		if (net->nskbs == net->nskb_chunks * TCP_CHUNK)
			chunk_add((void ***)&net->skb_chunks, &net->nskb_chunks, &net->skb_chunk_cap,
				  sizeof(struct tcp_skb));
		id = net->nskbs++;
	}
	memset(tcp_skb_at(net, id), 0, sizeof(struct tcp_skb));
	net->skbs_live++;
	return id;
}

/* Give skb record `id` back: it goes on the free list skb_record_new() takes from. */
static void skb_record_delete(struct tcp_net *net, int id)
{
	tcp_skb_at(net, id)->next_free = net->skb_free;
	net->skb_free = id;
	net->skbs_live--;
}

/* __alloc_skb(size, fclone): the sk_buff (with its fclone companion from
 * skbuff_fclone_cache, else from skbuff_head_cache) and the data area,
 * SKB_DATA_ALIGN(size) + sizeof(struct skb_shared_info), from kmalloc. */
static int tcp_alloc_skb(struct task *t, struct tcp_net *net, unsigned int size, bool fclone,
			 gfp_t gfp)
{
	struct kernel *k = t->k;
	struct sim_cpu *cpu = task_cpu(t);
	int psym = sym_enter(cpu, k->sym_alloc_skb);
	cpu_charge(cpu, k->cost.alloc_skb);
	struct kmem_cache *c = fclone ? net->skbuff_fclone_cache : k->skb->skbuff_head_cache;
	kaddr_t head = kmem_cache_alloc(k, cpu, c, gfp);
	int id = -1;
	if (head) {
		unsigned int dsize = SKB_DATA_ALIGN(size);
		kaddr_t data = __kmalloc_track_caller(k, cpu, dsize + SIZEOF_SKB_SHARED_INFO, gfp);
		if (!data) {
			kmem_cache_free(k, cpu, c, head);
		} else {
			/* memset of the header (and fclone_ref), shinfo init */
			slab_obj_touch(k, cpu, head, SKB_HEAD_LINES + (fclone ? 1 : 0), true);
			slab_obj_touch(k, cpu, data, SKB_SHINFO_LINES, true);
			id = skb_record_new(net);
			struct tcp_skb *skb = tcp_skb_at(net, id);
			skb->head = head;
			skb->data = data;
			skb->linear = size;
			skb->truesize = dsize + k->skb->sizeof_sk_buff;
			skb->fclone = fclone;
			skb->users = 1;
			skb->alloc_task = t;
			skb->alloc_cpu = cpu->id;
			(fclone ? &net->data : &net->acks)->allocated++;
		}
	}
	sym_exit(cpu, psym);
	return id;
}

/* alloc_skb_fclone(linear + MAX_TCP_HEADER), as sk_stream_alloc_skb() asks. */
int tcp_alloc_skb_fclone(struct task *t, struct tcp_sock *sk, unsigned int linear)
{
	return tcp_alloc_skb(t, sk->net, linear + MAX_TCP_HEADER, true, GFP_KERNEL);	/* sk_allocation */
}

/* alloc_skb(MAX_TCP_HEADER, GFP_ATOMIC) of tcp_send_ack(): no fclone. */
int tcp_alloc_skb_ack(struct task *t, struct tcp_net *net)
{
	return tcp_alloc_skb(t, net, MAX_TCP_HEADER, false, GFP_ATOMIC);
}

/* put_page() of a page fragment: the last reference frees the page. */
static void tcp_put_page(struct task *t, struct tcp_net *net, int pid)
{
	struct tcp_frag_page *pg = tcp_page_at(net, pid);
	if (--pg->refs)
		return;
	__free_pages(&t->k->pa, task_cpu(t), pg->page, 0);
	net->pages_freed++;
	pg->page = NULL;
	pg->next_free = net->page_free;
	net->page_free = pid;
	net->pages_live--;
}

/* The socket drops its reference to sk_sndmsg_page. */
void tcp_put_sndmsg_page(struct task *t, struct tcp_sock *sk)
{
	if (sk->sndmsg_page < 0)
		return;
	tcp_put_page(t, sk->net, sk->sndmsg_page);
	sk->sndmsg_page = -1;
}

/* kfree_skbmem() and skb_release_data() once both halves are gone: the
 * page fragments are put, the data area kfree'd, the sk_buff(s) freed. */
static void tcp_skb_free(struct task *t, struct tcp_net *net, int id)
{
	struct kernel *k = t->k;
	struct sim_cpu *cpu = task_cpu(t);
	int psym = sym_enter(cpu, k->sym_kfree_skb);
	cpu_charge(cpu, k->cost.free_skb);
	struct tcp_skb skb = *tcp_skb_at(net, id);
	slab_obj_touch(k, cpu, skb.data, SKB_SHINFO_LINES, false);	/* dataref, frags */
	for (int i = 0; i < skb.nfrags; i++)
		tcp_put_page(t, net, skb.frag[i]);
	kfree(k, cpu, skb.data);
	struct kmem_cache *c = skb.fclone ? net->skbuff_fclone_cache : k->skb->skbuff_head_cache;
	kmem_cache_free(k, cpu, c, skb.head);
	struct tcp_free_stats *st = skb.fclone ? &net->data : &net->acks;
	st->freed++;
	st->freed_by_other_side += t != skb.alloc_task;
	st->freed_on_other_cpu += task_cpu(t)->id != skb.alloc_cpu;
	skb_record_delete(net, id);
	sym_exit(cpu, psym);
}

/* kfree_skb() of one half: __kfree_skb() when it was the last. */
void tcp_skb_put(struct task *t, struct tcp_sock *sk, int id)
{
	struct kernel *k = t->k;
	struct sim_cpu *cpu = task_cpu(t);
	struct tcp_skb *skb = tcp_skb_at(sk->net, id);
	/* atomic_dec_and_test(fclone_ref): whichever half goes last, in time order */
	cpu_sync(cpu);
	slab_obj_touch(k, cpu, skb->head, 1, true);
	skb = tcp_skb_at(sk->net, id);
	if (--skb->users == 0)
		tcp_skb_free(t, sk->net, id);
}

/* Lines [addr, addr + len) of a buffer (slab object, kmalloc_large block
 * or page fragment), read or written: a page's worth at a time, each run
 * priced from its own first line, as a copy streams through them. */
static void tcp_buf_access(struct task *t, kaddr_t addr, unsigned int len, bool write)
{
	struct kernel *k = t->k;
	struct page *page = virt_to_head_page(&k->pa, addr);
	if (!page || !page->cl || !len)
		return;
	kaddr_t base = page_address(page), end = addr + len;
	while (addr < end) {
		kaddr_t stop = (addr & ~(kaddr_t)(PAGE_SIZE - 1)) + PAGE_SIZE;
		if (stop > end)
			stop = end;
		uint64_t first = (addr - base) >> 6, last = (stop - 1 - base) >> 6;
		hw_obj_access(k->hw, task_cpu(t), &page->cl[first], addr >> 6,
			      (int)(last - first + 1), write, page->nid);
		addr = stop;
	}
}

/* The socket's sk_sndmsg_page with room, a fresh page if it is full. */
static int tcp_sndmsg_page(struct task *t, struct tcp_sock *sk)
{
	struct tcp_net *net = sk->net;
	if (sk->sndmsg_page >= 0 && sk->sndmsg_off < PAGE_SIZE)
		return sk->sndmsg_page;
	tcp_put_sndmsg_page(t, sk);
	struct sim_cpu *cpu = task_cpu(t);
	struct page *page = alloc_pages_node(&t->k->pa, cpu, t->k->m->topo[cpu->id].node, 0);
	if (!page) {
		kernel_violation(t->k, "tcp_sendmsg: no page for the payload of an skb");
		return -1;
	}
	page_block_prepare(page);
	int pid = net->page_free;
	if (pid >= 0) {
		net->page_free = tcp_page_at(net, pid)->next_free;
	} else {
		if (net->npages == net->npage_chunks * TCP_CHUNK)
			chunk_add((void ***)&net->page_chunks, &net->npage_chunks,
				  &net->page_chunk_cap, sizeof(struct tcp_frag_page));
		pid = net->npages++;
	}
	struct tcp_frag_page *pg = tcp_page_at(net, pid);
	pg->page = page;
	pg->refs = 1;	/* the socket's own */
	net->pages_allocated++;
	net->pages_live++;
	sk->sndmsg_page = pid;
	sk->sndmsg_off = 0;
	return pid;
}

/* skb_copy_to_page() / skb_add_data(): the payload into the skb, in page
 * fragments of sk_sndmsg_page (lo's NETIF_F_SG), else its linear area
 * after the headroom (skb_reserve(MAX_TCP_HEADER)). */
void tcp_copy_from_user(struct task *t, struct tcp_sock *sk, int id, unsigned int len)
{
	struct kernel *k = t->k;
	struct tcp_net *net = sk->net;
	struct sim_cpu *cpu = task_cpu(t);
	int csym = sym_enter(cpu, k->sym_copy);
	cpu_charge(cpu, (uint64_t)k->cost.copy_line * DIV_ROUND_UP(len, SMP_CACHE_BYTES));
	if (!net->sg) {
		tcp_buf_access(t, tcp_skb_at(net, id)->data + MAX_TCP_HEADER, len, true);
		sym_exit(task_cpu(t), csym);
		return;
	}
	while (len) {
		int pid = tcp_sndmsg_page(t, sk);
		if (pid < 0)
			break;
		unsigned int off = sk->sndmsg_off;
		unsigned int chunk = PAGE_SIZE - off < len ? (unsigned int)(PAGE_SIZE - off) : len;
		tcp_buf_access(t, page_address(tcp_page_at(net, pid)->page) + off, chunk, true);
		struct tcp_skb *skb = tcp_skb_at(net, id);
		int last = skb->nfrags - 1;
		if (last >= 0 && skb->frag[last] == pid &&
		    skb->frag_off[last] + skb->frag_len[last] == off) {
			skb->frag_len[last] += chunk;	/* skb_can_coalesce() */
		} else {
			skb->frag[skb->nfrags] = pid;
			skb->frag_off[skb->nfrags] = off;
			skb->frag_len[skb->nfrags] = chunk;
			skb->nfrags++;
			tcp_page_at(net, pid)->refs++;	/* get_page() */
		}
		skb->truesize += chunk;
		sk->sndmsg_off += chunk;
		len -= chunk;
	}
	sym_exit(task_cpu(t), csym);
}

/* skb_copy_datagram_iovec(): `len` bytes of the payload from `off`. */
void tcp_copy_to_user(struct task *t, struct tcp_sock *sk, int id, unsigned int off,
		      unsigned int len)
{
	struct kernel *k = t->k;
	struct tcp_net *net = sk->net;
	struct sim_cpu *cpu = task_cpu(t);
	int csym = sym_enter(cpu, k->sym_copy);
	cpu_charge(cpu, (uint64_t)k->cost.copy_line * DIV_ROUND_UP(len, SMP_CACHE_BYTES));
	struct tcp_skb *skb = tcp_skb_at(net, id);
	if (!net->sg) {
		tcp_buf_access(t, skb->data + MAX_TCP_HEADER + off, len, false);
		sym_exit(task_cpu(t), csym);
		return;
	}
	unsigned int pos = 0;
	for (int i = 0; i < skb->nfrags && len; i++) {
		unsigned int flen = skb->frag_len[i];
		if (off < pos + flen) {
			unsigned int from = off - pos;
			unsigned int n = flen - from < len ? flen - from : len;
			kaddr_t a = page_address(tcp_page_at(net, skb->frag[i])->page);
			tcp_buf_access(t, a + skb->frag_off[i] + from, n, false);
			off += n;
			len -= n;
		}
		pos += flen;
	}
	sym_exit(task_cpu(t), csym);
}
