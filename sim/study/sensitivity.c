/* sensitivity.c - a sensitivity study from its options to its results
 * folder: the plan, the variants' runs, the effects and their files. */
#include "sensitivity.h"

#include <errno.h>
#include <string.h>

/* OUT/table.txt (the tables also to O's echo), sensitivity.json and unless
 * no_plot a tornado plot a check. */
static int write_results(const struct sens_opts *o, const struct sens_study *s,
			 struct sim_err *err)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/table.txt", s->out);
	FILE *t = fopen(path, "w");
	if (!t)
		return sim_fail(err, "cannot write %s: %s", path, strerror(errno));
	if (o->echo)
		sens_print_tables(o->echo, s, o->limit);
	sens_print_tables(t, s, o->limit);
	if (fclose(t) != 0)
		return sim_fail(err, "cannot write %s", path);
	if (sens_write_json(s, err) < 0)
		return -1;
	for (int ch = 0; !o->no_plot && ch < s->vc.nchecks; ch++)
		if (sens_plot_tornado(s, ch, err) < 0)
			return -1;
	return 0;
}

int sens_study_run(const struct sens_opts *o, struct sens_study *s, struct sim_err *err)
{
	int rc = sens_study_open(o, s, err);
	if (rc != SENS_DONE)
		return rc;
	sens_plan_make(o, s->f, s->nf, &s->plan);
	rc = sens_run_variants(o, s, err);
	if (rc != SENS_DONE)
		return rc;
	sens_morris_measures(s);
	return write_results(o, s, err) < 0 ? SENS_RUNS_FAILED : SENS_DONE;
}
