/* scratch.h - a unit test's scratch folder: /tmp/NAME.XXXXXX made new, and
 * removed with everything in it. */
#ifndef TESTS_UNIT_SCRATCH_H
#define TESTS_UNIT_SCRATCH_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* nftw's callback: remove one file or folder. */
static inline int scratch_remove_one(const char *path, const struct stat *st, int flag,
				     struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* A new folder /tmp/NAME.XXXXXX, its path in DIR; 0, or -1. */
static inline int scratch_make(char *dir, size_t size, const char *name)
{
	snprintf(dir, size, "/tmp/%s.XXXXXX", name);
	return mkdtemp(dir) ? 0 : -1;
}

/* DIR and everything in it removed; 0, or -1. */
static inline int scratch_remove(const char *dir)
{
	return nftw(dir, scratch_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif
