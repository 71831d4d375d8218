/* sweep_merge.c - shards' results folders joined into one: the first
 * folder's experiment, every folder's runs (a run in two kept once), the
 * merged runs.jsonl in run order, then the summary and the plots. */
#include "sweep_merge.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "study/sweep.h"

/* Every shard's runs.jsonl into RUNS (a run index a slot); 0, or -1 with ERR. */
static int load_shards(const struct sweep_merge_options *o, struct experiment *e, cJSON **runs,
		       struct sim_err *err)
{
	for (int d = 0; d < o->ndirs; d++) {
		char path[4200];
		snprintf(path, sizeof(path), "%s/runs.jsonl", o->dirs[d]);
		if (access(path, R_OK) < 0)
			return sim_fail(err, "%s: no runs.jsonl", o->dirs[d]);
		if (runs_load(path, e, runs, false, false, err) < 0)
			return -1;
	}
	return 0;
}

/* OUT with the experiment and every run found, in run order, counted in M;
 * 0, or -1 with ERR. */
static int write_merged(const char *out, struct experiment *e, cJSON **runs,
			struct sweep_merged *m, struct sim_err *err)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/runs.jsonl", out);
	int fd = -1, rc = 0;
	if (sweep_make_dirs(out, err) < 0 || sweep_write_meta(out, e, NULL, err) < 0)
		return -1;
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0)
		return sim_fail(err, "cannot write %s: %s", path, strerror(errno));
	for (int i = 0; i < experiment_runs(e) && !rc; i++) {
		if (!runs[i])
			continue;
		m->have++;
		const char *inv = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(runs[i],
											"invariants"));
		m->failed += !inv || strcmp(inv, "ok");
		char *line = cJSON_PrintUnformatted(runs[i]);
		rc = runs_append(fd, line, err);
		free(line);
	}
	close(fd);
	return rc;
}

int sweep_merge(const struct sweep_merge_options *o, struct sweep_merged *m, struct sim_err *err)
{
	struct experiment e;
	memset(&e, 0, sizeof(e));
	memset(m, 0, sizeof(*m));
	if (sweep_load_dir(o->dirs[0], &e, err) < 0) {
		experiment_free(&e);
		return -1;
	}
	m->runs = experiment_runs(&e);
	cJSON **runs = calloc((size_t)m->runs + 1, sizeof(*runs));
	int rc = load_shards(o, &e, runs, err);
	if (rc == 0)
		rc = write_merged(o->out, &e, runs, m, err);
	if (rc == 0)
		rc = sweep_finish(o->out, &e, runs, o->no_plot, o->format, err);
	for (int i = 0; i < m->runs; i++)
		cJSON_Delete(runs[i]);
	free(runs);
	experiment_free(&e);
	return rc;
}
