/* slab_books.c - the per-slab books every policy keeps the same way, checked
 * against the objects' own state: a slab's free chain holds only free
 * objects, once each; free + inuse = objects; the live objects plus those
 * a policy holds in its per-CPU or queued stores equal inuse; and the live
 * objects of all slabs are the cache's (and its aliases'). */
#include "slab.h"

#include "page_alloc.h"
#include "kernel/slab_policy.h"

int slab_check_pages(const struct kmem_cache *kc, uint64_t booked, struct page *const *all,
		     int nall, const uint32_t *waiting, const char *policy, const char *where,
		     struct sim_err *err)
{
	uint64_t live = 0;
	for (int i = 0; i < nall; i++) {
		const struct page *page = all[i];
		unsigned int nfree = 0, nlive = 0;
		for (uint16_t o = page->freelist; o != OBJ_NIL; o = page->obj[o].next)
			if (o >= page->objects || page->obj[o].live || ++nfree > page->objects)
				return sim_fail(err, "%s %s: slab pfn %llu: free chain reaches object "
						"%u, which is live, out of range or seen twice", policy,
						kc->name, (unsigned long long)page->pfn, o);
		for (unsigned int o = 0; o < page->objects; o++)
			nlive += page->obj[o].live;
		if (nfree + page->inuse != page->objects)
			return sim_fail(err, "%s %s: slab pfn %llu: %u free + %u in use != %u objects "
					"(an object was lost or doubled)", policy, kc->name,
					(unsigned long long)page->pfn, nfree, page->inuse, page->objects);
		if (nlive + waiting[i] != page->inuse)
			return sim_fail(err, "%s %s: slab pfn %llu: inuse = %u but %u objects live "
					"and %u waiting in %s (an object was lost or doubled)", policy,
					kc->name, (unsigned long long)page->pfn, page->inuse, nlive,
					waiting[i], where);
		live += nlive;
	}
	if (live != booked)
		return sim_fail(err, "%s %s: %llu objects live in slabs but %llu allocated and not "
				"freed", policy, kc->name, (unsigned long long)live,
				(unsigned long long)booked);
	return 0;
}
