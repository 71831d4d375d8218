/* cmd_list.c - `slabsim list machines|policies|workloads|params`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "run/run_core.h"
#include "hw/machine.h"
#include "kernel/kernel.h"
#include "policies/policy.h"
#include "workloads/workload.h"

static const char list_help[] =
	"usage: slabsim list machines|policies|workloads|params\n"
	"       slabsim list costs -m MACHINE [-p POLICY]\n"
	"\n"
	"  machines    machine files found in: $SLABSIM_MACHINES, ./machines, the install\n"
	"  policies    slab allocators (-p): the built-in ones, then the modules (NAME.so)\n"
	"              in the directories of $SLABSIM_POLICY_PATH\n"
	"  workloads   workloads (-w) with the command line each accepts\n"
	"  params      every NAME=VALUE parameter: kernel, each policy, each workload\n"
	"              (the defaults shown are the table's; kernel=VERSION presets set some)\n"
	"  costs       the machine's cost table: each entry's cycles, the file it comes\n"
	"              from and its source; with -p, the entries the policy brings\n"
	"              (used where the table has none)\n";

#define PATH_MAX_OWNER 4200

/* One owner's parameters: each name, default, what it accepts and what it does. */
static void list_params(const char *owner, const struct param_def *d)
{
	printf("%s:\n", owner);
	for (; d->name; d++) {
		char want[160];
		param_describe(d, want, sizeof(want));
		printf("  %-28s default %-10s %s; %s\n", d->name, d->def, want, d->doc);
	}
}

/* A module of $SLABSIM_POLICY_PATH: its name and description, or why it
 * would be refused. */
static void print_module(const char *name, const char *path, const struct slab_policy *p,
			 const char *why, void *arg)
{
	if (p)
		printf("%-12s %s (module %s%s%s%s)\n", name, p->description, path,
		       strcmp(name, p->name) ? "; it calls itself '" : "",
		       strcmp(name, p->name) ? p->name : "",
		       strcmp(name, p->name) ? "', the name its runs and results carry: set "
					       ".name in its source" : "");
	else
		printf("%-12s (refused: %s)\n", name, why);
}

/* The parameters of a module of $SLABSIM_POLICY_PATH (nothing for a refused one). */
static void module_params(const char *name, const char *path, const struct slab_policy *p,
			  const char *why, void *arg)
{
	if (!p)
		return;
	char o[PATH_MAX_OWNER];
	snprintf(o, sizeof(o), "policy %s (module %s)", p->name, path);
	list_params(o, p->params);
}

/* One cost table entry: name, cycles and the last two parts of its file, its source below. */
static void print_cost(const char *name, double cycles, const char *file, const char *source,
		       void *arg)
{
	(void)arg;
	const char *shown = file;	/* the last two parts: costs/core2.json */
	for (const char *p = file, *prev = NULL; p && *p; p++)
		if (*p == '/') {
			if (prev)
				shown = prev + 1;
			prev = p;
		}
	printf("%-36s %10.6g  %s\n%38s%s\n", name, cycles, file ? shown : "", "", source);
}

/* list costs -m MACHINE [-p POLICY]: the table as loaded, then what the
 * policy brings and whether the table already had it. */
static int list_costs(int argc, char **argv)
{
	const char *mname = NULL, *pname = NULL;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-m") && i + 1 < argc)
			mname = argv[++i];
		else if (!strcmp(argv[i], "-p") && i + 1 < argc)
			pname = argv[++i];
		else
			return cli_usage_error("list costs: unknown argument '%s' (slabsim list costs "
					       "-m MACHINE [-p POLICY])", argv[i]);
	}
	if (!mname)
		return cli_usage_error("list costs: which machine? slabsim list costs -m MACHINE");
	struct machine m;
	struct sim_err err;
	if (machine_load(&m, mname, &err) < 0)
		return cli_usage_error("%s", err.msg);
	const struct slab_policy *p = pname ? slab_policy_lookup(pname, &err) : NULL;
	int rc = 0;
	if (pname && !p) {
		rc = cli_usage_error("%s", err.msg);
		goto out;
	}
	int had = m.ncosts;
	printf("# cost table '%s' of %s (cycles; file; source)\n", m.cost_table, m.name);
	if (machine_cost_walk(&m, print_cost, NULL, &err) < 0) {
		rc = cli_usage_error("%s", err.msg);
		goto out;
	}
	if (p && p->costs) {
		printf("\n# policy %s's own entries\n", p->name);
		for (const struct cost_def *c = p->costs; c->name; c++) {
			bool in_table = false;
			for (int i = 0; i < had && !in_table; i++)
				in_table = !strcmp(m.cost_name[i], c->name);
			printf("%-36s %10.6g  %s\n%38s%s\n", c->name, c->cycles,
			       in_table ? "(unused: the machine's table or file sets it)" : "(used: its default)",
			       "", c->source);
		}
	} else if (p) {
		printf("\n# policy %s brings no entries of its own\n", p->name);
	}
out:
	machine_free(&m);
	return rc;
}

int cmd_list(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		return fputs(list_help, stdout), 0;
	if (argc >= 2 && !strcmp(argv[1], "costs"))
		return list_costs(argc, argv);
	if (argc != 2)
		return cli_usage_error("list: say what to list: machines policies workloads params "
				       "costs");
	const char *what = argv[1];
	if (!strcmp(what, "machines")) {
		char *names[MACHINE_MAX_FILES];
		int n = machine_names(names, MACHINE_MAX_FILES);
		for (int i = 0; i < n; i++) {
			struct machine m;
			struct sim_err err;
			if (machine_load(&m, names[i], &err) == 0) {
				printf("%-20s %4d CPUs %2d node%s  %s\n", names[i], m.ncpus, m.nodes,
				       m.nodes > 1 ? "s" : " ", m.description);
				machine_free(&m);
			} else {
				printf("%-20s (broken: %s)\n", names[i], err.msg);
			}
			free(names[i]);
		}
		return 0;
	}
	if (!strcmp(what, "policies")) {
		for (int i = 0; slab_policies[i]; i++)
			printf("%-12s %s\n", slab_policies[i]->name, slab_policies[i]->description);
		slab_policy_modules(print_module, NULL);
		return 0;
	}
	if (!strcmp(what, "workloads")) {
		for (int i = 0; workloads[i]; i++)
			printf("%-12s %s\n             usage: -w '%s'\n", workloads[i]->name,
			       workloads[i]->description, workloads[i]->usage);
		return 0;
	}
	if (!strcmp(what, "params")) {
		list_params("kernel", kernel_param_defs);
		list_params("run", run_param_defs);
		for (int i = 0; slab_policies[i]; i++) {
			char o[64];
			snprintf(o, sizeof(o), "policy %s", slab_policies[i]->name);
			list_params(o, slab_policies[i]->params);
		}
		slab_policy_modules(module_params, NULL);
		for (int i = 0; workloads[i]; i++) {
			char o[64];
			snprintf(o, sizeof(o), "workload %s", workloads[i]->name);
			list_params(o, workloads[i]->params);
		}
		return 0;
	}
	return cli_usage_error("list: unknown list '%s'; valid: machines policies workloads params "
			       "costs", what);
}
