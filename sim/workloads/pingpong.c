/* pingpong.c - the core-to-core-latency measurement (nviennot's tool): two
 * tasks pinned to two CPUs bounce one cache line, each waiting for its turn
 * and taking the line with a locked cmpxchg; the one-way hand-off is the
 * round trip over two. Every pair of CPUs in turn (or a sample of each
 * distance class), one pair at a time, as the tool does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/wait.h"
#include "workload.h"

static const struct param_def pingpong_params[] = {
	{ "iterations", PT_INT, "200", 1, 1000000, NULL, "round trips measured per pair" },
	{ "pairs", PT_ENUM, "all", 0, 0, "all|sample",
	  "every pair of CPUs, or `samples` pairs of each distance class" },
	{ "samples", PT_INT, "8", 1, 100000, NULL, "pairs per distance class with pairs=sample" },
	{ NULL },
};

struct pp_pair {
	int a, b;
};

struct pingpong {
	struct kernel *k;
	int n, iterations;
	struct pp_pair *pairs;
	int npairs, cur;
	double *matrix;			/* n x n one-way ns, NAN if not measured */
	double *sorted;			/* npairs: scratch for the medians */
	struct hw_line line;		/* the line bounced by the current pair */
	int turn;			/* whose cmpxchg is next: 0 = a, 1 = b */
	int done;			/* members of the current pair finished */
	bool quit;
	uint64_t t0, t1;
	struct hw_lock_class wq_class;
	struct wait_queue_head *go;	/* one per CPU: its worker's orders */
	struct wait_queue_head finished;
	bool complete;
	double by_class[NR_DIST];
	int class_pairs[NR_DIST];
};

/* Sleep on q until *flag differs from `seen`. */
static void wait_change(struct task *t, struct wait_queue_head *q, const int *flag, int seen)
{
	for (;;) {
		prepare_to_wait(t, q);
		if (*flag != seen)
			break;
		schedule(t);
	}
	finish_wait(t, q);
}

/* One side of the bounce: wait for our turn, take the line, pass it on. */
static void play(struct task *t, struct pingpong *pp, int me)
{
	struct hw *hw = t->k->hw;
	/* round 0 waits for both to be running; the clock starts at round 1 */
	for (int i = 0; i <= pp->iterations + 1; i++) {
		hw_spin_until(hw, task_cpu(t), &pp->line, &pp->turn, me);
		hw_atomic(hw, task_cpu(t), &pp->line);	/* lock cmpxchg */
		pp->turn = !me;
		if (me == 0 && i == 1)
			pp->t0 = task_cpu(t)->clock;
		if (me == 0 && i == pp->iterations + 1)
			pp->t1 = task_cpu(t)->clock;
	}
}

/* A worker pinned to one CPU: wait for a pair it is in, play its side, report; until quit. */
static void pp_worker(struct task *t, void *arg)
{
	struct pingpong *pp = arg;
	int cpu = t->cpu;
	int seen_cur = -1;
	for (;;) {
		/* orders: the pair index changes, or quit */
		for (;;) {
			prepare_to_wait(t, &pp->go[cpu]);
			if (pp->quit || (pp->cur != seen_cur && pp->cur < pp->npairs &&
					 (pp->pairs[pp->cur].a == cpu || pp->pairs[pp->cur].b == cpu)))
				break;
			schedule(t);
		}
		finish_wait(t, &pp->go[cpu]);
		if (pp->quit)
			return;
		seen_cur = pp->cur;
		play(t, pp, pp->pairs[pp->cur].a == cpu ? 0 : 1);
		if (++pp->done == 2)
			wake_up(t, &pp->finished, false);
	}
}

/* qsort() order of doubles, ascending. */
static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

/* The tool's main loop: one pair at a time, one-way ns = round trip over two; then stop the
 * workers and take each distance class's median. */
static void pp_driver(struct task *t, void *arg)
{
	struct pingpong *pp = arg;
	struct kernel *k = pp->k;
	kernel_mark(k, true);
	for (int i = 0; i < pp->npairs; i++) {
		struct pp_pair *p = &pp->pairs[i];
		hw_line_reset(k->hw, &pp->line, k->m->topo[p->a].node);
		pp->turn = 0;
		pp->done = 0;
		int done_seen = 0;
		pp->cur = i;
		wake_up(t, &pp->go[p->a], false);
		wake_up(t, &pp->go[p->b], false);
		wait_change(t, &pp->finished, &pp->done, done_seen);
		while (pp->done < 2)
			wait_change(t, &pp->finished, &pp->done, pp->done);
		double ns = (double)(pp->t1 - pp->t0) / (2.0 * pp->iterations) / k->m->ghz;
		pp->matrix[p->a * pp->n + p->b] = ns;
		pp->matrix[p->b * pp->n + p->a] = ns;
	}
	kernel_mark(k, false);
	pp->quit = true;
	for (int c = 0; c < pp->n; c++)
		wake_up(t, &pp->go[c], false);
	/* medians by distance class */
	double *v = pp->sorted;
	for (int d = 1; d < NR_DIST; d++) {
		int m = 0;
		for (int i = 0; i < pp->npairs; i++)
			if (machine_dist(k->m, pp->pairs[i].a, pp->pairs[i].b) == (enum hw_dist)d)
				v[m++] = pp->matrix[pp->pairs[i].a * pp->n + pp->pairs[i].b];
		pp->class_pairs[d] = m;
		if (m) {
			qsort(v, (size_t)m, sizeof(*v), cmp_double);
			pp->by_class[d] = m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
		}
	}
	pp->complete = true;
}

/* The pairs to measure: all, or up to `samples` spread over each class. */
static int choose_pairs(struct pingpong *pp, bool all, int samples)
{
	const struct machine *m = pp->k->m;
	long total = (long)pp->n * (pp->n - 1) / 2;
	pp->pairs = malloc((size_t)total * sizeof(*pp->pairs));
	if (!pp->pairs)
		return -1;
	for (int d = 1; d < NR_DIST; d++) {
		long count = 0;
		for (int a = 0; a < pp->n; a++)
			for (int b = a + 1; b < pp->n; b++)
				count += machine_dist(m, a, b) == (enum hw_dist)d;
		long want = all || count <= samples ? count : samples, seen = 0, next = 0;
		for (int a = 0; a < pp->n && want; a++)
			for (int b = a + 1; b < pp->n; b++) {
				if (machine_dist(m, a, b) != (enum hw_dist)d)
					continue;
				if (seen++ == next * count / want) {	/* evenly spread */
					pp->pairs[pp->npairs++] = (struct pp_pair){ a, b };
					if (++next == want)
						break;
				}
			}
	}
	return 0;
}

/* The pairs, the matrix, a pinned worker per CPU and the driver; needs two CPUs and a fabric
 * where taking a line costs something. */
static int pp_start(struct kernel *k, const struct param_set *ps, void **state,
		    struct sim_err *err)
{
	struct pingpong *pp = calloc(1, sizeof(*pp));
	if (!pp)
		return sim_fail(err, "out of memory");
	pp->k = k;
	pp->n = k->m->ncpus;
	pp->iterations = (int)param_int(ps, "iterations");
	if (pp->n < 2 || k->m->fabric == FABRIC_IDEAL) {
		bool one = pp->n < 2;
		free(pp);
		return sim_fail(err, one ? "pingpong needs two CPUs; %s has one"
				: "pingpong measures line transfers, and %s has an ideal fabric "
				  "where taking a line is free", k->m->name);
	}
	pp->matrix = malloc((size_t)pp->n * (size_t)pp->n * sizeof(*pp->matrix));
	pp->go = calloc((size_t)pp->n, sizeof(*pp->go));
	if (!pp->matrix || !pp->go ||
	    choose_pairs(pp, !strcmp(param_str(ps, "pairs"), "all"),
			 (int)param_int(ps, "samples")) < 0 ||
	    !(pp->sorted = malloc((size_t)pp->npairs * sizeof(double)))) {
		free(pp->matrix);
		free(pp->go);
		free(pp->pairs);
		free(pp->sorted);
		free(pp);
		return sim_fail(err, "out of memory for pingpong on %d CPUs", k->m->ncpus);
	}
	for (int i = 0; i < pp->n * pp->n; i++)
		pp->matrix[i] = i % (pp->n + 1) == 0 ? 0.0 : NAN;
	pp->cur = -1;
	hw_line_init(k->hw, &pp->line, 0);	/* reset for each pair */
	hw_lock_class_init(k->hw, &pp->wq_class, "pingpong orders (wait queue)",
			   k->hw->sym_spin_lock);
	init_waitqueue_head(k, &pp->finished, &pp->wq_class, 0);
	for (int c = 0; c < pp->n; c++) {
		init_waitqueue_head(k, &pp->go[c], &pp->wq_class, k->m->topo[c].node);
		task_create_pinned(&k->sched, NULL, pp_worker, pp, "pingpong", NULL, c);
	}
	task_create_pinned(&k->sched, NULL, pp_driver, pp, "pingpong-driver", NULL, 0);
	*state = pp;
	return 0;
}

/* pingpong takes only NAME=VALUE parameters. */
static int pp_parse(struct param_set *ps, int argc, char **argv, struct sim_err *err)
{
	if (argc > 1)
		return sim_fail(err, "pingpong: unexpected argument '%s' (its parameters are "
				"NAME=VALUE: iterations pairs samples)", argv[1]);
	return 0;
}

/* Each distance class's median hand-off; the whole matrix (null where not measured) in the
 * JSON. */
static void pp_result(void *state, struct workload_result *r)
{
	struct pingpong *pp = state;
	const struct machine *m = pp->k->m;
	r->finished = pp->complete;
	r->sim_seconds = pp->complete
		? (double)(pp->k->win.time[1] - pp->k->win.time[0]) / (m->ghz * 1e9) : 0;
	int len = snprintf(r->line, sizeof(r->line), "pingpong, one-way hand-off (median ns):");
	r->extra = cJSON_CreateObject();
	cJSON *bc = cJSON_AddObjectToObject(r->extra, "by_class");
	for (int d = 1; d < NR_DIST; d++) {
		if (!pp->class_pairs[d])
			continue;
		cJSON_AddNumberToObject(bc, hw_dist_name[d], pp->by_class[d]);
		if (len < (int)sizeof(r->line))
			len += snprintf(r->line + len, sizeof(r->line) - (size_t)len, " %s %.1f",
					hw_dist_name[d], pp->by_class[d]);
	}
	cJSON_AddNumberToObject(r->extra, "pairs", pp->npairs);
	cJSON *mx = cJSON_AddArrayToObject(r->extra, "matrix_ns");
	for (int a = 0; a < pp->n; a++) {
		cJSON *row = cJSON_CreateArray();
		for (int b = 0; b < pp->n; b++) {
			double v = pp->matrix[a * pp->n + b];
			cJSON_AddItemToArray(row, isnan(v) ? cJSON_CreateNull() : cJSON_CreateNumber(v));
		}
		cJSON_AddItemToArray(mx, row);
	}
}

/* Every measured pair took a positive time. */
static int pp_check(void *state, struct sim_err *err)
{
	struct pingpong *pp = state;
	for (int i = 0; pp->complete && i < pp->npairs; i++) {
		double v = pp->matrix[pp->pairs[i].a * pp->n + pp->pairs[i].b];
		if (!(v > 0))
			return sim_fail(err, "pingpong: pair %d-%d measured %g ns", pp->pairs[i].a,
					pp->pairs[i].b, v);
	}
	return 0;
}

/* A heatmap of the matrix: rows and columns are CPUs, colour the ns. The
 * data goes to `dat`, the gnuplot script (drawing `path`) to `gp`; the
 * report layer opens both and runs gnuplot. */
static void pp_plot(void *state, FILE *dat, FILE *gp, const char *path)
{
	struct pingpong *pp = state;
	for (int a = 0; a < pp->n; a++) {
		for (int b = 0; b < pp->n; b++) {
			double v = pp->matrix[a * pp->n + b];
			fprintf(dat, isnan(v) ? "NaN " : "%.2f ", v);
		}
		fprintf(dat, "\n");
	}
	fprintf(gp, "# slabsim pingpong heatmap: edit and run `gnuplot %s.gp`\n", path);
	fprintf(gp, "set terminal pngcairo size 900,800 font ',10'\n");
	fprintf(gp, "set output '%s'\n", path);
	fprintf(gp, "set title \"%s: one-way cache-line hand-off (ns), %d CPUs\"\n",
		pp->k->m->name, pp->n);
	fprintf(gp, "set xlabel 'CPU'\nset ylabel 'CPU'\nset cblabel 'ns'\n");
	fprintf(gp, "set datafile missing 'NaN'\nset size ratio -1\nset view map\n");
	fprintf(gp, "set xrange [-0.5:%d.5]\nset yrange [%d.5:-0.5]\n", pp->n - 1, pp->n - 1);
	fprintf(gp, "set palette defined (0 'white', 1 'yellow', 2 'orange', 3 'red', 4 'dark-red')\n");
	fprintf(gp, "plot '%s.dat' matrix with image notitle\n", path);
}

/* Free the matrix, the wait queues, the pairs and the scratch. */
static void pp_destroy(void *state)
{
	struct pingpong *pp = state;
	free(pp->matrix);
	free(pp->go);
	free(pp->pairs);
	free(pp->sorted);
	free(pp);
}

const struct workload pingpong_workload = {
	.name = "pingpong",
	.description = "core-to-core cache-line hand-off: two pinned tasks bounce one line "
		       "with cmpxchg, for each pair of CPUs (like core-to-core-latency)",
	.usage = "pingpong [iterations=N] [pairs=all|sample] [samples=N]",
	.params = pingpong_params,
	.parse_cmdline = pp_parse,
	.start = pp_start,
	.result = pp_result,
	.check = pp_check,
	.allocates_nothing = true,
	.plot = pp_plot,
	.destroy = pp_destroy,
};
