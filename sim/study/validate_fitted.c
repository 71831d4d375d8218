/* validate_fitted.c - the figures of the machine files and cost tables
 * fitted to a published result, and their digest: validation's results keep
 * it, so runs made with other fitted figures are not judged (--from) or
 * finished (--resume) as if they were today's. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/json_in.h"
#include "engine/oom.h"
#include "hw/machine.h"
#include "study/validate_int.h"

/* qsort() order of lines. */
static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Machine NAME's fitted figures, one line each, appended to lines[*nl]
 * unless a cost table shared with an earlier machine gave it already. */
static int add_fitted_lines(const char *name, char **lines, int *nl, struct sim_err *err)
{
	struct machine m;
	if (machine_load(&m, name, err) < 0)
		return -1;
	for (int k = 0; k < m.nfitted; k++) {
		char *l;
		if (asprintf(&l, "%s %s %s = %.17g", m.fitted[k].fit_case, m.fitted[k].file,
			     m.fitted[k].name, m.fitted[k].value) < 0)
			host_oom(__func__);
		bool dup = false;
		for (int j = 0; j < *nl && !dup; j++)
			dup = !strcmp(lines[j], l);
		if (dup)
			free(l);
		else
			lines[(*nl)++] = l;
	}
	machine_free(&m);
	return 0;
}

/* The FNV-1a hash of LINES[0..n), each ended by a newline, in hex. */
static void lines_digest(char *const *lines, int n, char digest[17])
{
	uint64_t h = VAL_FNV_INIT;
	for (int j = 0; j < n; j++)
		h = val_fnv1a(val_fnv1a(h, lines[j], strlen(lines[j])), "\n", 1);
	snprintf(digest, 17, "%016llx", (unsigned long long)h);
}

cJSON *validate_fitted(char digest[17], struct sim_err *err)
{
	char *names[MACHINE_MAX_FILES], *lines[MACHINE_MAX_FILES * MACHINE_MAX_FITTED];
	int n = machine_names(names, MACHINE_MAX_FILES), nl = 0;
	bool ok = true;
	for (int i = 0; i < n; i++) {
		ok = ok && add_fitted_lines(names[i], lines, &nl, err) == 0;
		free(names[i]);
	}
	qsort(lines, (size_t)nl, sizeof(*lines), cmp_line);
	lines_digest(lines, nl, digest);
	cJSON *out = ok ? cJSON_CreateArray() : NULL;
	for (int j = 0; j < nl; j++) {
		if (out)
			cJSON_AddItemToArray(out, cJSON_CreateString(lines[j]));
		free(lines[j]);
	}
	return out;
}

int val_summary_digest(const char *dir, char was[17], struct sim_err *err)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	size_t len;
	char *text = file_read_text(path, &len);
	if (!text)
		return sim_fail(err, "cannot read %s: %s (a folder an earlier slabsim validate "
				"wrote?)", path, strerror(errno));
	cJSON *j = cJSON_Parse(text);
	free(text);
	const char *d = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "fitted_digest"));
	int rc = d ? 0 : sim_fail(err, "%s keeps no fitted_digest", path);
	if (d)
		snprintf(was, 17, "%s", d);
	cJSON_Delete(j);
	return rc;
}

int val_check_from_digest(const char *dir, const char *digest, struct sim_err *err)
{
	char was[17];
	if (val_summary_digest(dir, was, err) < 0) {
		char msg[sizeof(err->msg)];
		snprintf(msg, sizeof(msg), "%s", err->msg);
		return sim_fail(err, "--from %s: %s", dir, msg);
	}
	if (strcmp(was, digest))
		return sim_fail(err, "--from %s: the fitted figures changed since its runs (digest %s, "
				"now %s): run the cases again", dir, was, digest);
	return 0;
}
