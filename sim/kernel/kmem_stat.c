/* kmem_stat.c - perf kmem stat's books and the kmem event recorder. */
#include "kmem_stat.h"

#include <stdlib.h>
#include <string.h>

#include "kernel.h"
#include "kernel/slab_policy.h"

int kmem_stat_init(struct kmem_stat *s, int ncpus)
{
	memset(s, 0, sizeof(*s));
	memset(s->site_of_sym, 0xff, sizeof(s->site_of_sym));
	s->cpu_site = malloc((size_t)ncpus * sizeof(*s->cpu_site));
	if (!s->cpu_site)
		return -1;
	for (int i = 0; i < ncpus; i++)
		s->cpu_site[i] = KMEM_SITE_NONE;
	return 0;
}

void kmem_stat_destroy(struct kmem_stat *s)
{
	free(s->site_name);
	free(s->site);
	free(s->cpu_site);
	free(s->cache);
	free(s->rec);
	memset(s, 0, sizeof(*s));
}

/* Add a site; its books start at zero. */
static uint16_t add_site(struct kmem_stat *s, const char *name)
{
	if (s->nsites >= KMEM_SITES_MAX)
		return KMEM_SITE_NONE;
	if (s->nsites == s->sites_cap) {
		int cap = s->sites_cap ? 2 * s->sites_cap : 64;
		char(*n)[64] = realloc(s->site_name, (size_t)cap * sizeof(*n));
		if (!n)
			return KMEM_SITE_NONE;
		s->site_name = n;
		struct kmem_site_stat *st = realloc(s->site, (size_t)cap * sizeof(*st));
		if (!st)
			return KMEM_SITE_NONE;
		s->site = st;
		s->sites_cap = cap;
	}
	snprintf(s->site_name[s->nsites], sizeof(s->site_name[0]), "%s", name);
	memset(&s->site[s->nsites], 0, sizeof(s->site[0]));
	return (uint16_t)s->nsites++;
}

uint16_t kmem_site_named(struct kmem_stat *s, const char *name)
{
	for (int i = 0; i < s->nsites; i++)
		if (!strcmp(s->site_name[i], name))
			return (uint16_t)i;
	return add_site(s, name);
}

uint16_t kmem_site_current(struct kmem_stat *s, const struct profile *p, const struct sim_cpu *cpu)
{
	uint16_t site = s->cpu_site[cpu->id];
	if (site != KMEM_SITE_NONE)
		return site;
	site = s->site_of_sym[cpu->sym];
	if (site == KMEM_SITE_NONE) {
		site = add_site(s, p->name[cpu->sym]);
		s->site_of_sym[cpu->sym] = site;
	}
	return site;
}

/* The books of cache c, growing the table when caches were created. */
static struct kmem_site_stat *cache_books(struct kmem_stat *s, const struct kmem_cache *c)
{
	if (!c)
		return NULL;
	if (c->id >= s->caches_cap) {
		int cap = s->caches_cap ? s->caches_cap : 32;
		while (cap <= c->id)
			cap *= 2;
		struct kmem_site_stat *n = realloc(s->cache, (size_t)cap * sizeof(*n));
		if (!n)
			return NULL;
		memset(n + s->caches_cap, 0, (size_t)(cap - s->caches_cap) * sizeof(*n));
		s->cache = n;
		s->caches_cap = cap;
	}
	return &s->cache[c->id];
}

/* Add one allocation to a row of books. */
static void book_alloc(struct kmem_site_stat *b, uint32_t req, uint32_t alloc)
{
	b->allocs++;
	b->bytes_req += req;
	b->bytes_alloc += alloc;
}

/* Add one free to a row of books. */
static void book_free(struct kmem_site_stat *b, uint32_t bytes, bool other_cpu, bool other_node)
{
	b->frees++;
	b->bytes_freed += bytes;
	b->pingpong += other_cpu;
	b->remote_node += other_node;
}

void kmem_stat_alloc(struct kmem_stat *s, const struct kmem_cache *c, uint16_t site,
		     uint32_t bytes_req, uint32_t bytes_alloc)
{
	book_alloc(&s->total, bytes_req, bytes_alloc);
	if (site < s->nsites)
		book_alloc(&s->site[site], bytes_req, bytes_alloc);
	struct kmem_site_stat *b = cache_books(s, c);
	if (b)
		book_alloc(b, bytes_req, bytes_alloc);
	else
		s->large_allocs++;
}

void kmem_stat_free(struct kmem_stat *s, const struct kmem_cache *c, uint16_t site,
		    uint32_t bytes, bool other_cpu, bool other_node)
{
	book_free(&s->total, bytes, other_cpu, other_node);
	if (site < s->nsites)
		book_free(&s->site[site], bytes, other_cpu, other_node);
	struct kmem_site_stat *b = cache_books(s, c);
	if (b)
		book_free(b, bytes, other_cpu, other_node);
	else
		s->large_frees++;
}

void kmem_rec(struct kernel *k, const struct sim_cpu *cpu, int kind, uint64_t ptr,
	      const struct kmem_cache *c, uint16_t site, uint32_t bytes_req, uint32_t bytes_alloc,
	      unsigned int gfp)
{
	struct kmem_stat *s = &k->kmem;
	if (cpu->clock < s->rec_from || (s->rec_to && cpu->clock >= s->rec_to))
		return;
	if (s->nrec == s->rec_cap) {
		uint64_t cap = s->rec_cap ? 2 * s->rec_cap : 4096;
		struct kmem_rec_event *n = realloc(s->rec, cap * sizeof(*n));
		if (!n) {
			kernel_violation(k, "trace record: out of memory after %llu events",
					 (unsigned long long)s->nrec);
			s->recording = false;
			return;
		}
		s->rec = n;
		s->rec_cap = cap;
	}
	struct kmem_rec_event *e = &s->rec[s->nrec++];
	const struct task *t = k->sched.rq ? k->sched.rq[cpu->id].curr : NULL;
	e->ts = cpu->clock;
	e->seq = s->nrec - 1;
	e->ptr = ptr;
	e->bytes_req = bytes_req;
	e->bytes_alloc = bytes_alloc;
	e->pid = t ? t->pid : 0;
	e->cpu = (uint16_t)cpu->id;
	e->site = site;
	e->cache = c ? (uint16_t)c->id : 0xffff;
	e->kind = (uint8_t)kind;
	e->gfp = (uint8_t)gfp;
	snprintf(e->comm, sizeof(e->comm), "%s", t ? t->comm : "swapper");
}

/* Time order, and the order of the calls among equal times (causality:
 * an object is freed after the call that allocated it returned). */
static int rec_cmp(const void *a, const void *b)
{
	const struct kmem_rec_event *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int kmem_rec_write(struct kernel *k, FILE *out)
{
	struct kmem_stat *s = &k->kmem;
	static const char *const ev[] = { "kmalloc", "kmem_cache_alloc", "kfree",
					  "kmem_cache_free" };
	qsort(s->rec, s->nrec, sizeof(*s->rec), rec_cmp);
	double hz = k->m->ghz * 1e9;
	fprintf(out, "# tracer: nop\n#\n# entries-in-buffer/entries-written: %llu/%llu   #P:%d\n"
		"#\n#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
		"#              | |         |   |||||     |         |\n",
		(unsigned long long)s->nrec, (unsigned long long)s->nrec, k->eng->ncpus);
	for (uint64_t i = 0; i < s->nrec; i++) {
		const struct kmem_rec_event *e = &s->rec[i];
		uint64_t us = (uint64_t)((double)e->ts / hz * 1e6);
		const char *site = e->site < s->nsites ? s->site_name[e->site] : "0x0";
		fprintf(out, "%16s-%-7d [%03d] ..... %6llu.%06llu: %s: call_site=%s ptr=%016llx",
			e->comm, e->pid, e->cpu, (unsigned long long)(us / 1000000),
			(unsigned long long)(us % 1000000), ev[e->kind], site,
			(unsigned long long)e->ptr);
		if (e->kind <= 1)
			fprintf(out, " bytes_req=%u bytes_alloc=%u gfp_flags=%s node=-1 "
				"accounted=false", e->bytes_req, e->bytes_alloc, gfp_name(e->gfp));
		if (e->kind == 1 || e->kind == 3)
			fprintf(out, " name=%s", e->cache < k->ncaches ? k->caches[e->cache]->name : "?");
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}
