/* sweep_exec.c - one run of an experiment, and a pool of forked worker
 * processes running many. A run is a whole simulation: it shares nothing
 * with the others, so processes (not threads) isolate a crash and need no
 * locking; the results come back through files, one per run. */
#include "sweep.h"
#include "engine/oom.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/report.h"
#include "run/run_core.h"

char *sweep_run_one(const struct experiment *e, int run, bool *failed, struct sim_err *err)
{
	const struct exp_point *p = &e->points[run / e->replicates];
	const char *assign[256];
	static char buf[256 * 96];
	int n = experiment_assigns(e, p, assign, 256, buf, sizeof(buf), err);
	if (n < 0)
		return NULL;
	struct run_config cfg = { .machine = experiment_machine(e, p),
				  .policy = experiment_policy(e, p),
				  .workload = experiment_workload(e, p),
				  .seed = experiment_run_seed(e, run), .assign = assign, .nassign = n };
	struct run *r = calloc(1, sizeof(*r));
	if (!r)
		host_oom(__func__);
	char *line = NULL;
	if (run_configure(r, &cfg, err) == 0) {
		int rc = run_execute(r, err);
		if (rc >= 0) {
			*failed = rc != 0;
			cJSON *root = report_json(r);
			cJSON *sw = cJSON_AddObjectToObject(root, "sweep");
			char digest[EXP_DIGEST_HEX];
			experiment_digest_hex(e, digest);
			cJSON_AddStringToObject(sw, "experiment", e->name);
			cJSON_AddStringToObject(sw, "digest", digest);
			cJSON_AddNumberToObject(sw, "run", run);
			cJSON_AddNumberToObject(sw, "point", run / e->replicates);
			cJSON_AddNumberToObject(sw, "replicate", run % e->replicates);
			cJSON_AddStringToObject(sw, "key", p->key);
			line = cJSON_PrintUnformatted(root);
			cJSON_Delete(root);
		}
	}
	run_free(r);
	free(r);
	return line;
}

/* A worker process: simulate one run, leave its line in TMPDIR/run-N.json. */
static void worker(const struct experiment *e, int run, const char *tmpdir, pid_t parent,
		   int timeout)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);	/* die with a killed sweep */
	if (getppid() != parent)
		_exit(3);			/* it died before the line above */
	if (timeout)
		alarm((unsigned)timeout);	/* SIGALRM ends it: --run-timeout */
	struct sim_err err;
	bool failed = false;
	char *line = sweep_run_one(e, run, &failed, &err);
	if (!line) {
		fprintf(stderr, "slabsim: run %d: %s\n", run, err.msg);
		_exit(2);
	}
	char path[4096], tmp[4200];
	snprintf(path, sizeof(path), "%s/run-%d.json", tmpdir, run);
	snprintf(tmp, sizeof(tmp), "%s.part", path);
	FILE *f = fopen(tmp, "w");
	if (!f || fputs(line, f) < 0 || fclose(f) != 0 || rename(tmp, path) < 0) {
		fprintf(stderr, "slabsim: run %d: cannot write %s: %s\n", run, path,
			strerror(errno));
		_exit(2);
	}
	free(line);
	_exit(0);
}

/* The line a worker left, or NULL. */
static char *read_result(const char *tmpdir, int run)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/run-%d.json", tmpdir, run);
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len = getline(&line, &cap, f);
	fclose(f);
	unlink(path);
	if (len <= 0) {
		free(line);
		return NULL;
	}
	return line;
}

volatile sig_atomic_t sweep_interrupted;

/* SIGINT or SIGTERM: note it in sweep_interrupted; sweep_local then stops the runs going. */
static void on_interrupt(int sig)
{
	sweep_interrupted = sig;
}

void sweep_catch_interrupts(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;	/* no SA_RESTART: waitpid returns EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* A worker that ended with STATUS, having run RUN: its result to DONE, or
 * why it failed (nothing while STOPPING on an interrupt); 1 if it failed. */
static int reap(int status, int run, const char *tmpdir, int timeout, bool *stopping,
		sweep_done_fn done, void *ctx)
{
	char *line = read_result(tmpdir, run);
	bool ok = line && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGINT && !sweep_interrupted)
		sweep_interrupted = SIGINT;	/* the terminal's Ctrl-C reached it first */
	*stopping = *stopping || sweep_interrupted;
	if (*stopping && !ok) {
		free(line);	/* stopped by the interrupt: not a failure */
		return 0;
	}
	if (ok) {
		done(ctx, run, line, NULL);
		free(line);
		return 0;
	}
	char why[128];
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM && timeout)
		snprintf(why, sizeof(why), "the run took longer than --run-timeout %d s and was "
			 "stopped", timeout);
	else if (WIFSIGNALED(status))
		snprintf(why, sizeof(why), "the run crashed (signal %d: %s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(why, sizeof(why), "the run failed (exit %d)",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	done(ctx, run, NULL, why);
	free(line);
	return 1;
}

int sweep_local(const struct experiment *e, const int *todo, int n, int jobs, int timeout,
		const char *tmpdir, sweep_done_fn done, void *ctx)
{
	if (jobs < 1)
		jobs = 1;
	pid_t pid[jobs];	/* on the stack: a worker inherits nothing to free */
	int slot_run[jobs];
	memset(pid, 0, sizeof(pid));
	int next = 0, running = 0, crashed = 0;
	pid_t self = getpid();
	fflush(NULL);
	bool stopping = false, killed = false;
	while ((next < n && !sweep_interrupted) || running) {
		if (sweep_interrupted && !killed) {	/* Ctrl-C: stop the runs going */
			stopping = killed = true;
			for (int s = 0; s < jobs; s++)
				if (pid[s])
					kill(pid[s], SIGKILL);
		}
		while (next < n && running < jobs && !sweep_interrupted) {
			int s = 0;
			while (pid[s])
				s++;
			pid_t c = fork();
			if (c < 0) {
				if (!running) {
					done(ctx, todo[next++], NULL, strerror(errno));
					crashed++;
				}
				break;
			}
			if (c == 0) {
				signal(SIGINT, SIG_DFL);
				signal(SIGTERM, SIG_DFL);
				worker(e, todo[next], tmpdir, self, timeout);
			}
			pid[s] = c;
			slot_run[s] = todo[next++];
			running++;
		}
		int status;
		pid_t c = waitpid(-1, &status, 0);
		if (c < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		int s = 0;
		while (s < jobs && pid[s] != c)
			s++;
		if (s == jobs)
			continue;	/* not one of ours (gnuplot) */
		pid[s] = 0;
		running--;
		crashed += reap(status, slot_run[s], tmpdir, timeout, &stopping, done, ctx);
	}
	return crashed;
}
