/* cmd_merge.c - `slabsim merge`: join the results folders of one
 * experiment's shards (Slurm array tasks, GNU parallel jobs, or sweeps on
 * several machines) into one, with its summary and plots. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "study/sweep.h"

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

/* Every shard's runs.jsonl into RUNS (a run index a slot); 0, or 2 after a message. */
static int load_shards(const char *const *dirs, int ndirs, struct experiment *e, cJSON **runs)
{
	struct sim_err err;
	for (int d = 0; d < ndirs; d++) {
		char path[4200];
		snprintf(path, sizeof(path), "%s/runs.jsonl", dirs[d]);
		if (access(path, R_OK) < 0)
			return cli_usage_error("merge: %s: no runs.jsonl", dirs[d]);
		if (runs_load(path, e, runs, false, false, &err) < 0)
			return cli_usage_error("merge: %s", err.msg);
	}
	return 0;
}

/* OUT with the experiment and every run found, in run order; 0, or 2 after
 * a message. *HAVE gets the runs found, *FAILED those that broke an invariant. */
static int write_merged(const char *out, struct experiment *e, cJSON **runs, int *have,
			int *failed)
{
	struct sim_err err;
	char path[4200];
	snprintf(path, sizeof(path), "%s/runs.jsonl", out);
	int fd = -1, status = 0;
	if (sweep_make_dirs(out, &err) < 0 || sweep_write_meta(out, e, NULL, &err) < 0)
		return cli_usage_error("merge: %s", err.msg);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0)
		return cli_usage_error("merge: cannot write %s: %s", path, strerror(errno));
	for (int i = 0; i < experiment_runs(e) && !status; i++) {
		if (!runs[i])
			continue;
		(*have)++;
		const char *inv = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(runs[i],
											"invariants"));
		*failed += !inv || strcmp(inv, "ok");
		char *line = cJSON_PrintUnformatted(runs[i]);
		if (runs_append(fd, line, &err) < 0)
			status = cli_usage_error("merge: %s", err.msg);
		free(line);
	}
	close(fd);
	return status;
}

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
	struct experiment e;
	struct sim_err err;
	if (sweep_load_dir(dirs[0], &e, &err) < 0) {
		experiment_free(&e);
		return cli_usage_error("merge: %s", err.msg);
	}
	int nruns = experiment_runs(&e), have = 0, failed = 0;
	cJSON **runs = calloc((size_t)nruns + 1, sizeof(*runs));
	int status = load_shards(dirs, ndirs, &e, runs);
	if (!status)
		status = write_merged(out, &e, runs, &have, &failed);
	if (!status && sweep_finish(out, &e, runs, no_plot, format, &err) < 0)
		status = cli_usage_error("merge: %s", err.msg);
	if (!status) {
		printf("merged %d folders into %s: %d of %d runs", ndirs, out, have, nruns);
		if (have < nruns)
			printf(" (%d missing: run the missing shards, or `slabsim sweep ... --resume "
			       "--out %s`; plots wait for every run)", nruns - have, out);
		printf("\n");
		status = failed || have < nruns ? 1 : 0;	/* an afterok chain must notice */
	}
	for (int i = 0; i < nruns; i++)
		cJSON_Delete(runs[i]);
	free(runs);
	experiment_free(&e);
	return status;
}
