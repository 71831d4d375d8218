/* skbuff.c - __alloc_skb and __kfree_skb over the slab entry points. */
#include "skbuff.h"

#include <stdlib.h>

#include "slab.h"
#include "kernel/slab_policy.h"

int skb_init(struct kernel *k, struct skb_state *ss, struct sim_err *err)
{
	ss->sizeof_sk_buff = (unsigned int)param_int(&k->params, "sizeof_sk_buff");
	ss->skbuff_head_cache = kmem_cache_create(k, "skbuff_head_cache", ss->sizeof_sk_buff, 0,
						  SLAB_HWCACHE_ALIGN | SLAB_PANIC, err);
	return ss->skbuff_head_cache ? 0 : -1;
}

bool alloc_skb(struct kernel *k, struct skb_state *ss, struct sim_cpu *cpu,
	       unsigned int size, struct sk_buff *skb)
{
	int psym = sym_enter(cpu, k->sym_alloc_skb);
	cpu_charge(cpu, k->cost.alloc_skb);
	kaddr_t head = kmem_cache_alloc(k, cpu, ss->skbuff_head_cache, GFP_KERNEL);
	bool ok = false;
	if (head) {
		unsigned int dsize = SKB_DATA_ALIGN(size);
		kaddr_t data = __kmalloc_track_caller(k, cpu, dsize + SIZEOF_SKB_SHARED_INFO,
						      GFP_KERNEL);
		if (!data) {
			kmem_cache_free(k, cpu, ss->skbuff_head_cache, head);
		} else {
			/* memset of the header, shinfo init, then the data copy */
			slab_obj_touch(k, cpu, head, SKB_HEAD_LINES, true);
			slab_obj_touch(k, cpu, data,
				       SKB_SHINFO_LINES + (int)(dsize / SMP_CACHE_BYTES), true);
			skb->head = head;
			skb->data = data;
			skb->len = 0;
			skb->truesize = dsize + ss->sizeof_sk_buff;
			skb->sk = NULL;
			ss->allocated++;
			ok = true;
		}
	}
	sym_exit(cpu, psym);
	return ok;
}

void __kfree_skb(struct kernel *k, struct skb_state *ss, struct sim_cpu *cpu,
		 const struct sk_buff *skb)
{
	int psym = sym_enter(cpu, k->sym_kfree_skb);
	cpu_charge(cpu, k->cost.free_skb);
	slab_obj_touch(k, cpu, skb->data, SKB_SHINFO_LINES, false);	/* dataref, frags */
	kfree(k, cpu, skb->data);					/* skb_release_data */
	kmem_cache_free(k, cpu, ss->skbuff_head_cache, skb->head);	/* kfree_skbmem */
	ss->freed++;
	sym_exit(cpu, psym);
}
