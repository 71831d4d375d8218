/* skbuff.h - socket buffers as 2.6.25 allocates them: the struct sk_buff
 * from skbuff_head_cache and the data from kmalloc (SKB_DATA_ALIGN(size) +
 * sizeof(struct skb_shared_info)). The simulator keeps a small host-side
 * record of each skb (its two objects, length, truesize, owner socket),
 * stored by value in the queue that holds it. */
#ifndef SIM_SKBUFF_H
#define SIM_SKBUFF_H

#include "kernel.h"

struct unix_sock;
struct task;
struct task_ids;

struct sk_buff {
	kaddr_t head;			/* the struct sk_buff object */
	kaddr_t data;			/* the kmalloc'ed data buffer */
	unsigned int len;
	unsigned int truesize;		/* charged to the sender's sk_wmem_alloc */
	struct unix_sock *sk;		/* owner: sock_wfree() runs on free */
	struct task_ids *creds;		/* the writer's pid and cred it holds (SCM
					 * credentials, unix_scm_to_skb()), or NULL */
};

#define SMP_CACHE_BYTES 64		/* L1_CACHE_BYTES of a Core 2 / x86_64 build */
#define SIZEOF_SKB_SHARED_INFO 312	/* x86_64, MAX_SKB_FRAGS 18 (2.6.24-26) */
#define MAX_SKB_FRAGS 18		/* 65536 / PAGE_SIZE + 2 */
#define SKB_DATA_ALIGN(x) (((x) + (SMP_CACHE_BYTES - 1)) & ~(SMP_CACHE_BYTES - 1))

#define SKB_HEAD_LINES 3		/* lines of struct sk_buff written/read */
#define SKB_SHINFO_LINES 1		/* skb_shared_info fields touched */

struct skb_state {
	struct kmem_cache *skbuff_head_cache;
	unsigned int sizeof_sk_buff;
	uint64_t allocated, freed;
};

int skb_init(struct kernel *k, struct skb_state *ss, struct sim_err *err);

/* __alloc_skb(): false if either allocation fails. */
bool alloc_skb(struct kernel *k, struct skb_state *ss, struct sim_cpu *cpu,
	       unsigned int size, struct sk_buff *skb);
/* Free both objects (skb_release_data, kfree_skbmem), after the destructor. */
void __kfree_skb(struct kernel *k, struct skb_state *ss, struct sim_cpu *cpu,
		 const struct sk_buff *skb);

#endif
