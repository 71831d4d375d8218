/* policy.h - the policy API: what a slab allocator design must provide (one
 * const struct of hooks and a parameter table), and what the kernel model
 * gives it. policies/README.md is its user's guide.
 *
 * A policy sees caches (struct kmem_cache), CPUs (struct sim_cpu) and the
 * primitives of sim/hw (hw_read/hw_write/hw_atomic, hw_obj_access, spinlocks)
 * and sim/kernel (alloc_pages_node/__free_pages, account_slab_pages,
 * slab_page_prepare, kmem_cache_create/alloc/free for its own metadata,
 * delayed work, profile symbols and machine costs). Every cycle it spends is
 * charged with cpu_charge() to a kernel-named symbol.
 *
 * Built-in policies are listed in registry.c; an out-of-tree policy is a
 * shared object (make policy SRC=mine.c) that defines
 * `const struct slab_policy slabsim_policy` and is loaded with -p ./mine.so
 * (module.c). Both start their struct with SLAB_POLICY_HEADER, which records
 * the API version and the layout of the structures a policy touches: a
 * module built against other headers is refused, never run. */
#ifndef SLABSIM_POLICY_H
#define SLABSIM_POLICY_H

#include "kernel/slab_policy.h"
#include "slab_blocks.h"

/* The layout fingerprint with the building blocks' structures, which a
 * policy using them embeds. */
#define SLAB_POLICY_ABI_ALL                                                                   \
	((uint32_t)(SLAB_POLICY_ABI + SLAB_POLICY_ABI_TERM(sizeof(struct sb_cache), 0x61c88647u) + \
		    SLAB_POLICY_ABI_TERM(sizeof(struct sb_node), 0x9e3779b1u) +               \
		    SLAB_POLICY_ABI_TERM(sizeof(struct sb_array), 0x7a646e4du) +              \
		    SLAB_POLICY_ABI_TERM(sizeof(struct sb_costs), 0x3c6ef372u)))

/* The first two members of every policy's struct. */
#define SLAB_POLICY_HEADER .api_version = SLAB_POLICY_API_VERSION, .abi = SLAB_POLICY_ABI_ALL

/* The registry: every built-in policy, NULL-terminated. */
extern const struct slab_policy *const slab_policies[];
const struct slab_policy *slab_policy_find(const char *name);

/* --- out-of-tree policies (module.c) --- */

/* The symbol a policy module defines. */
#define SLAB_POLICY_SYMBOL "slabsim_policy"

/* The policy `name` names: a built-in one; a module's path (it contains a
 * '/' or ends in ".so"), loaded once per process; or NAME.so in a
 * directory of $SLABSIM_POLICY_PATH (':'-separated). NULL, with one message
 * naming the valid policies or what is wrong with the module, otherwise. */
const struct slab_policy *slab_policy_lookup(const char *name, struct sim_err *err);

/* Whether a policy's struct can be run: version and layout, the hooks it
 * must have, its kmalloc classes and its parameter table. `where` names it
 * in the message. */
int slab_policy_validate(const struct slab_policy *p, const char *where, struct sim_err *err);

/* Each NAME.so in $SLABSIM_POLICY_PATH: fn(name, path, policy or NULL, the
 * reason it was refused) in directory order, names sorted in each. */
void slab_policy_modules(void (*fn)(const char *name, const char *path,
				    const struct slab_policy *p, const char *why, void *arg),
			 void *arg);

#endif
