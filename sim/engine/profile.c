/* profile.c - the symbol table that cycles are charged to. */
#include "profile.h"

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
	if (p->nsyms >= PROFILE_MAX_SYMS)
		return -1;
	id = p->nsyms++;
	p->name[id] = name;
	p->kind[id] = kind;
	p->cycles[id] = 0;
	return id;
}
