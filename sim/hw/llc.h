/* llc.h - the last-level cache a die shares (and each core's L1), as sets
 * of ways with LRU replacement, holding the lines of slab objects: whether
 * a line is still in a die's cache decides if it comes from there or from
 * memory. Strided objects (power-of-two sizes) crowd into few sets, as on
 * the hardware.
 *
 * Layout, for the host's caches (the model is bound by their misses): a
 * set is its tags alone, kept in recency order (move to front: lane 0 the
 * most recently used), padded to 8 lanes (up to 8 ways: an L1) or to a
 * multiple of 16 and compared 8 or 16 at a time, beside one byte per set
 * that counts its filled ways; there is no recency to load apart. A tag is
 * the line number's low 32 bits (lines 256 GB apart alias), or, narrow,
 * 16 bits: the line's node and its offset in the node, above the set index
 * (llc_narrow_span), which tell apart the lines of every node's first
 * 2^span_bits lines: a 16-way set is then half a host line. A narrow cache
 * that would see a line beyond that is first widened (llc_widen), with the
 * same contents. This is exact LRU: the same hits and misses as the
 * per-way timestamps it replaced, whose 32-bit clock could wrap after 2^32
 * accesses to one cache, and whose tag 0 (line 2^32 - 1 modulo 2^32, beyond
 * 256 GB of memory) looked empty. */
#ifndef SIM_LLC_H
#define SIM_LLC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LLC_CHUNK 16u	/* lanes compared at once: 64 bytes of tags */

struct hw_llc {
	uint32_t nsets, ways;
	uint32_t lanes;		/* 8 for up to 8 ways, else ways rounded up to LLC_CHUNK */
	uint64_t set_mask;	/* nsets - 1 when nsets is a power of two, else 0 */
	uint8_t set_bits;	/* log2(nsets), if a power of two */
	uint8_t span_bits;	/* narrow: bits kept of a line's offset in its node; 0: wide */
	uint8_t node_shift;	/* narrow: log2 of the lines of a node */
	void *tag;		/* [nsets * lanes], uint32_t or (narrow) uint16_t */
	uint8_t *fill;		/* [nsets]: ways filled, lanes 0 .. fill-1 */
};

/* The span_bits of 16-bit tags for a cache of this shape, when memory is
 * `nodes` nodes of 2^node_shift lines each, node n's from line n <<
 * node_shift of the direct map on: at most node_shift (every line of every
 * node told apart); 0 if no narrow tags fit. */
int llc_narrow_span(uint32_t kb, uint32_t ways, uint32_t nodes, int node_shift);

/* Host bytes a cache of `kb` KB and `ways` ways needs (a multiple of 64). */
size_t llc_bytes(uint32_t kb, uint32_t ways, bool narrow);

/* Lay the cache out in `mem`: llc_bytes() of zeroed, 64-byte aligned host
 * memory that the caller owns (hw_init puts every cache of a machine in one
 * huge-page arena). Every way starts empty. span_bits 0: wide tags. */
void llc_init(struct hw_llc *c, uint32_t kb, uint32_t ways, int span_bits, int node_shift,
	      void *mem);

/* Lay out in `to` (llc_bytes(..., false) of zeroed memory) the wide cache
 * holding what narrow cache `from` holds, in the same recency order. */
void llc_widen(const struct hw_llc *from, struct hw_llc *to, void *mem);

/* The set of `line`. */
static inline uint64_t llc_set(const struct hw_llc *c, uint64_t line)
{
	return c->set_mask ? line & c->set_mask : line % c->nsets;
}

/* Start loading the set of `line` into the host's caches: call as soon as
 * the line is known, well before llc_access or llc_present needs it. */
static inline void llc_prefetch(const struct hw_llc *c, uint64_t line)
{
	uint64_t s = llc_set(c, line);
	__builtin_prefetch((const char *)c->tag + (s * c->lanes << (c->span_bits ? 1 : 2)));
	__builtin_prefetch(c->fill + s);
}

/* Use line `line` (an address / 64): true if it was there. It is there,
 * most recently used, afterwards (the least recently used way goes). */
bool llc_access(struct hw_llc *c, uint64_t line);

/* Is the line there (no change)? */
bool llc_present(const struct hw_llc *c, uint64_t line);

#endif
