/* machine_costs.c - the cost table's entries with their sources (`slabsim
 * list costs`), and the defaults a policy brings for entries of its own. */
#include "machine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/json_in.h"

int machine_cost_defaults(struct machine *m, const struct cost_def *defs, struct sim_err *err)
{
	int added = 0;
	for (const struct cost_def *d = defs; d && d->name; d++) {
		bool have = false;
		for (int i = 0; i < m->ncosts && !have; i++)
			have = !strcmp(m->cost_name[i], d->name);
		if (have)
			continue;
		if (m->ncosts >= MACHINE_MAX_COSTS)
			return sim_fail(err, "%s: too many cost entries with the policy's (max %d)",
					m->path, MACHINE_MAX_COSTS);
		if (strlen(d->name) >= sizeof(m->cost_name[0]))
			return sim_fail(err, "cost name '%s' is too long", d->name);
		strcpy(m->cost_name[m->ncosts], d->name);
		m->cost[m->ncosts++] = d->cycles;
		added++;
	}
	return added;
}

/* Where each entry was last set: a table file (base first) or the machine
 * file, and the source it cites there. */
struct cost_origin {
	char file[512];
	char source[512];
};

/* For each cost in `cycles` the table has, note `file` and the source it cites there (key
 * `where`.NAME in sources) as where that entry was last set. */
static void note_entries(const struct machine *m, const cJSON *cycles, const cJSON *sources,
			 const char *where, const char *file, struct cost_origin *orig)
{
	const cJSON *c;
	cJSON_ArrayForEach(c, cycles)
		for (int i = 0; i < m->ncosts; i++)
			if (!strcmp(m->cost_name[i], c->string)) {
				char key[128];
				snprintf(key, sizeof(key), "%s%s%s", where ? where : "", where ? "." : "",
					 c->string);
				const cJSON *s = cJSON_GetObjectItemCaseSensitive(sources, key);
				snprintf(orig[i].file, sizeof(orig[i].file), "%s", file);
				snprintf(orig[i].source, sizeof(orig[i].source), "%s",
					 cJSON_IsString(s) ? s->valuestring : "");
			}
}

/* For each cost the table fits ("fitted": {NAME: {"value", "case", "how"}}),
 * note `file` and "fit: CASE: how" as where that entry was last set. */
static void note_fitted(const struct machine *m, const cJSON *fitted, const char *file,
			struct cost_origin *orig)
{
	const cJSON *e;
	cJSON_ArrayForEach(e, fitted)
		for (int i = 0; i < m->ncosts; i++)
			if (!strcmp(m->cost_name[i], e->string)) {
				const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "case");
				const cJSON *how = cJSON_GetObjectItemCaseSensitive(e, "how");
				snprintf(orig[i].file, sizeof(orig[i].file), "%.511s", file);
				snprintf(orig[i].source, sizeof(orig[i].source), "fit: %s: %s",
					 cJSON_IsString(c) ? c->valuestring : "?",
					 cJSON_IsString(how) ? how->valuestring : "");
			}
}

/* A table and the tables it inherits, the base first. */
static int walk_table(const struct machine *m, const char *name, int depth,
		      struct cost_origin *orig, struct sim_err *err)
{
	char path[1024];
	if (depth > 4 || machine_cost_table_path(m, name, path, sizeof(path), err) < 0)
		return -1;
	cJSON *t = json_read_file(path, err);
	if (!t)
		return -1;
	const cJSON *inh = cJSON_GetObjectItemCaseSensitive(t, "inherits");
	int rc = cJSON_IsString(inh) ? walk_table(m, inh->valuestring, depth + 1, orig, err) : 0;
	if (rc == 0) {
		note_entries(m, cJSON_GetObjectItemCaseSensitive(t, "cycles"),
			     cJSON_GetObjectItemCaseSensitive(t, "sources"), NULL, path, orig);
		note_fitted(m, cJSON_GetObjectItemCaseSensitive(t, "fitted"), path, orig);
	}
	cJSON_Delete(t);
	return rc;
}

int machine_cost_walk(const struct machine *m,
		      void (*fn)(const char *name, double cycles, const char *file,
				 const char *source, void *arg),
		      void *arg, struct sim_err *err)
{
	struct cost_origin *orig = calloc((size_t)m->ncosts + 1, sizeof(*orig));
	if (!orig)
		return sim_fail(err, "out of memory");
	int rc = walk_table(m, m->cost_table, 0, orig, err);
	cJSON *mf = rc == 0 ? json_read_file(m->path, err) : NULL;
	if (rc == 0 && !mf)
		rc = -1;
	if (mf)	/* the machine file's own "costs" override the table */
		note_entries(m, cJSON_GetObjectItemCaseSensitive(mf, "costs"),
			     cJSON_GetObjectItemCaseSensitive(mf, "sources"), "costs", m->path, orig);
	cJSON_Delete(mf);
	for (int i = 0; rc == 0 && i < m->ncosts; i++)
		fn(m->cost_name[i], m->cost[i], orig[i].file[0] ? orig[i].file : NULL,
		   orig[i].source, arg);
	free(orig);
	return rc;
}
