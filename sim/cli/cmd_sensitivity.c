/* cmd_sensitivity.c - `slabsim sensitivity CASE`: its options into a
 * sensitivity study (study/sensitivity.h), then its figures (--list) or
 * where its results are; each variant run is announced on stderr. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "study/sensitivity.h"

static const char sensitivity_help[] =
	"usage: slabsim sensitivity CASE [NAME=VALUE ...] [--figures LIST] [--all]\n"
	"                           [--replicates N] [--morris R] [--levels P] [--seed S]\n"
	"                           [--limit N] [-j N] [--out DIR] [--runs DIR]\n"
	"                           [--no-plot] [--list]\n"
	"\n"
	"How much a validation case's figures depend on numbers nobody measured:\n"
	"every estimated or fitted figure of the case's machines and their cost\n"
	"tables, each with the range its machine file gives it (\"ranges\"; without\n"
	"one an estimate or a fitted figure +-25%, a measured one +-5%). Each figure\n"
	"is set to the low and to the high end of its range, one at a time, and the\n"
	"case is run as `slabsim validate` runs it; the table gives, for each check,\n"
	"the figures that move it most: the change at each end and the effect\n"
	"(high minus low) as a share of the check's value at the figures' own\n"
	"values, with a 95% CI when the case has 2 replicates or more.\n"
	"\n"
	"  CASE           a case name (C3, V1, ...) or a case file\n"
	"  NAME=VALUE     set a parameter of every run (a smaller size: loops=200)\n"
	"  --figures LIST comma-separated patterns of figures (NAME or MACHINE:NAME,\n"
	"                 shell wildcards: 'handoff_cycles.*,costs.slub.*')\n"
	"  --all          measured figures too\n"
	"  --replicates N replicates a point (default: the case's)\n"
	"  --morris R     also a Morris screening of R trajectories (R x (figures+1)\n"
	"                 runs of the case): each figure's mean |elementary effect|\n"
	"                 (mu*), mean (mu) and sd (sigma), all figures moving together\n"
	"  --levels P     the Morris grid's levels (even, default 4)\n"
	"  --seed S       the Morris design's seed (default 1)\n"
	"  --limit N      figures a check in the table (default 10; 0 for all)\n"
	"  -j N           runs at a time (default: the CPU count)\n"
	"  --out DIR      results folder (default out/sensitivity-CASE); each variant's\n"
	"                 runs stay in DIR/runs/, and a variant already run is kept\n"
	"  --runs DIR     keep the variants' runs in DIR instead: a study of V8 reads\n"
	"                 those of a study of C1 with the same figures and NAME=VALUE;\n"
	"                 a variant there run with other files is refused, not replaced\n"
	"  --no-plot      write no plot\n"
	"  --list         list the figures and their ranges, run nothing\n"
	"\n"
	"Writes DIR/sensitivity.json, DIR/table.txt and DIR/tornado-N.png (one a\n"
	"check). exit status: 0 done, 1 a variant's runs failed, 2 bad usage or input\n";

/* The command line: the study's options and --list. */
struct sens_cmd {
	struct sens_opts o;
	bool list;
};

/* The options; -1 to go on, else the exit status (0 after --help). */
static int parse_opts(int argc, char **argv, struct sens_cmd *cmd)
{
	struct sens_opts *o = &cmd->o;
	memset(cmd, 0, sizeof(*cmd));
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	o->jobs = ncpu > 0 ? (int)ncpu : 1;
	o->levels = 4;
	o->limit = 10;
	o->seed = 1;
	o->sets = calloc((size_t)argc + 1, sizeof(*o->sets));
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' }, { "all", no_argument, NULL, 'a' },
		{ "list", no_argument, NULL, 'l' }, { "no-plot", no_argument, NULL, 'n' },
		{ "figures", required_argument, NULL, 'f' }, { "out", required_argument, NULL, 'o' },
		{ "runs", required_argument, NULL, 'R' },
		{ "replicates", required_argument, NULL, 'r' },
		{ "morris", required_argument, NULL, 'm' }, { "levels", required_argument, NULL, 'L' },
		{ "seed", required_argument, NULL, 's' }, { "limit", required_argument, NULL, 'N' },
		{ NULL, 0, NULL, 0 } };
	optind = 0;
	for (int c; (c = cli_getopt("sensitivity", argc, argv, "hj:", longopts)) != -1;) {
		char *end = NULL;
		bool numeric = c > 0 && strchr("jrmLsN", c);
		long v = numeric ? strtol(optarg, &end, 10) : 0;
		bool bad = numeric && (end == optarg || *end || v < 0 || v > 100000);
		switch (c) {
		case 'h': fputs(sensitivity_help, stdout); return 0;
		case 'a': o->all = true; break;
		case 'l': cmd->list = true; break;
		case 'n': o->no_plot = true; break;
		case 'f': o->figures = optarg; break;
		case 'o': o->out = optarg; break;
		case 'R': o->runs = optarg; break;
		case 'j': o->jobs = (int)v; bad |= v < 1; break;
		case 'r': o->replicates = (int)v; bad |= v < 1; break;
		case 'm': o->morris = (int)v; break;
		case 'L': o->levels = (int)v; bad |= v < 2 || v % 2; break;
		case 's': o->seed = (unsigned long)v; break;
		case 'N': o->limit = (int)v; break;
		default: return 2;
		}
		if (bad)
			return cli_usage_error("sensitivity: %s %s: not a valid count%s", c == 'j' ? "-j"
					       : c == 'r' ? "--replicates" : c == 'm' ? "--morris"
					       : c == 'L' ? "--levels" : c == 's' ? "--seed" : "--limit",
					       optarg, c == 'L' ? " (an even number of levels >= 2)" : "");
	}
	for (; optind < argc; optind++) {
		if (strchr(argv[optind], '='))
			o->sets[o->nsets++] = argv[optind];
		else if (!o->casename)
			o->casename = argv[optind];
		else
			return cli_usage_error("sensitivity: one case at a time ('%s' and '%s')",
					       o->casename, argv[optind]);
	}
	if (!o->casename)
		return cli_usage_error("sensitivity: which case? (slabsim validate --list lists them)");
	return -1;
}

/* --list: each figure, its value, its range and where the range comes from. */
static void list_figures(const struct sens_figure *f, int n)
{
	static const char *const origin[] = { "measured", "estimate", "fitted" };
	printf("%-46s %10s %21s  %s\n", "figure", "value", "range", "range from");
	for (int i = 0; i < n; i++) {
		char name[200], range[64];
		snprintf(name, sizeof(name), "%s:%s", f[i].machine, f[i].name);
		snprintf(range, sizeof(range), "%g .. %g", f[i].lo, f[i].hi);
		printf("%-46s %10g %21s  %s%s%s\n", name, f[i].value, range, origin[f[i].origin],
		       f[i].range_given ? ", the machine file's range"
		       : f[i].origin == SENS_MEASURED ? ", +-5%" : ", +-25%",
		       f[i].clamped ? ", within its neighbour classes" : "");
	}
	printf("%d figures\n", n);
}

/* A variant as it starts, on stderr. */
static void announce(void *arg, int n, int total, const char *variant)
{
	(void)arg;
	fprintf(stderr, "sensitivity: variant %d of %d (%s)\n", n, total, variant);
}

int cmd_sensitivity(int argc, char **argv)
{
	struct sens_cmd cmd;
	int rc = parse_opts(argc, argv, &cmd);
	if (rc >= 0) {
		free(cmd.o.sets);
		return rc;
	}
	cmd.o.exe = "/proc/self/exe";
	cmd.o.echo = stdout;
	cmd.o.progress = announce;
	struct sens_study s;
	struct sim_err err;
	rc = cmd.list ? sens_study_open(&cmd.o, &s, &err) : sens_study_run(&cmd.o, &s, &err);
	if (rc != SENS_DONE)
		fprintf(stderr, "slabsim: %s\n", err.msg);
	else if (cmd.list)
		list_figures(s.f, s.nf);
	else
		printf("\nresults in %s\n", s.out);
	sens_study_free(&s);
	free(cmd.o.sets);
	return rc;
}
