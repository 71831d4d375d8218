/* kbuild.c - workload `kbuild`: the slab traffic of a kernel build (`make
 * -jN`), the measured cache mix of docs/workloads.md ("Other measured cache
 * mixes") run by the mix engine. The six caches and their shares of the
 * 36.3 M allocations are the published ones; the published fast-path
 * percentages (alloc/free: names_cache 99/99, filp 90/3, vm_area_struct
 * 92/54, buffer_head 94/0, bio 91/13, journal_handle 99/99) are what SLUB
 * made of that traffic, so they are not inputs: the lifetimes and the
 * shares freed elsewhere below model what the kernel does with each object,
 * and the fast-path shares come out of the simulated allocator.
 *
 * Object sizes are those of a 2.6.2x x86-64 kernel. A 2.6.26-rc2 x86-64
 * SLUB slabinfo (linux-mm, 4 Jun 2008, "Page allocation failure in
 * 2.6.26-rc2") lists journal_handle 24, buffer_head 112 and vm_area_struct
 * 168 bytes; names_cache, filp and bio are missing from it because SLUB
 * merged them into kmalloc-4096, kmalloc-192 and kmalloc-128 (2.6.18's SLAB
 * shows names_cache 4096, bio 128). So: names_cache PATH_MAX = 4096,
 * filp 192 (struct file, SLAB_HWCACHE_ALIGN), bio 104 (struct bio before
 * 2.6.28's bio_set front pad; SLAB_HWCACHE_ALIGN makes it 128).
 *
 * Rates: a 2.6.2x defconfig build takes about 15 CPU-minutes on a 2008
 * Xeon; 36.3 M allocations over 900 CPU-seconds is 40,000 allocations per
 * second per job, the default of rate=. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mix.h"
#include "engine/array_size.h"
#include "kernel/slab_policy.h"

static const struct param_def kbuild_params[] = {
	{ "jobs", PT_INT, "0", 0, MIX_MAX_TASKS, NULL, "make -j: pinned jobs (0: one per CPU)" },
	{ "duration_ms", PT_DOUBLE, "200", 0.001, 1e6, NULL,
	  "simulated milliseconds the jobs allocate; then they free what they hold" },
	{ "rate", PT_DOUBLE, "40000", 1, 1e9, NULL,
	  "slab allocations per second of a job, over the six caches (36.3 M allocations "
	  "in ~15 CPU-minutes of a defconfig build)" },
	{ NULL },
};

/* One cache of the build: published allocations (millions) and the model. */
struct kbuild_cache {
	const char *name;
	unsigned int size;
	unsigned long flags;
	double millions;
	struct mix_lifetime life;
	double remote_cpu, remote_node;
};

/* What each object's life looks like in the kernel (lifetimes in us):
 * - names_cache: getname() copies a path in, putname() frees it in the same
 *   system call (open, stat, exec): exponential, mean 2, the same CPU.
 * - filp: lives while the file is open, then waits for an RCU grace period
 *   (file_free -> call_rcu; several jiffies at HZ=250). cc1 opens, reads and
 *   closes its source and headers within a few hundred microseconds, make
 *   and the shells keep some open for a whole job: lognormal, median 8000,
 *   sigma 1.5. The RCU callback runs where close() ran: another CPU when
 *   the process migrated meanwhile, 10% of the node's, 2% across nodes.
 * - vm_area_struct: a process's mappings. fork copies the parent's and exec
 *   drops them at once; the rest live as long as the short-lived process
 *   (sh, gcc, cc1, as): lognormal, median 500, sigma 2 (from tens of
 *   microseconds to a second). exit frees them where the process ends, often
 *   not where fork made them (fork and exec balancing move it): 25% another
 *   CPU, 5% another node.
 * - buffer_head: attached to the page-cache pages of the files written
 *   (objects, .cmd files), freed when writeback or reclaim (pdflush,
 *   kswapd) releases the buffers, on whatever CPU runs them: 60% another
 *   CPU, 20% another node, the rest by truncate or unlink, locally. They
 *   live seconds; lognormal median 30000, sigma 1 is already far past the
 *   CPU slab's turnover, which is all the allocator can see.
 * - bio: allocated by the submitter, freed at IO completion in the
 *   interrupt handler on the CPU taking the interrupt, which is the
 *   submitter's only when the jobs' CPU happens to be the IRQ's: 70%
 *   another CPU, 15% another node, after the disk's service time
 *   (lognormal, median 2000, sigma 1).
 * - journal_handle: journal_start()/journal_stop() around one metadata
 *   update: exponential, mean 2, the same CPU.
 * On a one-node machine the shares meant for another node go to another
 * CPU of the node instead: the other CPU exists, only not across a node.
 * Flags are the kernel's (SLAB_RECLAIM_ACCOUNT and SLAB_MEM_SPREAD of
 * buffer_head and journal_handle are not modelled). */
static const struct kbuild_cache kbuild_caches[] = {
	{ "names_cache", 4096, SLAB_HWCACHE_ALIGN | SLAB_PANIC, 11.7,
	  { MIX_EXPONENTIAL, 2, 0 }, 0, 0 },
	{ "filp", 192, SLAB_HWCACHE_ALIGN | SLAB_PANIC, 8.5,
	  { MIX_LOGNORMAL, 8000, 1.5 }, 0.10, 0.02 },
	{ "vm_area_struct", 168, SLAB_PANIC, 7.7,
	  { MIX_LOGNORMAL, 500, 2.0 }, 0.25, 0.05 },
	{ "buffer_head", 112, SLAB_PANIC, 3.8,
	  { MIX_LOGNORMAL, 30000, 1.0 }, 0.60, 0.20 },
	{ "bio", 104, SLAB_HWCACHE_ALIGN | SLAB_PANIC, 2.4,
	  { MIX_LOGNORMAL, 2000, 1.0 }, 0.70, 0.15 },
	{ "journal_handle", 24, 0, 2.2,
	  { MIX_EXPONENTIAL, 2, 0 }, 0, 0 },
};

#define KBUILD_NCACHES ARRAY_SIZE(kbuild_caches)

static const struct mix_names kbuild_names = {
	"kbuild", "kbuild", "[user] kbuild (cc1, make, sh)",
};

/* The mix as a description: rates in proportion to the published counts;
 * its text states the model (the run's JSON and text report show it). */
static void kbuild_spec(struct mix_spec *s, double rate, int nodes)
{
	double total = 0;
	for (int i = 0; i < KBUILD_NCACHES; i++)
		total += kbuild_caches[i].millions;
	memset(s, 0, sizeof(*s));
	size_t at = (size_t)snprintf(s->description, sizeof(s->description),
				     "kernel build, workloads.md's mix at %g allocations/s per job", rate);
	s->ncaches = KBUILD_NCACHES;
	for (int i = 0; i < KBUILD_NCACHES; i++) {
		const struct kbuild_cache *kc = &kbuild_caches[i];
		struct mix_cache_spec *cs = &s->cache[i];
		snprintf(cs->name, sizeof(cs->name), "%s", kc->name);
		cs->size = kc->size;
		cs->flags = kc->flags;
		cs->rate = rate * kc->millions / total;
		cs->life = kc->life;
		cs->remote_cpu = kc->remote_cpu + (nodes > 1 ? 0 : kc->remote_node);
		cs->remote_node = nodes > 1 ? kc->remote_node : 0;
		char life[64];
		mix_lifetime_describe(&kc->life, life, sizeof(life));
		if (at < sizeof(s->description))
			at += (size_t)snprintf(s->description + at, sizeof(s->description) - at,
					       "; %s %u B: %s, %g%% another CPU, %g%% another node",
					       kc->name, kc->size, life, 100 * cs->remote_cpu,
					       100 * cs->remote_node);
	}
}

/* kbuild takes only NAME=VALUE parameters. */
static int kbuild_parse(struct param_set *ps, int argc, char **argv, struct sim_err *err)
{
	if (argc > 1)
		return sim_fail(err, "kbuild: unexpected argument '%s' (its parameters are "
				"NAME=VALUE: jobs duration_ms rate)", argv[1]);
	return 0;
}

/* Build the mix for this machine, check it as a file would be, start it. */
static int kbuild_start(struct kernel *k, const struct param_set *ps, void **state,
			struct sim_err *err)
{
	struct mix_spec *spec = malloc(sizeof(*spec));
	if (!spec)
		return sim_fail(err, "out of memory");
	kbuild_spec(spec, param_double(ps, "rate"), k->m->nodes);
	int rc = mix_spec_check(spec, "kbuild", err);
	if (rc == 0)
		rc = mix_start(k, spec, "kbuild", (int)param_int(ps, "jobs"),
			       param_double(ps, "duration_ms"), &kbuild_names, state, err);
	free(spec);
	return rc;
}

const struct workload kbuild_workload = {
	.name = "kbuild",
	.description = "kernel build (make -jN) slab mix: names_cache, filp, vm_area_struct, "
		       "buffer_head, bio, journal_handle at their measured shares; lifetimes "
		       "and remote-free shares modelled (the run prints them)",
	.usage = "kbuild [jobs=N] [duration_ms=T] [rate=ALLOCS_PER_S]",
	.params = kbuild_params,
	.parse_cmdline = kbuild_parse,
	.start = kbuild_start,
	.result = mix_result,
	.check = mix_check,
	.print = mix_print,
	.destroy = mix_destroy,
};
