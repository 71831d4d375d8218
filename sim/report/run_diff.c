/* run_diff.c - `slabsim diff`: two runs side by side (layout: run_diff.h). */
#include "run_diff.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define DIFF_COLS 8
#define DIFF_CELL 96

/* One table: a title, column heads and rows of cells, each row with the
 * size of its change for ranking. */
struct diff_row {
	char cell[DIFF_COLS][DIFF_CELL];
	double rank;
};

struct diff_table {
	const char *title;
	int ncols;
	const char *head[DIFF_COLS];
	struct diff_row *rows;
	int nrows, cap;
	bool ranked;	/* largest change first, cut at the limit */
};

/* Append an empty row ranked `rank`; exits when out of memory. */
static struct diff_row *table_row(struct diff_table *t, double rank)
{
	if (t->nrows == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->rows = realloc(t->rows, (size_t)t->cap * sizeof(*t->rows));
		if (!t->rows) {
			perror("slabsim diff");
			exit(1);
		}
	}
	struct diff_row *r = &t->rows[t->nrows++];
	memset(r, 0, sizeof(*r));
	r->rank = rank;
	return r;
}

static void cellf(struct diff_row *r, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* printf into cell `col` of a row, cut at DIFF_CELL. */
static void cellf(struct diff_row *r, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->cell[col], DIFF_CELL, fmt, ap);
	va_end(ap);
}

/* Rows by rank, largest first; ties in the first cell's order. */
static int by_rank(const void *pa, const void *pb)
{
	const struct diff_row *a = pa, *b = pb;
	if (a->rank != b->rank)
		return a->rank < b->rank ? 1 : -1;
	return strcmp(a->cell[0], b->cell[0]);	/* ties in name order: stable output */
}

/* Print and free a table: text columns (the first left-aligned, the rest
 * right-aligned) or a Markdown table. */
static void table_print(FILE *out, struct diff_table *t, const struct diff_opts *o)
{
	int n = t->nrows;
	if (t->ranked) {
		qsort(t->rows, (size_t)n, sizeof(*t->rows), by_rank);
		if (o->limit > 0 && n > o->limit)
			n = o->limit;
	}
	if (!n)
		goto done;
	if (o->format == DIFF_MARKDOWN) {
		fprintf(out, "\n**%s**\n\n|", t->title);
		for (int c = 0; c < t->ncols; c++)
			fprintf(out, " %s |", t->head[c]);
		fprintf(out, "\n|");
		for (int c = 0; c < t->ncols; c++)
			fprintf(out, "%s", c ? "---:|" : "---|");
		fprintf(out, "\n");
		for (int i = 0; i < n; i++) {
			fprintf(out, "|");
			for (int c = 0; c < t->ncols; c++)
				fprintf(out, c ? " %s |" : " `%s` |", t->rows[i].cell[c]);
			fprintf(out, "\n");
		}
		if (n < t->nrows)
			fprintf(out, "\n(%d more rows; --limit 0 shows all)\n", t->nrows - n);
	} else {
		int w[DIFF_COLS];
		for (int c = 0; c < t->ncols; c++) {
			w[c] = (int)strlen(t->head[c]);
			for (int i = 0; i < n; i++)
				if ((int)strlen(t->rows[i].cell[c]) > w[c])
					w[c] = (int)strlen(t->rows[i].cell[c]);
		}
		fprintf(out, "\n%s\n", t->title);
		for (int c = 0; c < t->ncols; c++)
			fprintf(out, c ? "  %*s" : "  %-*s", w[c], t->head[c]);
		fprintf(out, "\n");
		for (int i = 0; i < n; i++) {
			for (int c = 0; c < t->ncols; c++)
				fprintf(out, c ? "  %*s" : "  %-*s", w[c], t->rows[i].cell[c]);
			fprintf(out, "\n");
		}
		if (n < t->nrows)
			fprintf(out, "  (%d more; --limit 0 shows all)\n", t->nrows - n);
	}
done:
	free(t->rows);
	t->rows = NULL;
	t->nrows = t->cap = 0;
}

/* obj.key as a number; NAN if it is missing or not a number. */
static double num(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* obj.key, NULL if it is missing. */
static const cJSON *obj_at(const cJSON *obj, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

/* obj.key as a string; "" if it is missing or not a string. */
static const char *str_at(const cJSON *obj, const char *key)
{
	const cJSON *v = obj_at(obj, key);
	return cJSON_IsString(v) ? v->valuestring : "";
}

/* A relative change as "+12.3%", "=" when equal, "new"/"gone" from or to 0. */
static void rel_change(char *buf, size_t size, double a, double b)
{
	if (isnan(a) || isnan(b))
		buf[0] = 0;
	else if (a == b)
		snprintf(buf, size, "=");
	else if (a == 0)
		snprintf(buf, size, "new");
	else if (b == 0)
		snprintf(buf, size, "gone");
	else
		snprintf(buf, size, "%+.1f%%", (b - a) / fabs(a) * 100.0);
}

/* A value in a cell: integers as such, others with 4 significant digits. */
static void value(char *buf, size_t size, double v)
{
	if (isnan(v))
		snprintf(buf, size, "-");
	else if ((v == floor(v) || fabs(v) >= 1e4) && fabs(v) < 1e15)
		snprintf(buf, size, "%.0f", v);
	else
		snprintf(buf, size, "%.4g", v);
}

/* A row of name, A, B, change. */
static void pair_row(struct diff_table *t, const char *name, double a, double b, double rank)
{
	struct diff_row *r = table_row(t, rank);
	cellf(r, 0, "%s", name);
	value(r->cell[1], DIFF_CELL, a);
	value(r->cell[2], DIFF_CELL, b);
	rel_change(r->cell[3], DIFF_CELL, a, b);
}

/* A row of percentages (fractions in the JSON) and their difference in
 * percentage points. */
static void share_row(struct diff_table *t, const char *name, double a, double b, double rank)
{
	struct diff_row *r = table_row(t, rank);
	cellf(r, 0, "%s", name);
	cellf(r, 1, "%.1f%%", a * 100);
	cellf(r, 2, "%.1f%%", b * 100);
	cellf(r, 3, "%+.1f pp", (b - a) * 100);
}

/* Start a table: its title, whether it is ranked, and its ncols column heads. */
static void table_heads(struct diff_table *t, const char *title, bool ranked, int ncols, ...)
{
	memset(t, 0, sizeof(*t));
	t->title = title;
	t->ranked = ranked;
	t->ncols = ncols;
	va_list ap;
	va_start(ap, ncols);
	for (int c = 0; c < ncols; c++)
		t->head[c] = va_arg(ap, const char *);
	va_end(ap);
}

bool run_diff_param(const cJSON *run, const char *name, char *buf, size_t size)
{
	static const char *const named[] = { "machine", "policy", "workload" };
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (!strcmp(name, named[i])) {
			snprintf(buf, size, "%s", str_at(obj_at(run, named[i]), "name"));
			return true;
		}
	const cJSON *v = NULL;
	if (!strcmp(name, "seed"))
		v = obj_at(run, "seed");
	else if (!strcmp(name, "replicate"))	/* a sweep's runs.jsonl */
		v = obj_at(obj_at(run, "sweep"), "replicate");
	static const char *const groups[] = { "kernel", "policy", "workload" };
	for (size_t i = 0; !v && i < sizeof(groups) / sizeof(groups[0]); i++)
		v = obj_at(obj_at(obj_at(run, groups[i]), "params"), name);
	if (cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) && fabs(v->valuedouble) < 1e18)
		snprintf(buf, size, "%.0f", v->valuedouble);	/* seeds: every digit */
	else if (cJSON_IsNumber(v))
		snprintf(buf, size, "%.15g", v->valuedouble);
	else if (cJSON_IsString(v))
		snprintf(buf, size, "%s", v->valuestring);
	else if (cJSON_IsBool(v))
		snprintf(buf, size, "%d", cJSON_IsTrue(v));
	else
		return false;
	return true;
}

/* What the two runs are, and every parameter in which they differ. */
static void print_header(FILE *out, const cJSON *a, const cJSON *b, const struct diff_opts *o)
{
	bool md = o->format == DIFF_MARKDOWN;
	fprintf(out, md ? "**A**: `%s`  \n**B**: `%s`\n" : "A: %s\nB: %s\n", o->name_a, o->name_b);
	static const char *const groups[] = { "machine", "policy", "workload" };
	struct diff_table t;
	table_heads(&t, "What differs", false, 3, "parameter", "A", "B");
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		const char *na = str_at(obj_at(a, groups[g]), "name");
		const char *nb = str_at(obj_at(b, groups[g]), "name");
		if (strcmp(na, nb)) {
			struct diff_row *r = table_row(&t, 0);
			cellf(r, 0, "%s", groups[g]);
			cellf(r, 1, "%s", na);
			cellf(r, 2, "%s", nb);
		}
	}
	char va[DIFF_CELL], vb[DIFF_CELL];
	static const char *const pgroups[] = { "kernel", "policy", "workload" };
	for (int side = 0; side < 2; side++) {	/* A's names, then those only B has */
		const cJSON *x = side ? b : a, *y = side ? a : b;
		for (size_t g = 0; g < sizeof(pgroups) / sizeof(pgroups[0]); g++) {
			const cJSON *p;
			/* two policies (or workloads) have parameters of their own */
			if (g && strcmp(str_at(obj_at(a, pgroups[g]), "name"),
					str_at(obj_at(b, pgroups[g]), "name")))
				continue;
			cJSON_ArrayForEach(p, obj_at(obj_at(x, pgroups[g]), "params")) {
				bool in_y = run_diff_param(y, p->string, vb, sizeof(vb));
				if (side && in_y)
					continue;
				run_diff_param(x, p->string, va, sizeof(va));
				if (in_y && !strcmp(va, vb))
					continue;
				struct diff_row *r = table_row(&t, 0);
				cellf(r, 0, "%s", p->string);
				cellf(r, side ? 2 : 1, "%s", va);
				cellf(r, side ? 1 : 2, "%s", in_y ? vb : "-");
			}
		}
	}
	if (run_diff_param(a, "seed", va, sizeof(va)) && run_diff_param(b, "seed", vb, sizeof(vb)) &&
	    strcmp(va, vb)) {
		struct diff_row *r = table_row(&t, 0);
		cellf(r, 0, "seed");
		cellf(r, 1, "%s", va);
		cellf(r, 2, "%s", vb);
	}
	if (!t.nrows)
		fprintf(out, md ? "\nThe two runs have the same inputs.\n" : "(the same inputs)\n");
	table_print(out, &t, o);
}

static double cycles_ms(const cJSON *run, double cycles);

/* The workload's figure, the allocator's locks, CPU shares, memory and the
 * scheduler. */
static void print_totals(FILE *out, const cJSON *a, const cJSON *b, const struct diff_opts *o)
{
	struct diff_table t;
	table_heads(&t, "Result", false, 4, "figure", "A", "B", "change");
	const cJSON *ra = obj_at(a, "result"), *rb = obj_at(b, "result");
	pair_row(&t, "time (simulated s)", num(ra, "sim_seconds"), num(rb, "sim_seconds"), 0);
	if (obj_at(ra, "messages") || obj_at(rb, "messages"))
		pair_row(&t, "messages per second", num(ra, "messages_per_second"),
			 num(rb, "messages_per_second"), 0);
	const cJSON *sa = obj_at(ra, "sample"), *sb = obj_at(rb, "sample");
	if (sa || sb) {
		struct diff_row *r = table_row(&t, 0);
		cellf(r, 0, "simulated part (sample=auto)");
		const cJSON *sx[2] = { sa, sb };
		for (int i = 0; i < 2; i++) {
			double f = sx[i] ? num(sx[i], "simulated_fraction") : 1;
			double ci = sx[i] ? num(sx[i], "ci_seconds") : 0;
			if (f < 1 && ci > 0)
				cellf(r, 1 + i, "%.0f%%, 95%% CI +-%.3g s", f * 100, ci);
			else
				cellf(r, 1 + i, "%.0f%%", f * 100);
		}
	}
	/* a workload without messages says its figure in its line */
	if (!obj_at(ra, "messages") && strcmp(str_at(ra, "line"), str_at(rb, "line"))) {
		struct diff_row *r = table_row(&t, 0);
		cellf(r, 0, "the workload's line");
		cellf(r, 1, "%s", str_at(ra, "line"));
		cellf(r, 2, "%s", str_at(rb, "line"));
	}
	table_print(out, &t, o);

	/* the allocator's own locks first: what tells two designs apart */
	const cJSON *ta = obj_at(a, "lock_totals"), *tb = obj_at(b, "lock_totals");
	if (ta && tb) {
		table_heads(&t, "Locks, the allocator's own and all (whole run)", false, 4, "", "A", "B",
			    "change");
		static const char *const who[] = { "allocator", "all" };
		for (int i = 0; i < 2; i++) {
			const cJSON *x = obj_at(ta, who[i]), *y = obj_at(tb, who[i]);
			char name[64];
			snprintf(name, sizeof(name), "%s: acquisitions", who[i]);
			pair_row(&t, name, num(x, "acquisitions"), num(y, "acquisitions"), 0);
			snprintf(name, sizeof(name), "%s: contended", who[i]);
			pair_row(&t, name, num(x, "contentions"), num(y, "contentions"), 0);
			snprintf(name, sizeof(name), "%s: wait (ms)", who[i]);
			pair_row(&t, name, cycles_ms(a, num(x, "wait_cycles")),
				 cycles_ms(b, num(y, "wait_cycles")), 0);
			snprintf(name, sizeof(name), "%s: wait, share of CPU time", who[i]);
			share_row(&t, name, num(x, "wait_share"), num(y, "wait_share"), 0);
		}
		table_print(out, &t, o);
	}

	table_heads(&t, "CPU time (share of all CPUs)", false, 4, "", "A", "B", "change");
	const cJSON *ca = obj_at(a, "cpu"), *cb = obj_at(b, "cpu");
	share_row(&t, "busy", num(ca, "busy"), num(cb, "busy"), 0);
	share_row(&t, "in the slab allocator", num(ca, "slab"), num(cb, "slab"), 0);
	share_row(&t, "spinning on locks", num(ca, "spin"), num(cb, "spin"), 0);
	table_print(out, &t, o);

	table_heads(&t, "Memory and scheduler", false, 4, "", "A", "B", "change");
	const cJSON *ma = obj_at(a, "memory"), *mb = obj_at(b, "memory");
	pair_row(&t, "slab memory, peak (MB)", num(ma, "slab_bytes_peak") / 1048576.0,
		 num(mb, "slab_bytes_peak") / 1048576.0, 0);
	pair_row(&t, "slab memory at the end (MB)", num(ma, "slab_bytes_end") / 1048576.0,
		 num(mb, "slab_bytes_end") / 1048576.0, 0);
	static const char *const sched[] = { "context_switches", "wakeups", "migrations",
						     "wakeups_sync", "wakeups_migrate" };
	for (size_t i = 0; i < sizeof(sched) / sizeof(sched[0]); i++)
		pair_row(&t, sched[i], num(obj_at(a, "sched"), sched[i]),
			 num(obj_at(b, "sched"), sched[i]), 0);
	table_print(out, &t, o);
}

/* The element of array `arr` whose `key` member is `name`. */
static const cJSON *find_named(const cJSON *arr, const char *key, const char *name)
{
	const cJSON *e;
	cJSON_ArrayForEach(e, arr)
		if (!strcmp(str_at(e, key), name))
			return e;
	return NULL;
}

/* Every element of A's array and then those only in B's, by `key`. */
#define FOR_EACH_NAMED(e, name, arr_a, arr_b, key)                                    \
	for (int side_ = 0; side_ < 2; side_++)                                         \
		cJSON_ArrayForEach(e, (side_ ? (arr_b) : (arr_a)))                      \
			if ((name = str_at(e, key)),                                    \
			    !(side_ && find_named(arr_a, key, name)))

/* Simulated milliseconds of `cycles` on the run's machine. */
static double cycles_ms(const cJSON *run, double cycles)
{
	double ghz = num(obj_at(run, "machine"), "clock_ghz");
	return ghz > 0 ? cycles / (ghz * 1e6) : NAN;
}

/* lock_stat, both runs: the largest change of total wait first. */
static void print_locks(FILE *out, const cJSON *a, const cJSON *b, const struct diff_opts *o)
{
	struct diff_table t;
	table_heads(&t, "Locks (lock_stat), the largest change of total wait first", true, 8,
		    "class", "acq A", "acq B", "contended A", "contended B", "wait A (ms)",
		    "wait B (ms)", "change");
	const cJSON *la = obj_at(a, "locks"), *lb = obj_at(b, "locks"), *e;
	const char *name;
	FOR_EACH_NAMED(e, name, la, lb, "name") {
		const cJSON *x = find_named(la, "name", name), *y = find_named(lb, "name", name);
		double acq[2] = { x ? num(x, "acquisitions") : 0, y ? num(y, "acquisitions") : 0 };
		double con[2] = { x ? num(x, "contentions") : 0, y ? num(y, "contentions") : 0 };
		double wait[2] = { x ? cycles_ms(a, num(x, "wait_cycles")) : 0,
				   y ? cycles_ms(b, num(y, "wait_cycles")) : 0 };
		struct diff_row *r = table_row(&t, fabs(wait[1] - wait[0]) +
						   1e-9 * fabs(acq[1] - acq[0]));
		cellf(r, 0, "%s", name);
		value(r->cell[1], DIFF_CELL, acq[0]);
		value(r->cell[2], DIFF_CELL, acq[1]);
		for (int s = 0; s < 2; s++)
			cellf(r, 3 + s, "%.1f%%", acq[s] > 0 ? 100.0 * con[s] / acq[s] : 0.0);
		cellf(r, 5, "%.3f", wait[0]);
		cellf(r, 6, "%.3f", wait[1]);
		rel_change(r->cell[7], DIFF_CELL, wait[0], wait[1]);
	}
	table_print(out, &t, o);
}

/* perf report, both runs: the largest change of share first. */
static void print_profile(FILE *out, const cJSON *a, const cJSON *b, const struct diff_opts *o)
{
	struct diff_table t;
	table_heads(&t, "Profile (share of all CPU cycles), the largest change first", true, 4,
		    "symbol", "A", "B", "change");
	const cJSON *pa = obj_at(a, "profile"), *pb = obj_at(b, "profile"), *e;
	const char *name;
	FOR_EACH_NAMED(e, name, pa, pb, "symbol") {
		const cJSON *x = find_named(pa, "symbol", name), *y = find_named(pb, "symbol", name);
		double s[2] = { x ? num(x, "percent") / 100 : 0, y ? num(y, "percent") / 100 : 0 };
		share_row(&t, name, s[0], s[1], fabs(s[1] - s[0]));
	}
	table_print(out, &t, o);
}

/* Cache `name`'s statistics (sx of A, sy of B) per 1000 of its
 * allocations, ranked by the change against the counts' size. */
static void stat_rows(struct diff_table *s, const char *name, const cJSON *sx, const cJSON *sy,
		      const double allocs[2])
{
	for (int side = 0; side < 2; side++) {	/* A's counters, then B's alone */
		const cJSON *st;
		cJSON_ArrayForEach(st, (side ? sy : sx)) {
			const char *key = st->string;
			if (side && sx && obj_at(sx, key))
				continue;
			double ra = allocs[0] > 0 && sx ? num(sx, key) * 1000 / allocs[0] : 0;
			double rb = allocs[1] > 0 && sy ? num(sy, key) * 1000 / allocs[1] : 0;
			if (isnan(ra))
				ra = 0;
			if (isnan(rb))
				rb = 0;
			if (!ra && !rb)
				continue;
			struct diff_row *r = table_row(s, fabs(rb - ra) / (fabs(ra) + fabs(rb)) *
							  log1p(fabs(ra) + fabs(rb)));
			cellf(r, 0, "%s", name);
			cellf(r, 1, "%s", key);
			cellf(r, 2, "%.4g", ra);
			cellf(r, 3, "%.4g", rb);
			rel_change(r->cell[4], DIFF_CELL, ra, rb);
		}
	}
}

/* slabinfo, both runs: each used cache's geometry where it differs, and
 * its statistics per 1000 allocations (runs of different lengths compare),
 * the largest change first. */
static void print_caches(FILE *out, const cJSON *a, const cJSON *b, const struct diff_opts *o)
{
	const cJSON *ca = obj_at(a, "caches"), *cb = obj_at(b, "caches"), *e;
	const char *name;
	struct diff_table g, s;
	table_heads(&g, "Caches (slabinfo): geometry and slabs where they differ", false, 5, "cache", "field",
		    "A", "B", "change");
	table_heads(&s, "Cache statistics per 1000 allocations, the largest change first", true, 5,
		    "cache", "statistic", "A", "B", "change");
	static const char *const geometry[] = { "order", "objs_per_slab", "size", "slabs_peak",
						"slabs_end", "partial_end" };
	FOR_EACH_NAMED(e, name, ca, cb, "name") {
		const cJSON *x = find_named(ca, "name", name), *y = find_named(cb, "name", name);
		double allocs[2] = { x ? num(x, "allocs") : 0, y ? num(y, "allocs") : 0 };
		if (!allocs[0] && !allocs[1])
			continue;
		for (size_t i = 0; i < sizeof(geometry) / sizeof(geometry[0]); i++) {
			double va = x ? num(x, geometry[i]) : NAN, vb = y ? num(y, geometry[i]) : NAN;
			if (va == vb)
				continue;
			struct diff_row *r = table_row(&g, 0);
			cellf(r, 0, "%s", name);
			cellf(r, 1, "%s", geometry[i]);
			value(r->cell[2], DIFF_CELL, va);
			value(r->cell[3], DIFF_CELL, vb);
			if (!isnan(va) && !isnan(vb))	/* orders and counts: by how many */
				cellf(r, 4, "%+.0f", vb - va);
		}
		stat_rows(&s, name, x ? obj_at(x, "stats") : NULL, y ? obj_at(y, "stats") : NULL,
			  allocs);
	}
	table_print(out, &g, o);
	table_print(out, &s, o);
}

void run_diff_print(FILE *out, const cJSON *a, const cJSON *b, const struct diff_opts *o)
{
	print_header(out, a, b, o);
	print_totals(out, a, b, o);
	print_locks(out, a, b, o);
	print_profile(out, a, b, o);
	print_caches(out, a, b, o);
}
