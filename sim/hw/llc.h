/* llc.h - the last-level cache a die shares, as sets of ways with LRU
 * replacement, holding the lines of slab objects: whether a line is still
 * in a die's cache decides if it comes from there or from memory. Strided
 * objects (power-of-two sizes) crowd into few sets, as on the hardware. */
#ifndef SIM_LLC_H
#define SIM_LLC_H

#include <stdbool.h>
#include <stdint.h>

struct llc_way {
	uint32_t tag;		/* low 32 bits of the line number + 1 (lines 256 GB
				 * apart would alias), 0 if empty */
	uint32_t stamp;		/* last use, for LRU (compared as an age, so the
				 * clock may wrap) */
};

struct hw_llc {
	uint32_t nsets, ways;
	uint64_t set_mask;	/* nsets - 1 when nsets is a power of two, else 0 */
	struct llc_way *way;	/* [nsets * ways], a set's ways side by side */
	uint32_t clock;
};

int llc_init(struct hw_llc *c, uint32_t kb, uint32_t ways);
void llc_destroy(struct hw_llc *c);

/* Use line `line` (an address / 64): true if it was there. It is there,
 * most recently used, afterwards (the least recently used way goes). */
bool llc_access(struct hw_llc *c, uint64_t line);

/* Is the line there (no change)? */
bool llc_present(const struct hw_llc *c, uint64_t line);

#endif
