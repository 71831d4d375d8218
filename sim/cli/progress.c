/* progress.c - the progress line of `slabsim run` (progress.h). */
#include "progress.h"

#include <unistd.h>

#define PROGRESS_FIRST 0.5	/* wall seconds before the first line: short runs show none */
#define PROGRESS_EVERY 0.25	/* and between two lines */

bool cli_progress_wanted(FILE *out)
{
	return isatty(fileno(out)) == 1;
}

/* Wall seconds as 1h02m, 3m05s or 12s. */
static void duration(char *buf, size_t size, double s)
{
	long t = (long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, size, "%ldh%02ldm", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, size, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, size, "%lds", t);
}

void cli_progress_show(const struct run_progress *p, void *arg)
{
	struct cli_progress *cp = arg;
	if (p->done_run) {	/* erase the line before the report */
		if (cp->printed_at > 0)
			fputs("\r\033[K", cp->out);
		fflush(cp->out);
		return;
	}
	if (p->wall_seconds < (cp->printed_at > 0 ? cp->printed_at + PROGRESS_EVERY
						  : PROGRESS_FIRST))
		return;
	cp->printed_at = p->wall_seconds;
	char elapsed[32], eta[32];
	duration(elapsed, sizeof(elapsed), p->wall_seconds);
	fprintf(cp->out, "\rslabsim: %.3f s simulated", p->sim_seconds);
	if (p->total) {
		double f = (double)p->done / (double)p->total;
		fprintf(cp->out, ", %llu of %llu %s (%.1f%%)", (unsigned long long)p->done,
			(unsigned long long)p->total, p->unit ? p->unit : "units", 100 * f);
		if (f > 0.001) {
			duration(eta, sizeof(eta), p->wall_seconds * (1 - f) / f);
			fprintf(cp->out, ", %s elapsed, ETA %s%s", elapsed, p->sampling ? "at most " : "",
				eta);
		} else {
			fprintf(cp->out, ", %s elapsed", elapsed);
		}
	} else {
		fprintf(cp->out, ", %s elapsed", elapsed);
	}
	fputs("\033[K", cp->out);
	fflush(cp->out);
}
