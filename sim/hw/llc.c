/* llc.c - a set-associative LRU cache of line numbers (layout: llc.h). */
#include "llc.h"

#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

static void llc_shape(struct hw_llc *c, uint32_t kb, uint32_t ways)
{
	memset(c, 0, sizeof(*c));
	c->ways = ways;
	c->lanes = (ways + LLC_CHUNK - 1) / LLC_CHUNK * LLC_CHUNK;
	c->nsets = (uint32_t)((uint64_t)kb * 1024 / 64 / ways);
	if (c->nsets && !(c->nsets & (c->nsets - 1)))
		c->set_mask = c->nsets - 1;
}

size_t llc_bytes(uint32_t kb, uint32_t ways)
{
	struct hw_llc c;
	llc_shape(&c, kb, ways);
	return (size_t)c.nsets * c.lanes * sizeof(*c.tag);	/* whole 64-byte lines */
}

void llc_init(struct hw_llc *c, uint32_t kb, uint32_t ways, void *mem)
{
	llc_shape(c, kb, ways);
	c->tag = mem;
}

/* The lane of set `t` that holds `key` among its filled lanes, or -1 with
 * *filled set to the number of filled lanes. */
static inline int llc_find(const struct hw_llc *c, const uint32_t *t, uint32_t key,
			   uint32_t *filled)
{
#ifdef __SSE2__
	__m128i k = _mm_set1_epi32((int)key), zero = _mm_setzero_si128();
	for (uint32_t base = 0; base < c->lanes; base += LLC_CHUNK) {
		const __m128i *v = (const __m128i *)(t + base);
		__m128i v0 = _mm_load_si128(v), v1 = _mm_load_si128(v + 1);
		__m128i v2 = _mm_load_si128(v + 2), v3 = _mm_load_si128(v + 3);
		uint32_t eq = (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(
			_mm_packs_epi32(_mm_cmpeq_epi32(v0, k), _mm_cmpeq_epi32(v1, k)),
			_mm_packs_epi32(_mm_cmpeq_epi32(v2, k), _mm_cmpeq_epi32(v3, k))));
		uint32_t empty = (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(
			_mm_packs_epi32(_mm_cmpeq_epi32(v0, zero), _mm_cmpeq_epi32(v1, zero)),
			_mm_packs_epi32(_mm_cmpeq_epi32(v2, zero), _mm_cmpeq_epi32(v3, zero))));
		/* lanes before the first empty one are the filled ones */
		uint32_t before = empty ? (empty & -empty) - 1 : 0xffffu;
		if (eq & before)
			return (int)(base + (uint32_t)__builtin_ctz(eq & before));
		if (empty) {
			*filled = base + (uint32_t)__builtin_ctz(empty);
			return -1;
		}
	}
	*filled = c->lanes;
	return -1;
#else
	uint32_t i = 0;
	for (; i < c->ways && t[i]; i++)
		if (t[i] == key)
			return (int)i;
	*filled = i;
	return -1;
#endif
}

/* Put `key` in lane 0, moving lanes 0..n-1 one lane on (the one in lane n
 * is dropped or was `key`). */
static inline void llc_to_front(uint32_t *t, uint32_t n, uint32_t key)
{
	memmove(t + 1, t, (size_t)n * sizeof(*t));
	t[0] = key;
}

bool llc_access(struct hw_llc *c, uint64_t line)
{
	uint32_t *t = llc_set(c, line);
	uint32_t key = (uint32_t)line + 1, filled = 0;
	int hit = llc_find(c, t, key, &filled);
	if (hit >= 0) {
		if (hit)
			llc_to_front(t, (uint32_t)hit, key);
		return true;
	}
	/* a miss: into the first empty lane, or over the least recently used */
	llc_to_front(t, filled < c->ways ? filled : c->ways - 1, key);
	return false;
}

bool llc_present(const struct hw_llc *c, uint64_t line)
{
	uint32_t filled;
	return llc_find(c, llc_set(c, line), (uint32_t)line + 1, &filled) >= 0;
}
