/* cli_getopt.c - the subcommands' options through getopt_long, with
 * slabsim's own messages for an unknown option or a missing value, and the
 * one-line usage error every subcommand answers bad input with. */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engine/host_limit.h"
#include "engine/suggest.h"

int cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
	       const struct option *longopts)
{
	char opts[64];
	snprintf(opts, sizeof(opts), ":%s", shortopts);	/* ':' reports a missing value */
	opterr = 0;
	int c = getopt_long(argc, argv, opts, longopts, NULL);
	if (c == '?') {
		const char *bad = argv[optind - 1];
		char near[96] = "";
		if (bad && !strncmp(bad, "--", 2)) {	/* the nearest of the long options */
			char names[1024] = "";
			for (const struct option *o = longopts; o && o->name; o++)
				snprintf(names + strlen(names), sizeof(names) - strlen(names), "--%s ",
					 o->name);
			char word[96];
			snprintf(word, sizeof(word), "%.*s", (int)strcspn(bad, "="), bad);
			suggest_near(word, names, near, sizeof(near));
		}
		cli_usage_error("%s: unknown option '%s'%s (slabsim %s --help)", cmd,
				bad && bad[0] == '-' ? bad : "?", near, cmd);
		return CLI_OPT_ERROR;
	}
	if (c == ':') {
		cli_usage_error("%s: %s needs a value (slabsim %s --help)", cmd, argv[optind - 1],
				cmd);
		return CLI_OPT_ERROR;
	}
	return c;
}

int cli_host_memory(const char *cmd, const char *value)
{
	uint64_t bytes;
	if (host_limit_parse(value, &bytes) < 0 || bytes < (16u << 20))
		return cli_usage_error("%s: --host-memory %s: expected a size of at least 16 MB "
				       "(in MB, or with K, M, G or T, or a share like 50%%)",
				       cmd, value);
	host_limit_set(bytes);
	return 0;
}

int cli_ci_target(const char *cmd, const char *value, double *out)
{
	char *end;
	*out = strtod(value, &end);
	if (end == value || *end || !(*out > 0 && *out < 1))
		return cli_usage_error("%s: --ci-target %s: expected a share of the mean between 0 "
				       "and 1 (0.05: within +-5%%)", cmd, value);
	return 0;
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("slabsim: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return 2;
}
