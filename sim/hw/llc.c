/* llc.c - a set-associative LRU cache of line numbers (layout: llc.h). */
#include "llc.h"

#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* Set c's geometry for kb KB of `ways`-way sets of 64-byte lines: lanes per set, and the set
 * mask and bits when the number of sets is a power of two (else llc_set() divides). */
static void llc_shape(struct hw_llc *c, uint32_t kb, uint32_t ways)
{
	memset(c, 0, sizeof(*c));
	c->ways = ways;
	c->lanes = ways <= 8 ? 8 : (ways + LLC_CHUNK - 1) / LLC_CHUNK * LLC_CHUNK;
	c->nsets = (uint32_t)((uint64_t)kb * 1024 / 64 / ways);
	if (c->nsets && !(c->nsets & (c->nsets - 1)))
		c->set_mask = c->nsets - 1;
	while (c->set_mask >> c->set_bits)
		c->set_bits++;
}

int llc_narrow_span(uint32_t kb, uint32_t ways, uint32_t nodes, int node_shift)
{
	struct hw_llc c;
	llc_shape(&c, kb, ways);
	int node_bits = 0;
	while ((1u << node_bits) < nodes)
		node_bits++;
	/* line numbers' low 32 bits are their offsets in the direct map, whose
	 * first line is 2^32-aligned: beyond that, lines alias anyway */
	if (!c.set_mask || !nodes || node_shift >= 32 || node_shift + node_bits > 32)
		return 0;
	int span = 16 + c.set_bits - node_bits;	/* node and offset above the set */
	if (span > node_shift)
		span = node_shift;
	return span > c.set_bits ? span : 0;
}

/* Bytes of c's tag array: `lanes` tags a set, 2 bytes each if narrow, else 4. */
static size_t llc_tag_bytes(const struct hw_llc *c, bool narrow)
{
	return (size_t)c->nsets * c->lanes * (narrow ? 2u : 4u);	/* whole 16-byte pieces */
}

size_t llc_bytes(uint32_t kb, uint32_t ways, bool narrow)
{
	struct hw_llc c;
	llc_shape(&c, kb, ways);
	return (llc_tag_bytes(&c, narrow) + c.nsets + 63) / 64 * 64;
}

void llc_init(struct hw_llc *c, uint32_t kb, uint32_t ways, int span_bits, int node_shift,
	      void *mem)
{
	llc_shape(c, kb, ways);
	c->span_bits = (uint8_t)span_bits;
	c->node_shift = (uint8_t)node_shift;
	c->tag = mem;
	c->fill = (uint8_t *)mem + llc_tag_bytes(c, span_bits > 0);
}

/* Bit i set: lane i of the 16 tags at `t` equals the key. */
static inline uint32_t eq16_wide(const uint32_t *t, uint32_t key)
{
#ifdef __SSE2__
	const __m128i *v = (const __m128i *)t;
	__m128i k = _mm_set1_epi32((int)key);
	return (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(
		_mm_packs_epi32(_mm_cmpeq_epi32(_mm_load_si128(v), k),
				_mm_cmpeq_epi32(_mm_load_si128(v + 1), k)),
		_mm_packs_epi32(_mm_cmpeq_epi32(_mm_load_si128(v + 2), k),
				_mm_cmpeq_epi32(_mm_load_si128(v + 3), k))));
#else
	uint32_t m = 0;
	for (int i = 0; i < 16; i++)
		m |= (uint32_t)(t[i] == key) << i;
	return m;
#endif
}

/* The same for 16 narrow (16-bit) tags. */
static inline uint32_t eq16_narrow(const uint16_t *t, uint16_t key)
{
#ifdef __SSE2__
	const __m128i *v = (const __m128i *)t;
	__m128i k = _mm_set1_epi16((short)key);
	return (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(_mm_cmpeq_epi16(_mm_load_si128(v), k),
							   _mm_cmpeq_epi16(_mm_load_si128(v + 1), k)));
#else
	uint32_t m = 0;
	for (int i = 0; i < 16; i++)
		m |= (uint32_t)(t[i] == key) << i;
	return m;
#endif
}

/* The same for the 8 lanes of a cache of at most 8 ways (an L1). */
static inline uint32_t eq8_wide(const uint32_t *t, uint32_t key)
{
#ifdef __SSE2__
	const __m128i *v = (const __m128i *)t;
	__m128i k = _mm_set1_epi32((int)key);
	return (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(
		_mm_packs_epi32(_mm_cmpeq_epi32(_mm_load_si128(v), k),
				_mm_cmpeq_epi32(_mm_load_si128(v + 1), k)), _mm_setzero_si128()));
#else
	uint32_t m = 0;
	for (int i = 0; i < 8; i++)
		m |= (uint32_t)(t[i] == key) << i;
	return m;
#endif
}

/* The same for 8 narrow (16-bit) tags. */
static inline uint32_t eq8_narrow(const uint16_t *t, uint16_t key)
{
#ifdef __SSE2__
	__m128i k = _mm_set1_epi16((short)key);
	return (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(
		_mm_cmpeq_epi16(_mm_load_si128((const __m128i *)t), k), _mm_setzero_si128()));
#else
	uint32_t m = 0;
	for (int i = 0; i < 8; i++)
		m |= (uint32_t)(t[i] == key) << i;
	return m;
#endif
}

/* The tag of `line` as stored: narrow, the node above the offset in it,
 * both above the set index. */
static inline uint32_t llc_key(const struct hw_llc *c, uint64_t line)
{
	uint32_t off = (uint32_t)line;
	if (!c->span_bits)
		return off;
	uint32_t node = off >> c->node_shift, in = off & ((1u << c->node_shift) - 1);
	return ((node << c->span_bits) | in) >> c->set_bits;
}

/* The wide tag (low 32 bits of the line) of narrow tag `key` in set `s`. */
static uint32_t llc_wide_key(const struct hw_llc *c, uint32_t key, uint64_t s)
{
	uint32_t compact = key << c->set_bits | (uint32_t)s;
	uint32_t node = compact >> c->span_bits;
	return node << c->node_shift | (compact & ((1u << c->span_bits) - 1));
}

void llc_widen(const struct hw_llc *from, struct hw_llc *to, void *mem)
{
	*to = *from;
	llc_init(to, from->nsets * from->ways * 64 / 1024, from->ways, 0, 0, mem);
	for (uint64_t s = 0; s < from->nsets; s++) {
		const uint16_t *t = (const uint16_t *)from->tag + s * from->lanes;
		uint32_t *w = (uint32_t *)to->tag + s * to->lanes;
		for (uint32_t i = 0; i < from->fill[s]; i++)
			w[i] = llc_wide_key(from, t[i], s);
		to->fill[s] = from->fill[s];
	}
}

/* The lane of set `s` that holds `key` among its `filled` lanes, or -1. */
static inline int llc_find(const struct hw_llc *c, uint64_t s, uint32_t key, uint32_t filled)
{
	if (c->lanes == 8) {	/* an L1: one compare */
		uint32_t eq = c->span_bits ? eq8_narrow((const uint16_t *)c->tag + s * 8, (uint16_t)key)
					: eq8_wide((const uint32_t *)c->tag + s * 8, key);
		eq &= (1u << filled) - 1;
		return eq ? __builtin_ctz(eq) : -1;
	}
	for (uint32_t base = 0; base < filled; base += LLC_CHUNK) {
		uint32_t eq = c->span_bits
			? eq16_narrow((const uint16_t *)c->tag + s * c->lanes + base, (uint16_t)key)
			: eq16_wide((const uint32_t *)c->tag + s * c->lanes + base, key);
		uint32_t n = filled - base;
		if (n < LLC_CHUNK)
			eq &= (1u << n) - 1;
		if (eq)
			return (int)(base + (uint32_t)__builtin_ctz(eq));
	}
	return -1;
}

/* Put `key` in lane 0 of set `s`, moving lanes 0..n-1 one lane on (what
 * was in lane n is dropped, or was `key`). */
static inline void llc_to_front(struct hw_llc *c, uint64_t s, uint32_t n, uint32_t key)
{
	if (c->span_bits) {
		uint16_t *t = (uint16_t *)c->tag + s * c->lanes;
		memmove(t + 1, t, (size_t)n * sizeof(*t));
		t[0] = (uint16_t)key;
	} else {
		uint32_t *t = (uint32_t *)c->tag + s * c->lanes;
		memmove(t + 1, t, (size_t)n * sizeof(*t));
		t[0] = key;
	}
}

bool llc_access(struct hw_llc *c, uint64_t line)
{
	uint64_t s = llc_set(c, line);
	uint32_t key = llc_key(c, line), filled = c->fill[s];
	int hit = llc_find(c, s, key, filled);
	if (hit >= 0) {
		if (hit)
			llc_to_front(c, s, (uint32_t)hit, key);
		return true;
	}
	/* a miss: into the first empty lane, or over the least recently used */
	if (filled < c->ways)
		c->fill[s] = (uint8_t)++filled;
	llc_to_front(c, s, filled - 1, key);
	return false;
}

bool llc_present(const struct hw_llc *c, uint64_t line)
{
	uint64_t s = llc_set(c, line);
	return llc_find(c, s, llc_key(c, line), c->fill[s]) >= 0;
}
