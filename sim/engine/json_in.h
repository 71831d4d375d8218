/* json_in.h - reading JSON input files with messages that name the file and
 * the field (machine files, cost tables, later experiment files). */
#ifndef SIM_JSON_IN_H
#define SIM_JSON_IN_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* A whole file as a NUL-terminated string (malloc'ed; its length in *len),
 * or NULL with errno set. */
char *file_read_text(const char *path, size_t *len);

/* The folders where the data folder SUB (machines, validation) is looked
 * for, ':'-separated, into buf: $ENV first (if set), then SUB beside the
 * binary, above it (build/slabsim of a source tree), and in the installed
 * data directory. */
const char *data_dirs(const char *env, const char *sub, char *buf, size_t size);

/* Parse a whole file; on failure err says where. Free with cJSON_Delete. */
cJSON *json_read_file(const char *path, struct sim_err *err);

/* After cJSON could not parse TEXT (LEN bytes) of PATH: "PATH: line L,
 * column C: not valid JSON (from '...')", where its parser stopped; -1. */
int json_parse_error(struct sim_err *err, const char *path, const char *text, size_t len);

/* A required member of `obj`; `where` is the path used in messages. */
cJSON *json_member(const char *file, const cJSON *obj, const char *where,
		   const char *key, struct sim_err *err);

/* A number in [min, max]; integer-only if `integer`. */
int json_number(const char *file, const cJSON *obj, const char *where,
		const char *key, double min, double max, bool integer,
		double *out, struct sim_err *err);

/* Whether `key` is one of the words of the space-separated list `valid`
 * (an empty key never is). */
bool json_key_listed(const char *valid, const char *key);

/* A string; copied into buf (truncated to size). */
int json_string(const char *file, const cJSON *obj, const char *where,
		const char *key, char *buf, int size, struct sim_err *err);

#endif
