/* outfile.h - where a file the user names (--json FILE, trace record -o
 * FILE) goes, as a Unix tool writes it: "-" is standard output; a symbolic
 * link is written through to its target, never replaced; a device or FIFO
 * (/dev/stdout) is written in place; a regular file, or a new one, through
 * a temporary file in its folder renamed over it, so nobody reads half a
 * file. Every message names the path as the user gave it. */
#ifndef SIM_OUTFILE_H
#define SIM_OUTFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "engine/error.h"

struct out_file {
	const char *given;	/* the path as the user wrote it */
	char target[PATH_MAX];	/* where the bytes end up */
	char tmp[PATH_MAX];	/* the temporary file, or "" when written in place */
	FILE *f;
};

/* Can PATH be written? Checked before a run, so that a mistyped folder
 * costs no simulation: 0, or -1 with "cannot write PATH: why". */
int out_check(const char *path, struct sim_err *err);

/* Open PATH for writing (see above); NULL and a message on failure. */
FILE *out_open(struct out_file *o, const char *path, struct sim_err *err);

/* Finish: flush, and rename the temporary file into place if ok (else
 * remove it). -1 with a message naming the given path on any failure. */
int out_close(struct out_file *o, bool ok, struct sim_err *err);

#endif
