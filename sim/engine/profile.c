/* profile.c - the symbol table that cycles are charged to. */
#include "profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void profile_init(struct profile *p)
{
	memset(p, 0, sizeof(*p));
}

int profile_find(const struct profile *p, const char *name)
{
	for (int i = 0; i < p->nsyms; i++)
		if (strcmp(p->name[i], name) == 0)
			return i;
	return -1;
}

int profile_sym(struct profile *p, const char *name, enum sym_kind kind)
{
	int id = profile_find(p, name);
	if (id >= 0)
		return id;
	if (p->nsyms >= PROFILE_MAX_SYMS || strlen(name) >= PROFILE_NAME_MAX) {
		fprintf(stderr, "slabsim: internal limit: symbol '%s' does not fit the profile "
			"(%d symbols of fewer than %d characters; raise PROFILE_MAX_SYMS or "
			"PROFILE_NAME_MAX in sim/engine/profile.h)\n", name, PROFILE_MAX_SYMS,
			PROFILE_NAME_MAX);
		abort();
	}
	id = p->nsyms++;
	memcpy(p->text[id], name, strlen(name) + 1);
	p->name[id] = p->text[id];
	p->kind[id] = kind;
	p->cycles[id] = 0;
	return id;
}
