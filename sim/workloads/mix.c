/* mix.c - workload `mix`: a subsystem's slab traffic as its developer
 * describes it in JSON (mix_spec.h), without writing C: caches, sizes,
 * allocation rates, object lifetimes and the shares freed on another CPU
 * or node. The tasks are the mix engine's (mix_engine.c). */
#include <stdlib.h>
#include <string.h>

#include "mix.h"

static const struct param_def mix_params[] = {
	{ "file", PT_STR, "", 0, 0, "configs/mix/example.json",
	  "the JSON description of the cache mix (required; also the first argument)" },
	{ "tasks", PT_INT, "0", 0, MIX_MAX_TASKS, NULL,
	  "pinned tasks (0: the file's \"tasks\", else one per CPU)" },
	{ "duration_ms", PT_DOUBLE, "20", 0.001, 1e6, NULL,
	  "simulated milliseconds the tasks allocate; then they free what they hold" },
	{ NULL },
};

static const struct mix_names mix_names = { "mix", "Mix", "[user] mix" };

/* `mix FILE`: the first word is the description file. */
static int mix_parse(struct param_set *ps, int argc, char **argv, struct sim_err *err)
{
	for (int i = 1; i < argc; i++) {
		if (i > 1 || argv[i][0] == '-')
			return sim_fail(err, "mix: unexpected argument '%s' (usage: mix FILE "
					"[tasks=N] [duration_ms=T]; `slabsim list params` shows "
					"them)", argv[i]);
		if (params_set(ps, "file", argv[i], true, err) < 0)
			return -1;
	}
	return 0;
}

/* Read the description, then start its tasks. */
static int mix_wl_start(struct kernel *k, const struct param_set *ps, void **state,
			struct sim_err *err)
{
	const char *file = param_str(ps, "file");
	if (!*file)
		return sim_fail(err, "mix: no description file: -w 'mix FILE' or file=PATH "
				"(configs/mix/example.json shows the format)");
	struct mix_spec *spec = malloc(sizeof(*spec));
	if (!spec)
		return sim_fail(err, "out of memory");
	int rc = mix_spec_read(spec, file, err);
	if (rc == 0)
		rc = mix_start(k, spec, file, (int)param_int(ps, "tasks"),
			       param_double(ps, "duration_ms"), &mix_names, state, err);
	free(spec);
	return rc;
}

const struct workload mix_workload = {
	.name = "mix",
	.description = "a subsystem's own cache mix from a JSON file: caches, sizes, rates, "
		       "lifetimes, remote-free shares (configs/mix/)",
	.usage = "mix FILE [tasks=N] [duration_ms=T]",
	.params = mix_params,
	.parse_cmdline = mix_parse,
	.start = mix_wl_start,
	.result = mix_result,
	.check = mix_check,
	.print = mix_print,
	.destroy = mix_destroy,
};
