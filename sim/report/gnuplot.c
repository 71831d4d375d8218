/* gnuplot.c - data and script files for plots, and running gnuplot. */
#include "gnuplot.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

FILE *plot_open(const char *path, const char *ext, struct sim_err *err)
{
	char name[4096];
	snprintf(name, sizeof(name), "%s.%s", path, ext);
	FILE *f = fopen(name, "w");
	if (!f)
		sim_fail(err, "cannot write %s: %s", name, strerror(errno));
	return f;
}

int plot_check(const char *path, struct sim_err *err)
{
	FILE *f = plot_open(path, "dat", err);
	if (!f)
		return -1;
	fclose(f);
	return 0;
}

int plot_run(const char *path, struct sim_err *err)
{
	char script[4096];
	snprintf(script, sizeof(script), "%s.gp", path);
	pid_t pid = fork();
	if (pid < 0)
		return sim_fail(err, "cannot start gnuplot: %s", strerror(errno));
	if (pid == 0) {
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	int status;
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return sim_fail(err, "gnuplot %s did not finish", script);
	if (WEXITSTATUS(status) == 127)
		return sim_fail(err, "gnuplot is not installed (make deps installs gnuplot-nox)");
	if (WEXITSTATUS(status) != 0)
		return sim_fail(err, "gnuplot %s failed (exit %d)", script, WEXITSTATUS(status));
	return 0;
}
