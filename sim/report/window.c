/* window.c - CPU time and profile deltas over the workload's window. */
#include "report.h"

#include <stdlib.h>
#include <string.h>


void report_lock_totals(const struct run *r, struct lock_totals t[NR_LOCK_OWNERS + 1])
{
	memset(t, 0, (NR_LOCK_OWNERS + 1) * sizeof(*t));
	struct run_window w;	/* the workload's window: not the idle timers after it */
	report_window(r, &w);
	double all = (double)w.total;
	for (const struct hw_lock_class *c = r->hw.classes; c; c = c->next)
		for (int k = 0; k < 2; k++) {
			struct lock_totals *x = &t[k ? NR_LOCK_OWNERS : c->owner];
			x->acquisitions += c->acquisitions;
			x->contentions += c->contentions;
			x->wait_cycles += c->wait_total;
		}
	for (int i = 0; i <= NR_LOCK_OWNERS; i++)
		t[i].wait_share = all > 0 ? (double)t[i].wait_cycles / all : 0;
}

void report_window(const struct run *r, struct run_window *w)
{
	const struct kernel *k = &r->k;
	const struct engine *eng = &r->eng;
	memset(w, 0, sizeof(*w));
	uint64_t t0 = 0, t1 = 0, busy0 = 0, slab0 = 0, spin0 = 0, busy1, slab1, spin1;
	const uint64_t *c0 = NULL, *c1 = eng->prof.cycles;
	if (k->win.marked[0]) {
		t0 = k->win.time[0];
		busy0 = k->win.busy[0];
		slab0 = k->win.slab[0];
		spin0 = k->win.spin[0];
		c0 = k->win.cycles[0];
	}
	if (k->win.marked[1]) {
		t1 = k->win.time[1];
		busy1 = k->win.busy[1];
		slab1 = k->win.slab[1];
		spin1 = k->win.spin[1];
		c1 = k->win.cycles[1];
	} else {
		busy1 = slab1 = spin1 = 0;
		for (int c = 0; c < eng->ncpus; c++) {
			busy1 += eng->cpus[c].busy;
			slab1 += eng->cpus[c].in_region;
			spin1 += eng->cpus[c].spin;
			if (eng->cpus[c].clock > t1)
				t1 = eng->cpus[c].clock;
		}
	}
	w->seconds = (double)(t1 - t0) / (r->m.ghz * 1e9);
	w->total = (t1 - t0) * (uint64_t)eng->ncpus;
	if (!w->total)
		return;
	double total = (double)w->total;
	w->busy = (double)(busy1 - busy0) / total;
	w->slab = (double)(slab1 - slab0) / total;
	w->spin = (double)(spin1 - spin0) / total;
	if (w->busy > 1)
		w->busy = 1;
	uint64_t busy = 0;
	for (int s = 0; s < eng->prof.nsyms; s++) {
		w->cycles[s] = c1[s] - (c0 ? c0[s] : 0);
		if (eng->prof.kind[s] != SYM_IDLE)
			busy += w->cycles[s];
	}
	/* idle is whatever the CPUs did not spend busy */
	w->cycles[eng->sym_idle] = w->total > busy ? w->total - busy : 0;
}

/* Profile rows by cycles, most first; ties by symbol number. */
static int cmp_row(const void *a, const void *b)
{
	const struct prof_row *x = a, *y = b;
	if (x->cycles != y->cycles)
		return x->cycles < y->cycles ? 1 : -1;
	return x->sym - y->sym;
}

int report_profile_rows(const struct run *r, const struct run_window *w,
			struct prof_row rows[PROFILE_MAX_SYMS])
{
	const struct profile *p = &r->eng.prof;
	for (int s = 0; s < p->nsyms; s++)
		rows[s] = (struct prof_row){ s, w->cycles[s] };
	qsort(rows, (size_t)p->nsyms, sizeof(rows[0]), cmp_row);
	int n = 0;
	while (n < p->nsyms && rows[n].cycles)
		n++;
	return n;
}

cJSON *report_cache_geometry(const struct kernel *k, struct kmem_cache *c)
{
	struct cache_info ci, real;
	k->policy->cache_info(k->pstate, c, &ci);
	k->policy->cache_info(k->pstate, c->alias ? c->alias : c, &real);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "name", c->name);
	cJSON_AddNumberToObject(o, "object_size", c->object_size);
	cJSON_AddNumberToObject(o, "size", c->size);
	cJSON_AddNumberToObject(o, "order", ci.order);
	cJSON_AddNumberToObject(o, "objs_per_slab", ci.objs_per_slab);
	if (c->alias)
		cJSON_AddStringToObject(o, "alias_of", c->alias->name);
	cJSON *tu = cJSON_AddObjectToObject(o, "tunables");
	for (int t = 0; t < real.ntunables; t++)
		cJSON_AddNumberToObject(tu, real.tunables[t].name, (double)real.tunables[t].value);
	return o;
}
