/* module.c - out-of-tree policies: a shared object that defines
 * `slabsim_policy` (policy.h), loaded with dlopen from a path or from
 * $SLABSIM_POLICY_PATH, and checked before anything runs: the API version
 * and structure layout it was built with, the hooks a policy must have, its
 * kmalloc classes and its parameter table. A module that fails any check is
 * refused with one message; none of its hooks is called. */
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/suggest.h"
#include "engine/array_size.h"
#include "kernel/kernel.h"
#include "policy.h"

#define MODULES_MAX 256		/* distinct modules one process loads */

struct loaded_module {
	char path[PATH_MAX];	/* realpath() of the file */
	const struct slab_policy *policy;
};

static struct loaded_module modules[MODULES_MAX];
static int nmodules;

/* Whether a built-in policy (registry.c) has this name. */
static bool name_is_builtin(const char *name)
{
	return slab_policy_find(name) != NULL;
}

int slab_policy_validate(const struct slab_policy *p, const char *where, struct sim_err *err)
{
	if (p->api_version != SLAB_POLICY_API_VERSION)
		return sim_fail(err, "%s was built for policy API version %d; this slabsim has "
				"version %d: rebuild it with 'make policy SRC=...'", where,
				p->api_version, SLAB_POLICY_API_VERSION);
	if (p->abi != SLAB_POLICY_ABI_ALL)
		return sim_fail(err, "%s was built against other slabsim headers (structure "
				"layout %#x, this slabsim %#x): rebuild it with 'make policy "
				"SRC=...'", where, p->abi, SLAB_POLICY_ABI_ALL);
	if (!p->name || !*p->name || strlen(p->name) > 31 ||
	    strspn(p->name, "abcdefghijklmnopqrstuvwxyz0123456789_-") != strlen(p->name))
		return sim_fail(err, "%s: its name must be 1 to 31 characters of a-z, 0-9, _ "
				"and -", where);
	size_t own = strlen(p->name);	/* a cost entry is the policy's: "NAME.what" */
	for (const struct cost_def *c = p->costs; c && c->name; c++) {
		if (!*c->name || !strchr(c->name, '.') || strlen(c->name) > 47 ||
		    !(c->cycles >= 0 && c->cycles <= 1e7) || !c->source || !*c->source)
			return sim_fail(err, "%s: cost entry '%s': a name with a dot (\"mine.push\") "
					"of at most 47 characters, 0 to 1e7 cycles and a source",
					where, c->name);
		if (strncmp(c->name, p->name, own) || c->name[own] != '.')
			return sim_fail(err, "%s (policy %s): cost entry '%s' must start with "
					"'%s.', the policy's own name (rename it with the policy)",
					where, p->name, c->name, p->name);
	}
	if (!p->description)
		return sim_fail(err, "%s (policy %s): no description", where, p->name);
	const struct {
		const char *name;
		bool set;
	} hooks[] = {
		{ "create", p->create != NULL },	  { "destroy", p->destroy != NULL },
		{ "cache_create", p->cache_create != NULL }, { "kmalloc_max", p->kmalloc_max != NULL },
		{ "alloc", p->alloc != NULL },	  { "free", p->free != NULL },
		{ "cache_info", p->cache_info != NULL }, { "check", p->check != NULL },
	};
	for (size_t i = 0; i < ARRAY_SIZE(hooks); i++)
		if (!hooks[i].set)
			return sim_fail(err, "%s (policy %s): the %s hook is missing (policy.h lists "
					"the hooks a policy must have)", where, p->name,
					hooks[i].name);
	if (!p->kmalloc_prefix || !*p->kmalloc_prefix || strlen(p->kmalloc_prefix) > 16)
		return sim_fail(err, "%s (policy %s): kmalloc_prefix must be 1 to 16 characters",
				where, p->name);
	if (p->kmalloc_min_shift < 3 || p->kmalloc_min_shift > PAGE_SHIFT)
		return sim_fail(err, "%s (policy %s): kmalloc_min_shift %d is outside [3, %d]",
				where, p->name, p->kmalloc_min_shift, PAGE_SHIFT);
	if (p->kmalloc_odd & ~(KMALLOC_96 | KMALLOC_192))
		return sim_fail(err, "%s (policy %s): kmalloc_odd may hold only KMALLOC_96 and "
				"KMALLOC_192", where, p->name);
	char owner[64];
	snprintf(owner, sizeof(owner), "%s (policy %s)", where, p->name);
	if (params_check_defs(p->params, owner, err) < 0)
		return -1;
	for (int i = 0; p->params[i].name; i++)
		for (int j = 0; kernel_param_defs[j].name; j++)
			if (!strcmp(p->params[i].name, kernel_param_defs[j].name))
				return sim_fail(err, "%s: parameter '%s' is the kernel's own", owner,
						p->params[i].name);
	return 0;
}

/* dlopen a module file and check what it defines. */
static const struct slab_policy *load_module(const char *file, struct sim_err *err)
{
	char path[PATH_MAX];
	struct stat st;
	if (stat(file, &st) < 0 || !S_ISREG(st.st_mode) || !realpath(file, path))
		return sim_fail(err, "policy module '%s' not found (build one with 'make policy "
				"SRC=mine.c')", file), NULL;
	for (int i = 0; i < nmodules; i++)
		if (!strcmp(modules[i].path, path))
			return modules[i].policy;
	if (nmodules == MODULES_MAX)
		return sim_fail(err, "policy module '%s': one run loads at most %d modules", file,
				MODULES_MAX), NULL;
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return sim_fail(err, "policy module '%s' cannot be loaded: %s", file, dlerror()),
		       NULL;
	const struct slab_policy *p = dlsym(h, SLAB_POLICY_SYMBOL);
	if (!p) {
		dlclose(h);
		return sim_fail(err, "policy module '%s' defines no '%s' (const struct "
				"slab_policy %s = { SLAB_POLICY_HEADER, ... })", file,
				SLAB_POLICY_SYMBOL, SLAB_POLICY_SYMBOL), NULL;
	}
	char where[PATH_MAX + 32];
	snprintf(where, sizeof(where), "policy module '%s'", file);
	if (slab_policy_validate(p, where, err) < 0) {
		dlclose(h);
		return NULL;
	}
	if (name_is_builtin(p->name)) {
		sim_fail(err, "policy module '%s' calls itself '%s', the name of a built-in "
			 "policy: give it a name of its own", file, p->name);
		dlclose(h);
		return NULL;
	}
	for (int i = 0; i < nmodules; i++)
		if (!strcmp(modules[i].policy->name, p->name)) {
			sim_fail(err, "policy module '%s' calls itself '%s', as module '%s' does: "
				 "one name, one design", file, p->name, modules[i].path);
			dlclose(h);
			return NULL;
		}
	snprintf(modules[nmodules].path, sizeof(modules[nmodules].path), "%s", path);
	modules[nmodules++].policy = p;
	return p;	/* never dlclose'd: runs keep pointers into it */
}

/* $SLABSIM_POLICY_PATH, or "" if unset. */
static const char *policy_path(void)
{
	const char *s = getenv("SLABSIM_POLICY_PATH");
	return s ? s : "";
}

/* NAME.so in a directory of $SLABSIM_POLICY_PATH into `out`; 0 if found. */
static int find_in_path(const char *name, char *out, size_t size)
{
	char dirs[4096];
	snprintf(dirs, sizeof(dirs), "%s", policy_path());
	for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		snprintf(out, size, "%s/%s.so", d, name);
		if (access(out, R_OK) == 0)
			return 0;
	}
	return -1;
}

/* `name` appended to the space-separated list in `out` (cut at `size`). */
static void append_name(char *out, size_t size, const char *name)
{
	size_t len = strlen(out);
	snprintf(out + len, size - len, "%s%s", len ? " " : "", name);
}

/* qsort order of C strings (strcmp). */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

#define DIR_MODULES_MAX 256	/* NAME.so files read from one directory */

/* The NAMEs of the NAME.so files in `dir`, sorted (strdup'ed); how many. */
static int dir_module_names(const char *dir, char **names)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int n = 0;
	for (struct dirent *e; (e = readdir(d)) && n < DIR_MODULES_MAX;) {
		size_t len = strlen(e->d_name);
		if (len > 3 && !strcmp(e->d_name + len - 3, ".so"))
			names[n++] = strndup(e->d_name, len - 3);
	}
	closedir(d);
	if (n)
		qsort(names, (size_t)n, sizeof(*names), cmp_str);
	return n;
}

/* Each directory of $SLABSIM_POLICY_PATH's module names: fn(dir, names, n). */
static void each_path_dir(void (*fn)(const char *dir, char **names, int n, void *arg), void *arg)
{
	char dirs[4096];
	snprintf(dirs, sizeof(dirs), "%s", policy_path());
	for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		char *names[DIR_MODULES_MAX];
		int n = dir_module_names(d, names);
		fn(d, names, n, arg);
		for (int i = 0; i < n; i++)
			free(names[i]);
	}
}

struct name_list {
	char *buf;
	size_t size;
};

/* each_path_dir's fn for the unknown-policy message: a directory's module names appended. */
static void list_names(const char *dir, char **names, int n, void *arg)
{
	struct name_list *l = arg;
	for (int i = 0; i < n; i++)
		append_name(l->buf, l->size, names[i]);
}

const struct slab_policy *slab_policy_lookup(const char *name, struct sim_err *err)
{
	const struct slab_policy *p = slab_policy_find(name);
	if (p)
		return p;
	size_t len = strlen(name);
	if (strchr(name, '/') || (len > 3 && !strcmp(name + len - 3, ".so")))
		return load_module(name, err);
	char path[PATH_MAX];
	if (find_in_path(name, path, sizeof(path)) == 0)
		return load_module(path, err);
	char builtin[256] = "", found[1024] = "";
	for (int i = 0; slab_policies[i]; i++)
		append_name(builtin, sizeof(builtin), slab_policies[i]->name);
	struct name_list l = { found, sizeof(found) };
	each_path_dir(list_names, &l);	/* named, not loaded */
	char near[96], all[1300];
	snprintf(all, sizeof(all), "%s %s", builtin, found);
	return sim_fail(err, "unknown policy '%s'%s; valid policies: %s%s%s, or a module's path "
			"like ./mine.so (make policy SRC=mine.c)", name,
			suggest_near(name, all, near, sizeof(near)), builtin,
			*found ? "; modules in SLABSIM_POLICY_PATH: " : "", found), NULL;
}


struct module_visit {
	void (*fn)(const char *name, const char *path, const struct slab_policy *p,
		   const char *why, void *arg);
	void *arg;
};

/* each_path_dir's fn for slab_policy_modules: each NAME.so of a directory loaded and
 * checked, then fn(name, path, the policy or NULL, why it was refused). */
static void load_each(const char *dir, char **names, int n, void *arg)
{
	struct module_visit *v = arg;
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s/%s.so", dir, names[i]);
		struct sim_err e = { "" };
		const struct slab_policy *p = load_module(path, &e);
		v->fn(names[i], path, p, p ? NULL : e.msg, v->arg);
	}
}

void slab_policy_modules(void (*fn)(const char *name, const char *path,
				    const struct slab_policy *p, const char *why, void *arg),
			 void *arg)
{
	struct module_visit v = { fn, arg };
	each_path_dir(load_each, &v);
}
