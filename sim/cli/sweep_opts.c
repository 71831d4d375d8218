/* sweep_opts.c - `slabsim sweep`'s options, checked one by one. */
#include "sweep_opts.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

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
static int one_opt(struct sweep_options *o, int c, const char *v)
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
		o->out = v;
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

int sweep_parse_opts(int argc, char **argv, struct sweep_options *o, const char *help)
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
			assign[o->nassign++] = a;
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
