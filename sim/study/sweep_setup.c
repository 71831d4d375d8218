/* sweep_setup.c - a sweep's experiment (its file, the overrides, and with
 * resume the folder's CI target) and its results folder made ready. */
#include "sweep_setup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/json_in.h"
#include "study/sweep.h"

/* DIR's sweep.json, parsed, or NULL if it has none. */
static cJSON *dir_meta(const char *dir)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/sweep.json", dir);
	size_t len;
	char *text = file_read_text(path, &len);
	if (!text)
		return NULL;
	cJSON *m = cJSON_Parse(text);
	free(text);
	return m;
}

/* DIR's sweep.json digest, "?" if it is damaged, or "" if it has none. */
static void dir_digest(const char *dir, char *out, size_t size)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/sweep.json", dir);
	out[0] = 0;
	if (access(path, F_OK) < 0)
		return;
	cJSON *m = dir_meta(dir);
	const char *d = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "digest"));
	snprintf(out, size, "%s", d ? d : "?");
	cJSON_Delete(m);
}

/* The CI target DIR's sweep was run with (its sweep.json), 0 if none. */
static double dir_ci_target(const char *dir)
{
	cJSON *m = dir_meta(dir);
	const cJSON *ci = cJSON_GetObjectItemCaseSensitive(m, "ci_target");
	double t = cJSON_IsNumber(ci) && ci->valuedouble > 0 && ci->valuedouble < 1
		? ci->valuedouble : 0;
	cJSON_Delete(m);
	return t;
}

int sweep_prepare(struct sweep *s, struct sim_err *err)
{
	const struct sweep_options *o = s->o;
	struct experiment *e = &s->e;
	if (experiment_load(e, o->file, err) < 0)
		return -1;
	for (int i = 0; i < o->nassign; i++)
		if (experiment_override(e, o->assign[i], err) < 0)
			return -1;
	if (o->replicates)
		e->replicates = o->replicates;
	if (o->ci_target > 0)
		e->ci_target = o->ci_target;
	if (experiment_expand(e, err) < 0)
		return -1;
	if (o->out && o->out[0])
		snprintf(s->dir, sizeof(s->dir), "%s", o->out);
	else
		snprintf(s->dir, sizeof(s->dir), "out/%s", e->name);
	if (o->resume && o->ci_target <= 0 && dir_ci_target(s->dir) > 0)
		e->ci_target = dir_ci_target(s->dir);	/* resume goes on as it was run */
	if (e->ci_target > 0 && o->shard)
		return sim_fail(err, "sweep: --shard splits a fixed set of runs; with a CI target "
				"(--ci-target or the file's ci_target) the runs a point needs are known "
				"only as they finish");
	snprintf(s->tmpdir, sizeof(s->tmpdir), "%s/.running", s->dir);
	return 0;
}

/* Empty the folder of worker files a killed sweep left. */
static void clean_tmpdir(const char *tmpdir)
{
	DIR *d = opendir(tmpdir);
	if (!d)
		return;
	for (struct dirent *de; (de = readdir(d));) {
		if (de->d_name[0] == '.')
			continue;
		char p[4500];
		snprintf(p, sizeof(p), "%s/%s", tmpdir, de->d_name);
		unlink(p);
	}
	closedir(d);
}

int sweep_open_dir(struct sweep *s, struct sim_err *err)
{
	const struct sweep_options *o = s->o;
	char digest[64], mine[EXP_DIGEST_HEX], path[4200];
	experiment_digest_hex(&s->e, mine);
	dir_digest(s->dir, digest, sizeof(digest));
	snprintf(path, sizeof(path), "%s/runs.jsonl", s->dir);
	bool exists = digest[0] || access(path, F_OK) == 0;
	if (exists && !o->resume && !o->force)
		return sim_fail(err, "%s already holds a sweep's results: --resume to finish it, "
				"--force to start it again, or another --out", s->dir);
	if (exists && o->resume && strcmp(digest, mine))
		return sim_fail(err, "--resume: %s holds another experiment's results (or other "
				"NAME=VALUE overrides or --replicates); --force starts it again",
				s->dir);
	if (sweep_make_dirs(s->dir, err) < 0 || sweep_make_dirs(s->tmpdir, err) < 0)
		return -1;
	clean_tmpdir(s->tmpdir);
	if (o->force) {
		static const char *const old[] = { "runs.jsonl", "summary.json", "summary.csv",
						   "crashed.jsonl" };
		for (size_t i = 0; i < sizeof(old) / sizeof(*old); i++) {
			snprintf(path, sizeof(path), "%s/%s", s->dir, old[i]);
			unlink(path);
		}
	}
	if (sweep_write_meta(s->dir, &s->e, o->shard, err) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/runs.jsonl", s->dir);
	if (o->resume && runs_load(path, &s->e, s->runs, true, true, err) < 0)
		return -1;
	s->fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0666);
	if (s->fd < 0)
		return sim_fail(err, "cannot write %s: %s", path, strerror(errno));
	return 0;
}
