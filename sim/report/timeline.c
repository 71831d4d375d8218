/* timeline.c - `slabsim run --timeline FILE`: the run's timeline rows
 * (run/run_timeline.h) as a tab-separated table that gnuplot, awk or a
 * spreadsheet reads: counts at each row's time, rates and shares over the
 * interval since the row before. */
#include "report.h"

#include "report/outfile.h"

/* a / b, 0 when b is 0. */
static double ratio(double a, double b)
{
	return b > 0 ? a / b : 0;
}

/* One row: its counts, and what changed since `prev` (NULL: the first row). */
static void print_row(FILE *f, const struct run *r, const struct timeline_row *row,
		      const struct timeline_row *prev)
{
	double hz = r->m.ghz * 1e9;
	double dt = prev ? (double)(row->cycles - prev->cycles) / hz : 0;
	double cpu_cycles = dt * hz * r->eng.ncpus;
	double busy = prev ? (double)(row->busy - prev->busy) : 0;
	double busy_pct = 100 * ratio(busy, cpu_cycles);
	double ms = hz / 1e3;
	/* the CPUs' clocks run a little ahead of the engine's: at most all of them */
	fprintf(f, "%.6f\t%llu\t%.0f\t%llu\t%llu\t%.1f\t%.1f\t%.1f\t%llu\t%llu\t%llu\t%.0f\t%.0f\t%.0f\t"
		"%llu\t%.3f\t%.3f\t%.0f\t%.1f\t%.3f\t%.3f\t%llu\t%.1f\t%s\t%s\n",
		(double)row->cycles / hz, (unsigned long long)row->done,
		prev ? ratio((double)(row->done - prev->done), dt) : 0,
		(unsigned long long)row->live, (unsigned long long)row->slab_pages,
		busy_pct > 100 ? 100 : busy_pct,
		prev ? 100 * ratio((double)(row->in_slab - prev->in_slab), busy) : 0,
		prev ? 100 * ratio((double)(row->spin - prev->spin), busy) : 0,
		(unsigned long long)row->runnable, (unsigned long long)row->wait_wmem,
		(unsigned long long)row->wait_data,
		prev ? ratio((double)(row->switches - prev->switches), dt) : 0,
		prev ? ratio((double)(row->wakeups - prev->wakeups), dt) : 0,
		prev ? ratio((double)(row->migrations - prev->migrations), dt) : 0,
		(unsigned long long)row->exited,
		prev ? ratio((double)(row->run_delay - prev->run_delay) / ms,
			     (double)(row->pcount - prev->pcount)) : 0,
		prev ? ratio((double)(row->wake_delay - prev->wake_delay) / ms,
			     (double)(row->wake_pcount - prev->wake_pcount)) : 0,
		prev ? ratio((double)row->lock_acq, dt) : 0,
		100 * ratio((double)row->lock_con, (double)row->lock_acq),
		ratio((double)row->lock_wait / (ms / 1e3), (double)row->lock_con),
		ratio((double)row->lock_hold / (ms / 1e3), (double)row->lock_acq),
		(unsigned long long)row->partial_slabs,
		100 * ratio((double)row->lock_site_wait, (double)row->lock_wait),
		prev && row->lock_site[0] ? row->lock_site : "-",
		prev && row->lock[0] ? row->lock : "-");
}

int report_timeline_write(const char *path, const struct run *r, struct sim_err *err)
{
	struct out_file o;
	FILE *f = out_open(&o, path, err);
	if (!f)
		return -1;
	uint64_t done, total;
	const char *unit;
	run_units(r, &done, &total, &unit);
	fprintf(f, "# slabsim %s timeline: %s, policy %s, workload '%s', seed %llu; a row every "
		"%g simulated ms (at the first engine tick after it)\n", SLABSIM_VERSION, r->m.name,
		r->policy->name, r->cfg.workload, (unsigned long long)r->cfg.seed,
		(double)r->cfg.timeline_every_us / 1e3);
	fprintf(f, "# counts at the row's time (runnable: tasks running or queued to run; "
		"wait_wmem, wait_data: tasks in an AF_UNIX socket's wait for room to write, for "
		"data to read, asleep or woken and not yet run); per_s, busy_pct over the interval since the row before; "
		"allocator_pct and spin_pct as shares of that busy time; queue_wait_ms: the mean wait in a run "
		"queue of the tasks switched in over the interval (schedstats' run_delay / pcount), "
		"wakeup_wait_ms: the same for the waits a wake-up began; lock_*: the lock class waited "
		"on most over the interval (lock_stat's counts over it: acquisitions a second, "
		"contentions per 100 acquisitions - a wait counts when it begins, its acquisition when "
		"it ends, so over 100 while waiters pile up -, waittime-avg and holdtime-avg in us; "
		"lock: its name, last as it may hold spaces); partial_slabs: slabs on the caches' "
		"partial lists at the row's time (slabinfo's); lock_site, lock_site_pct: the call "
		"site that waited most for that lock over the interval and its share of the wait\n");
	fprintf(f, "# time_s\t%s\t%s_per_s\tlive_objects\tslab_pages\tbusy_pct\tallocator_pct\t"
		"spin_pct\trunnable\twait_wmem\twait_data\tswitches_per_s\twakeups_per_s\t"
		"migrations_per_s\ttasks_exited\tqueue_wait_ms\twakeup_wait_ms\tlock_acq_per_s\t"
		"lock_contended_pct\tlock_wait_us\tlock_hold_us\tpartial_slabs\tlock_site_pct\t"
		"lock_site\tlock\n", unit, unit);
	const struct run_timeline *tl = &r->timeline;
	for (size_t i = 0; i < tl->nrows; i++)
		print_row(f, r, &tl->rows[i], i ? &tl->rows[i - 1] : NULL);
	return out_close(&o, !ferror(f), err);
}
