/* json_in.c - typed access to JSON input with file/field error messages. */
#include "json_in.h"

#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define JSON_MAX_FILE (16 << 20)

char *file_read_text(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 65536, n = 0;
	char *s = malloc(cap);
	for (size_t got; s && (got = fread(s + n, 1, cap - n - 1, f)) > 0;) {
		n += got;
		if (n + 1 == cap) {
			char *t = realloc(s, cap *= 2);
			if (!t)
				free(s);
			s = t;
		}
	}
	fclose(f);
	if (!s) {
		errno = ENOMEM;
		return NULL;
	}
	s[n] = 0;
	*len = n;
	return s;
}

cJSON *json_read_file(const char *path, struct sim_err *err)
{
	size_t n = 0;
	char *buf = file_read_text(path, &n);
	if (!buf && errno != ENOMEM) {
		sim_fail(err, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	if (!buf || n > JSON_MAX_FILE) {
		free(buf);
		sim_fail(err, "%s: file too large or out of memory", path);
		return NULL;
	}
	buf[n] = 0;
	cJSON *root = cJSON_ParseWithLength(buf, n);
	if (!root) {
		json_parse_error(err, path, buf, n);
	} else if (!cJSON_IsObject(root)) {
		sim_fail(err, "%s: expected a JSON object at the top level", path);
		cJSON_Delete(root);
		root = NULL;
	}
	free(buf);
	return root;
}

/* The "." that joins `where` to a key in a field's name; "" when `where` is empty. */
static const char *dot(const char *where)
{
	return where && *where ? "." : "";
}

cJSON *json_member(const char *file, const cJSON *obj, const char *where,
		   const char *key, struct sim_err *err)
{
	cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!v)
		sim_fail(err, "%s: missing field '%s%s%s'", file, where ? where : "",
			 dot(where), key);
	return v;
}

int json_number(const char *file, const cJSON *obj, const char *where,
		const char *key, double min, double max, bool integer,
		double *out, struct sim_err *err)
{
	cJSON *v = json_member(file, obj, where, key, err);
	if (!v)
		return -1;
	const char *w = where ? where : "";
	if (!cJSON_IsNumber(v))
		return sim_fail(err, "%s: field '%s%s%s' must be a number", file, w,
				dot(where), key);
	double d = v->valuedouble;
	if (integer && d != floor(d))
		return sim_fail(err, "%s: field '%s%s%s' must be an integer, not %g",
				file, w, dot(where), key, d);
	if (d < min || d > max)
		return sim_fail(err, "%s: field '%s%s%s' = %g is out of range [%g, %g]",
				file, w, dot(where), key, d, min, max);
	*out = d;
	return 0;
}

int json_string(const char *file, const cJSON *obj, const char *where,
		const char *key, char *buf, int size, struct sim_err *err)
{
	cJSON *v = json_member(file, obj, where, key, err);
	if (!v)
		return -1;
	if (!cJSON_IsString(v))
		return sim_fail(err, "%s: field '%s%s%s' must be a string", file,
				where ? where : "", dot(where), key);
	snprintf(buf, (size_t)size, "%s", v->valuestring);
	return 0;
}

const char *data_dirs(const char *env, const char *sub, char *buf, size_t size)
{
	const char *e = getenv(env);
	char exe[PATH_MAX], exedir[PATH_MAX] = ".";
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = 0;
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = 0;
			snprintf(exedir, sizeof(exedir), "%s", exe);
		}
	}
	/* beside the binary (a source tree), above it, the share folder of
	 * wherever it was installed (PREFIX/bin -> PREFIX/share/slabsim: any
	 * PREFIX, moved or not), then the folder compiled in */
	snprintf(buf, size, "%s%s%.1000s/%s:%.1000s/../%s:%.1000s/../share/slabsim/%s:%s/%s",
		 e ? e : "", e ? ":" : "", exedir, sub, exedir, sub, exedir, sub,
		 SLABSIM_DATADIR, sub);
	return buf;
}

bool json_key_listed(const char *valid, const char *key)
{
	size_t len = strlen(key);
	if (!len)
		return false;
	for (const char *p = strstr(valid, key); p; p = strstr(p + 1, key))
		if ((p == valid || p[-1] == ' ') && (p[len] == ' ' || !p[len]))
			return true;
	return false;
}

int json_parse_error(struct sim_err *err, const char *path, const char *text, size_t len)
{
	const char *at = cJSON_GetErrorPtr(), *bol = text, *end = text + len, *q;
	int line = 1;
	if (!at || at < text || at > end)
		at = text;
	for (q = at; q < end && *q && strchr(" \t\r\n", *q); q++)
		;
	bool ended = q == end || !*q;	/* the text need not end in a NUL */
	while (ended && at > text && at[-1] && strchr(" \t\r\n", at[-1]))
		at--;	/* where the text stopped, not its trailing blanks */
	for (const char *p = text; p < at; p++)
		if (*p == '\n') {
			line++;
			bol = p + 1;
		}
	int col = (int)(at - bol) + 1, show = 0;
	while (show < 16 && at + show < end && at[show] && at[show] != '\n')
		show++;
	if (ended)
		return sim_fail(err, "%s: line %d, column %d: not valid JSON (it ends too soon)",
				path, line, col);
	return sim_fail(err, "%s: line %d, column %d: not valid JSON (from '%.*s')", path, line,
			col, show, at);
}

