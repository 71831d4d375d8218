/* outfile.c - writing a file the user named: standard output, through
 * symbolic links, into devices, or atomically (outfile.h). */
#include "outfile.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Where PATH's bytes go: a link's final target (a dangling link's target
 * is created); *in_place when that is not a regular file (a device, a FIFO). */
static int resolve(const char *path, char *target, bool *in_place, struct sim_err *err)
{
	struct stat st;
	*in_place = false;
	snprintf(target, PATH_MAX, "%s", path);
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && !realpath(path, target)) {
		/* a dangling link: write the file it names */
		char link[PATH_MAX], dir[PATH_MAX];
		ssize_t n = readlink(path, link, sizeof(link) - 1);
		if (n < 0)
			return sim_fail(err, "cannot write %s: %s", path, strerror(errno));
		link[n] = 0;
		char full[2 * PATH_MAX + 2];
		snprintf(dir, sizeof(dir), "%s", path);
		if (link[0] == '/')
			snprintf(full, sizeof(full), "%s", link);
		else
			snprintf(full, sizeof(full), "%s/%s", dirname(dir), link);
		if (strlen(full) >= PATH_MAX)
			return sim_fail(err, "cannot write %s: its link's target is too long", path);
		memcpy(target, full, strlen(full) + 1);
	}
	if (stat(target, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return sim_fail(err, "cannot write %s: it is a folder", path);
		*in_place = !S_ISREG(st.st_mode);
	}
	return 0;
}

int out_check(const char *path, struct sim_err *err)
{
	char target[PATH_MAX], dir[PATH_MAX];
	bool in_place;
	if (!path[0])
		return sim_fail(err, "cannot write '': an empty file name");
	if (!strcmp(path, "-"))
		return 0;
	if (resolve(path, target, &in_place, err) < 0)
		return -1;
	if (in_place)
		return access(target, W_OK) == 0 ? 0
			: sim_fail(err, "cannot write %s: %s", path, strerror(errno));
	snprintf(dir, sizeof(dir), "%s", target);
	char *d = dirname(dir);
	struct stat st;
	if (stat(d, &st) < 0 || !S_ISDIR(st.st_mode))
		return sim_fail(err, "cannot write %s: no folder %s", path, d);
	if (access(d, W_OK) < 0)
		return sim_fail(err, "cannot write %s: folder %s: %s", path, d, strerror(errno));
	return 0;
}

FILE *out_open(struct out_file *o, const char *path, struct sim_err *err)
{
	bool in_place;
	memset(o, 0, sizeof(*o));
	o->given = path;
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return o->f;
	}
	if (resolve(path, o->target, &in_place, err) < 0)
		return NULL;
	if (!in_place) {
		char dir[PATH_MAX], base[PATH_MAX];
		snprintf(dir, sizeof(dir), "%s", o->target);
		snprintf(base, sizeof(base), "%s", o->target);
		char tmp[2 * PATH_MAX + 32];
		snprintf(tmp, sizeof(tmp), "%s/.%s.tmp.%d", dirname(dir), basename(base),
			 (int)getpid());
		if (strlen(tmp) >= sizeof(o->tmp))
			return sim_fail(err, "cannot write %s: the name is too long", path), NULL;
		memcpy(o->tmp, tmp, strlen(tmp) + 1);
	}
	o->f = fopen(o->tmp[0] ? o->tmp : o->target, "w");
	if (!o->f) {
		sim_fail(err, "cannot write %s: %s", path, strerror(errno));
		o->tmp[0] = 0;
		return NULL;
	}
	return o->f;
}

int out_close(struct out_file *o, bool ok, struct sim_err *err)
{
	int e = 0;
	if (o->f == stdout) {
		ok = fflush(stdout) == 0 && ok;
		e = errno;
	} else if (o->f) {
		ok = !ferror(o->f) && ok;
		e = errno;
		if (fclose(o->f) != 0) {
			e = errno;
			ok = false;
		}
	}
	o->f = NULL;
	if (o->tmp[0]) {
		if (ok && rename(o->tmp, o->target) < 0) {
			e = errno;
			ok = false;
		}
		if (!ok)
			unlink(o->tmp);
		o->tmp[0] = 0;
	}
	if (!ok)
		return sim_fail(err, "cannot write %s: %s", o->given, e ? strerror(e) : "write error");
	return 0;
}
