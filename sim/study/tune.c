/* tune.c - the tuner's search: its options checked, the rounds of
 * successive halving run through the sweep's workers, the result ranked. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/oom.h"
#include "study/sweep.h"
#include "study/tune.h"

/* Whether O can be searched; -1 after a message naming the bad option. */
static int check_opts(const struct tune_opts *o, struct sim_err *err)
{
	if (!o->machine || !o->policy || !o->workload)
		return sim_fail(err, "-m MACHINE, -p POLICY and -w WORKLOAD are required");
	if (!o->range)
		return sim_fail(err, "no range to search: give PARAM=LO..HI, e.g. "
				"slub_min_objects=4..64");
	if (o->grid < 2 || o->max_replicates < 2)
		return sim_fail(err, "--grid and --replicates must be at least 2");
	if (o->grid > TUNE_MAX_GRID || o->max_replicates > TUNE_MAX_REPLICATES)
		return sim_fail(err, "--grid %d, --replicates %d: at most %d and %d", o->grid,
				o->max_replicates, TUNE_MAX_GRID, TUNE_MAX_REPLICATES);
	if (o->budget < 1 || o->jobs < 1)
		return sim_fail(err, "--budget %d, -j %d: expected at least 1", o->budget, o->jobs);
	if (o->objective != TUNE_TIME && o->objective != TUNE_MEMORY &&
	    o->objective != TUNE_PARETO)
		return sim_fail(err, "--objective %d: expected time, memory or pareto",
				(int)o->objective);
	for (int i = 0; i < o->nassign; i++)
		if (!strchr(o->assign[i], '='))
			return sim_fail(err, "'%s': expected NAME=VALUE", o->assign[i]);
	return 0;
}

/* What a round's finished runs go to. */
struct tune_collect {
	struct tune_result *r;
	const struct tune_progress *progress;
	FILE *jsonl;
};

/* A finished run: its time and peak slab memory to its point and its line
 * to runs.jsonl, or a failure reported. */
static void on_done(void *ctx, int run, const char *line, const char *why)
{
	struct tune_collect *c = ctx;
	struct tune_result *r = c->r;
	struct tune_point *p = &r->p[run / r->e.replicates];
	int rep = run % r->e.replicates;
	cJSON *j = line ? cJSON_Parse(line) : NULL;
	const cJSON *res = j ? cJSON_GetObjectItemCaseSensitive(j, "result") : NULL;
	const cJSON *mem = j ? cJSON_GetObjectItemCaseSensitive(j, "memory") : NULL;
	const cJSON *inv = j ? cJSON_GetObjectItemCaseSensitive(j, "invariants") : NULL;
	if (!res || !cJSON_IsString(inv) || strcmp(inv->valuestring, "ok")) {
		if (c->progress->run_failed)
			c->progress->run_failed(c->progress->ctx, run, r->e.dim[r->e.ndims - 1].name,
						p->value, rep, why ? why : cJSON_IsString(inv) ?
						inv->valuestring : "no result");
		r->failed++;
	} else {
		p->t[rep] = cJSON_GetObjectItemCaseSensitive(res, "sim_seconds")->valuedouble;
		p->mem[rep] = cJSON_GetObjectItemCaseSensitive(mem, "slab_bytes_peak")->valuedouble /
			      1048576.0;
		fprintf(c->jsonl, "%s\n", line);
	}
	cJSON_Delete(j);
}

/* Run replicates [p->reps, reps) of every alive point, at most `budget`
 * runs; returns the runs done. */
static int run_round(struct tune_collect *c, int reps, int budget, int jobs)
{
	struct tune_result *r = c->r;
	int todo[TUNE_MAX_GRID * TUNE_MAX_REPLICATES], n = 0;
	for (int rep = 0; rep < reps; rep++)	/* replicate by replicate: a cut budget cuts evenly */
		for (int i = 0; i < r->n && n < budget; i++)
			if (r->p[i].alive && rep >= r->p[i].reps)
				todo[n++] = i * r->e.replicates + rep;
	if (!n)
		return 0;
	char tmp[PATH_MAX];
	snprintf(tmp, sizeof(tmp), "%s/.running", r->dir);
	mkdir(tmp, 0755);
	sweep_local(&r->e, todo, n, jobs, 0, tmp, on_done, c);
	rmdir(tmp);
	for (int k = 0; k < n; k++) {
		struct tune_point *p = &r->p[todo[k] / r->e.replicates];
		int done = todo[k] % r->e.replicates + 1;
		if (done > p->reps)
			p->reps = done;
	}
	r->runs_used += n;
	return n;
}

/* Successive halving: rounds of replicates, doubling each round, over the
 * values still alive, until one is left, the replicates reach their
 * maximum, the budget is spent, a run fails or the search is interrupted. */
static void search(struct tune_collect *c, const struct tune_opts *o)
{
	struct tune_result *r = c->r;
	bool memory = o->objective == TUNE_MEMORY, pareto = o->objective == TUNE_PARETO;
	int reps = 2;
	sweep_catch_interrupts();
	for (;;) {
		int did = run_round(c, reps, o->budget - r->runs_used, o->jobs);
		r->rounds++;
		if (sweep_interrupted || r->failed)
			break;
		int left = pareto ? r->n : tune_halve(r->p, r->n, memory);
		for (int i = 0; i < r->n; i++)
			if (r->p[i].reps)
				tune_point_stats(&r->p[i], memory);
		if (o->progress.round_done)
			o->progress.round_done(o->progress.ctx, r->rounds, did, left);
		if (pareto || left <= 1 || reps >= o->max_replicates || r->runs_used >= o->budget ||
		    !did)
			break;
		reps = reps * 2 > o->max_replicates ? o->max_replicates : reps * 2;
	}
}

/* Check O, set up its grid and experiment, search and rank: the whole tuner
 * but its printing. */
struct tune_result *tune_run(const struct tune_opts *o, struct sim_err *err)
{
	if (check_opts(o, err) < 0)
		return NULL;
	struct tune_result *r = calloc(1, sizeof(*r));
	if (!r)
		host_oom(__func__);
	char jpath[PATH_MAX];
	FILE *jsonl = NULL;
	if (tune_setup(r, o, err) < 0)
		goto fail;
	snprintf(jpath, sizeof(jpath), "%s/runs.jsonl", r->dir);
	if (!(jsonl = fopen(jpath, "w"))) {
		sim_fail(err, "cannot write %s: %s", jpath, strerror(errno));
		goto fail;
	}
	if (o->progress.started)
		o->progress.started(o->progress.ctx, r->param, r->n, r->p[0].value,
				    r->p[r->n - 1].value);
	struct tune_collect c = { r, &o->progress, jsonl };
	search(&c, o);
	fclose(jsonl);
	if (!r->failed) {
		r->best = tune_best(r->p, r->n, o->objective != TUNE_PARETO);
		r->knee = tune_knee(r->p, r->n, r->best);
	}
	return r;
fail:
	tune_result_free(r);
	return NULL;
}

/* Free R and its experiment (NULL: nothing). */
void tune_result_free(struct tune_result *r)
{
	if (!r)
		return;
	experiment_free(&r->e);
	free(r);
}
