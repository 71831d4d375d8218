/* cmd_show.c - `slabsim show machine NAME` (topology and hand-off costs) and
 * `slabsim show policy NAME` (the effective geometry of every cache). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report/report.h"
#include "run/run_core.h"

static const char show_help[] =
	"usage: slabsim show machine NAME [--matrix]\n"
	"       slabsim show policy NAME [-m MACHINE] [NAME=VALUE ...] [--json FILE]\n"
	"\n"
	"  machine   the topology as a tree (nodes, sockets, dies, cores, CPU numbers,\n"
	"            like lstopo), the cost of handing a cache line over by distance,\n"
	"            the nodes' CPUs and distances (like numactl --hardware) and the\n"
	"            hand-off matrix: CPU by CPU up to 32 CPUs or with --matrix, else\n"
	"            socket by socket. NAME: a machine or a JSON file path\n"
	"  policy    every cache the kernel creates at boot with its geometry\n"
	"            (order, objs_per_slab, size) and tunables (min_partial, ...), for\n"
	"            the machine given (default tigerton) and the parameters given,\n"
	"            e.g. slabsim show policy slub slub_min_objects=16 slub_max_order=3\n";

/* numactl --hardware: each node's CPUs and the node distances, SLIT-style
 * (10 = local memory, remote scaled by the remote / local latency). */
static void print_numa(const struct machine *m)
{
	printf("\navailable: %d node%s (0-%d)\n", m->nodes, m->nodes > 1 ? "s" : "", m->nodes - 1);
	for (int n = 0; n < m->nodes; n++) {
		printf("node %d cpus:", n);
		for (int c = 0; c < m->ncpus; c++)
			if (m->topo[c].node == n)
				printf(" %d", c);
		printf("\n");
	}
	int remote = (int)(10.0 * m->mem_remote / m->mem_local + 0.5);
	printf("node distances:\nnode ");
	for (int n = 0; n < m->nodes; n++)
		printf("%4d", n);
	printf("\n");
	for (int a = 0; a < m->nodes; a++) {
		printf("%4d:", a);
		for (int b = 0; b < m->nodes; b++)
			printf("%4d", a == b ? 10 : remote);
		printf("\n");
	}
}

/* The hand-off between every two CPUs, in cycles (0 on the diagonal). */
static void print_cpu_matrix(const struct machine *m)
{
	printf("\nhand-off matrix (cycles; row = from CPU, column = to CPU):\n     ");
	for (int b = 0; b < m->ncpus; b++)
		printf("%5d", b);
	printf("\n");
	for (int a = 0; a < m->ncpus; a++) {
		printf("%5d", a);
		for (int b = 0; b < m->ncpus; b++)
			printf("%5u", a == b ? 0 : m->handoff[machine_dist(m, a, b)]);
		printf("\n");
	}
}

/* Too many CPUs for a CPU matrix: one row per socket; the diagonal is the
 * hand-off between two cores of the socket (the farthest in it). */
static void print_socket_matrix(const struct machine *m)
{
	int *first = malloc((size_t)m->nsockets * sizeof(int));
	int *far = malloc((size_t)m->nsockets * sizeof(int));
	for (int s = 0; s < m->nsockets; s++)
		first[s] = far[s] = -1;
	for (int c = 0; c < m->ncpus; c++) {
		int s = m->topo[c].socket;
		if (first[s] < 0)
			first[s] = c;
		else if (far[s] < 0 || machine_dist(m, first[s], c) > machine_dist(m, first[s], far[s]))
			far[s] = c;
	}
	printf("\nhand-off matrix by socket (cycles from a CPU of the row's socket to one of the "
	       "column's;\ndiagonal: the farthest two CPUs of one socket; `show machine NAME "
	       "--matrix` gives every CPU):\n       ");
	for (int b = 0; b < m->nsockets; b++)
		printf("%6d", b);
	printf("\n");
	for (int a = 0; a < m->nsockets; a++) {
		printf("  %4d ", a);
		for (int b = 0; b < m->nsockets; b++) {
			int x = first[a], y = a == b ? far[a] : first[b];
			printf("%6u", y < 0 ? 0 : m->handoff[machine_dist(m, x, y)]);
		}
		printf("\n");
	}
	free(first);
	free(far);
}

/* `show machine NAME`: the machine's figures, its topology tree, the hand-off by distance,
 * numactl's view, the fitted figures and a hand-off matrix. */
static int show_machine(const char *name, bool full_matrix)
{
	struct machine m;
	struct sim_err err;
	if (machine_load(&m, name, &err) < 0)
		return cli_usage_error("%s", err.msg);
	printf("%s: %s\n", m.name, m.description);
	printf("%d CPUs at %.2f GHz: %d node(s) x %d socket(s) x %d die(s) x %d core(s) x %d "
	       "thread(s); fabric %s\n", m.ncpus, m.ghz, m.nodes, m.sockets_per_node,
	       m.dies_per_socket, m.cores_per_die, m.threads_per_core,
	       m.fabric == FABRIC_FSB ? "front-side bus + memory hub"
	       : m.fabric == FABRIC_HOME ? "links + home agents" : "ideal");
	printf("caches: L1 %u KB %u-way per core; last level %u KB %u-way per die, %u cycles\n",
	       m.l1_kb, m.l1_ways, m.llc_kb, m.llc_ways, m.llc_hit);
	int last[4] = { -1, -1, -1, -1 };
	for (int core = 0; core < m.ncpus / m.threads_per_core; core++) {
		const struct hw_cpu_topo *t = &m.topo[core];
		if (t->node != last[0])
			printf("node %d\n", t->node);
		if (t->socket != last[1])
			printf("  socket %d\n", t->socket);
		if (t->die != last[2])
			printf("    die %d\n", t->die);
		printf("      core %d: cpu", t->core);
		for (int cpu = core; cpu < m.ncpus; cpu += m.ncpus / m.threads_per_core)
			printf(" %d", cpu);
		printf("\n");
		last[0] = t->node;
		last[1] = t->socket;
		last[2] = t->die;
	}
	printf("\ncache-line hand-off by distance (cycles, ns):\n");
	for (int d = 0; d < NR_DIST; d++) {
		bool seen = false;
		for (int b = 0; b < m.ncpus && !seen; b++)
			seen = machine_dist(&m, 0, b) == (enum hw_dist)d;
		for (int a = 0; a < m.ncpus && !seen; a++)
			for (int b = 0; b < m.ncpus && !seen; b++)
				seen = machine_dist(&m, a, b) == (enum hw_dist)d;
		if (seen)
			printf("  %-13s %6u %8.1f\n", hw_dist_name[d], m.handoff[d],
			       m.handoff[d] / m.ghz);
	}
	printf("  %-13s %6u %8.1f\n", "memory", m.mem_local, m.mem_local / m.ghz);
	if (m.nodes > 1)
		printf("  %-13s %6u %8.1f\n", "memory_remote", m.mem_remote, m.mem_remote / m.ghz);
	print_numa(&m);
	printf("\nfitted to published results (validation/): %s\n", m.nfitted ? "" : "none");
	for (int i = 0; i < m.nfitted; i++)
		printf("  %-4s %-18s %-32s %g\n", m.fitted[i].fit_case, m.fitted[i].file,
		       m.fitted[i].name, m.fitted[i].value);
	if (m.ncpus <= 32 || full_matrix)
		print_cpu_matrix(&m);
	else
		print_socket_matrix(&m);
	machine_free(&m);
	return 0;
}

/* The policy's parameters and every cache's geometry and tunables on
 * stdout, and the same as JSON (returned). */
static cJSON *print_geometry(struct run *r)
{
	struct kernel *k = &r->k;
	printf("policy %s on %s (%d CPUs), kernel=%s:", r->policy->name, r->m.name, r->m.ncpus,
	       param_str(&r->kparams, "kernel"));
	for (int i = 0; i < r->pparams.n; i++)
		printf(" %s=%s", r->pparams.defs[i].name, r->pparams.value[i]);
	printf("\n%-20s %7s %6s %5s %13s  %s\n", "cache", "objsize", "size", "order",
	       "objs_per_slab", "tunables");
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "policy", r->policy->name);
	cJSON_AddStringToObject(root, "machine", r->m.name);
	cJSON *caches = cJSON_AddArrayToObject(root, "caches");
	for (int i = 0; i < k->ncaches; i++) {
		struct kmem_cache *c = k->caches[i];
		struct cache_info ci, real;
		k->policy->cache_info(k->pstate, c, &ci);
		printf("%-20s %7u %6u %5u %13u ", c->name, c->object_size, c->size, ci.order,
		       ci.objs_per_slab);
		if (c->alias)
			printf(" merged into %s", c->alias->name);
		k->policy->cache_info(k->pstate, c->alias ? c->alias : c, &real);
		for (int t = 0; t < real.ntunables; t++)
			printf(" %s=%llu", real.tunables[t].name,
			       (unsigned long long)real.tunables[t].value);
		printf("\n");
		cJSON_AddItemToArray(caches, report_cache_geometry(k, c));
	}
	return root;
}

/* `show policy NAME`: build the kernel (on tigerton unless -m, with the parameters given)
 * and print every cache's geometry and tunables; --json writes them as JSON too. */
static int show_policy(int argc, char **argv)
{
	struct run_config cfg = { .machine = "tigerton", .policy = argv[0], .seed = 1 };
	const char **assign = calloc((size_t)argc + 1, sizeof(*assign));
	const char *json = NULL;
	int status = 2;
	static const struct option longopts[] = {
		{ "machine", required_argument, NULL, 'm' }, { "json", required_argument, NULL, 'J' },
		{ NULL, 0, NULL, 0 } };
	optind = 0;
	for (int c; (c = cli_getopt("show", argc, argv, "m:", longopts)) != -1;) {
		if (c == CLI_OPT_ERROR) {
			free(assign);
			return 2;
		}
		*(c == 'm' ? &cfg.machine : &json) = optarg;
	}
	for (; optind < argc; optind++) {	/* NAME=VALUE */
		if (!strchr(argv[optind], '=')) {
			free(assign);
			return cli_usage_error("show policy: unknown argument '%s' (slabsim show --help)",
					       argv[optind]);
		}
		assign[cfg.nassign++] = argv[optind];
	}
	cfg.assign = assign;
	struct run *r = calloc(1, sizeof(*r));
	struct sim_err err;
	if (run_configure(r, &cfg, &err) < 0 || run_build(r, &err) < 0) {
		status = cli_usage_error("%s", err.msg);
		goto out;
	}
	cJSON *root = print_geometry(r);
	status = 0;
	if (json && report_write_json(json, root, &err) < 0)
		status = cli_usage_error("%s", err.msg);
	cJSON_Delete(root);
out:
	run_free(r);
	free(r);
	free(assign);
	return status;
}

/* `show machine NAME [--matrix]`, the option anywhere after the word. */
static int show_machine_args(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "matrix", no_argument, NULL, 'M' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 } };
	bool full = false;
	optind = 0;
	for (int c; (c = cli_getopt("show machine", argc, argv, "h", longopts)) != -1;) {
		if (c == 'h')
			return fputs(show_help, stdout), 0;
		if (c != 'M')
			return 2;
		full = true;
	}
	if (argc - optind != 1)
		return cli_usage_error("show machine: one NAME only, then optionally --matrix");
	return show_machine(argv[optind], full);
}

int cmd_show(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		return fputs(show_help, stdout), 0;
	if (argc >= 2 && !strcmp(argv[1], "machine"))
		return show_machine_args(argc - 1, argv + 1);
	if (argc >= 3 && !strcmp(argv[1], "policy"))
		return show_policy(argc - 2, argv + 2);
	return cli_usage_error("show: expected 'machine NAME' or 'policy NAME' (slabsim show --help)");
}
