/* registry.c - the built-in policies. Adding a policy: one file, one line. */
#include <string.h>

#include "policy.h"

extern const struct slab_policy slub_policy;
extern const struct slab_policy slab_policy;
extern const struct slab_policy slqb_policy;

const struct slab_policy *const slab_policies[] = {
	&slab_policy,
	&slub_policy,
	&slqb_policy,
	NULL,
};

const struct slab_policy *slab_policy_find(const char *name)
{
	for (int i = 0; slab_policies[i]; i++)
		if (strcmp(slab_policies[i]->name, name) == 0)
			return slab_policies[i];
	return NULL;
}
