/* cmd_plot.c - `slabsim plot`: (re)draw a results folder's plots from its
 * summary.json, e.g. as svg for a mailing-list post. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engine/json_in.h"
#include "report/sweep_plot.h"

static const char plot_help[] =
	"usage: slabsim plot RESULTS [--format png|svg]\n"
	"\n"
	"Draw the plots of a sweep's results folder (RESULTS, or RESULTS/summary.json)\n"
	"with gnuplot: metric.FMT (the experiment's main metric against its x axis,\n"
	"95% CI error bars, one line per machine, policy, workload or other axis\n"
	"value), lock-wait.FMT (share of CPU time spinning), profile.FMT (a stacked\n"
	"bar of the top kernel symbols per point) and memory.FMT (slab memory against\n"
	"the main metric). Each keeps its .dat and .gp beside it: edit the .gp and\n"
	"run gnuplot on it to restyle.\n";

int cmd_plot(int argc, char **argv)
{
	const char *dir = NULL, *format = "png";
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' }, { "format", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 } };
	optind = 0;
	for (int c; (c = cli_getopt("plot", argc, argv, "h", longopts)) != -1;) {
		if (c == CLI_OPT_ERROR)
			return 2;
		if (c == 'h')
			return fputs(plot_help, stdout), 0;
		format = optarg;	/* 'f' */
		if (strcmp(format, "png") && strcmp(format, "svg"))
			return cli_usage_error("plot: --format %s: expected png or svg", format);
	}
	if (optind < argc)
		dir = argv[optind++];
	if (optind < argc)
		return cli_usage_error("plot: unknown argument '%s' (slabsim plot --help)",
				       argv[optind]);
	if (!dir)
		return cli_usage_error("plot: which results? slabsim plot RESULTS_DIR");
	char folder[4096], path[4200];
	snprintf(folder, sizeof(folder), "%s", dir);
	size_t len = strlen(folder);
	if (len > 13 && !strcmp(folder + len - 13, "/summary.json"))
		folder[len - 13] = 0;
	snprintf(path, sizeof(path), "%s/summary.json", folder);
	size_t size;
	char *text = file_read_text(path, &size);
	if (!text)
		return cli_usage_error("plot: %s: no summary.json (is it a sweep's results folder?)",
				       folder);
	cJSON *s = cJSON_Parse(text);
	free(text);
	if (!s)
		return cli_usage_error("plot: %s is not JSON", path);
	struct sim_err err;
	int rc = sweep_plot(folder, s, format, &err);
	cJSON_Delete(s);
	if (rc < 0)
		return cli_usage_error("plot: %s: %s", folder, err.msg);
	printf("wrote %s/metric.%s, lock-wait.%s, profile.%s and memory.%s (with .dat and .gp)\n",
	       folder, format, format, format, format);
	return 0;
}
