/* cmd_run.c - `slabsim run`: one simulation, its text report and JSON. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "report/gnuplot.h"
#include "report/outfile.h"
#include "report/report.h"
#include "run/run_core.h"

static const char run_help[] =
	"usage: slabsim run -m MACHINE -p POLICY -w WORKLOAD [NAME=VALUE ...]\n"
	"                   [--seed N] [--json FILE] [--profile-rows N] [--quiet]\n"
	"                   [--compare]           (slab_test: published figures beside)\n"
	"                   [--plot FILE.png]     (pingpong: its heatmap)\n"
	"\n"
	"Simulate WORKLOAD on MACHINE with the slab allocator POLICY and print the\n"
	"workload's own result (hackbench: Time: S.MS), a slabinfo-style cache table\n"
	"with the allocator's statistics, a lock_stat-style lock table and a\n"
	"perf-report-style profile by kernel symbol. Invariants are checked at the end.\n"
	"\n"
	"  -m, --machine NAME   a machine of `slabsim list machines`, or a JSON file path\n"
	"  -p, --policy NAME    an allocator of `slabsim list policies`\n"
	"  -w, --workload CMD   the workload's command line, e.g. 'hackbench 100 process 2000'\n"
	"  NAME=VALUE           any kernel, policy or workload parameter, e.g.\n"
	"                       slub_min_objects=8 slub_max_order=3 kernel=2.6.25 loops=200\n"
	"                       (`slabsim list params` shows them all)\n"
	"  --seed N             the run's random seed (default 1); same seed, same JSON\n"
	"  --json FILE          also write the results as JSON (a new or regular file is\n"
	"                       replaced atomically, a link written through; -: standard\n"
	"                       output, the report then goes to standard error)\n"
	"  --plot FILE.png      pingpong only: draw its hand-off heatmap with gnuplot; the\n"
	"                       data (FILE.png.dat) and script (FILE.png.gp) stay beside it\n"
	"  --compare            slab_test only: print the published figures beside its own\n"
	"                       (validation case C2; SLUB's are the 2.6.26 era's: give\n"
	"                       kernel=2.6.26 to compare like with like)\n"
	"  --profile-rows N     symbols shown in the profile (default 25)\n"
	"  --quiet              print only the workload's result line\n"
	"\n"
	"exit status: 0 done, 1 the run failed (invariant or stall), 2 bad usage or input\n";

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (!*s || *end || errno || *s == '-')
		return -1;
	*out = v;
	return 0;
}

/* Write what the run allocated and freed as an ftrace kmem trace (a file
 * as outfile.h writes it). */
static int write_record(struct run *r, const char *path, struct sim_err *err)
{
	struct out_file o;
	FILE *f = out_open(&o, path, err);
	if (!f)
		return -1;
	return out_close(&o, kmem_rec_write(&r->k, f) == 0, err);
}

int cmd_run(int argc, char **argv)
{
	return cmd_run_record(argc, argv, NULL);
}

int cmd_run_record(int argc, char **argv, const char *record)
{
	struct run_config cfg = { .seed = 1, .record = record != NULL };
	const char *json = NULL, *plot = NULL;
	const char **assign = calloc((size_t)argc + 1, sizeof(*assign));
	int rows = 25;
	bool quiet = false;
	int status = 2;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *next = i + 1 < argc ? argv[i + 1] : NULL;
		bool has = next != NULL;
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(run_help, stdout);
			free(assign);
			return 0;
		} else if (!strcmp(a, "-m") || !strcmp(a, "--machine")) {
			if (!has)
				goto missing;
			cfg.machine = argv[++i];
		} else if (!strcmp(a, "-p") || !strcmp(a, "--policy")) {
			if (!has)
				goto missing;
			cfg.policy = argv[++i];
		} else if (!strcmp(a, "-w") || !strcmp(a, "--workload")) {
			if (!has)
				goto missing;
			cfg.workload = argv[++i];
		} else if (!strcmp(a, "--seed")) {
			if (!has)
				goto missing;
			if (parse_u64(argv[++i], &cfg.seed) < 0) {
				status = cli_usage_error("--seed %s: not a non-negative integer", argv[i]);
				goto out;
			}
		} else if (!strcmp(a, "--json")) {
			if (!has)
				goto missing;
			json = argv[++i];
		} else if (!strcmp(a, "--plot")) {
			if (!has)
				goto missing;
			plot = argv[++i];
		} else if (!strcmp(a, "--profile-rows")) {
			uint64_t v;
			if (!has)
				goto missing;
			if (parse_u64(argv[++i], &v) < 0 || v > 1000) {
				status = cli_usage_error("--profile-rows %s: expected 0..1000", argv[i]);
				goto out;
			}
			rows = (int)v;
		} else if (!strcmp(a, "--compare")) {
			cfg.compare = true;
		} else if (!strcmp(a, "--quiet")) {
			quiet = true;
		} else if (!strcmp(a, "--check")) {
			/* invariants are always checked at the end of a run */
		} else if (a[0] != '-' && strchr(a, '=')) {
			assign[cfg.nassign++] = a;
		} else {
			if (a[0] >= '0' && a[0] <= '9')	/* -w hackbench 2 thread: no quotes */
				status = cli_usage_error("run: unknown argument '%s': a workload's "
							 "arguments go inside its quotes, as -w "
							 "'hackbench 10 process 100'", a);
			else if (a[0] != '-')	/* "slub_min_objects 8": a parameter without its = */
				status = cli_usage_error("run: unknown argument '%s': parameters are "
							 "written NAME=VALUE, as %s=VALUE "
							 "(slabsim run --help)", a, a);
			else
				status = cli_usage_error("run: unknown argument '%s' (slabsim run "
							 "--help)", a);
			goto out;
		}
		continue;
missing:
		status = cli_usage_error("run: %s needs a value (slabsim run --help)", a);
		goto out;
	}
	if (!cfg.machine || !cfg.policy || !cfg.workload) {
		status = cli_usage_error("run: -m MACHINE, -p POLICY and -w WORKLOAD are required "
					 "(slabsim run --help)");
		goto out;
	}
	cfg.assign = assign;
	struct run *r = calloc(1, sizeof(*r));
	struct sim_err err;
	if (!r) {
		status = cli_usage_error("out of memory");
		goto out;
	}
	bool configured = run_configure(r, &cfg, &err) == 0;
	if (configured && *run_policy_note(r))
		fprintf(stderr, "slabsim: note: %s\n", run_policy_note(r));
	if (configured && cfg.compare && !strcmp(r->policy->name, "slub") &&
	    strcmp(param_str(&r->kparams, "kernel"), "2.6.26"))
		fprintf(stderr, "slabsim: note: the published SLUB figures (C2) are of the 2.6.26 "
			"era; this run is kernel=%s (give kernel=2.6.26 to compare like with "
			"like)\n", param_str(&r->kparams, "kernel"));
	if (!configured) {
		status = cli_usage_error("%s", err.msg);
	} else if (cfg.compare && !r->wl->compare) {
		status = cli_usage_error("--compare: workload %s has no published figures to "
					 "compare with (slab_test has)", r->wl->name);
	} else if (plot && !r->wl->plot) {
		status = cli_usage_error("--plot: workload %s draws no plot (pingpong does)",
					 r->wl->name);
	} else if (plot && plot_check(plot, &err) < 0) {
		status = cli_usage_error("--plot: %s", err.msg);
	} else if ((json && out_check(json, &err) < 0) ||
		   (record && out_check(record, &err) < 0)) {
		status = cli_usage_error("%s", err.msg);	/* before the run, not after */
	} else {
		int rc = run_execute(r, &err);
		if (rc < 0) {
			status = cli_usage_error("%s", err.msg);
		} else {
			/* --json -: the JSON alone on standard output, the report on stderr */
			FILE *txt = json && !strcmp(json, "-") ? stderr : stdout;
			if (quiet) {
				fprintf(txt, "%s\n", r->res.line);
				if (r->wl->print)
					r->wl->print(r->wstate, txt, cfg.compare);
			}
			else
				report_text(txt, r, rows);
			status = rc == 0 ? 0 : 1;
			fflush(stdout);	/* the report first, then any complaint */
			if (rc != 0)
				fprintf(stderr, "slabsim: run failed: %s\n", r->invariants_msg);
			if (json) {
				cJSON *root = report_json(r);
				if (report_write_json(json, root, &err) < 0)
					status = cli_usage_error("%s", err.msg);
				cJSON_Delete(root);
			}
			if (plot && rc == 0 && plot_draw(plot, r->wl->plot, r->wstate, &err) < 0)
				status = cli_usage_error("%s", err.msg);
			if (record && write_record(r, record, &err) < 0)
				status = cli_usage_error("%s", err.msg);
			else if (record)
				fprintf(stderr, "slabsim: %llu kmem events written to %s\n",
					(unsigned long long)r->k.kmem.nrec, record);
		}
	}
	run_free(r);
	free(r);
out:
	free(assign);
	return status;
}
