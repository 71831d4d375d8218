/* main.c - slabsim's entry point: dispatch to a subcommand. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "engine/suggest.h"
#include "report/report.h"

static const char usage[] =
	"usage: slabsim COMMAND [ARGS]\n"
	"\n"
	"A discrete-event simulator of NUMA machines running Linux slab allocators.\n"
	"\n"
	"commands:\n"
	"  run     -m MACHINE -p POLICY -w WORKLOAD [NAME=VALUE ...] [--seed N] [--json FILE]\n"
	"          simulate one run and report time, caches, locks and profile\n"
	"  sweep   EXPERIMENT.json [NAME=VALUE ...] [-j N] [--out DIR] [--resume]\n"
	"          [--shard I/N]: every run of an experiment, summary with 95% CIs, plots\n"
	"  merge   DIR... --out DIR: join the results folders of an experiment's shards\n"
	"  plot    RESULTS [--format png|svg]: draw a results folder's plots\n"
	"  list    machines|policies|workloads|params | costs -m MACHINE\n"
	"  show    machine NAME | policy NAME [-m MACHINE] [NAME=VALUE ...] [--json FILE]\n"
	"  trace   record -o FILE [run options]: a run's kmem events as an ftrace trace\n"
	"          replay FILE -m MACHINE -p POLICY: replay a captured kmem trace\n"
	"  bench   speed of the engine: events/s, fiber switch, ordering-rule hand-over\n"
	"  validate [CASE ...] [--quick] [-j N] [--out DIR]: the published results the\n"
	"          model must predict (validation/), simulated beside published\n"
	"  sensitivity CASE [--figures LIST] [--morris R]: how much a case's figures\n"
	"          depend on the estimated and fitted figures of its machines\n"
	"  diff    A B [--format text|markdown]: two runs side by side with the deltas\n"
	"          (a run's JSON, or DIR:NAME=VALUE,... for a run of a results folder)\n"
	"  calibrate [--out FILE.json]: measure this host and write its machine file\n"
	"  tune    -m M -p P -w W PARAM=LO..HI [--objective time|memory|pareto]: the best\n"
	"          value of a parameter, in fewer runs than a sweep\n"
	"\n"
	"`slabsim COMMAND --help` describes each command. Exit status: 0 done,\n"
	"1 the run failed, 2 bad usage or input.\n";

int main(int argc, char **argv)
{
	if (argc < 2)
		return fputs(usage, stderr), 2;
	const char *cmd = argv[1];
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help"))
		return fputs(usage, stdout), 0;
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version"))
		return printf("slabsim %s, model %s\n", SLABSIM_VERSION, report_model_digest()), 0;
	if (!strcmp(cmd, "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(cmd, "list"))
		return cmd_list(argc - 1, argv + 1);
	if (!strcmp(cmd, "show"))
		return cmd_show(argc - 1, argv + 1);
	if (!strcmp(cmd, "sweep"))
		return cmd_sweep(argc - 1, argv + 1);
	if (!strcmp(cmd, "merge"))
		return cmd_merge(argc - 1, argv + 1);
	if (!strcmp(cmd, "plot"))
		return cmd_plot(argc - 1, argv + 1);
	if (!strcmp(cmd, "trace"))
		return cmd_trace(argc - 1, argv + 1);
	if (!strcmp(cmd, "bench"))
		return cmd_bench(argc - 1, argv + 1);
	if (!strcmp(cmd, "validate"))
		return cmd_validate(argc - 1, argv + 1);
	if (!strcmp(cmd, "sensitivity"))
		return cmd_sensitivity(argc - 1, argv + 1);
	if (!strcmp(cmd, "diff"))
		return cmd_diff(argc - 1, argv + 1);
	if (!strcmp(cmd, "calibrate"))
		return cmd_calibrate(argc - 1, argv + 1);
	if (!strcmp(cmd, "tune"))
		return cmd_tune(argc - 1, argv + 1);
	const char *commands = "run sweep merge plot list show trace bench validate sensitivity diff "
		"calibrate tune";
	char near[96];
	return cli_usage_error("unknown command '%s'%s; commands: %s (slabsim --help)", cmd,
			       suggest_near(cmd, commands, near, sizeof(near)), commands);
}
