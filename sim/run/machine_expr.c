/* machine_expr.c - arithmetic over a machine's shape, for experiment values
 * that depend on the machine: "=2*cpus_per_node" is the proposal
 * slub_min_objects = 2 x CPUs per node. Integers, + - * / and parentheses. */
#include "machine_expr.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct expr {
	const char *s, *p;
	const struct machine *m;
	struct sim_err *err;
	bool bad;
};

/* Step over white space. */
static void skip_space(struct expr *x)
{
	while (isspace((unsigned char)*x->p))
		x->p++;
}

/* Keep the first error, naming where it was, and mark the expression bad; returns 0. */
static long long fail(struct expr *x, const char *what)
{
	if (!x->bad)
		sim_fail(x->err, "'%s': %s at '%s' (variables: %s)", x->s, what, x->p,
			 MACHINE_EXPR_VARS);
	x->bad = true;
	return 0;
}

/* The value of a machine variable, -1 if there is none of that name. */
static long long variable(const struct machine *m, const char *name, size_t len)
{
	static const char *const names[] = { "cpus", "nodes", "cpus_per_node", "sockets",
					     "cores", "threads_per_core", "dies", NULL };
	long long vals[] = { m->ncpus, m->nodes, m->ncpus / m->nodes, m->nsockets, m->ncores,
			     m->threads_per_core, m->ndies };
	for (int i = 0; names[i]; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], name, len))
			return vals[i];
	return -1;
}

static long long sum(struct expr *x);

/* A number, a variable, a negated atom, or a sum in parentheses. */
static long long atom(struct expr *x)
{
	skip_space(x);
	if (*x->p == '(') {
		x->p++;
		long long v = sum(x);
		skip_space(x);
		if (*x->p != ')')
			return fail(x, "expected ')'");
		x->p++;
		return v;
	}
	if (*x->p == '-') {
		x->p++;
		return -atom(x);
	}
	if (isdigit((unsigned char)*x->p)) {
		char *end;
		long long v = strtoll(x->p, &end, 10);
		x->p = end;
		return v;
	}
	const char *start = x->p;
	while (isalnum((unsigned char)*x->p) || *x->p == '_')
		x->p++;
	if (x->p == start)
		return fail(x, "expected a number, a variable or '('");
	long long v = variable(x->m, start, (size_t)(x->p - start));
	if (v < 0) {
		x->p = start;
		return fail(x, "unknown variable");
	}
	return v;
}

/* Atoms joined by * and / (integer division), left to right. */
static long long product(struct expr *x)
{
	long long v = atom(x);
	for (;;) {
		skip_space(x);
		char op = *x->p;
		if (op != '*' && op != '/')
			return v;
		x->p++;
		long long r = atom(x);
		if (op == '/' && r == 0)
			return fail(x, "division by zero");
		v = op == '*' ? v * r : v / r;
	}
}

/* Products joined by + and -, left to right. */
static long long sum(struct expr *x)
{
	long long v = product(x);
	for (;;) {
		skip_space(x);
		char op = *x->p;
		if (op != '+' && op != '-')
			return v;
		x->p++;
		long long r = product(x);
		v = op == '+' ? v + r : v - r;
	}
}

int machine_expr_eval(const char *text, const struct machine *m, long long *out,
		      struct sim_err *err)
{
	struct expr x = { .s = text, .p = text, .m = m, .err = err };
	long long v = sum(&x);
	skip_space(&x);
	if (!x.bad && *x.p)
		fail(&x, "unexpected text");
	if (x.bad)
		return -1;
	*out = v;
	return 0;
}
