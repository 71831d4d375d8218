/* cmd_merge.c - `slabsim merge`: join the results folders of one
 * experiment's shards (Slurm array tasks, GNU parallel jobs, or sweeps on
 * several machines) into one, with its summary and plots
 * (study/sweep_merge.h); here its options and what it found. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "study/sweep_merge.h"

static const char merge_help[] =
	"usage: slabsim merge DIR... --out DIR [--format png|svg] [--no-plot]\n"
	"\n"
	"Join the results folders of one experiment, e.g. those written by\n"
	"`slabsim sweep EXP.json --shard I/N --out part-I`, into --out: runs.jsonl\n"
	"(in run order), summary.json, summary.csv and the plots. Every folder must\n"
	"come from the same experiment file, overrides and replicates. A run found\n"
	"in two folders is kept once; runs found in none are reported.\n"
	"\n"
	"exit status: 0 every run is there and passed its invariants, 1 runs are\n"
	"missing or one failed, 2 bad usage or input\n";

int cmd_merge(int argc, char **argv)
{
	const char *dirs[1024], *out = NULL, *format = "png";
	int ndirs = 0;
	bool no_plot = false;
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' }, { "out", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' }, { "no-plot", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 } };
	optind = 0;
	for (int c; (c = cli_getopt("merge", argc, argv, "h", longopts)) != -1;) {
		switch (c) {
		case 'h': return fputs(merge_help, stdout), 0;
		case 'o': out = optarg; break;
		case 'f': format = optarg; break;
		case 'n': no_plot = true; break;
		default: return 2;
		}
	}
	for (; optind < argc && ndirs < 1024; optind++)
		dirs[ndirs++] = argv[optind];
	if (!ndirs || !out)
		return cli_usage_error("merge: usage: slabsim merge DIR... --out DIR");
	if (strcmp(format, "png") && strcmp(format, "svg"))
		return cli_usage_error("merge: --format %s: expected png or svg", format);
	struct sweep_merge_options mo = { .dirs = dirs, .ndirs = ndirs, .out = out,
					  .format = format, .no_plot = no_plot };
	struct sweep_merged m;
	struct sim_err err;
	if (sweep_merge(&mo, &m, &err) < 0)
		return cli_usage_error("merge: %s", err.msg);
	printf("merged %d folders into %s: %d of %d runs", ndirs, out, m.have, m.runs);
	if (m.have < m.runs)
		printf(" (%d missing: run the missing shards, or `slabsim sweep ... --resume "
		       "--out %s`; plots wait for every run)", m.runs - m.have, out);
	printf("\n");
	return m.failed || m.have < m.runs ? 1 : 0;	/* an afterok chain must notice */
}
