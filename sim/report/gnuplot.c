/* gnuplot.c - data and script files for plots, and running gnuplot. */
#include "gnuplot.h"

#include <errno.h>
#include <stdbool.h>
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
	return plot_run_in(NULL, script, err);
}

const char *plot_base(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

int plot_run_beside(const char *path, struct sim_err *err)
{
	char dir[4096], script[4096];
	const char *base = plot_base(path);
	snprintf(script, sizeof(script), "%s.gp", base);
	if (base == path)
		return plot_run_in(NULL, script, err);
	snprintf(dir, sizeof(dir), "%.*s", (int)(base - 1 - path), path);
	return plot_run_in(dir[0] ? dir : "/", script, err);
}

int plot_run_in(const char *dir, const char *script, struct sim_err *err)
{
	pid_t pid = fork();
	if (pid < 0)
		return sim_fail(err, "cannot start gnuplot: %s", strerror(errno));
	if (pid == 0) {
		if (dir && chdir(dir) < 0)
			_exit(126);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return sim_fail(err, "gnuplot %s did not finish", script);
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 126)
		return sim_fail(err, "gnuplot %s%s%s did not finish", dir ? dir : "", dir ? "/" : "",
				script);
	if (WEXITSTATUS(status) == 127)
		return sim_fail(err, "gnuplot is not installed (make deps installs gnuplot-nox)");
	if (WEXITSTATUS(status) != 0)
		return sim_fail(err, "gnuplot %s failed (exit %d)", script, WEXITSTATUS(status));
	return 0;
}

int plot_draw(const char *path, void (*fn)(void *state, FILE *dat, FILE *gp, const char *path),
	      void *state, struct sim_err *err)
{
	FILE *d = plot_open(path, "dat", err);
	if (!d)
		return -1;
	FILE *g = plot_open(path, "gp", err);
	if (!g) {
		fclose(d);
		return -1;
	}
	fn(state, d, g, path);
	bool ok = !ferror(d) && !ferror(g);
	ok = (fclose(d) == 0) && ok;
	ok = (fclose(g) == 0) && ok;
	if (!ok)
		return sim_fail(err, "cannot write %s.dat or %s.gp", path, path);
	return plot_run(path, err);
}
