/* cmd_diff.c - `slabsim diff A B`: two runs side by side with the deltas,
 * like perf diff; each a run's JSON or one run of a results folder. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "engine/json_in.h"
#include "report/run_diff.h"

static const char diff_help[] =
	"usage: slabsim diff A B [--format text|markdown] [--limit N]\n"
	"\n"
	"Two runs side by side, like perf diff: what differs in their inputs, the\n"
	"workload's figure, CPU shares, memory and the scheduler, then the lock\n"
	"table, the profile and each cache's statistics (per 1000 allocations)\n"
	"with the largest changes first. A and B are each\n"
	"  FILE.json                   a run's JSON (slabsim run --json FILE.json)\n"
	"  DIR:NAME=VALUE[,NAME=VALUE] the one run of results folder DIR (its\n"
	"                              runs.jsonl) with those inputs; NAME is\n"
	"                              machine, policy, workload, seed, replicate\n"
	"                              (0, 1, ...) or any kernel, policy or\n"
	"                              workload parameter (e.g.\n"
	"                              results/demo:slub_min_objects=8,replicate=0)\n"
	"  FILE.jsonl[:NAME=VALUE,...]  the one run of a runs file with those inputs\n"
	"                              (a validation case's, e.g.\n"
	"                              results/validation/C1.jsonl:slub_min_objects=8,replicate=0)\n"
	"\n"
	"  --format F   text (default) or markdown (tables for a mailing-list post)\n"
	"  --limit N    rows of each ranked table (default 10; 0 for all)\n"
	"\n"
	"exit status: 0 done, 2 bad usage or input\n";

/* Does run `r` have every NAME=VALUE of the comma-separated `sel`? Numbers
 * compare as numbers (64 = 64.0). An unknown NAME sets *unknown. */
static bool run_matches(const cJSON *r, const char *sel, const char **unknown)
{
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", sel);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		if (!eq)
			return false;
		*eq = 0;
		char have[256];
		if (!run_diff_param(r, tok, have, sizeof(have))) {
			*unknown = sel;
			return false;
		}
		char *ea, *eb;
		double x = strtod(have, &ea), y = strtod(eq + 1, &eb);
		bool numeric = *have && !*ea && eq[1] && !*eb;
		if (numeric ? x != y : strcmp(have, eq + 1) != 0)
			return false;
	}
	return true;
}

/* Check a selector's form: NAME=VALUE pairs. */
static bool selector_ok(const char *sel)
{
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s", sel);
	int n = 0;
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save), n++) {
		char *eq = strchr(tok, '=');
		if (!eq || eq == tok || !eq[1])
			return false;
	}
	return n > 0 && strlen(sel) < sizeof(buf);
}

/* qsort order of two longs. */
static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* The one run of the runs file `path` (a sweep's runs.jsonl, a validation
 * case's CASE.jsonl) that `sel` (may be NULL) picks, or NULL after a
 * message; `dir` names the file in them. */
static cJSON *load_from_jsonl(const char *spec, const char *path, const char *dir,
			      const char *sel)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		cli_usage_error("diff: %s: cannot read %s (%s)", spec, path, strerror(errno));
		return NULL;
	}
	cJSON *found = NULL;
	int matches = 0, runs = 0;
	const char *unknown = NULL;
	long rep_no[64];
	int nrep = 0;
	char reps[256] = "";
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) > 0) {
		cJSON *r = cJSON_Parse(line);
		if (!r || !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(r, "result"))) {
			cJSON_Delete(r);
			continue;
		}
		runs++;
		if (sel && !run_matches(r, sel, &unknown)) {
			cJSON_Delete(r);
			continue;
		}
		char rep[32];
		if (run_diff_param(r, "replicate", rep, sizeof(rep)) &&
		    nrep < (int)(sizeof(rep_no) / sizeof(rep_no[0])))
			rep_no[nrep++] = strtol(rep, NULL, 10);
		if (++matches == 1)
			found = r;
		else
			cJSON_Delete(r);
	}
	free(line);
	fclose(f);
	if (matches == 1)
		return found;
	/* runs.jsonl is in finishing order; name the replicates in number order */
	qsort(rep_no, nrep, sizeof(rep_no[0]), cmp_long);
	for (int i = 0; i < nrep && strlen(reps) + 24 < sizeof(reps); i++)
		snprintf(reps + strlen(reps), sizeof(reps) - strlen(reps), "%s%ld",
			 i ? ", " : "", rep_no[i]);
	cJSON_Delete(found);
	if (!runs)
		cli_usage_error("diff: %s: %s has no finished run", spec, path);
	else if (!matches && unknown)
		cli_usage_error("diff: %s: a name in '%s' is none of machine, policy, workload, "
				"seed, replicate or a parameter of the runs in %s", spec, unknown, dir);
	else if (!matches)
		cli_usage_error("diff: %s: none of the %d runs in %s has %s", spec, runs, dir, sel);
	else if (!sel)
		cli_usage_error("diff: %s holds %d runs; pick one with %s:NAME=VALUE[,NAME=VALUE...]",
				spec, matches, dir);
	else
		cli_usage_error("diff: %s: %d runs match%s%s%s; pick one, e.g. with "
				",replicate=N", spec, matches, *reps ? " (replicates " : "", reps,
				*reps ? ")" : "");
	return NULL;
}

/* The one run of results folder `dir` (its runs.jsonl) that `sel` picks. */
static cJSON *load_from_folder(const char *spec, const char *dir, const char *sel)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/runs.jsonl", dir);
	if (access(path, R_OK) < 0) {
		cli_usage_error("diff: %s: no runs.jsonl in %s (%s)", spec, dir, strerror(errno));
		return NULL;
	}
	return load_from_jsonl(spec, path, dir, sel);
}

/* Does `path` name a runs file (a regular file whose name ends in .jsonl)? */
static bool is_jsonl(const char *path)
{
	struct stat st;
	size_t n = strlen(path);
	return n > 6 && !strcmp(path + n - 6, ".jsonl") && stat(path, &st) == 0 &&
	       S_ISREG(st.st_mode);
}

/* A or B: a run's JSON file, DIR[:SELECTORS] or FILE.jsonl[:SELECTORS]. */
static cJSON *load_run(const char *spec)
{
	char dir[4096];
	const char *colon = strrchr(spec, ':');
	struct stat st;
	if (stat(spec, &st) == 0 && S_ISDIR(st.st_mode))
		return load_from_folder(spec, spec, NULL);
	if (is_jsonl(spec))
		return load_from_jsonl(spec, spec, spec, NULL);
	if (colon && (size_t)(colon - spec) < sizeof(dir)) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(colon - spec), spec);
		bool folder = stat(dir, &st) == 0 && S_ISDIR(st.st_mode), runs = is_jsonl(dir);
		if ((folder || runs) && !selector_ok(colon + 1)) {
			cli_usage_error("diff: %s: expected %s:NAME=VALUE[,NAME=VALUE...]", spec,
					folder ? "DIR" : "FILE.jsonl");
			return NULL;
		}
		if (folder)
			return load_from_folder(spec, dir, colon + 1);
		if (runs)
			return load_from_jsonl(spec, dir, dir, colon + 1);
	}
	struct sim_err err;
	cJSON *r = json_read_file(spec, &err);
	if (!r) {
		cli_usage_error("diff: %s", err.msg);
		return NULL;
	}
	if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(r, "result")) ||
	    !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(r, "machine"))) {
		cJSON_Delete(r);
		cli_usage_error("diff: %s is not a run's JSON (slabsim run --json FILE)", spec);
		return NULL;
	}
	return r;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { .format = DIFF_TEXT, .limit = 10 };
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' }, { "format", required_argument, NULL, 'f' },
		{ "limit", required_argument, NULL, 'l' }, { NULL, 0, NULL, 0 } };
	optind = 0;
	for (int c; (c = cli_getopt("diff", argc, argv, "h", longopts)) != -1;) {
		char *end;
		switch (c) {
		case 'h': return fputs(diff_help, stdout), 0;
		case 'f':
			if (!strcmp(optarg, "text"))
				o.format = DIFF_TEXT;
			else if (!strcmp(optarg, "markdown"))
				o.format = DIFF_MARKDOWN;
			else
				return cli_usage_error("diff: --format %s: expected text or markdown",
						       optarg);
			break;
		case 'l': {
			long v = strtol(optarg, &end, 10);
			if (!*optarg || *end || v < 0 || v > 100000)
				return cli_usage_error("diff: --limit %s: expected a count, 0 for all",
						       optarg);
			o.limit = (int)v;
			break;
		}
		default: return 2;
		}
	}
	if (argc - optind != 2)
		return cli_usage_error("diff: expected two runs, A and B (slabsim diff --help)");
	o.name_a = argv[optind];
	o.name_b = argv[optind + 1];
	cJSON *a = load_run(o.name_a);
	if (!a)
		return 2;
	cJSON *b = load_run(o.name_b);
	if (!b) {
		cJSON_Delete(a);
		return 2;
	}
	run_diff_print(stdout, a, b, &o);
	cJSON_Delete(a);
	cJSON_Delete(b);
	return 0;
}
