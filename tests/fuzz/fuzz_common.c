/* fuzz_common.c - the harnesses' shared helpers (fuzz.h). */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FUZZ_REPO
#error "FUZZ_REPO: the repository's folder (the Makefile defines it)"
#endif

char *fuzz_text(const uint8_t *data, size_t size)
{
	if (memchr(data, 0, size))
		return NULL;
	char *s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = 0;
	return s;
}

static char dir[64];

static void remove_dir(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz: could not remove %s\n", dir);
}

const char *fuzz_dir(void)
{
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/slabsim-fuzz.XXXXXX");
		if (!mkdtemp(dir))
			abort();
		atexit(remove_dir);
	}
	return dir;
}

const char *fuzz_write(const char *name, const uint8_t *data, size_t size)
{
	static char path[256];
	snprintf(path, sizeof(path), "%s/%s", fuzz_dir(), name);
	char *slash = strrchr(path, '/');
	*slash = 0;
	mkdir(path, 0700);	/* the file's folder (costs/), if it has one */
	*slash = '/';
	FILE *f = fopen(path, "wb");
	if (!f)
		return NULL;
	size_t n = fwrite(data, 1, size, f);
	if (fclose(f) != 0 || n != size)
		return NULL;
	return path;
}

void fuzz_use_repo_machines(void)
{
	setenv("SLABSIM_MACHINES", FUZZ_REPO "/machines", 1);
}

/* libFuzzer's start-up hook, the same for every harness: machine files and
 * their cost tables come from the repository. */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_use_repo_machines();
	return 0;
}
