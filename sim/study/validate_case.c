/* validate_case.c - reading a validation case: its experiment (expanded as
 * a sweep's), its checks resolved to points, every mistake named by its key
 * path; and the number a check reads from the runs of a point. */
#include "validate.h"
#include "engine/oom.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/experiment_int.h"
#include "engine/json_in.h"
#include "hw/markov.h"
#include "report/summary.h"

#define VAL_CASE_KEYS "case family title citation quick experiment runs_of checks"
#define VAL_CHECK_KEYS \
	"name metric path symbols reading spin_locks informative scale default at over " \
	"over_path published chain band unit reason"

/* A copy of s kept with the case's experiment (freed with it). */
static char *own(struct val_case *vc, const char *s)
{
	return exp_dup(&vc->e, s);
}

/* A required (or optional) string member. */
static int get_str(const cJSON *o, const char *key, bool required, const char *where,
		   struct val_case *vc, char **out, struct sim_err *err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	if (!v && !required)
		return 0;
	if (!cJSON_IsString(v) || !*v->valuestring)
		return sim_fail(err, "%s: %s%s: expected a non-empty string", vc->path, where, key);
	*out = own(vc, v->valuestring);
	return 0;
}

/* o is an object, and every key of it is one of the space-separated `valid`. */
static int check_keys(const cJSON *o, const char *valid, const char *where, const char *path,
		      struct sim_err *err)
{
	if (!cJSON_IsObject(o))
		return sim_fail(err, "%s: %s: expected an object", path, *where ? where : "(top)");
	for (const cJSON *k = o->child; k; k = k->next) {
		size_t len = strlen(k->string);
		const char *p = valid;
		bool found = false;
		while (!found && (p = strstr(p, k->string))) {
			found = (p == valid || p[-1] == ' ') && (p[len] == ' ' || !p[len]);
			p++;
		}
		if (!found)
			return sim_fail(err, "%s: %s%s: unknown key (valid keys: %s)", path, where,
					k->string, valid);
	}
	return 0;
}

/* Machine files named relative to the case ("./x.json") become paths from
 * here, so `validate` runs from any folder; their label stays the name the
 * case gives, so the runs' keys, and the seeds drawn from them, are the
 * same wherever the cases are installed. */
static void rebase_machines(cJSON *exp, const char *casedir)
{
	cJSON *ms = cJSON_GetObjectItemCaseSensitive(exp, "machines");
	for (cJSON *m = ms ? ms->child : NULL; m; m = m->next) {
		cJSON *name = cJSON_IsObject(m) ? cJSON_GetObjectItemCaseSensitive(m, "name") : m;
		if (!cJSON_IsString(name) || (strncmp(name->valuestring, "./", 2) &&
					      strncmp(name->valuestring, "../", 3)))
			continue;
		char *p;
		if (asprintf(&p, "%s/%s", casedir, name->valuestring) < 0)
			host_oom(__func__);
		if (cJSON_IsObject(m)) {
			if (!cJSON_GetObjectItemCaseSensitive(m, "label"))
				cJSON_AddStringToObject(m, "label", name->valuestring);
			cJSON_SetValuestring(name, p);
		} else {
			cJSON *o = cJSON_CreateObject();
			if (!o)
				host_oom(__func__);
			cJSON_AddStringToObject(o, "name", p);
			cJSON_AddStringToObject(o, "label", m->valuestring);
			cJSON_ReplaceItemViaPointer(ms, m, o);
			m = o;
		}
		free(p);
	}
}

/* "at" or "over": dimension name -> the label of its choice (a string, or a
 * number written as the label is). */
static int parse_sel(struct val_case *vc, const cJSON *o, const char *where, struct val_sel *sel,
		     int *n, struct sim_err *err)
{
	if (!cJSON_IsObject(o) || !o->child)
		return sim_fail(err, "%s: %s: expected an object of dimension: value", vc->path,
				where);
	*n = 0;
	for (const cJSON *k = o->child; k; k = k->next) {
		if (*n == EXP_MAX_DIMS)
			return sim_fail(err, "%s: %s: too many dimensions", vc->path, where);
		char num[64];
		if (cJSON_IsNumber(k))
			snprintf(num, sizeof(num), "%.15g", k->valuedouble);
		else if (!cJSON_IsString(k))
			return sim_fail(err, "%s: %s.%s: expected a string or a number", vc->path,
					where, k->string);
		sel[*n].dim = own(vc, k->string);
		sel[(*n)++].label = own(vc, cJSON_IsNumber(k) ? num : k->valuestring);
	}
	return 0;
}

/* The one point whose choices match SEL. */
static int resolve(struct val_case *vc, const struct val_sel *sel, int n, const char *where,
		   int *point, struct sim_err *err)
{
	const struct experiment *e = &vc->e;
	int found = -1, count = 0;
	for (int i = 0; i < n; i++) {
		bool known = false;
		for (int d = 0; d < e->ndims; d++)
			known |= !strcmp(e->dim[d].name, sel[i].dim);
		if (!known)
			return sim_fail(err, "%s: %s.%s: the experiment has no such dimension",
					vc->path, where, sel[i].dim);
	}
	for (int p = 0; p < e->npoints; p++) {
		bool match = true;
		for (int i = 0; i < n && match; i++)
			for (int d = 0; d < e->ndims; d++)
				if (!strcmp(e->dim[d].name, sel[i].dim))
					match = !strcmp(e->dim[d].v[e->points[p].choice[d]].label,
							sel[i].label);
		if (match) {
			found = p;
			count++;
		}
	}
	if (count != 1)
		return sim_fail(err, "%s: %s: matches %d points of the experiment (it must name "
				"exactly one)", vc->path, where, count);
	*point = found;
	return 0;
}

/* "chain": {"n", "a", "s", "c"}: the published figure is the throughput
 * (acquisitions per cycle) of Boyd-Wickizer et al.'s ticket-lock chain. */
static int markov_published(struct val_case *vc, const cJSON *o, const char *w, double *out,
			    struct sim_err *err)
{
	static const char *const keys[4] = { "n", "a", "s", "c" };
	double x[4];
	if (check_keys(o, "n a s c", w, vc->path, err) < 0)
		return -1;
	for (int i = 0; i < 4; i++) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, keys[i]);
		if (!cJSON_IsNumber(v) || !(v->valuedouble > 0))
			return sim_fail(err, "%s: %schain.%s: expected a positive number", vc->path, w,
					keys[i]);
		x[i] = v->valuedouble;
	}
	if (x[0] != (int)x[0] || x[0] > 4096)
		return sim_fail(err, "%s: %schain.n: expected a CPU count from 1 to 4096", vc->path, w);
	*out = markov_ticket_throughput((int)x[0], x[1], x[2], x[3]);
	return 0;
}

/* A list of 1 to VAL_SYMBOLS non-empty strings at o.key, into out[]; 0 if absent. */
static int get_strs(const cJSON *o, const char *key, const char *where, struct val_case *vc,
		    char **out, int *n, struct sim_err *err)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key), *x;
	*n = 0;
	if (!a)
		return 0;
	if (!cJSON_IsArray(a) || !cJSON_GetArraySize(a) || cJSON_GetArraySize(a) > VAL_SYMBOLS)
		return sim_fail(err, "%s: %s%s: expected a list of 1 to %d names", vc->path, where,
				key, VAL_SYMBOLS);
	cJSON_ArrayForEach(x, a) {
		if (!cJSON_IsString(x) || !*x->valuestring)
			return sim_fail(err, "%s: %s%s[%d]: expected a non-empty string", vc->path,
					where, key, *n);
		out[(*n)++] = own(vc, x->valuestring);
	}
	return 0;
}

/* A symbols check: the symbols, the reading (self, or callers with the lock
 * classes charged to _spin_lock), whether it is only informative. */
static int parse_symbols(struct val_case *vc, const cJSON *o, const char *w, struct val_check *ch,
			 struct sim_err *err)
{
	char *reading = NULL;
	if (get_strs(o, "symbols", w, vc, ch->symbols, &ch->nsymbols, err) < 0 ||
	    get_str(o, "reading", false, w, vc, &reading, err) < 0 ||
	    get_strs(o, "spin_locks", w, vc, ch->spin_locks, &ch->nspin_locks, err) < 0)
		return -1;
	if (reading && strcmp(reading, "self") && strcmp(reading, "callers"))
		return sim_fail(err, "%s: %sreading: expected \"self\" or \"callers\"", vc->path, w);
	ch->callers = reading && !strcmp(reading, "callers");
	if ((reading || ch->nspin_locks) && !ch->nsymbols)
		return sim_fail(err, "%s: %s: reading and spin_locks go with \"symbols\"", vc->path, w);
	if (ch->callers != (ch->nspin_locks > 0))
		return sim_fail(err, "%s: %s: the callers reading needs spin_locks (the lock classes "
				"the profile charges to _spin_lock), and only it takes them", vc->path, w);
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "informative");
	if (v && !cJSON_IsBool(v))
		return sim_fail(err, "%s: %sinformative: expected true or false", vc->path, w);
	ch->informative = cJSON_IsTrue(v);
	return 0;
}

/* What a check measures: a metric of the experiment, a number at a path of
 * the run's JSON (over another, for a ratio) or profile symbols' share;
 * its scale and the value a run without it counts as. */
static int check_measure(struct val_case *vc, const cJSON *o, const char *w,
			 struct val_check *ch, struct sim_err *err)
{
	char *metric = NULL;
	if (get_str(o, "metric", false, w, vc, &metric, err) < 0 ||
	    get_str(o, "path", false, w, vc, &ch->path, err) < 0 ||
	    get_str(o, "over_path", false, w, vc, &ch->over_path, err) < 0 ||
	    parse_symbols(vc, o, w, ch, err) < 0)
		return -1;
	ch->scale = 1;
	if (!metric + !ch->path + !ch->nsymbols != 2)
		return sim_fail(err, "%s: %s: give one of \"metric\" (a metric of the experiment), "
				"\"path\" (a number in the run's JSON) or \"symbols\" (profile "
				"symbols' share of CPU time)", vc->path, w);
	if (ch->nsymbols && ch->over_path)
		return sim_fail(err, "%s: %sover_path: a symbols check's ratio is of its points "
				"(\"over\")", vc->path, w);
	if (ch->nsymbols)
		ch->path = own(vc, "profile");	/* what its table row names */
	for (int m = 0; metric && m < vc->e.nmetrics; m++)
		if (!strcmp(vc->e.metric[m].name, metric)) {
			ch->path = vc->e.metric[m].path;
			ch->scale = vc->e.metric[m].scale;
		}
	if (!ch->path)
		return sim_fail(err, "%s: %smetric: the experiment has no metric '%s'", vc->path, w,
				metric);
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "scale");
	if (v && (!cJSON_IsNumber(v) || v->valuedouble == 0))
		return sim_fail(err, "%s: %sscale: expected a non-zero number", vc->path, w);
	if (v)
		ch->scale = v->valuedouble;
	v = cJSON_GetObjectItemCaseSensitive(o, "default");
	if (v && !cJSON_IsNumber(v))
		return sim_fail(err, "%s: %sdefault: expected a number", vc->path, w);
	ch->has_default = v != NULL;
	ch->dflt = v ? v->valuedouble : 0;
	return 0;
}

/* A check's published figure (or the Markov chain that gives it) and its band. */
static int check_published(struct val_case *vc, const cJSON *o, const char *w,
			   struct val_check *ch, struct sim_err *err)
{
	const cJSON *v;
	v = cJSON_GetObjectItemCaseSensitive(o, "published");
	const cJSON *chain = cJSON_GetObjectItemCaseSensitive(o, "chain");
	if (!v == !chain)
		return sim_fail(err, "%s: %s: give either \"published\" (a figure) or \"chain\" "
				"(the ticket-lock Markov chain's throughput per cycle)", vc->path, w);
	if (chain && markov_published(vc, chain, w, &ch->published, err) < 0)
		return -1;
	if (v && (!cJSON_IsNumber(v) || !(v->valuedouble > 0)))
		return sim_fail(err, "%s: %spublished: expected a positive number", vc->path, w);
	if (v)
		ch->published = v->valuedouble;
	v = cJSON_GetObjectItemCaseSensitive(o, "band");
	if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2 ||
	    !cJSON_IsNumber(cJSON_GetArrayItem(v, 0)) || !cJSON_IsNumber(cJSON_GetArrayItem(v, 1)) ||
	    !(cJSON_GetArrayItem(v, 0)->valuedouble > 0) ||
	    !(cJSON_GetArrayItem(v, 1)->valuedouble >= cJSON_GetArrayItem(v, 0)->valuedouble))
		return sim_fail(err, "%s: %sband: expected [LOW, HIGH], 0 < LOW <= HIGH (accepted: "
				"LOW <= simulated / published <= HIGH)", vc->path, w);
	ch->low = cJSON_GetArrayItem(v, 0)->valuedouble;
	ch->high = cJSON_GetArrayItem(v, 1)->valuedouble;
	return 0;
}

/* checks[i]: name, reason, unit, what it reads (a metric or a path, scale, default), the
 * published figure or chain, the band, and the points "at" and "over" name. */
static int parse_check(struct val_case *vc, const cJSON *o, int i, struct val_check *ch,
		       struct sim_err *err)
{
	char w[64];
	snprintf(w, sizeof(w), "checks[%d].", i);
	if (check_keys(o, VAL_CHECK_KEYS, w, vc->path, err) < 0 ||
	    get_str(o, "name", true, w, vc, &ch->name, err) < 0 ||
	    get_str(o, "reason", true, w, vc, &ch->reason, err) < 0 ||
	    get_str(o, "unit", false, w, vc, &ch->unit, err) < 0 ||
	    check_measure(vc, o, w, ch, err) < 0 || check_published(vc, o, w, ch, err) < 0)
		return -1;
	char where[80];
	snprintf(where, sizeof(where), "%sat", w);
	if (parse_sel(vc, cJSON_GetObjectItemCaseSensitive(o, "at"), where, ch->at, &ch->nat,
		      err) < 0 || resolve(vc, ch->at, ch->nat, where, &ch->at_point, err) < 0)
		return -1;
	ch->over_point = -1;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "over");
	snprintf(where, sizeof(where), "%sover", w);
	if (v && (parse_sel(vc, v, where, ch->over, &ch->nover, err) < 0 ||
		  resolve(vc, ch->over, ch->nover, where, &ch->over_point, err) < 0))
		return -1;
	if (ch->over_path && ch->over_point < 0)
		ch->over_point = ch->at_point;	/* a ratio of two numbers of one run */
	return 0;
}

/* The experiment first: parsing it starts the allocations kept with it,
 * where every string of the case then lives. Its text, and so the digest its runs carry,
 * is the case's own, machine names as written: the runs of a case made in one copy of the
 * tree are its runs in any other (validate --from). */
static int parse_experiment(struct val_case *vc, cJSON *root, const char *path,
			    struct sim_err *err)
{
	cJSON *x = cJSON_GetObjectItemCaseSensitive(root, "experiment");
	if (!cJSON_IsObject(x))
		return sim_fail(err, "%s: experiment: expected an object (an experiment as in "
				"configs/)", path);
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "case");
	if (!cJSON_GetObjectItemCaseSensitive(x, "name") && cJSON_IsString(name))
		cJSON_AddStringToObject(x, "name", name->valuestring);
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		snprintf(dir, sizeof(dir), ".");
	char *as_written = cJSON_Print(x);
	rebase_machines(x, dir);
	char *text = cJSON_Print(x);
	char where[PATH_MAX + 16];
	snprintf(where, sizeof(where), "%s: experiment", path);
	int rc = experiment_parse(&vc->e, where, text, err);
	free(text);
	if (rc >= 0)
		vc->e.text = own(vc, as_written);
	free(as_written);
	vc->path = own(vc, path);
	return rc < 0 ? -1 : experiment_expand(&vc->e, err);
}

/* runs_of: the experiment of another case (found as `slabsim validate NAME`
 * finds it), read as that case reads it, so that its runs are that case's. */
static int parse_runs_of(struct val_case *vc, cJSON *root, const char *path,
			 struct sim_err *err)
{
	const cJSON *of = cJSON_GetObjectItemCaseSensitive(root, "runs_of");
	if (cJSON_GetObjectItemCaseSensitive(root, "experiment"))
		return sim_fail(err, "%s: give either \"experiment\" or \"runs_of\" (another "
				"case whose runs this one judges)", path);
	char other[PATH_MAX];
	if (!cJSON_IsString(of) || val_case_find(of->valuestring, other, sizeof(other)) < 0)
		return sim_fail(err, "%s: runs_of: no validation case '%s'", path,
				cJSON_IsString(of) ? of->valuestring : "?");
	cJSON *theirs = json_read_file(other, err);
	if (!theirs)
		return -1;
	int rc = cJSON_GetObjectItemCaseSensitive(theirs, "runs_of")
		? sim_fail(err, "%s: runs_of: %s judges the runs of another case itself", path,
			   of->valuestring)
		: parse_experiment(vc, theirs, other, err);
	cJSON_Delete(theirs);
	vc->path = own(vc, path);
	vc->runs_of = rc < 0 ? NULL : own(vc, of->valuestring);
	return rc;
}

const char *val_case_runs_name(const struct val_case *vc)
{
	return vc->runs_of ? vc->runs_of : vc->name;
}

/* The case file: its experiment first (or another case's, runs_of), then case, family
 * (default: the case), title, citation, quick and the checks. */
static int parse_case(struct val_case *vc, cJSON *root, const char *path, struct sim_err *err)
{
	bool of = cJSON_GetObjectItemCaseSensitive(root, "runs_of") != NULL;
	if (check_keys(root, VAL_CASE_KEYS, "", path, err) < 0 ||
	    (of ? parse_runs_of(vc, root, path, err) : parse_experiment(vc, root, path, err)) < 0 ||
	    get_str(root, "case", true, "", vc, &vc->name, err) < 0 ||
	    get_str(root, "family", false, "", vc, &vc->family, err) < 0 ||
	    get_str(root, "title", true, "", vc, &vc->title, err) < 0 ||
	    get_str(root, "citation", true, "", vc, &vc->citation, err) < 0)
		return -1;
	if (!vc->family)
		vc->family = vc->name;
	const cJSON *q = cJSON_GetObjectItemCaseSensitive(root, "quick");
	if (q && !cJSON_IsBool(q))
		return sim_fail(err, "%s: quick: expected true or false", vc->path);
	vc->quick = cJSON_IsTrue(q);
	const cJSON *cs = cJSON_GetObjectItemCaseSensitive(root, "checks");
	if (!cJSON_IsArray(cs) || !cJSON_GetArraySize(cs))
		return sim_fail(err, "%s: checks: expected a non-empty list", vc->path);
	vc->nchecks = cJSON_GetArraySize(cs);
	vc->checks = exp_grow(&vc->e, vc->nchecks, sizeof(*vc->checks));
	int i = 0;
	for (const cJSON *c = cs->child; c; c = c->next, i++)
		if (parse_check(vc, c, i, &vc->checks[i], err) < 0)
			return -1;
	return 0;
}

int val_case_load(struct val_case *vc, const char *path, struct sim_err *err)
{
	memset(vc, 0, sizeof(*vc));
	cJSON *root = json_read_file(path, err);
	if (!root)
		return -1;
	int rc = parse_case(vc, root, path, err);
	cJSON_Delete(root);
	return rc;
}

void val_case_free(struct val_case *vc)
{
	experiment_free(&vc->e);
	memset(vc, 0, sizeof(*vc));
}

static char dirs_buf[4 * PATH_MAX];

const char *val_case_dirs(void)
{
	return dirs_buf[0] ? dirs_buf : data_dirs("SLABSIM_VALIDATION", "validation", dirs_buf,
						   sizeof(dirs_buf));
}

int val_case_find(const char *name, char *out, size_t size)
{
	size_t len = strlen(name);
	if (len > 5 && !strcmp(name + len - 5, ".json")) {
		snprintf(out, size, "%s", name);
		return access(out, R_OK);
	}
	const char *p = val_case_dirs();
	while (*p) {
		size_t dl = strcspn(p, ":");
		if (dl) {
			snprintf(out, size, "%.*s/%s.json", (int)dl, p, name);
			if (access(out, R_OK) == 0)
				return 0;
		}
		p += dl + (p[dl] == ':');
	}
	return -1;
}

int val_case_digest(const char *path, char out[17])
{
	size_t len;
	char *text = file_read_text(path, &len);
	if (!text)
		return -1;
	uint64_t h = val_fnv1a(VAL_FNV_INIT, text, len);
	free(text);
	snprintf(out, 17, "%016llx", (unsigned long long)h);
	return 0;
}

/* The share of all CPU time (%) in a symbols check's symbols, in one run:
 * their self time from the profile, and with the callers reading the waits
 * at them on the lock classes whose names start with one of spin_locks (in
 * cycles, over all the CPUs' cycles the profile covers). -1 if the run has
 * no profile. */
static int symbols_share(const cJSON *run, const struct val_check *ch, double *out)
{
	const cJSON *prof = cJSON_GetObjectItemCaseSensitive(run, "profile"), *p, *lk, *cp;
	double self = 0, pct = 0, cycles = 0, waits = 0;
	cJSON_ArrayForEach(p, prof) {
		const char *sym = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "symbol"));
		const cJSON *sp = cJSON_GetObjectItemCaseSensitive(p, "percent");
		const cJSON *sc = cJSON_GetObjectItemCaseSensitive(p, "cycles");
		if (!sym || !cJSON_IsNumber(sp) || !cJSON_IsNumber(sc))
			continue;
		pct += sp->valuedouble;
		cycles += sc->valuedouble;
		for (int i = 0; i < ch->nsymbols; i++)
			self += !strcmp(sym, ch->symbols[i]) ? sp->valuedouble : 0;
	}
	if (!(pct > 0))
		return -1;
	const cJSON *locks = ch->callers ? cJSON_GetObjectItemCaseSensitive(run, "locks") : NULL;
	cJSON_ArrayForEach(lk, locks) {
		const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(lk, "name"));
		bool spun = false;
		for (int i = 0; name && i < ch->nspin_locks; i++)
			spun |= !strncmp(name, ch->spin_locks[i], strlen(ch->spin_locks[i]));
		const cJSON *points = spun ? cJSON_GetObjectItemCaseSensitive(lk, "contention_points")
					   : NULL;
		cJSON_ArrayForEach(cp, points) {
			const char *sym = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cp,
											"symbol"));
			const cJSON *w = cJSON_GetObjectItemCaseSensitive(cp, "wait_cycles");
			for (int i = 0; sym && cJSON_IsNumber(w) && i < ch->nsymbols; i++)
				waits += !strcmp(sym, ch->symbols[i]) ? w->valuedouble : 0;
		}
	}
	*out = self + (cycles > 0 ? 100 * waits / (cycles * 100 / pct) : 0);
	return 0;
}

int val_point_values(const struct val_case *vc, const struct val_check *ch, int point,
		     const char *path, cJSON *const *runs, double *x)
{
	int n = 0;
	for (int r = 0; r < vc->e.replicates; r++) {
		const cJSON *run = runs[point * vc->e.replicates + r];
		const char *inv = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(run,
										"invariants"));
		x[r] = NAN;
		if (!inv || strcmp(inv, "ok"))
			continue;
		if (ch->nsymbols ? symbols_share(run, ch, &x[r]) < 0
				 : summary_lookup(run, path, &x[r]) < 0) {
			if (!ch->has_default) {
				x[r] = NAN;
				continue;
			}
			x[r] = ch->dflt;
		}
		x[r] *= ch->scale;
		n++;
	}
	return n;
}
