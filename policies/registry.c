/* registry.c - the built-in policies. Adding a policy: one file, and one
 * line here naming its `const struct slab_policy NAME_policy`. */
#include <string.h>

#include "policy.h"

#define BUILTIN_POLICIES(P) \
	P(slab)             \
	P(slub)             \
	P(slqb)             \
	P(magazine)         \
	/* one line per policy, above this one */

#define DECLARE_POLICY(name) extern const struct slab_policy name##_policy;
#define LIST_POLICY(name) &name##_policy,

BUILTIN_POLICIES(DECLARE_POLICY)

const struct slab_policy *const slab_policies[] = {
	BUILTIN_POLICIES(LIST_POLICY)
	NULL,
};

const struct slab_policy *slab_policy_find(const char *name)
{
	for (int i = 0; slab_policies[i]; i++)
		if (strcmp(slab_policies[i]->name, name) == 0)
			return slab_policies[i];
	return NULL;
}
