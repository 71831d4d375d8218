/* llc.c - a set-associative LRU cache of line numbers. */
#include "llc.h"

#include <stdlib.h>
#include <string.h>

int llc_init(struct hw_llc *c, uint32_t kb, uint32_t ways)
{
	memset(c, 0, sizeof(*c));
	c->ways = ways;
	c->nsets = (uint32_t)((uint64_t)kb * 1024 / 64 / ways);
	if (c->nsets && !(c->nsets & (c->nsets - 1)))
		c->set_mask = c->nsets - 1;
	c->way = calloc((size_t)c->nsets * ways, sizeof(*c->way));
	return c->way ? 0 : -1;
}

void llc_destroy(struct hw_llc *c)
{
	free(c->way);
	memset(c, 0, sizeof(*c));
}

/* The ways of the set that holds `line`. */
static inline struct llc_way *llc_set(const struct hw_llc *c, uint64_t line)
{
	uint64_t set = c->set_mask ? line & c->set_mask : line % c->nsets;
	return c->way + (size_t)set * c->ways;
}

bool llc_access(struct hw_llc *c, uint64_t line)
{
	struct llc_way *w = llc_set(c, line), *victim = w;
	uint32_t key = (uint32_t)line + 1, now = ++c->clock;
	for (uint32_t i = 0; i < c->ways; i++) {
		if (w[i].tag == key) {
			w[i].stamp = now;
			return true;
		}
		if (!w[i].tag) {		/* ways fill in order: the rest are empty */
			victim = &w[i];
			break;
		}
		if ((uint32_t)(now - w[i].stamp) > (uint32_t)(now - victim->stamp))
			victim = &w[i];		/* the least recently used so far */
	}
	victim->tag = key;
	victim->stamp = now;
	return false;
}

bool llc_present(const struct hw_llc *c, uint64_t line)
{
	const struct llc_way *w = llc_set(c, line);
	uint32_t key = (uint32_t)line + 1;
	for (uint32_t i = 0; i < c->ways && w[i].tag; i++)
		if (w[i].tag == key)
			return true;
	return false;
}
