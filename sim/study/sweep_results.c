/* sweep_results.c - a results folder: runs.jsonl read back (a torn last
 * line from a killed sweep is cut off), lines appended whole, the folder's
 * record of its experiment, and the summary and plots written at the end. */
#include "sweep.h"
#include "engine/oom.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/json_in.h"
#include "report/report.h"
#include "report/replicates.h"
#include "report/summary.h"
#include "report/sweep_plot.h"

/* Does this run's "sweep" member belong to experiment E? Its run number. */
static int run_of(const cJSON *run, const struct experiment *e, const char *digest)
{
	const cJSON *sw = cJSON_GetObjectItemCaseSensitive(run, "sweep");
	const cJSON *d = cJSON_GetObjectItemCaseSensitive(sw, "digest");
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(sw, "run");
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(sw, "key");
	if (!cJSON_IsString(d) || !cJSON_IsNumber(n) || !cJSON_IsString(k) ||
	    strcmp(d->valuestring, digest))
		return -1;
	int i = n->valueint;
	if (i < 0 || i >= experiment_runs(e) || strcmp(e->points[i / e->replicates].key,
							k->valuestring))
		return -1;
	return i;
}

int runs_load(const char *path, const struct experiment *e, cJSON **runs, bool repair,
	      bool prune, struct sim_err *err)
{
	size_t len;
	char *text = file_read_text(path, &len);
	if (!text)
		return errno == ENOENT ? 0 : sim_fail(err, "cannot read %s: %s", path, strerror(errno));
	char digest[EXP_DIGEST_HEX];
	experiment_digest_hex(e, digest);
	int count = 0, lineno = 0;
	size_t good = 0;
	for (char *p = text; p < text + len; lineno++) {
		char *nl = strchr(p, '\n');
		cJSON *run = nl ? (*nl = 0, cJSON_Parse(p)) : NULL;
		if (!run) {
			bool last = !nl || nl + 1 >= text + len;
			if (!last) {
				free(text);
				return sim_fail(err, "%s: line %d is not a run's JSON", path, lineno + 1);
			}
			break;	/* torn by a kill: the run is done again */
		}
		int i = run_of(run, e, digest);
		if (i < 0) {
			cJSON_Delete(run);
			free(text);
			return sim_fail(err, "%s: line %d is a run of another experiment (or of other "
					"NAME=VALUE overrides)", path, lineno + 1);
		}
		if (runs[i]) {
			cJSON_Delete(run);
		} else {
			if (prune)
				summary_prune(run, e);
			runs[i] = run;
			count++;
		}
		p = nl + 1;
		good = (size_t)(p - text);
	}
	free(text);
	if (repair && good < len && truncate(path, (off_t)good) < 0)
		return sim_fail(err, "cannot repair %s: %s", path, strerror(errno));
	return count;
}

int runs_append(int fd, const char *line, struct sim_err *err)
{
	size_t len = strlen(line);
	char *buf = malloc(len + 1);
	if (!buf)
		host_oom(__func__);
	memcpy(buf, line, len);
	buf[len] = '\n';
	ssize_t w = write(fd, buf, len + 1);
	free(buf);
	if (w != (ssize_t)(len + 1))
		return sim_fail(err, "cannot append to runs.jsonl: %s",
				w < 0 ? strerror(errno) : "short write");
	return 0;
}

/* Write text to path atomically: a temporary file beside it, then rename(). */
static int write_text(const char *path, const char *text, struct sim_err *err)
{
	char tmp[4200];
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f)
		return sim_fail(err, "cannot write %s: %s", tmp, strerror(errno));
	bool ok = fputs(text, f) >= 0;
	ok = fclose(f) == 0 && ok;
	if (!ok || rename(tmp, path) < 0) {
		unlink(tmp);
		return sim_fail(err, "cannot write %s: %s", path, strerror(errno));
	}
	return 0;
}

int sweep_make_dirs(const char *dir, struct sim_err *err)
{
	char p[4096];
	snprintf(p, sizeof(p), "%s", dir);
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p, 0777) < 0 && errno != EEXIST)
			return sim_fail(err, "cannot create %s: %s", p, strerror(errno));
		*s = '/';
	}
	if (mkdir(p, 0777) < 0 && errno != EEXIST)
		return sim_fail(err, "cannot create %s: %s", p, strerror(errno));
	return 0;
}

int sweep_write_meta(const char *dir, const struct experiment *e, const char *shard,
		     struct sim_err *err)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/experiment.json", dir);
	if (write_text(path, e->text, err) < 0)
		return -1;
	cJSON *m = cJSON_CreateObject();
	char digest[EXP_DIGEST_HEX];
	experiment_digest_hex(e, digest);
	cJSON_AddStringToObject(m, "experiment", e->path);
	cJSON_AddStringToObject(m, "name", e->name);
	cJSON_AddStringToObject(m, "digest", digest);
	cJSON_AddItemToObject(m, "overrides", experiment_overrides_json(e));
	cJSON_AddNumberToObject(m, "points", e->npoints);
	cJSON_AddNumberToObject(m, "replicates", e->replicates);
	if (e->ci_target > 0)
		cJSON_AddNumberToObject(m, "ci_target", e->ci_target);
	cJSON_AddNumberToObject(m, "runs", experiment_runs(e));
	if (shard)
		cJSON_AddStringToObject(m, "shard", shard);
	snprintf(path, sizeof(path), "%s/sweep.json", dir);
	int rc = report_write_json(path, m, err);
	cJSON_Delete(m);
	return rc;
}

int sweep_load_dir(const char *dir, struct experiment *e, struct sim_err *err)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/sweep.json", dir);
	size_t len;
	char *text = file_read_text(path, &len);
	if (!text)
		return sim_fail(err, "%s: not a sweep's results folder (no sweep.json)", dir);
	cJSON *m = cJSON_Parse(text);
	free(text);
	const cJSON *ov = cJSON_GetObjectItemCaseSensitive(m, "overrides");
	const cJSON *dg = cJSON_GetObjectItemCaseSensitive(m, "digest");
	if (!m || !cJSON_IsArray(ov) || !cJSON_IsString(dg)) {
		cJSON_Delete(m);
		return sim_fail(err, "%s: sweep.json is damaged", dir);
	}
	snprintf(path, sizeof(path), "%s/experiment.json", dir);
	int rc = experiment_load(e, path, err);
	const cJSON *a, *reps = cJSON_GetObjectItemCaseSensitive(m, "replicates");
	if (rc == 0 && cJSON_IsNumber(reps) && reps->valueint >= 1)
		e->replicates = reps->valueint;
	const cJSON *ci = cJSON_GetObjectItemCaseSensitive(m, "ci_target");
	if (rc == 0 && cJSON_IsNumber(ci) && ci->valuedouble > 0 && ci->valuedouble < 1)
		e->ci_target = ci->valuedouble;
	cJSON_ArrayForEach(a, ov)
		if (rc == 0 && (!cJSON_IsString(a) || experiment_override(e, a->valuestring, err) < 0))
			rc = sim_fail(err, "%s: sweep.json has a bad override", dir);
	if (rc == 0)
		rc = experiment_expand(e, err);
	char digest[EXP_DIGEST_HEX];
	experiment_digest_hex(e, digest);
	if (rc == 0 && strcmp(digest, dg->valuestring))
		rc = sim_fail(err, "%s: experiment.json does not match sweep.json's digest", dir);
	cJSON_Delete(m);
	return rc;
}

int sweep_finish(const char *dir, const struct experiment *e, cJSON **runs, bool no_plot,
		 const char *format, struct sim_err *err)
{
	cJSON *s = summary_build(e, runs);
	char path[4096];
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	int rc = report_write_json(path, s, err);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	if (rc == 0)
		rc = summary_write_csv(path, s, err);
	bool settled = true;	/* every point has the runs it needs */
	for (int p = 0; p < e->npoints && settled; p++)
		settled = replicates_settled(e, runs, p);
	if (rc == 0 && !no_plot && settled)
		rc = sweep_plot(dir, s, format, err);
	cJSON_Delete(s);
	return rc;
}
