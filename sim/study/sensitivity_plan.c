/* sensitivity_plan.c - what a sensitivity study varies: the case, the
 * figures of its machines that the options pick, and the variants that set
 * them (one at a time at each end of a figure's range, then Morris' design). */
#include "sensitivity.h"

#include <stdlib.h>
#include <string.h>

#include "engine/oom.h"

/* Add NAME to the comma-separated LIST (of SIZE bytes) unless it is there. */
static void add_name(char *list, size_t size, const char *name)
{
	char pat[80], have[1100];
	snprintf(pat, sizeof(pat), ",%s,", name);
	snprintf(have, sizeof(have), ",%s,", list);
	if (!strstr(have, pat))
		snprintf(list + strlen(list), size - strlen(list), "%s%s", list[0] ? "," : "",
			 name);
}

/* The comma-separated names of the case's machines and of its policies. */
static void case_names(const struct val_case *vc, char *machines, size_t msize, char *policies,
		       size_t psize)
{
	machines[0] = policies[0] = 0;
	for (int i = 0; i < vc->e.npoints; i++) {
		add_name(machines, msize, experiment_machine(&vc->e, &vc->e.points[i]));
		add_name(policies, psize, experiment_policy(&vc->e, &vc->e.points[i]));
	}
}

/* Every figure of every machine of the case, those O's --figures picks. */
static int case_figures(const struct sens_opts *o, const struct val_case *vc,
			struct sens_figure **out, struct sim_err *err)
{
	char machines[1024], policies[256], *save = NULL;
	case_names(vc, machines, sizeof(machines), policies, sizeof(policies));
	struct sens_figure *all = NULL;
	int n = 0;
	for (char *m = strtok_r(machines, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
		struct sens_figure *f;
		int k = sens_figures(m, policies, o->all, &f, err);
		if (k < 0) {
			free(all);
			return -1;
		}
		all = realloc(all, (size_t)(n + k + 1) * sizeof(*all));
		if (!all)
			host_oom(__func__);
		memcpy(all + n, f, (size_t)k * sizeof(*f));
		n += k;
		free(f);
	}
	if (n && o->figures && (n = sens_select(all, n, o->figures, err)) < 0) {
		free(all);
		return -1;
	}
	*out = all;
	return n;
}

/* The results folder of O's study of case NAME (malloc'd): O's, or
 * out/sensitivity-NAME. */
static char *results_folder(const struct sens_opts *o, const char *name)
{
	size_t size = strlen(o->out ? o->out : name) + sizeof("out/sensitivity-");
	char *out = malloc(size);
	if (!out)
		host_oom(__func__);
	if (o->out)
		snprintf(out, size, "%s", o->out);
	else
		snprintf(out, size, "out/sensitivity-%s", name);
	return out;
}

int sens_study_open(const struct sens_opts *o, struct sens_study *s, struct sim_err *err)
{
	char path[600];
	memset(s, 0, sizeof(*s));
	if (val_case_find(o->casename, path, sizeof(path)) < 0)
		return sim_fail(err, "sensitivity: no case '%s' (slabsim validate --list lists "
				"them)", o->casename), SENS_BAD_INPUT;
	if (val_case_load(&s->vc, path, err) < 0)
		return SENS_BAD_INPUT;
	snprintf(s->target, sizeof(s->target), "%s", path);
	if (s->vc.runs_of && val_case_find(s->vc.runs_of, s->target, sizeof(s->target)) < 0)
		return sim_fail(err, "%s judges the runs of %s, which is not found", s->vc.name,
				s->vc.runs_of), SENS_BAD_INPUT;
	s->nf = case_figures(o, &s->vc, &s->f, err);
	if (s->nf < 0)
		return SENS_BAD_INPUT;
	if (s->nf == 0)
		return sim_fail(err, "%s: no figure to vary (--all adds the measured ones)",
				s->vc.name), SENS_BAD_INPUT;
	s->out = results_folder(o, s->vc.name);
	if (asprintf(&s->runs, "%s%s", o->runs ? o->runs : s->out, o->runs ? "" : "/runs") < 0)
		host_oom(__func__);
	return SENS_DONE;
}

/* Room for N variants of NF figures in P. */
static void plan_alloc(struct sens_plan *p, int n, int nf)
{
	p->n = n;
	p->nf = nf;
	p->names = calloc((size_t)n, sizeof(*p->names));
	p->values = malloc((size_t)n * nf * sizeof(*p->values));
	if (!p->names || !p->values)
		host_oom(__func__);
}

/* The one-at-a-time variants into P's first 1 + 2 NF: base, then each
 * figure at its low and at its high end, the others at their values. */
static void plan_one_at_a_time(struct sens_plan *p, const struct sens_figure *f, int nf)
{
	for (int v = 0; v < 1 + 2 * nf; v++)
		for (int i = 0; i < nf; i++)
			p->values[(size_t)v * nf + i] = f[i].value;
	snprintf(p->names[0], sizeof(p->names[0]), "base");
	for (int i = 0; i < nf; i++) {
		int low = 1 + 2 * i, high = low + 1;
		snprintf(p->names[low], sizeof(p->names[low]), "f%03d-low", i);
		snprintf(p->names[high], sizeof(p->names[high]), "f%03d-high", i);
		p->values[(size_t)low * nf + i] = sens_at(&f[i], 0);
		p->values[(size_t)high * nf + i] = sens_at(&f[i], 1);
	}
}

/* O's Morris design into P from variant FIRST on: each point of each
 * trajectory, every figure at its place in its range. */
static void plan_morris(struct sens_plan *p, const struct sens_opts *o,
			const struct sens_figure *f, int nf, int first)
{
	int npts = o->morris * (nf + 1);
	p->morris = o->morris;
	p->x = malloc((size_t)npts * nf * sizeof(*p->x));
	p->moved = malloc((size_t)o->morris * nf * sizeof(*p->moved));
	if (!p->x || !p->moved)
		host_oom(__func__);
	sens_morris_design(nf, o->morris, o->levels, o->seed, p->x, p->moved);
	for (int pt = 0; pt < npts; pt++) {
		int v = first + pt;
		snprintf(p->names[v], sizeof(p->names[v]), "morris-s%lu-L%d-t%03d-p%03d", o->seed,
			 o->levels, pt / (nf + 1), pt % (nf + 1));
		for (int i = 0; i < nf; i++)
			p->values[(size_t)v * nf + i] = sens_at(&f[i], p->x[(size_t)pt * nf + i]);
	}
}

void sens_plan_make(const struct sens_opts *o, const struct sens_figure *f, int nf,
		    struct sens_plan *p)
{
	memset(p, 0, sizeof(*p));
	plan_alloc(p, 1 + 2 * nf + o->morris * (nf + 1), nf);
	plan_one_at_a_time(p, f, nf);
	if (o->morris)
		plan_morris(p, o, f, nf, 1 + 2 * nf);
}

void sens_plan_free(struct sens_plan *p)
{
	free(p->names);
	free(p->values);
	free(p->x);
	free(p->moved);
	memset(p, 0, sizeof(*p));
}

void sens_study_free(struct sens_study *s)
{
	sens_plan_free(&s->plan);
	free(s->f);
	free(s->vals);
	free(s->mu_star);
	free(s->mu);
	free(s->sigma);
	free(s->out);
	free(s->runs);
	val_case_free(&s->vc);
	memset(s, 0, sizeof(*s));
}
