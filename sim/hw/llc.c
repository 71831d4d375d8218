/* llc.c - a set-associative LRU cache of line numbers. */
#include "llc.h"

#include <stdlib.h>
#include <string.h>

int llc_init(struct hw_llc *c, uint32_t kb, uint32_t ways)
{
	memset(c, 0, sizeof(*c));
	c->ways = ways;
	c->nsets = (uint32_t)((uint64_t)kb * 1024 / 64 / ways);
	c->tag = calloc((size_t)c->nsets * ways, sizeof(*c->tag));
	c->stamp = calloc((size_t)c->nsets * ways, sizeof(*c->stamp));
	return c->tag && c->stamp ? 0 : -1;
}

void llc_destroy(struct hw_llc *c)
{
	free(c->tag);
	free(c->stamp);
	memset(c, 0, sizeof(*c));
}

bool llc_access(struct hw_llc *c, uint64_t line)
{
	size_t base = (size_t)(line % c->nsets) * c->ways;
	uint64_t key = line + 1;
	uint64_t *tag = c->tag + base;
	uint32_t *stamp = c->stamp + base;
	uint32_t now = ++c->clock, victim = 0, victim_age = 0;
	for (uint32_t w = 0; w < c->ways; w++) {
		if (tag[w] == key) {
			stamp[w] = now;
			return true;
		}
		if (!tag[w]) {			/* an empty way: take it */
			victim = w;
			victim_age = UINT32_MAX;
		} else if (victim_age != UINT32_MAX && now - stamp[w] >= victim_age) {
			victim = w;		/* the least recently used so far */
			victim_age = now - stamp[w];
		}
	}
	tag[victim] = key;
	stamp[victim] = now;
	return false;
}

bool llc_present(const struct hw_llc *c, uint64_t line)
{
	size_t base = (size_t)(line % c->nsets) * c->ways;
	for (uint32_t w = 0; w < c->ways; w++)
		if (c->tag[base + w] == line + 1)
			return true;
	return false;
}
