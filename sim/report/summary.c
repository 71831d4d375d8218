/* summary.c - per-point statistics of a sweep, from the runs' JSON. */
#include "summary.h"
#include "outfile.h"
#include "report.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#define SUMMARY_PROFILE_SYMS 8	/* symbols kept per point; the rest is "other" */
#define SUMMARY_LOCKS 6

void summary_stats(const double *x, int n, struct stat_summary *out)
{
	*out = (struct stat_summary){ .n = n };
	if (n < 1)
		return;
	out->mean = gsl_stats_mean(x, 1, (size_t)n);
	if (n < 2)
		return;
	out->sd = gsl_stats_sd_m(x, 1, (size_t)n, out->mean);
	out->ci95 = gsl_cdf_tdist_Pinv(0.975, n - 1) * out->sd / sqrt(n);
}

char *summary_format_ci(double mean, double ci, char *out, size_t size)
{
	if (!(ci > 0) || !isfinite(ci)) {
		snprintf(out, size, "%12.6g +- 0", mean);
		return out;
	}
	int d = 1 - (int)floor(log10(ci));	/* decimals for two digits of the CI */
	if (d < 0)
		d = 0;
	snprintf(out, size, "%12.*f +- %.*f", d, mean, d, ci);
	return out;
}

/* Does element EL match every KEY=VALUE of the selector SEL[0..len) (a
 * number member compares as a number, a string member as text)? */
static bool selector_match(const cJSON *el, const char *sel, size_t len)
{
	char buf[256];
	if (len >= sizeof(buf))
		return false;
	memcpy(buf, sel, len);
	buf[len] = 0;
	char *save = NULL;
	for (char *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '=');
		if (!eq)
			return false;
		*eq = 0;
		const cJSON *m = cJSON_GetObjectItemCaseSensitive(el, kv);
		char *end;
		double want = strtod(eq + 1, &end);
		if (cJSON_IsNumber(m) ? *end || end == eq + 1 || m->valuedouble != want
		    : !cJSON_IsString(m) || strcmp(m->valuestring, eq + 1))
			return false;
	}
	return true;
}

/* The end of the bracket opened at p[0] (brackets nest: a lock's name
 * "&n->list_lock [kmalloc-512]" may sit in a selector). */
static const char *bracket_end(const char *p)
{
	int depth = 0;
	for (; *p; p++)
		if (*p == '[')
			depth++;
		else if (*p == ']' && --depth == 0)
			return p;
	return NULL;
}

int summary_lookup(const cJSON *run, const char *path, double *out)
{
	const cJSON *v = run;
	const char *p = path;
	while (*p && v) {
		char key[128];
		size_t len = strcspn(p, ".[");
		if (len >= sizeof(key))
			return -1;
		if (len) {
			memcpy(key, p, len);
			key[len] = 0;
			v = cJSON_GetObjectItemCaseSensitive(v, key);
			p += len;
		}
		while (v && *p == '[') {
			const char *end = bracket_end(p);
			if (!end)
				return -1;
			size_t slen = (size_t)(end - p - 1);
			if (memchr(p + 1, '=', slen)) {	/* [KEY=VALUE,...]: the first match */
				const cJSON *el = v->child;
				while (el && !selector_match(el, p + 1, slen))
					el = el->next;
				v = cJSON_IsArray(v) ? el : NULL;
			} else {
				char *iend;
				long i = strtol(p + 1, &iend, 10);
				if (iend != end || i < 0 || iend == p + 1)
					return -1;
				v = cJSON_GetArrayItem(v, (int)i);
			}
			p = end + 1;
		}
		if (*p == '.')
			p++;
	}
	if (!v || !cJSON_IsNumber(v))
		return -1;
	*out = v->valuedouble;
	return 0;
}

void summary_prune(cJSON *run, const struct experiment *e)
{
	static const char *const keep[] = { "sweep", "result", "cpu", "memory", "profile",
					     "locks", "invariants", "machine", "seed", "slabsim", NULL };
	cJSON *x = run ? run->child : NULL;
	while (x) {
		cJSON *next = x->next;
		bool needed = false;
		for (int i = 0; keep[i] && !needed; i++)
			needed = !strcmp(x->string, keep[i]);
		for (int m = 0; m < e->nmetrics && !needed; m++) {
			size_t len = strlen(x->string);
			needed = !strncmp(e->metric[m].path, x->string, len) &&
				 strchr(".[", e->metric[m].path[len]) && e->metric[m].path[len];
		}
		if (!needed)
			cJSON_Delete(cJSON_DetachItemViaPointer(run, x));
		x = next;
	}
}

/* n, mean, sd and ci95 as JSON: null where there are too few values for one. */
static cJSON *stats_json(const struct stat_summary *s)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "n", s->n);
	if (s->n) {
		cJSON_AddNumberToObject(o, "mean", s->mean);
		cJSON_AddNumberToObject(o, "sd", s->sd);
	} else {
		cJSON_AddNullToObject(o, "mean");
		cJSON_AddNullToObject(o, "sd");
	}
	if (s->n >= 2)
		cJSON_AddNumberToObject(o, "ci95", s->ci95);
	else
		cJSON_AddNullToObject(o, "ci95");
	return o;
}

/* The run exists and its invariants held ("ok"). */
static bool run_ok(const cJSON *run)
{
	const cJSON *inv = cJSON_GetObjectItemCaseSensitive(run, "invariants");
	return run && cJSON_IsString(inv) && !strcmp(inv->valuestring, "ok");
}

/* Names (symbols or locks) ranked by their mean over all good runs. */
struct ranked {
	char name[64];
	double total;
};

/* Add v to the name's total, or list the name with v while there is room. */
static void rank_add(struct ranked *r, int *n, int max, const char *name, double v)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(r[i].name, name)) {
			r[i].total += v;
			return;
		}
	if (*n < max) {
		snprintf(r[*n].name, sizeof(r[*n].name), "%s", name);
		r[(*n)++].total = v;
	}
}

/* Largest total first; ties in name order. */
static int rank_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* The experiment's most expensive symbols or most waited-on locks. */
static int top_names(const struct experiment *e, cJSON *const *runs, bool locks,
		     struct ranked *top, int max)
{
	static struct ranked all[512];
	int n = 0;
	for (int i = 0; i < experiment_runs(e); i++) {
		if (!run_ok(runs[i]))
			continue;
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(runs[i], locks ? "locks" : "profile");
		const cJSON *x;
		cJSON_ArrayForEach(x, a) {
			const cJSON *name = cJSON_GetObjectItemCaseSensitive(x, locks ? "name" : "symbol");
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(x, locks ? "wait_cycles"
									      : "percent");
			if (cJSON_IsString(name) && cJSON_IsNumber(v))
				rank_add(all, &n, 512, name->valuestring, v->valuedouble);
		}
	}
	qsort(all, (size_t)n, sizeof(*all), rank_cmp);
	if (locks)
		while (n && all[n - 1].total <= 0)
			n--;
	if (n > max)
		n = max;
	memcpy(top, all, (size_t)n * sizeof(*top));
	return n;
}

/* A symbol's percent, or a lock's share of CPU time spent waiting for it
 * (the run's spin share split by the locks' wait cycles). */
static double part_of(const cJSON *run, const char *name, bool locks)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(run, locks ? "locks" : "profile");
	double v = 0, total = 0;
	const cJSON *x;
	cJSON_ArrayForEach(x, a) {
		const cJSON *nm = cJSON_GetObjectItemCaseSensitive(x, locks ? "name" : "symbol");
		const cJSON *val = cJSON_GetObjectItemCaseSensitive(x, locks ? "wait_cycles"
									  : "percent");
		if (!cJSON_IsNumber(val))
			continue;
		total += val->valuedouble;
		if (cJSON_IsString(nm) && !strcmp(nm->valuestring, name))
			v += val->valuedouble;
	}
	if (!locks)
		return v;
	double spin = 0;
	summary_lookup(run, "cpu.spin", &spin);
	return total > 0 ? 100 * spin * v / total : 0;
}

/* Under `key`, the statistics over the point's good runs of each top name's part and, with
 * `other`, of what the top names leave of 100%. */
static void add_parts(cJSON *pt, const char *key, const struct ranked *top, int ntop,
		      cJSON *const *runs, int first, int reps, bool locks, bool other)
{
	cJSON *a = cJSON_AddArrayToObject(pt, key);
	double x[reps ? reps : 1];
	double rest[reps ? reps : 1];
	int n = 0;
	for (int r = 0; r < reps; r++)
		if (run_ok(runs[first + r]))
			rest[n++] = 100;
	for (int t = 0; t <= ntop; t++) {
		if (t == ntop && !other)
			break;
		int m = 0;
		for (int r = 0; r < reps; r++) {
			if (!run_ok(runs[first + r]))
				continue;
			x[m] = t < ntop ? part_of(runs[first + r], top[t].name, locks) : rest[m];
			if (t < ntop)
				rest[m] -= x[m];
			m++;
		}
		struct stat_summary s;
		summary_stats(x, m, &s);
		cJSON *o = stats_json(&s);
		cJSON_AddStringToObject(o, locks ? "lock" : "symbol", t < ntop ? top[t].name
									: "other");
		cJSON_AddItemToArray(a, o);
	}
}

/* One point: its key and labels, its runs done and failed, each metric's statistics over its
 * good runs, and its profile and lock-wait parts. */
static cJSON *point_json(const struct experiment *e, int pi, cJSON *const *runs,
			 const struct ranked *syms, int nsyms, const struct ranked *locks,
			 int nlocks)
{
	const struct exp_point *p = &e->points[pi];
	int reps = e->replicates, first = pi * reps;
	cJSON *pt = cJSON_CreateObject();
	cJSON_AddStringToObject(pt, "key", p->key);
	cJSON *labels = cJSON_AddObjectToObject(pt, "labels");
	for (int d = 0; d < e->ndims; d++)
		cJSON_AddStringToObject(labels, e->dim[d].name, e->dim[d].v[p->choice[d]].label);
	int done = 0, failed = 0;
	for (int r = 0; r < reps; r++) {
		done += runs[first + r] != NULL;
		failed += runs[first + r] && !run_ok(runs[first + r]);
	}
	cJSON_AddNumberToObject(pt, "runs", done);
	cJSON_AddNumberToObject(pt, "failed", failed);
	cJSON *ms = cJSON_AddObjectToObject(pt, "metrics");
	double x[reps];
	for (int m = 0; m < e->nmetrics; m++) {
		int n = 0;
		for (int r = 0; r < reps; r++)
			if (run_ok(runs[first + r]) &&
			    summary_lookup(runs[first + r], e->metric[m].path, &x[n]) == 0)
				x[n] *= e->metric[m].scale, n++;
		struct stat_summary s;
		summary_stats(x, n, &s);
		cJSON *o = stats_json(&s);
		cJSON_AddItemToObject(o, "values", cJSON_CreateDoubleArray(x, n));	/* each run's */
		cJSON_AddItemToObject(ms, e->metric[m].name, o);
	}
	add_parts(pt, "profile", syms, nsyms, runs, first, reps, false, true);
	add_parts(pt, "lock_wait", locks, nlocks, runs, first, reps, true, false);
	return pt;
}

cJSON *summary_build(const struct experiment *e, cJSON *const *runs)
{
	cJSON *s = cJSON_CreateObject();
	cJSON_AddStringToObject(s, "experiment", e->name);
	if (e->question)
		cJSON_AddStringToObject(s, "question", e->question);
	char digest[EXP_DIGEST_HEX];
	experiment_digest_hex(e, digest);
	cJSON_AddStringToObject(s, "digest", digest);
	cJSON_AddStringToObject(s, "model_digest", report_runs_model_digest(runs, experiment_runs(e)));
	int done = 0, failed = 0;
	for (int i = 0; i < experiment_runs(e); i++) {
		done += runs[i] != NULL;
		failed += runs[i] && !run_ok(runs[i]);
	}
	cJSON_AddNumberToObject(s, "replicates", e->replicates);
	if (e->ci_target > 0)	/* replicates is then each point's most */
		cJSON_AddNumberToObject(s, "ci_target", e->ci_target);
	cJSON_AddNumberToObject(s, "runs", experiment_runs(e));
	cJSON_AddNumberToObject(s, "runs_done", done);
	cJSON_AddNumberToObject(s, "runs_failed", failed);
	cJSON_AddItemToObject(s, "overrides", experiment_overrides_json(e));
	cJSON *fixed = cJSON_AddArrayToObject(s, "fixed");	/* the file's, as NAME=VALUE */
	for (int i = 0; i < e->nfixed; i++) {
		bool overridden = false;
		for (int j = 0; j < e->noverrides; j++)
			overridden |= !strcmp(e->overrides[j].name, e->fixed[i].name);
		if (overridden)	/* the override says its value */
			continue;
		char nv[256];
		snprintf(nv, sizeof(nv), "%s=%s", e->fixed[i].name, e->fixed[i].value);
		cJSON_AddItemToArray(fixed, cJSON_CreateString(nv));
	}
	cJSON *dims = cJSON_AddArrayToObject(s, "dimensions");
	for (int d = 0; d < e->ndims; d++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", e->dim[d].name);
		cJSON_AddStringToObject(o, "label", e->dim[d].label ? e->dim[d].label : e->dim[d].name);
		static const char *const kinds[] = { "machine", "policy", "workload", "axis" };
		cJSON_AddStringToObject(o, "kind", kinds[e->dim[d].kind]);
		bool numeric = true;
		cJSON *vals = cJSON_AddArrayToObject(o, "values");
		for (int i = 0; i < e->dim[d].n; i++) {
			cJSON_AddItemToArray(vals, cJSON_CreateString(e->dim[d].v[i].label));
			numeric &= e->dim[d].v[i].numeric;
		}
		cJSON_AddBoolToObject(o, "numeric", numeric);
		if (numeric) {
			cJSON *xs = cJSON_AddArrayToObject(o, "x");
			for (int i = 0; i < e->dim[d].n; i++)
				cJSON_AddItemToArray(xs, cJSON_CreateNumber(e->dim[d].v[i].x));
		}
		cJSON_AddItemToArray(dims, o);
	}
	cJSON *mets = cJSON_AddArrayToObject(s, "metrics");
	for (int m = 0; m < e->nmetrics; m++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", e->metric[m].name);
		cJSON_AddStringToObject(o, "path", e->metric[m].path);
		cJSON_AddStringToObject(o, "label", e->metric[m].label);
		cJSON_AddItemToArray(mets, o);
	}
	cJSON *plot = cJSON_AddObjectToObject(s, "plot");
	if (e->plot_x)
		cJSON_AddStringToObject(plot, "x", e->plot_x);
	cJSON_AddBoolToObject(plot, "logx", e->plot_logx);
	cJSON_AddBoolToObject(plot, "logy", e->plot_logy);
	struct ranked syms[SUMMARY_PROFILE_SYMS], locks[SUMMARY_LOCKS];
	int nsyms = top_names(e, runs, false, syms, SUMMARY_PROFILE_SYMS);
	int nlocks = top_names(e, runs, true, locks, SUMMARY_LOCKS);
	cJSON *pts = cJSON_AddArrayToObject(s, "points");
	for (int i = 0; i < e->npoints; i++)
		cJSON_AddItemToArray(pts, point_json(e, i, runs, syms, nsyms, locks, nlocks));
	return s;
}

/* A CSV field: quoted when it holds a comma, a quote or a space. */
static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\" ")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A comma, then the number (nothing if v is not one). */
static void csv_number(FILE *f, const cJSON *v)
{
	if (cJSON_IsNumber(v))
		fprintf(f, ",%.10g", v->valuedouble);
	else
		fputc(',', f);
}

int summary_write_csv(const char *path, const cJSON *summary, struct sim_err *err)
{
	struct out_file o;
	FILE *f = out_open(&o, path, err);
	if (!f)
		return -1;
	const cJSON *dims = cJSON_GetObjectItemCaseSensitive(summary, "dimensions");
	const cJSON *mets = cJSON_GetObjectItemCaseSensitive(summary, "metrics");
	const cJSON *d, *m, *p;
	int col = 0;
	cJSON_ArrayForEach(d, dims) {
		fputs(col++ ? "," : "", f);
		csv_field(f, cJSON_GetObjectItemCaseSensitive(d, "name")->valuestring);
	}
	fputs(",runs,failed", f);
	cJSON_ArrayForEach(m, mets) {
		const char *n = cJSON_GetObjectItemCaseSensitive(m, "name")->valuestring;
		fprintf(f, ",%s_n,%s_mean,%s_sd,%s_ci95", n, n, n, n);
	}
	fputc('\n', f);
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(summary, "points")) {
		const cJSON *labels = cJSON_GetObjectItemCaseSensitive(p, "labels");
		col = 0;
		cJSON_ArrayForEach(d, labels) {
			fputs(col++ ? "," : "", f);
			csv_field(f, d->valuestring);
		}
		csv_number(f, cJSON_GetObjectItemCaseSensitive(p, "runs"));
		csv_number(f, cJSON_GetObjectItemCaseSensitive(p, "failed"));
		const cJSON *pm = cJSON_GetObjectItemCaseSensitive(p, "metrics");
		cJSON_ArrayForEach(m, mets) {
			const cJSON *st = cJSON_GetObjectItemCaseSensitive(
				pm, cJSON_GetObjectItemCaseSensitive(m, "name")->valuestring);
			csv_number(f, cJSON_GetObjectItemCaseSensitive(st, "n"));
			csv_number(f, cJSON_GetObjectItemCaseSensitive(st, "mean"));
			csv_number(f, cJSON_GetObjectItemCaseSensitive(st, "sd"));
			csv_number(f, cJSON_GetObjectItemCaseSensitive(st, "ci95"));
		}
		fputc('\n', f);
	}
	return out_close(&o, true, err);
}
