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
 * the line number's low 32 bits (lines 256 GB apart alias), or, when every
 * line of the machine's memory fits (llc_can_narrow), those bits above the
 * set index in 16 bits: a 16-way set is then half a host line. This is exact LRU: the same hits and misses as the
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
	bool narrow;		/* 16-bit tags: the line's bits above the set index */
	uint8_t set_bits;	/* log2(nsets) when narrow */
	void *tag;		/* [nsets * lanes], uint32_t or (narrow) uint16_t */
	uint8_t *fill;		/* [nsets]: ways filled, lanes 0 .. fill-1 */
};

/* Whether 16-bit tags tell apart every line of a memory of `mem_lines`
 * 64-byte lines (from line 0 of the direct map) in a cache of this shape. */
bool llc_can_narrow(uint32_t kb, uint32_t ways, uint64_t mem_lines);

/* Host bytes a cache of `kb` KB and `ways` ways needs (a multiple of 64). */
size_t llc_bytes(uint32_t kb, uint32_t ways, bool narrow);

/* Lay the cache out in `mem`: llc_bytes() of zeroed, 64-byte aligned host
 * memory that the caller owns (hw_init puts every cache of a machine in one
 * huge-page arena). Every way starts empty. */
void llc_init(struct hw_llc *c, uint32_t kb, uint32_t ways, bool narrow, void *mem);

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
	__builtin_prefetch((const char *)c->tag + (s * c->lanes << (c->narrow ? 1 : 2)));
	__builtin_prefetch(c->fill + s);
}

/* Use line `line` (an address / 64): true if it was there. It is there,
 * most recently used, afterwards (the least recently used way goes). */
bool llc_access(struct hw_llc *c, uint64_t line);

/* Is the line there (no change)? */
bool llc_present(const struct hw_llc *c, uint64_t line);

#endif
