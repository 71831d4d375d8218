/* cli.h - the subcommands of slabsim. Each returns the exit status:
 * 0 done, 1 the run failed, 2 bad usage or input. */
#ifndef SIM_CLI_H
#define SIM_CLI_H

#include <stdbool.h>

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_sensitivity(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_tune(int argc, char **argv);

/* `slabsim run`; with `record`, `trace record`: the same options and -o FILE,
 * into which every kmem event of the run is written. */
int cmd_run_record(int argc, char **argv, bool record);

struct option;

/* The next option of argv by getopt_long (reset optind to 0 before the
 * first call; operands are argv[optind..argc) after the last); -1 at the
 * end; CLI_OPT_ERROR after printing "CMD: unknown option 'X'" or "CMD: X
 * needs a value" (the caller returns 2). */
#define CLI_OPT_ERROR (-2)
int cli_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
	       const struct option *longopts);

/* --host-memory VALUE of command `cmd`: the limit of every later run
 * (host_limit.h); 0, or 2 after a message. */
int cli_host_memory(const char *cmd, const char *value);

/* --ci-target VALUE of command `cmd` (a share of the mean between 0 and 1)
 * into *out: 0, or 2 after a message. */
int cli_ci_target(const char *cmd, const char *value, double *out);

/* Print "slabsim: <msg>" to stderr and return 2. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
