/* validate_plan.c - which validation cases a validate runs: those named (a
 * case name looked up in the validation folders, or a case file), else every
 * case of the first folder that has any; only the quick ones with --quick. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/oom.h"
#include "study/validate_study.h"

/* qsort() order of strings. */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.json of DIR, sorted, into *out; how many (0 if none or no such folder). */
static int dir_cases(const char *dir, char ***out)
{
	DIR *d = *dir ? opendir(dir) : NULL;
	if (!d)
		return 0;
	int n = 0, cap = 16;
	char **v = xmalloc((size_t)cap * sizeof(*v));
	for (struct dirent *de; (de = readdir(d));) {
		size_t len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".json"))
			continue;
		if (n == cap)
			v = xrealloc(v, (size_t)(cap *= 2) * sizeof(*v));
		if (asprintf(&v[n++], "%s/%s", dir, de->d_name) < 0)
			host_oom(__func__);
	}
	closedir(d);
	if (!n)
		free(v);
	else
		qsort(v, (size_t)n, sizeof(*v), cmp_str);
	*out = n ? v : NULL;
	return n;
}

/* Every case file of the first validation folder that has any, sorted. */
static int all_cases(char ***out, struct sim_err *err)
{
	const char *p = val_case_dirs();
	while (*p) {
		size_t dl = strcspn(p, ":");
		char dir[PATH_MAX];
		snprintf(dir, sizeof(dir), "%.*s", (int)dl, p);
		p += dl + (p[dl] == ':');
		int n = dir_cases(dir, out);
		if (n)
			return n;
	}
	return sim_fail(err, "no validation cases found (looked in %s)", val_case_dirs());
}

/* The files of the cases o names into *out; how many, -1 with a message
 * naming the first not found. */
static int named_cases(const struct validate_opts *o, char ***out, struct sim_err *err)
{
	char **paths = xcalloc((size_t)o->nnames + 1, sizeof(*paths));
	for (int i = 0; i < o->nnames; i++) {
		char p[PATH_MAX];
		if (val_case_find(o->names[i], p, sizeof(p)) == 0) {
			paths[i] = strdup(p);
			continue;
		}
		size_t l = strlen(o->names[i]);
		if (l > 5 && !strcmp(o->names[i] + l - 5, ".json"))
			sim_fail(err, "cannot read validation case %s: %s", o->names[i],
				 strerror(errno));
		else
			sim_fail(err, "no validation case '%s' (looked for %s.json in %s)",
				 o->names[i], o->names[i], val_case_dirs());
		while (i--)
			free(paths[i]);
		free(paths);
		return -1;
	}
	*out = paths;
	return o->nnames;
}

/* Load the case files PATHS[0..np) into cs[], dropping those not quick with
 * o->quick; how many kept, -1 with a message. */
static int load_files(const struct validate_opts *o, char *const *paths, int np,
		      struct val_case *cs, struct sim_err *err)
{
	int n = 0;
	for (int i = 0; i < np; i++) {
		if (val_case_load(&cs[n], paths[i], err) < 0) {
			val_case_free(&cs[n]);
			while (n--)
				val_case_free(&cs[n]);
			return -1;
		}
		if (o->quick && !cs[n].quick)
			val_case_free(&cs[n]);
		else if (o->ci_target > 0)
			cs[n++].e.ci_target = o->ci_target;
		else
			n++;
	}
	return n;
}

int validate_load_cases(const struct validate_opts *o, struct val_case **cases,
			struct sim_err *err)
{
	char **paths = NULL;
	int np = o->nnames ? named_cases(o, &paths, err) : all_cases(&paths, err);
	if (np < 0)
		return -1;
	struct val_case *cs = xcalloc((size_t)np + 1, sizeof(*cs));
	int n = load_files(o, paths, np, cs, err);
	for (int i = 0; i < np; i++)
		free(paths[i]);
	free(paths);
	if (n == 0)
		sim_fail(err, "no validation case to run%s", o->quick ? " (none is marked quick)"
			 : "");
	if (n <= 0) {
		free(cs);
		return -1;
	}
	*cases = cs;
	return n;
}
