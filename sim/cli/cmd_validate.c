/* cmd_validate.c - `slabsim validate`: its options, then the validation
 * study (study/validate_study.h) run, the table printed; --list prints the
 * cases and their checks, --fitted the fitted figures and their digest. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "study/validate_study.h"

static const char validate_help[] =
	"usage: slabsim validate [CASE ...] [--quick] [-j N] [--out DIR] [--from DIR] [--resume]\n"
	"                        [--ci-target F] [--no-plot] [--list] [--fitted]\n"
	"\n"
	"Run the validation cases (validation/*.json: published results the model must\n"
	"predict, each with the runs that reproduce it and an acceptance band per figure)\n"
	"and print one table: case, check, published, simulated (the mean over the case's\n"
	"replicates), its 95% confidence interval, error, band, verdict, and the run's most\n"
	"waited-on lock and top profile symbol. Writes DIR/summary.json, DIR/table.txt,\n"
	"DIR/CASE.jsonl (every run's JSON) and DIR/validation.png (simulated against\n"
	"published, log-log, with the y = x line and each band).\n"
	"\n"
	"  CASE        a case name (C1, V4, ...) or a case file; default: every case\n"
	"  --quick     only the cases marked quick (they run in seconds; make test)\n"
	"  -j N        runs at a time (default: the CPU count)\n"
	"  --out DIR   results folder (default out/validation)\n"
	"  --from DIR  run nothing: judge the runs an earlier validate left in DIR (its\n"
	"              CASE.jsonl), as after a change of a case's checks or bands; refused\n"
	"              when a fitted figure has changed since\n"
	"  --resume    keep the runs an interrupted validate left in DIR (--out) and do\n"
	"              the rest; refused when a fitted figure has changed since\n"
	"  --ci-target F  add seeds to each point, two at first, then one at a time, until\n"
	"              the 95% CI of its main metric is within F of its mean (0.05:\n"
	"              +-5%) or it has the case's replicates (instead of each case's own\n"
	"              ci_target); summary.json says how many each check's point took\n"
	"  --no-plot   write no plot\n"
	"  --list      list the cases and their checks, run nothing\n"
	"  --fitted    print every machine's fitted figures and their digest (summary.json\n"
	"              keeps the digest: a fitted figure changed since shows there)\n"
	"\n"
	"validation/README.md documents the case files. Exit status: 0 every check inside\n"
	"its band, 1 a check outside it (or a run failed), 2 bad usage or input.\n";

/* The command line: the study's options, the case names they point to, and
 * the two modes that run nothing. */
struct val_cli {
	struct validate_opts o;
	const char **names;
	bool list, fitted;
};

/* A line of the study for the user: on stderr, a failed run's after "slabsim: ". */
static void print_note(void *ctx, bool failure, const char *line)
{
	(void)ctx;
	fprintf(stderr, "%s%s\n", failure ? "slabsim: " : "", line);
}

/* -j N: runs at a time, 1 to 4096; 0, or 2 after a message. */
static int parse_jobs(const char *arg, int *jobs)
{
	char *end;
	long j = strtol(arg, &end, 10);
	if (*end || end == arg || j < 1 || j > 4096)
		return cli_usage_error("-j: expected a count from 1 to 4096, not '%s'", arg);
	*jobs = (int)j;
	return 0;
}

/* The defaults: every CPU, out/validation, the study's notes on stderr. */
static void default_opts(struct val_cli *c, int argc)
{
	memset(c, 0, sizeof(*c));
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	c->o.jobs = ncpu > 0 ? (int)ncpu : 1;
	c->o.out = "out/validation";
	c->o.note = print_note;
	c->names = calloc((size_t)argc + 1, sizeof(*c->names));
	c->o.names = c->names;
}

/* The options and the case names; -1 to go on, else the exit status (0 after --help). */
static int parse_opts(int argc, char **argv, struct val_cli *c)
{
	struct validate_opts *o = &c->o;
	default_opts(c, argc);
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' }, { "quick", no_argument, NULL, 'q' },
		{ "no-plot", no_argument, NULL, 'n' }, { "list", no_argument, NULL, 'l' },
		{ "fitted", no_argument, NULL, 'F' }, { "out", required_argument, NULL, 'o' },
		{ "from", required_argument, NULL, 'f' }, { "resume", no_argument, NULL, 'r' },
		{ "ci-target", required_argument, NULL, 'c' }, { NULL, 0, NULL, 0 } };
	optind = 0;
	for (int ch; (ch = cli_getopt("validate", argc, argv, "hj:", longopts)) != -1;) {
		switch (ch) {
		case 'h':
			fputs(validate_help, stdout);
			return 0;
		case 'q': o->quick = true; break;
		case 'n': o->no_plot = true; break;
		case 'l': c->list = true; break;
		case 'F': c->fitted = true; break;
		case 'o': o->out = optarg; break;
		case 'f': o->from = optarg; break;
		case 'r': o->resume = true; break;
		case 'c':
			if (cli_ci_target("validate", optarg, &o->ci_target))
				return 2;
			break;
		case 'j':
			if (parse_jobs(optarg, &o->jobs))
				return 2;
			break;
		default:
			return 2;
		}
	}
	for (; optind < argc; optind++)
		c->names[o->nnames++] = argv[optind];
	if (o->resume && o->from)
		return cli_usage_error("--resume runs the rest of --out's cases; --from runs "
				       "nothing: give one of them");
	return -1;
}

/* --fitted: every machine's fitted figures and their digest; the exit status. */
static int print_fitted(void)
{
	char digest[17];
	struct sim_err err;
	cJSON *fit = validate_fitted(digest, &err);
	if (!fit)
		return cli_usage_error("%s", err.msg);
	for (const cJSON *l = fit->child; l; l = l->next)
		printf("%s\n", l->valuestring);
	printf("fitted digest %s\n", digest);
	cJSON_Delete(fit);
	return 0;
}

/* --list: each case with its runs and citation, then its checks' published figures and
 * bands; the exit status. */
static int list_cases(const struct validate_opts *o)
{
	struct val_case *cs;
	struct sim_err err;
	int n = validate_load_cases(o, &cs, &err);
	if (n < 0)
		return cli_usage_error("%s", err.msg);
	for (int i = 0; i < n; i++) {
		printf("%s%s: %s (%d runs)\n  %s\n", cs[i].name, cs[i].quick ? " [quick]" : "",
		       cs[i].title, experiment_runs(&cs[i].e), cs[i].citation);
		for (int k = 0; k < cs[i].nchecks; k++)
			printf("    %-32s published %g %s, band %g..%g\n", cs[i].checks[k].name,
			       cs[i].checks[k].published, cs[i].checks[k].unit ? cs[i].checks[k].unit : "",
			       cs[i].checks[k].low, cs[i].checks[k].high);
		val_case_free(&cs[i]);
	}
	free(cs);
	return 0;
}

/* Run the study: the table once every check is judged, then what went wrong (exit 2) or
 * the plot that could not be made; the exit status. */
static int run_cases(const struct validate_opts *o)
{
	struct validate_result res;
	struct sim_err err;
	int rc = validate_cases(o, &res, &err);
	if (res.judged)
		validate_print_table(stdout, &res);
	if (rc < 0)
		rc = cli_usage_error("%s", err.msg);
	else if (res.plot_error[0])
		fprintf(stderr, "slabsim: %s (the table and summary.json are written)\n",
			res.plot_error);
	validate_result_free(&res);
	return rc;
}

int cmd_validate(int argc, char **argv)
{
	struct val_cli c;
	int status = parse_opts(argc, argv, &c);
	if (status < 0 && c.fitted)
		status = print_fitted();
	else if (status < 0 && c.list)
		status = list_cases(&c.o);
	else if (status < 0)
		status = run_cases(&c.o);
	free(c.names);
	return status;
}
