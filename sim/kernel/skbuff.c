/* skbuff.c - __alloc_skb and __kfree_skb over the slab entry points. */
#include "skbuff.h"

#include <stdlib.h>

#include "slab.h"
#include "policies/policy.h"

#define SMP_CACHE_BYTES 64		/* L1_CACHE_BYTES of a Core 2 / x86_64 build */
#define SIZEOF_SKB_SHARED_INFO 312	/* x86_64, MAX_SKB_FRAGS 18 (2.6.24-26) */
#define SKB_DATA_ALIGN(x) (((x) + (SMP_CACHE_BYTES - 1)) & ~(SMP_CACHE_BYTES - 1))
#define SKB_CHUNK 4096

int skb_init(struct kernel *k, struct skb_state *ss, struct sim_err *err)
{
	ss->sizeof_sk_buff = (unsigned int)param_int(&k->params, "sizeof_sk_buff");
	ss->skbuff_head_cache = kmem_cache_create(k, "skbuff_head_cache", ss->sizeof_sk_buff, 0,
						  SLAB_HWCACHE_ALIGN | SLAB_PANIC, err);
	return ss->skbuff_head_cache ? 0 : -1;
}

void skb_destroy(struct skb_state *ss)
{
	for (int i = 0; i < ss->nchunks; i++)
		free(ss->chunks[i]);
	free(ss->chunks);
	ss->chunks = NULL;
	ss->nchunks = 0;
	ss->free = NULL;
}

static struct sk_buff *skb_record(struct skb_state *ss)
{
	if (!ss->free) {
		struct sk_buff *chunk = calloc(SKB_CHUNK, sizeof(*chunk));
		void **c = realloc(ss->chunks, (size_t)(ss->nchunks + 1) * sizeof(*c));
		if (!chunk || !c)
			abort();	/* out of host memory */
		ss->chunks = c;
		ss->chunks[ss->nchunks++] = chunk;
		for (int i = 0; i < SKB_CHUNK; i++) {
			chunk[i].next = ss->free;
			ss->free = &chunk[i];
		}
	}
	struct sk_buff *skb = ss->free;
	ss->free = skb->next;
	skb->next = NULL;
	return skb;
}

unsigned int skb_truesize(const struct skb_state *ss, unsigned int size)
{
	return SKB_DATA_ALIGN(size) + ss->sizeof_sk_buff;
}

struct sk_buff *alloc_skb(struct kernel *k, struct skb_state *ss, struct sim_cpu *cpu,
			  unsigned int size)
{
	int psym = sym_enter(cpu, k->sym_alloc_skb);
	cpu_charge(cpu, k->cost.alloc_skb);
	kaddr_t head = kmem_cache_alloc(k, cpu, ss->skbuff_head_cache);
	struct sk_buff *skb = NULL;
	if (head) {
		unsigned int dsize = SKB_DATA_ALIGN(size);
		kaddr_t data = __kmalloc_track_caller(k, cpu, dsize + SIZEOF_SKB_SHARED_INFO);
		if (!data) {
			kmem_cache_free(k, cpu, ss->skbuff_head_cache, head);
		} else {
			/* memset of the header, shinfo init, then the data copy */
			slab_obj_touch(k, cpu, head, SKB_HEAD_LINES, true);
			slab_obj_touch(k, cpu, data,
				       SKB_SHINFO_LINES + (int)(dsize / SMP_CACHE_BYTES), true);
			skb = skb_record(ss);
			skb->head = head;
			skb->data = data;
			skb->len = 0;
			skb->truesize = dsize + ss->sizeof_sk_buff;
			ss->allocated++;
		}
	}
	sym_exit(cpu, psym);
	return skb;
}

void __kfree_skb(struct kernel *k, struct skb_state *ss, struct sim_cpu *cpu,
		 struct sk_buff *skb)
{
	int psym = sym_enter(cpu, k->sym_kfree_skb);
	cpu_charge(cpu, k->cost.free_skb);
	slab_obj_touch(k, cpu, skb->data, SKB_SHINFO_LINES, false);	/* dataref, frags */
	kfree(k, cpu, skb->data);					/* skb_release_data */
	kmem_cache_free(k, cpu, ss->skbuff_head_cache, skb->head);	/* kfree_skbmem */
	skb->next = ss->free;
	ss->free = skb;
	ss->freed++;
	sym_exit(cpu, psym);
}
