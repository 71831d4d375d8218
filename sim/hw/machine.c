/* machine.c - load and validate a machine file (and its cost table).
 *
 * Every numeric figure must have an entry in the file's "sources" object
 * (a citation, or "est: ..." for an estimate), so that a number without a
 * reason cannot enter the model. A bad file gets one message naming the file
 * and the field. */
#include "machine.h"
#include "engine/oom.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/json_in.h"
#include "engine/suggest.h"

#define MACHINE_MAX_CPUS 4096

const char *const hw_dist_name[NR_DIST] = {
	"same_core", "smt", "same_die", "same_socket", "other_socket", "other_node",
};

static char dirs_buf[3 * PATH_MAX + 8];

const char *machine_dirs(void)
{
	return dirs_buf[0] ? dirs_buf : data_dirs("SLABSIM_MACHINES", "machines", dirs_buf,
						   sizeof(dirs_buf));
}

/* Is file p there and readable? */
static bool file_exists(const char *p)
{
	return access(p, R_OK) == 0;
}

int machine_costs(const struct machine *m, const struct cost_ref *refs, int n,
		  struct sim_err *err)
{
	for (int i = 0; i < n; i++)
		if (machine_cost(m, refs[i].name, refs[i].cycles, err) < 0)
			return -1;
	return 0;
}

/* qsort() comparison of two strings, for machine_names(). */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int machine_resolve(const char *name, char *path, int size, struct sim_err *err)
{
	if (strchr(name, '/') || strstr(name, ".json")) {
		if (!file_exists(name))
			return sim_fail(err, "machine file '%s' not found", name);
		snprintf(path, (size_t)size, "%s", name);
		return 0;
	}
	char dirs[sizeof(dirs_buf)];
	snprintf(dirs, sizeof(dirs), "%s", machine_dirs());
	for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d;
	     d = strtok_r(NULL, ":", &save)) {
		snprintf(path, (size_t)size, "%s/%s.json", d, name);
		if (file_exists(path))
			return 0;
	}
	char *names[MACHINE_MAX_FILES];
	int n = machine_names(names, MACHINE_MAX_FILES);
	char list[1024] = "";
	for (int i = 0; i < n; i++) {
		size_t len = strlen(list);
		snprintf(list + len, sizeof(list) - len, "%s%s", i ? " " : "", names[i]);
		free(names[i]);
	}
	char near[96];
	return sim_fail(err, "unknown machine '%s'%s; valid machines: %s "
			"(or a file path like ./my-machine.json)", name,
			suggest_near(name, list, near, sizeof(near)), n ? list : "(none found)");
}

/* Every member of `obj` must be one of `known` (NULL-terminated): a typo in
 * a figure's name is refused, not silently ignored. Members whose names start
 * with '_' are comments. */
static int only_known(const char *file, const cJSON *obj, const char *where,
		      const char *const *known, struct sim_err *err)
{
	for (const cJSON *it = obj->child; it; it = it->next) {
		if (it->string[0] == '_')
			continue;
		bool ok = false;
		for (int i = 0; known[i] && !ok; i++)
			ok = !strcmp(it->string, known[i]);
		if (ok)
			continue;
		char list[512] = "";
		for (int i = 0; known[i]; i++) {
			size_t len = strlen(list);
			snprintf(list + len, sizeof(list) - len, "%s%s", i ? " " : "", known[i]);
		}
		return sim_fail(err, "%s: unknown field '%s%s%s' (known here: %s)", file,
				where ? where : "", where ? "." : "", it->string, list);
	}
	return 0;
}

/* The figure at `where`.`key` must have a non-empty entry in sources. */
static int need_source(const char *file, const cJSON *sources, const char *where,
		       const char *key, struct sim_err *err)
{
	char k[128];
	snprintf(k, sizeof(k), "%s%s%s", where ? where : "", where ? "." : "", key);
	cJSON *s = cJSON_GetObjectItemCaseSensitive(sources, k);
	if (!cJSON_IsString(s) || !s->valuestring[0])
		return sim_fail(err, "%s: figure '%s' has no entry in 'sources' "
				"(cite it, or write \"est: why\")", file, k);
	s->valueint = 1;	/* used: a string's valueint is otherwise unused */
	return 0;
}

/* Every entry of sources must cite a figure the file has: a source whose
 * name is misspelt would leave its figure unsourced or cite nothing. */
static int sources_all_used(const char *file, const cJSON *sources, struct sim_err *err)
{
	for (const cJSON *it = sources->child; it; it = it->next) {
		if (it->string[0] == '_')
			continue;
		if (!cJSON_IsString(it))
			return sim_fail(err, "%s: 'sources.%s' must be a string (a citation, or "
					"\"est: why\")", file, it->string);
		if (it->valueint != 1)
			return sim_fail(err, "%s: 'sources.%s' cites no figure of this file (a "
					"misspelt name, or a figure the topology does not have)",
					file, it->string);
	}
	return 0;
}

/* The object PATH's figure goes in: dotted members of ROOT (made if need
 * be); a cost ("costs.NAME" in a machine file, any name in a cost table,
 * whose cost names have dots) is one member of the costs object. */
static cJSON *fitted_parent(cJSON *root, const char *path, bool table, const char **leaf)
{
	cJSON *parent = root;
	const char *p = path;
	if (table) {
		*leaf = path;
		return cJSON_GetObjectItemCaseSensitive(root, "cycles");
	}
	const char *dot;
	while ((dot = strchr(p, '.'))) {
		char seg[64];
		snprintf(seg, sizeof(seg), "%.*s", (int)(dot - p), p);
		cJSON *child = cJSON_GetObjectItemCaseSensitive(parent, seg);
		if (!child)
			child = cJSON_AddObjectToObject(parent, seg);
		if (!cJSON_IsObject(child))
			return NULL;
		parent = child;
		p = dot + 1;
		if (!strcmp(seg, "costs"))
			break;
	}
	*leaf = p;
	return parent;
}

/* "fitted": {"PATH": {"value": V, "case": "C1", "how": "..."}}: every figure
 * fitted to a published result sits in this one place of its file, with the
 * case it was fitted to. Each is put where the loader reads it, with the
 * source "fit: CASE: how"; a "fit:" source anywhere else, or a fitted figure
 * set a second time, is refused. */
static int apply_fitted(struct machine *m, const char *file, cJSON *root, cJSON *src, bool table,
			struct sim_err *err)
{
	for (const cJSON *it = src->child; it; it = it->next)
		if (cJSON_IsString(it) && !strncmp(it->valuestring, "fit:", 4))
			return sim_fail(err, "%s: 'sources.%s' says fit: a fitted figure goes in "
					"'fitted', with the case it was fitted to", file, it->string);
	cJSON *fit = cJSON_DetachItemFromObjectCaseSensitive(root, "fitted");
	if (!fit)
		return 0;
	int rc = -1;
	if (!cJSON_IsObject(fit)) {
		sim_fail(err, "%s: field 'fitted' must be an object", file);
		goto out;
	}
	const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	for (const cJSON *e = fit->child; e; e = e->next) {
		static const char *const keys[] = { "value", "case", "how", NULL };
		char where[96];
		snprintf(where, sizeof(where), "fitted.%s", e->string);
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "case");
		const cJSON *how = cJSON_GetObjectItemCaseSensitive(e, "how");
		double v;
		if (!cJSON_IsObject(e)) {
			sim_fail(err, "%s: field '%s' must be {\"value\", \"case\", \"how\"}", file,
				 where);
			goto out;
		}
		if (only_known(file, e, where, keys, err) < 0 ||
		    json_number(file, e, where, "value", 0, 1e7, false, &v, err) < 0)
			goto out;
		if (!cJSON_IsString(c) || strlen(c->valuestring) >= sizeof(m->fitted[0].fit_case) ||
		    (c->valuestring[0] != 'C' && c->valuestring[0] != 'V') ||
		    strspn(c->valuestring + 1, "0123456789") != strlen(c->valuestring + 1) ||
		    !c->valuestring[1]) {
			sim_fail(err, "%s: field '%s.case' must name the validation case the figure "
				 "was fitted to (C1, C2, ...)", file, where);
			goto out;
		}
		if (!cJSON_IsString(how) || !how->valuestring[0]) {
			sim_fail(err, "%s: field '%s.how' must say how it was fitted", file, where);
			goto out;
		}
		const char *leaf;
		cJSON *parent = fitted_parent(root, e->string, table, &leaf);
		if (!parent || cJSON_GetObjectItemCaseSensitive(parent, leaf)) {
			sim_fail(err, "%s: '%s' is fitted, and set again outside 'fitted' (a fitted "
				 "figure lives only there)", file, e->string);
			goto out;
		}
		if (cJSON_GetObjectItemCaseSensitive(src, e->string)) {
			sim_fail(err, "%s: 'sources.%s': a fitted figure's source is its 'fitted' "
				 "entry", file, e->string);
			goto out;
		}
		if (m->nfitted == MACHINE_MAX_FITTED || strlen(e->string) >= sizeof(m->fitted[0].name)) {
			sim_fail(err, "%s: too many fitted figures, or a name too long", file);
			goto out;
		}
		cJSON_AddNumberToObject(parent, leaf, v);
		char *s;
		if (asprintf(&s, "fit: %s: %s", c->valuestring, how->valuestring) < 0)
			host_oom(__func__);
		cJSON_AddStringToObject(src, e->string, s);
		free(s);
		struct machine_fit *f = &m->fitted[m->nfitted++];
		snprintf(f->file, sizeof(f->file), "%s%s", table ? "costs/" : "", base);
		snprintf(f->name, sizeof(f->name), "%s", e->string);
		snprintf(f->fit_case, sizeof(f->fit_case), "%s", c->valuestring);
		f->value = v;
	}
	rc = 0;
out:
	cJSON_Delete(fit);
	return rc;
}

/* A numeric figure (json_number()'s checks) that must also have an entry in sources. */
static int figure(const char *file, const cJSON *obj, const cJSON *sources,
		  const char *where, const char *key, double min, double max,
		  bool integer, double *out, struct sim_err *err)
{
	if (json_number(file, obj, where, key, min, max, integer, out, err) < 0)
		return -1;
	return need_source(file, sources, where, key, err);
}

/* "topology": nodes, sockets, dies, cores and threads; numbers the CPUs as Linux does and
 * fills each one's place (topo, loc) and the distance class of each level apart. */
static int load_topology(struct machine *m, const cJSON *root, const cJSON *src,
			 struct sim_err *err)
{
	const char *f = m->path;
	cJSON *t = json_member(f, root, NULL, "topology", err);
	if (!t)
		return -1;
	if (!cJSON_IsObject(t))
		return sim_fail(err, "%s: field 'topology' must be an object", f);
	static const char *const keys[] = { "nodes", "sockets_per_node", "dies_per_socket",
					    "cores_per_die", "threads_per_core", NULL };
	if (only_known(f, t, "topology", keys, err) < 0)
		return -1;
	int *vals[] = { &m->nodes, &m->sockets_per_node, &m->dies_per_socket,
			&m->cores_per_die, &m->threads_per_core };
	for (int i = 0; i < 5; i++) {
		double d;
		if (json_number(f, t, "topology", keys[i], 1, 1024, true, &d, err) < 0)
			return -1;
		*vals[i] = (int)d;
	}
	if (need_source(f, src, NULL, "topology", err) < 0)
		return -1;
	long ncpus = (long)m->nodes * m->sockets_per_node * m->dies_per_socket *
		     m->cores_per_die * m->threads_per_core;
	if (ncpus > MACHINE_MAX_CPUS)
		return sim_fail(err, "%s: topology gives %ld CPUs, more than the %d supported",
				f, ncpus, MACHINE_MAX_CPUS);
	m->ncpus = (int)ncpus;
	m->nsockets = m->nodes * m->sockets_per_node;
	m->ndies = m->nsockets * m->dies_per_socket;
	m->ncores = m->ndies * m->cores_per_die;
	m->topo = calloc((size_t)m->ncpus, sizeof(*m->topo));
	m->loc = malloc((size_t)m->ncpus * sizeof(*m->loc));
	if (!m->topo || !m->loc)
		return sim_fail(err, "%s: out of memory", f);
	/* Linux-like numbering: first threads of every core, then the second
	 * threads, ...; cores in node, socket, die order. */
	int ncores = m->ncpus / m->threads_per_core;
	for (int cpu = 0; cpu < m->ncpus; cpu++) {
		int core = cpu % ncores;
		struct hw_cpu_topo *tp = &m->topo[cpu];
		tp->thread = cpu / ncores;
		tp->core = core;
		tp->die = core / m->cores_per_die;
		tp->socket = tp->die / m->dies_per_socket;
		tp->node = tp->socket / m->sockets_per_node;
	}
	/* A class names what differs: with one die per socket two cores of a
	 * socket are "same_socket"; with one socket per node two sockets are
	 * "other_socket". Numbers are machine-wide, so the highest field in
	 * which two CPUs' loc words differ says how far apart they are. */
	for (int cpu = 0; cpu < m->ncpus; cpu++) {
		const struct hw_cpu_topo *tp = &m->topo[cpu];
		m->loc[cpu] = (uint64_t)tp->node << 48 | (uint64_t)tp->socket << 32 |
			      (uint64_t)tp->die << 16 | (uint64_t)tp->core;
	}
	bool one_die = m->dies_per_socket == 1, one_socket = m->sockets_per_node == 1;
	m->dist_by_level[0] = DIST_SMT;
	m->dist_by_level[1] = one_die ? DIST_SAME_SOCKET : DIST_SAME_DIE;
	m->dist_by_level[2] = DIST_SAME_SOCKET;
	m->dist_by_level[3] = DIST_OTHER_SOCKET;
	m->dist_by_level[4] = one_socket ? DIST_OTHER_SOCKET : DIST_OTHER_NODE;
	return 0;
}

/* Which distance classes this topology has (each needs a hand-off figure). */
static bool dist_exists(const struct machine *m, enum hw_dist d)
{
	switch (d) {
	case DIST_SAME_CORE: return true;
	case DIST_SMT: return m->threads_per_core > 1;
	case DIST_SAME_DIE: return m->cores_per_die > 1 && m->dies_per_socket > 1;
	case DIST_SAME_SOCKET: return m->dies_per_socket > 1 || m->cores_per_die > 1;
	case DIST_OTHER_SOCKET: return m->sockets_per_node > 1 ||
				       (m->nodes > 1 && m->sockets_per_node == 1);
	case DIST_OTHER_NODE: return m->nodes > 1 && m->sockets_per_node > 1;
	default: return false;
	}
}

/* Hand-off classes: one figure per class the topology has, none for others. */
static int check_handoff_keys(const struct machine *m, const cJSON *h, struct sim_err *err)
{
	for (const cJSON *it = h->child; it; it = it->next) {
		int d = 0;
		while (d < NR_DIST && strcmp(it->string, hw_dist_name[d]))
			d++;
		if (it->string[0] == '_')
			continue;
		if (d == NR_DIST) {
			const char *names[NR_DIST + 1] = { NULL };
			for (int i = 0; i < NR_DIST; i++)
				names[i] = hw_dist_name[i];
			return only_known(m->path, h, "handoff_cycles", names, err);
		}
		if (!dist_exists(m, (enum hw_dist)d))
			return sim_fail(err, "%s: field 'handoff_cycles.%s': the topology has no two "
					"CPUs at that distance (%d node(s) x %d socket(s) x %d die(s) "
					"x %d core(s) x %d thread(s))", m->path, it->string, m->nodes,
					m->sockets_per_node, m->dies_per_socket, m->cores_per_die,
					m->threads_per_core);
	}
	return 0;
}


/* A cache's "kb" and "ways": a whole number of sets of 64-byte lines. */
static int load_cache_shape(const char *f, const cJSON *obj, const cJSON *src, const char *where,
			    uint32_t *kb, uint32_t *ways, struct sim_err *err)
{
	double v;
	if (figure(f, obj, src, where, "kb", 4, 1 << 20, true, &v, err) < 0)
		return -1;
	*kb = (uint32_t)v;
	if (figure(f, obj, src, where, "ways", 1, 64, true, &v, err) < 0)
		return -1;
	*ways = (uint32_t)v;
	if ((*kb * 1024u / 64u) % *ways)
		return sim_fail(err, "%s: field '%s': %u KB is not a whole number of %u-way sets of "
				"64-byte lines", f, where, *kb, *ways);
	return 0;
}

/* The latencies: hand-off cycles per distance class (a class the topology lacks takes the
 * nearer one's), memory, atomic_cycles, and the shapes of the LLC (with its hit cycles) and L1. */
static int load_latencies(struct machine *m, const cJSON *root, const cJSON *src,
			  struct sim_err *err)
{
	const char *f = m->path;
	cJSON *h = json_member(f, root, NULL, "handoff_cycles", err);
	if (!h)
		return -1;
	if (!cJSON_IsObject(h))
		return sim_fail(err, "%s: field 'handoff_cycles' must be an object", f);
	if (check_handoff_keys(m, h, err) < 0)
		return -1;
	uint32_t prev = 0;
	for (int d = 0; d < NR_DIST; d++) {
		if (!dist_exists(m, (enum hw_dist)d)) {
			m->handoff[d] = prev;
			continue;
		}
		double v;
		if (figure(f, h, src, "handoff_cycles", hw_dist_name[d], 0, 1e6, true,
			   &v, err) < 0)
			return -1;
		if ((uint32_t)v < prev)
			return sim_fail(err, "%s: field 'handoff_cycles.%s' = %g is smaller "
					"than a nearer class (%u): distances must not get cheaper",
					f, hw_dist_name[d], v, prev);
		m->handoff[d] = prev = (uint32_t)v;
	}
	cJSON *mem = json_member(f, root, NULL, "memory_cycles", err);
	if (!mem)
		return -1;
	if (!cJSON_IsObject(mem))
		return sim_fail(err, "%s: field 'memory_cycles' must be an object", f);
	static const char *const mem_keys[] = { "local", "remote", NULL };
	if (only_known(f, mem, "memory_cycles", mem_keys, err) < 0)
		return -1;
	if (m->nodes == 1 && cJSON_GetObjectItemCaseSensitive(mem, "remote"))
		return sim_fail(err, "%s: field 'memory_cycles.remote': the topology has one "
				"node, so no memory is remote", f);
	double v;
	if (figure(f, mem, src, "memory_cycles", "local", 1, 1e6, true, &v, err) < 0)
		return -1;
	m->mem_local = m->mem_remote = (uint32_t)v;
	if (m->nodes > 1) {
		if (figure(f, mem, src, "memory_cycles", "remote", 1, 1e6, true, &v, err) < 0)
			return -1;
		m->mem_remote = (uint32_t)v;
		if (m->mem_remote < m->mem_local)
			return sim_fail(err, "%s: field 'memory_cycles.remote' = %u is less than "
					"'memory_cycles.local' = %u", f, m->mem_remote, m->mem_local);
	}
	if (figure(f, root, src, NULL, "atomic_cycles", 1, 1e5, true, &v, err) < 0)
		return -1;
	m->atomic = (uint32_t)v;
	cJSON *llc = json_member(f, root, NULL, "llc", err);
	if (!llc)
		return -1;
	if (!cJSON_IsObject(llc))
		return sim_fail(err, "%s: field 'llc' must be an object", f);
	static const char *const llc_keys[] = { "kb", "ways", "hit_cycles", NULL };
	if (only_known(f, llc, "llc", llc_keys, err) < 0 ||
	    load_cache_shape(f, llc, src, "llc", &m->llc_kb, &m->llc_ways, err) < 0 ||
	    figure(f, llc, src, "llc", "hit_cycles", 0, 1e4, true, &v, err) < 0)
		return -1;
	m->llc_hit = (uint32_t)v;
	cJSON *l1 = json_member(f, root, NULL, "l1", err);
	if (!l1)
		return -1;
	if (!cJSON_IsObject(l1))
		return sim_fail(err, "%s: field 'l1' must be an object", f);
	static const char *const l1_keys[] = { "kb", "ways", NULL };
	if (only_known(f, l1, "l1", l1_keys, err) < 0 ||
	    load_cache_shape(f, l1, src, "l1", &m->l1_kb, &m->l1_ways, err) < 0)
		return -1;
	if (m->l1_kb >= m->llc_kb)
		return sim_fail(err, "%s: field 'l1.kb' = %u must be smaller than 'llc.kb' = %u",
				f, m->l1_kb, m->llc_kb);
	return 0;
}

/* "fabric": its kind (fsb, home or ideal) and that kind's occupancies: bus, hub and line for
 * an FSB, home agent, link and line for home agents, none for ideal. */
static int load_fabric(struct machine *m, const cJSON *root, const cJSON *src,
		       struct sim_err *err)
{
	const char *f = m->path;
	cJSON *fab = json_member(f, root, NULL, "fabric", err);
	if (!fab)
		return -1;
	if (!cJSON_IsObject(fab))
		return sim_fail(err, "%s: field 'fabric' must be an object", f);
	char kind[16];
	if (json_string(f, fab, "fabric", "kind", kind, sizeof(kind), err) < 0)
		return -1;
	static const char *const fsb_keys[] = { "kind", "bus_occupancy_cycles",
		"hub_occupancy_cycles", "line_occupancy_cycles", NULL };
	static const char *const home_keys[] = { "kind", "home_occupancy_cycles",
		"link_occupancy_cycles", "line_occupancy_cycles", NULL };
	static const char *const ideal_keys[] = { "kind", NULL };
	const char *const *known = !strcmp(kind, "fsb") ? fsb_keys
		: !strcmp(kind, "home") ? home_keys : !strcmp(kind, "ideal") ? ideal_keys : NULL;
	if (!known)
		return sim_fail(err, "%s: field 'fabric.kind' = '%s' is not one of: fsb home ideal",
				f, kind);
	if (only_known(f, fab, "fabric", known, err) < 0)
		return -1;
	double v;
	if (strcmp(kind, "fsb") == 0) {
		m->fabric = FABRIC_FSB;
		if (figure(f, fab, src, "fabric", "bus_occupancy_cycles", 0, 1e5, true, &v, err) < 0)
			return -1;
		m->occ_bus = (uint32_t)v;
		if (figure(f, fab, src, "fabric", "hub_occupancy_cycles", 0, 1e5, true, &v, err) < 0)
			return -1;
		m->occ_hub = (uint32_t)v;
		if (figure(f, fab, src, "fabric", "line_occupancy_cycles", 0, 1e5, true, &v, err) < 0)
			return -1;
		m->occ_line = (uint32_t)v;
	} else if (strcmp(kind, "home") == 0) {
		m->fabric = FABRIC_HOME;
		if (figure(f, fab, src, "fabric", "home_occupancy_cycles", 0, 1e5, true, &v, err) < 0)
			return -1;
		m->occ_home = (uint32_t)v;
		if (figure(f, fab, src, "fabric", "link_occupancy_cycles", 0, 1e5, true, &v, err) < 0)
			return -1;
		m->occ_link = (uint32_t)v;
		if (figure(f, fab, src, "fabric", "line_occupancy_cycles", 0, 1e5, true, &v, err) < 0)
			return -1;
		m->occ_line = (uint32_t)v;
	} else {
		m->fabric = FABRIC_IDEAL;
	}
	return 0;
}

/* A machine file's entry the table lacks may be a policy's own
 * ("mine.push", struct cost_def), whose default it overrides: a dotted name
 * whose prefix no table entry has ("slab.aloc_hit" is a typo, refused). */
static bool policy_own_cost(const struct machine *m, const char *name)
{
	const char *dot = strchr(name, '.');
	if (!dot || dot == name)
		return false;
	size_t n = (size_t)(dot - name) + 1;
	for (int i = 0; i < m->ncosts; i++)
		if (!strncmp(m->cost_name[i], name, n))
			return false;
	return true;
}

/* Set cost `name` to v: an entry the table has is overwritten; a new one is added only when
 * `define` (a cost table's own) or it is a policy's own cost (policy_own_cost()). */
static int set_cost(struct machine *m, const char *file, const char *name, double v,
		    bool define, struct sim_err *err)
{
	for (int i = 0; i < m->ncosts; i++)
		if (strcmp(m->cost_name[i], name) == 0) {
			m->cost[i] = v;
			return 0;
		}
	if (!define && !policy_own_cost(m, name))
		return sim_fail(err, "%s: field 'costs.%s': cost table '%s' has no such cost",
				file, name, m->cost_table);
	if (m->ncosts >= MACHINE_MAX_COSTS)
		return sim_fail(err, "%s: too many cost entries (max %d)", file, MACHINE_MAX_COSTS);
	if (strlen(name) >= sizeof(m->cost_name[0]))
		return sim_fail(err, "%s: cost name '%s' is too long", file, name);
	strcpy(m->cost_name[m->ncosts], name);
	m->cost[m->ncosts++] = v;
	return 0;
}

/* Read {"cycles": {...}, "sources": {...}} entries into the cost table: a
 * cost table defines its names, a machine file's "costs" only overrides. */
static int load_costs_object(struct machine *m, const char *file, const cJSON *cycles,
			     const cJSON *src, const char *where, bool define,
			     struct sim_err *err)
{
	if (!cJSON_IsObject(cycles))
		return sim_fail(err, "%s: field '%s' must be an object", file, where);
	const cJSON *c;
	cJSON_ArrayForEach(c, cycles) {
		double v;
		if (json_number(file, cycles, where, c->string, 0, 1e7, false, &v, err) < 0)
			return -1;
		if (need_source(file, src, where, c->string, err) < 0)
			return -1;
		if (set_cost(m, file, c->string, v, define, err) < 0)
			return -1;
	}
	return 0;
}

/* The path of cost table NAME: costs/NAME.json beside the machine file, or
 * in a folder of machine_dirs() (a user's machine file elsewhere may use the
 * shipped tables). */
int machine_cost_table_path(const struct machine *m, const char *name, char *cpath, size_t size,
			    struct sim_err *err)
{
	char dir[512];
	snprintf(dir, sizeof(dir), "%s", m->path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		strcpy(dir, ".");
	snprintf(cpath, size, "%s/costs/%s.json", dir, name);
	if (file_exists(cpath))
		return 0;
	char dirs[sizeof(dirs_buf)];
	snprintf(dirs, sizeof(dirs), "%s", machine_dirs());
	for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d;
	     d = strtok_r(NULL, ":", &save)) {
		snprintf(cpath, size, "%s/costs/%s.json", d, name);
		if (file_exists(cpath))
			return 0;
	}
	return sim_fail(err, "%s: cost_table '%s': no file costs/%s.json next to it or in %s",
			m->path, name, name, machine_dirs());
}

/* Load cost table NAME into m: first the table it "inherits" (its core
 * family's base, whose every entry it takes unless it sets its own), then
 * its own entries and fitted figures. A new cost key is one edit, in the
 * base table. depth guards against a table inheriting itself. */
static int load_table_file(struct machine *m, const char *name, int depth, struct sim_err *err)
{
	char cpath[1024];
	if (depth > 4)
		return sim_fail(err, "%s: cost table '%s': 'inherits' goes round in a circle",
				m->path, name);
	if (machine_cost_table_path(m, name, cpath, sizeof(cpath), err) < 0)
		return -1;
	cJSON *ct = json_read_file(cpath, err);
	if (!ct)
		return -1;
	int rc = -1;
	const cJSON *inh = cJSON_GetObjectItemCaseSensitive(ct, "inherits");
	if (inh && !cJSON_IsString(inh)) {
		sim_fail(err, "%s: field 'inherits' must name a cost table", cpath);
		goto out;
	}
	if (inh && load_table_file(m, inh->valuestring, depth + 1, err) < 0)
		goto out;
	cJSON *cyc = json_member(cpath, ct, NULL, "cycles", err);
	cJSON *csrc = cyc ? json_member(cpath, ct, NULL, "sources", err) : NULL;
	if (csrc && cJSON_IsObject(cyc) && cJSON_IsObject(csrc) &&
	    apply_fitted(m, cpath, ct, csrc, true, err) == 0 &&
	    load_costs_object(m, cpath, cyc, csrc, NULL, true, err) == 0 &&
	    sources_all_used(cpath, csrc, err) == 0)
		rc = 0;
	else if (csrc && (!cJSON_IsObject(cyc) || !cJSON_IsObject(csrc)))
		sim_fail(err, "%s: 'cycles' and 'sources' must be objects", cpath);
out:
	cJSON_Delete(ct);
	return rc;
}

/* The file's "cost_table" (with the tables it inherits), then the file's own "costs"
 * overrides. */
static int load_cost_table(struct machine *m, const cJSON *root, const cJSON *src,
			   struct sim_err *err)
{
	const char *f = m->path;
	if (json_string(f, root, NULL, "cost_table", m->cost_table, sizeof(m->cost_table),
			err) < 0)
		return -1;
	if (load_table_file(m, m->cost_table, 0, err) < 0)
		return -1;
	cJSON *over = cJSON_GetObjectItemCaseSensitive(root, "costs");
	if (over)
		return load_costs_object(m, f, over, src, "costs", false, err);
	return 0;
}

int machine_load(struct machine *m, const char *name, struct sim_err *err)
{
	memset(m, 0, sizeof(*m));
	if (machine_resolve(name, m->path, sizeof(m->path), err) < 0)
		return -1;
	cJSON *root = json_read_file(m->path, err);
	if (!root)
		return -1;
	const char *f = m->path;
	int rc = -1;
	cJSON *src = json_member(f, root, NULL, "sources", err);
	if (!src)
		goto out;
	if (!cJSON_IsObject(src)) {
		sim_fail(err, "%s: field 'sources' must be an object", f);
		goto out;
	}
	if (apply_fitted(m, f, root, src, false, err) < 0)
		goto out;
	static const char *const root_keys[] = { "name", "description", "clock_ghz", "topology",
		"handoff_cycles", "memory_cycles", "atomic_cycles", "llc", "l1", "fabric", "cost_table",
		"costs", "sources", "ranges", NULL };
	if (only_known(f, root, NULL, root_keys, err) < 0)
		goto out;
	if (json_string(f, root, NULL, "name", m->name, sizeof(m->name), err) < 0 ||
	    json_string(f, root, NULL, "description", m->description,
			sizeof(m->description), err) < 0)
		goto out;
	double ghz;
	if (figure(f, root, src, NULL, "clock_ghz", 0.1, 10, false, &ghz, err) < 0)
		goto out;
	m->ghz = ghz;
	if (load_topology(m, root, src, err) < 0 || load_latencies(m, root, src, err) < 0 ||
	    load_fabric(m, root, src, err) < 0 || load_cost_table(m, root, src, err) < 0 ||
	    sources_all_used(f, src, err) < 0)
		goto out;
	m->nsources = cJSON_GetArraySize(src);
	rc = 0;
out:
	cJSON_Delete(root);
	if (rc < 0)
		machine_free(m);
	return rc;
}

void machine_free(struct machine *m)
{
	free(m->topo);
	free(m->loc);
	m->topo = NULL;
	m->loc = NULL;
}

int machine_cost(const struct machine *m, const char *name, uint32_t *cycles,
		 struct sim_err *err)
{
	for (int i = 0; i < m->ncosts; i++)
		if (strcmp(m->cost_name[i], name) == 0) {
			*cycles = (uint32_t)(m->cost[i] + 0.5);
			return 0;
		}
	return sim_fail(err, "%s: cost table '%s' has no entry '%s'", m->path,
			m->cost_table, name);
}

int machine_names(char **names, int max)
{
	char dirs[sizeof(dirs_buf)];
	snprintf(dirs, sizeof(dirs), "%s", machine_dirs());
	int n = 0;
	for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d;
	     d = strtok_r(NULL, ":", &save)) {
		DIR *dp = opendir(d);
		if (!dp)
			continue;
		struct dirent *de;
		while ((de = readdir(dp)) && n < max) {
			size_t len = strlen(de->d_name);
			if (len < 6 || strcmp(de->d_name + len - 5, ".json") != 0)
				continue;
			char nm[256];
			snprintf(nm, sizeof(nm), "%.*s", (int)(len - 5), de->d_name);
			bool dup = false;
			for (int i = 0; i < n; i++)
				dup |= strcmp(names[i], nm) == 0;
			if (!dup)
				names[n++] = strdup(nm);
		}
		closedir(dp);
	}
	qsort(names, (size_t)n, sizeof(names[0]), cmp_str);
	return n;
}
