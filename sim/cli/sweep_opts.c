/* sweep_opts.c - `slabsim sweep`'s options and its results folder. */
#include "sweep_opts.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "engine/json_in.h"
#include "study/sweep.h"

/* The whole string as a decimal number in [min, max]; -1 if it is not one. */
static int parse_count(const char *s, int min, int max, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (!*s || *end || errno || v < min || v > max)
		return -1;
	*out = (int)v;
	return 0;
}

/* One option C (its value V) of sweep into O; 0, or 2 after a message. */
static int one_opt(struct sweep_opts *o, int c, const char *v)
{
	char extra;
	switch (c) {
	case 'j':
		if (parse_count(v, 1, 4096, &o->jobs) < 0)
			return cli_usage_error("sweep: -j %s: expected 1..4096 workers", v);
		break;
	case 'r':
		if (parse_count(v, 1, 10000, &o->replicates) < 0)
			return cli_usage_error("sweep: --replicates %s: expected 1..10000", v);
		break;
	case 'c':
		if (cli_ci_target("sweep", v, &o->ci_target))
			return 2;
		break;
	case 'o':
		snprintf(o->out, sizeof(o->out), "%s", v);
		break;
	case 'f':
		o->format = v;
		if (strcmp(v, "png") && strcmp(v, "svg"))
			return cli_usage_error("sweep: --format %s: expected png or svg", v);
		break;
	case 's':
		o->shard = v;
		if (sscanf(v, "%d/%d%c", &o->shard_i, &o->shard_n, &extra) != 2 ||
		    o->shard_n < 1 || o->shard_i < 0 || o->shard_i >= o->shard_n)
			return cli_usage_error("sweep: --shard %s: expected I/N with "
					       "0 <= I < N", v);
		break;
	case 'R': o->resume = true; break;
	case 'F': o->force = true; break;
	case 'n': o->no_plot = true; break;
	case 'H':
		if (cli_host_memory("sweep", v))
			return 2;
		break;
	case 'T':
		if (parse_count(v, 1, 1000000000, &o->run_timeout) < 0)
			return cli_usage_error("sweep: --run-timeout %s: expected whole seconds, "
					       "at least 1", v);
		break;
	default: return 2;
	}
	return 0;
}

int sweep_parse_opts(int argc, char **argv, struct sweep_opts *o, const char *help)
{
	memset(o, 0, sizeof(*o));
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	o->jobs = ncpu > 0 ? (int)ncpu : 1;
	o->format = "png";
	o->shard_n = 1;
	static const char *assign[512];
	o->assign = assign;
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' }, { "out", required_argument, NULL, 'o' },
		{ "replicates", required_argument, NULL, 'r' },
		{ "ci-target", required_argument, NULL, 'c' },
		{ "shard", required_argument, NULL, 's' }, { "format", required_argument, NULL, 'f' },
		{ "resume", no_argument, NULL, 'R' }, { "force", no_argument, NULL, 'F' },
		{ "no-plot", no_argument, NULL, 'n' },
		{ "host-memory", required_argument, NULL, 'H' },
		{ "run-timeout", required_argument, NULL, 'T' }, { NULL, 0, NULL, 0 } };
	optind = 0;
	for (int c; (c = cli_getopt("sweep", argc, argv, "hj:", longopts)) != -1;) {
		if (c == 'h') {
			fputs(help, stdout);
			return 0;
		}
		if (one_opt(o, c, optarg))
			return 2;
	}
	for (; optind < argc; optind++) {	/* the experiment file and NAME=VALUE */
		const char *a = argv[optind];
		if (strchr(a, '=') && o->nassign < 512)
			o->assign[o->nassign++] = a;
		else if (!o->file)
			o->file = a;
		else
			return cli_usage_error("sweep: unknown argument '%s' (slabsim sweep --help)", a);
	}
	if (!o->file)
		return cli_usage_error("sweep: which experiment? slabsim sweep EXPERIMENT.json "
				       "(configs/ has some)");
	if (o->resume && o->force)
		return cli_usage_error("sweep: --resume keeps the runs that --force drops; "
				       "give one of them");
	return -1;
}

/* DIR's sweep.json, parsed, or NULL if it has none. */
static cJSON *dir_meta(const char *dir)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/sweep.json", dir);
	size_t len;
	char *text = file_read_text(path, &len);
	if (!text)
		return NULL;
	cJSON *m = cJSON_Parse(text);
	free(text);
	return m;
}

/* DIR's sweep.json digest, "?" if it is damaged, or "" if it has none. */
static void dir_digest(const char *dir, char *out, size_t size)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/sweep.json", dir);
	out[0] = 0;
	if (access(path, F_OK) < 0)
		return;
	cJSON *m = dir_meta(dir);
	const char *d = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "digest"));
	snprintf(out, size, "%s", d ? d : "?");
	cJSON_Delete(m);
}

/* The CI target DIR's sweep was run with (its sweep.json), 0 if none. */
static double dir_ci_target(const char *dir)
{
	cJSON *m = dir_meta(dir);
	const cJSON *ci = cJSON_GetObjectItemCaseSensitive(m, "ci_target");
	double t = cJSON_IsNumber(ci) && ci->valuedouble > 0 && ci->valuedouble < 1
		? ci->valuedouble : 0;
	cJSON_Delete(m);
	return t;
}

int sweep_prepare(struct sweep_opts *o, struct experiment *e, int rank, struct sim_err *err)
{
	if (experiment_load(e, o->file, err) < 0)
		return -1;
	for (int i = 0; i < o->nassign; i++)
		if (experiment_override(e, o->assign[i], err) < 0)
			return -1;
	if (o->replicates)
		e->replicates = o->replicates;
	if (o->ci_target > 0)
		e->ci_target = o->ci_target;
	if (experiment_expand(e, err) < 0)
		return -1;
	if (!o->out[0])
		snprintf(o->out, sizeof(o->out), "out/%s", e->name);
	if (o->resume && o->ci_target <= 0 && dir_ci_target(o->out) > 0)
		e->ci_target = dir_ci_target(o->out);	/* --resume goes on as it was run */
	if (e->ci_target > 0 && o->shard)
		return sim_fail(err, "sweep: --shard splits a fixed set of runs; with a CI target "
				"(--ci-target or the file's ci_target) the runs a point needs are known "
				"only as they finish");
	snprintf(o->tmpdir, sizeof(o->tmpdir), "%s/.running", o->out);
	return 0;
}

/* Empty the folder of worker files a killed sweep left. */
static void clean_tmpdir(const char *tmpdir)
{
	DIR *d = opendir(tmpdir);
	if (!d)
		return;
	for (struct dirent *de; (de = readdir(d));) {
		if (de->d_name[0] == '.')
			continue;
		char p[4500];
		snprintf(p, sizeof(p), "%s/%s", tmpdir, de->d_name);
		unlink(p);
	}
	closedir(d);
}

int sweep_open_dir(struct sweep_opts *o, const struct experiment *e, cJSON **runs, int *fd,
		   struct sim_err *err)
{
	char digest[64], mine[EXP_DIGEST_HEX], path[4200];
	experiment_digest_hex(e, mine);
	dir_digest(o->out, digest, sizeof(digest));
	snprintf(path, sizeof(path), "%s/runs.jsonl", o->out);
	bool exists = digest[0] || access(path, F_OK) == 0;
	if (exists && !o->resume && !o->force)
		return sim_fail(err, "%s already holds a sweep's results: --resume to finish it, "
				"--force to start it again, or another --out", o->out);
	if (exists && o->resume && strcmp(digest, mine))
		return sim_fail(err, "--resume: %s holds another experiment's results (or other "
				"NAME=VALUE overrides or --replicates); --force starts it again",
				o->out);
	if (sweep_make_dirs(o->out, err) < 0 || sweep_make_dirs(o->tmpdir, err) < 0)
		return -1;
	clean_tmpdir(o->tmpdir);
	if (o->force) {
		static const char *const old[] = { "runs.jsonl", "summary.json", "summary.csv",
						   "crashed.jsonl" };
		for (int i = 0; i < 3; i++) {
			snprintf(path, sizeof(path), "%s/%s", o->out, old[i]);
			unlink(path);
		}
	}
	if (sweep_write_meta(o->out, e, o->shard, err) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/runs.jsonl", o->out);
	if (o->resume && runs_load(path, e, runs, true, true, err) < 0)
		return -1;
	*fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0666);
	if (*fd < 0)
		return sim_fail(err, "cannot write %s: %s", path, strerror(errno));
	return 0;
}
