/* llc.h - the last-level cache a die shares (and each core's L1), as sets
 * of ways with LRU replacement, holding the lines of slab objects: whether
 * a line is still in a die's cache decides if it comes from there or from
 * memory. Strided objects (power-of-two sizes) crowd into few sets, as on
 * the hardware.
 *
 * Layout, for the host's caches (the model is bound by their misses): a
 * set is its tags alone, kept in recency order (move to front: lane 0 the
 * most recently used, the last filled lane the least), padded with empty
 * lanes to a multiple of 16, so a set of up to 16 ways is one 64-byte host
 * line, compared 16 lanes at a time, and there is no recency to load
 * apart. Empty lanes (tag 0) sit after the filled ones. This is exact LRU:
 * the same hits and misses as the per-way timestamps it replaced, whose
 * 32-bit clock could wrap after 2^32 accesses to one cache, and whose tag
 * 0 (a line numbered 2^32 - 1 modulo 2^32, beyond 256 GB of memory) looked
 * empty. */
#ifndef SIM_LLC_H
#define SIM_LLC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LLC_CHUNK 16u	/* lanes compared at once: 64 bytes of tags */

struct hw_llc {
	uint32_t nsets, ways;
	uint32_t lanes;		/* ways rounded up to LLC_CHUNK */
	uint64_t set_mask;	/* nsets - 1 when nsets is a power of two, else 0 */
	uint32_t *tag;		/* [nsets * lanes]: low 32 bits of the line number
				 * + 1 (lines 256 GB apart alias), 0 if empty */
};

/* Host bytes a cache of `kb` KB and `ways` ways needs (a multiple of 64). */
size_t llc_bytes(uint32_t kb, uint32_t ways);

/* Lay the cache out in `mem`: llc_bytes() of zeroed, 64-byte aligned host
 * memory that the caller owns (hw_init puts every cache of a machine in one
 * huge-page arena). Every way starts empty. */
void llc_init(struct hw_llc *c, uint32_t kb, uint32_t ways, void *mem);

/* The tags of the set of `line`. */
static inline uint32_t *llc_set(const struct hw_llc *c, uint64_t line)
{
	uint64_t set = c->set_mask ? line & c->set_mask : line % c->nsets;
	return c->tag + set * c->lanes;
}

/* Start loading the set of `line` into the host's caches: call as soon as
 * the line is known, well before llc_access or llc_present needs it. */
static inline void llc_prefetch(const struct hw_llc *c, uint64_t line)
{
	__builtin_prefetch(llc_set(c, line));
}

/* Use line `line` (an address / 64): true if it was there. It is there,
 * most recently used, afterwards (the least recently used way goes). */
bool llc_access(struct hw_llc *c, uint64_t line);

/* Is the line there (no change)? */
bool llc_present(const struct hw_llc *c, uint64_t line);

#endif
