/* trace_parse.c - one line of a kmem trace: ftrace's trace file, the output
 * of `trace-cmd report` or of `perf script`, old (to ~6.0) and 6.x event
 * formats. A line is `<comm>-<pid> [CPU] [flags] <seconds>: <event>: <fields>`
 * (perf: `<comm> <pid> [CPU] <seconds>: kmem:<event>: <fields>`), the fields
 * being key=value tokens in any order. Any bytes are accepted: the parser
 * only reads the `len` bytes it is given and classifies every line as an
 * event, a header, another event, or a bad line with a reason. */
#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "workloads/trace_load.h"
#include "engine/array_size.h"

/* The printed event names, with their kind. */
static const struct {
	const char *name;
	enum trace_kind kind;
	bool node_variant;
} kmem_events[] = {
	{ "kmalloc", TR_KMALLOC, false },
	{ "kmalloc_node", TR_KMALLOC, true },
	{ "kmem_cache_alloc", TR_CACHE_ALLOC, false },
	{ "kmem_cache_alloc_node", TR_CACHE_ALLOC, true },
	{ "kfree", TR_KFREE, false },
	{ "kmem_cache_free", TR_CACHE_FREE, false },
};

/* The fields read from an event line, as bits of a "seen" mask. */
enum {
	F_CALL_SITE = 1,
	F_PTR = 2,
	F_BYTES_REQ = 4,
	F_BYTES_ALLOC = 8,
	F_NODE = 16,
	F_NAME = 32,
	F_GFP = 64,
};

static const struct {
	const char *key;
	unsigned bit;
} field_keys[] = {
	{ "call_site", F_CALL_SITE }, { "ptr", F_PTR },	  { "bytes_req", F_BYTES_REQ },
	{ "bytes_alloc", F_BYTES_ALLOC }, { "node", F_NODE }, { "name", F_NAME },
	{ "gfp_flags", F_GFP },
};

/* Where the reason for an OTHER or BAD line goes. */
struct why {
	char *buf;
	size_t len;
};

/* A blank between tokens (the line's end was trimmed before). */
static bool is_ws(char c)
{
	return c == ' ' || c == '\t';
}

/* A decimal digit, without the locale (and sign) issues of <ctype.h>. */
static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* A character of an event or system name. */
static bool is_ident(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* The value of a hex digit, or -1. */
static int hex_value(char c)
{
	if (is_digit(c))
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The first non-blank at or after p. */
static const char *skip_ws(const char *p, const char *e)
{
	while (p < e && is_ws(*p))
		p++;
	return p;
}

/* The end of the token starting at p (the next blank, or e). */
static const char *token_end(const char *p, const char *e)
{
	while (p < e && !is_ws(*p))
		p++;
	return p;
}

/* Whether [p, e) starts with the string s. */
static bool starts_with(const char *p, const char *e, const char *s)
{
	size_t n = strlen(s);
	return (size_t)(e - p) >= n && memcmp(p, s, n) == 0;
}

/* Whether [p, e) is exactly the string s. */
static bool span_is(const char *p, const char *e, const char *s)
{
	return (size_t)(e - p) == strlen(s) && memcmp(p, s, e - p) == 0;
}

/* Copy [p, e) into dst as a string, truncated to size (raw bytes). */
static void copy_span(char *dst, size_t size, const char *p, const char *e)
{
	size_t n = (size_t)(e - p);
	if (!size)
		return;
	if (n >= size)
		n = size - 1;
	memcpy(dst, p, n);
	dst[n] = 0;
}

/* A printable excerpt of [p, e) for messages: at most 24 bytes, other
 * bytes shown as '?', "..." when cut. */
static const char *excerpt(char *buf, size_t size, const char *p, const char *e)
{
	size_t n = 0;
	for (; p < e && n < 24 && n + 4 < size; p++)
		buf[n++] = (*p >= 0x20 && *p < 0x7f) ? *p : '?';
	if (p < e && n + 4 <= size) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = 0;
	return buf;
}

/* Set the reason (printf-style, truncated) and say the line is bad. */
static __attribute__((format(printf, 2, 3))) bool fail(struct why *w, const char *fmt, ...)
{
	if (w->buf && w->len) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(w->buf, w->len, fmt, ap);
		va_end(ap);
	}
	return false;
}

/* Decimal digits [p, e) into *v; false if empty, not digits, or above max. */
static bool parse_dec(const char *p, const char *e, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;
	if (p == e)
		return false;
	for (; p < e; p++) {
		unsigned d = (unsigned)(*p - '0');
		if (!is_digit(*p) || x > (max - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*v = x;
	return true;
}

/* A pointer as %p prints it: hex with or without 0x (any number of leading
 * zeros, at most 64 bits), or "(null)" for NULL. */
static bool parse_ptr(const char *p, const char *e, uint64_t *v)
{
	uint64_t x = 0;
	if (span_is(p, e, "(null)")) {
		*v = 0;
		return true;
	}
	if (starts_with(p, e, "0x") || starts_with(p, e, "0X"))
		p += 2;
	if (p == e)
		return false;
	for (; p < e; p++) {
		int d = hex_value(*p);
		if (d < 0 || x >> 60)
			return false;
		x = x << 4 | (uint64_t)d;
	}
	*v = x;
	return true;
}

/* node=%d: NUMA_NO_NODE prints as -1. */
static bool parse_node(const char *p, const char *e, int *v)
{
	uint64_t x;
	bool neg = p < e && *p == '-';
	if (!parse_dec(p + neg, e, INT32_MAX, &x))
		return false;
	*v = neg ? -(int)x : (int)x;
	return true;
}

/* gfp_flags= as show_gfp_flags() prints them ("GFP_KERNEL|__GFP_ZERO",
 * "GFP_ATOMIC", "GFP_NOWAIT|__GFP_NOWARN", "__GFP_HIGH|__GFP_KSWAPD_RECLAIM"):
 * the model's flags, which tell only whether it may sleep. A mask that
 * names a sleeping one (GFP_KERNEL, GFP_USER, GFP_NOFS, GFP_NOIO, the
 * highuser and transhuge masks, __GFP_WAIT, __GFP_DIRECT_RECLAIM,
 * __GFP_RECLAIM) may; a number, whose bits differ by era, is taken as
 * GFP_KERNEL; any other cannot (GFP_ATOMIC if __GFP_HIGH is in it). */
static gfp_t parse_gfp(const char *p, const char *e)
{
	static const char *const sleeps[] = {
		"GFP_KERNEL", "GFP_KERNEL_ACCOUNT", "GFP_USER", "GFP_HIGHUSER",
		"GFP_HIGHUSER_MOVABLE", "GFP_NOFS", "GFP_NOIO", "GFP_TEMPORARY",
		"GFP_TRANSHUGE", "GFP_TRANSHUGE_LIGHT", "__GFP_WAIT", "__GFP_DIRECT_RECLAIM",
		"__GFP_RECLAIM", "GFP_IOFS",
	};
	if (p < e && isdigit((unsigned char)*p))
		return GFP_KERNEL;
	gfp_t gfp = GFP_NOWAIT;
	while (p < e) {
		const char *bar = memchr(p, '|', (size_t)(e - p));
		const char *te = bar ? bar : e;
		for (size_t i = 0; i < ARRAY_SIZE(sleeps); i++)
			if (span_is(p, te, sleeps[i]))
				gfp = span_is(p, te, "GFP_NOFS") ? GFP_NOFS
				    : span_is(p, te, "GFP_NOIO") ? GFP_NOIO : GFP_KERNEL;
		if ((span_is(p, te, "GFP_ATOMIC") || span_is(p, te, "__GFP_HIGH")) &&
		    !gfpflags_allow_blocking(gfp))
			gfp = GFP_ATOMIC;
		p = bar ? bar + 1 : e;
	}
	return gfp;
}

/* Seconds with an optional fraction of 1 to 9 digits, into nanoseconds. */
static bool parse_ts(const char *p, const char *e, uint64_t *ns)
{
	const char *dot = memchr(p, '.', (size_t)(e - p));
	uint64_t sec, frac = 0;
	if (!parse_dec(p, dot ? dot : e, UINT64_MAX / 1000000000u, &sec))
		return false;
	if (dot) {
		size_t n = (size_t)(e - dot - 1);
		if (n < 1 || n > 9 || !parse_dec(dot + 1, e, UINT64_MAX, &frac))
			return false;
		for (; n < 9; n++)
			frac *= 10;
	}
	if (sec * 1000000000u > UINT64_MAX - frac)
		return false;
	*ns = sec * 1000000000u + frac;
	return true;
}

/* The header lines of trace-cmd report and of trace files: `cpus=N`,
 * `version = N` (the '#' and blank ones are caught before). */
static bool is_header(const char *p, const char *e)
{
	if (starts_with(p, e, "cpus="))
		return true;
	if (!starts_with(p, e, "version"))
		return false;
	p = skip_ws(p + 7, e);
	return p < e && *p == '=';
}

/* The '[' of the CPU column: the first " [digits]" followed by a blank or
 * the end, so that a comm holding brackets does not mislead. NULL if none. */
static const char *find_cpu_column(const char *p, const char *e)
{
	const char *start = p;
	while ((p = memchr(p, '[', (size_t)(e - p)))) {
		const char *q = p + 1;
		while (q < e && is_digit(*q))
			q++;
		if (p > start && is_ws(p[-1]) && q > p + 1 && q < e && *q == ']' &&
		    (q + 1 == e || is_ws(q[1])))
			return p;
		p++;
	}
	return NULL;
}

/* The task before the CPU column: `comm-pid` (ftrace), `comm pid` or
 * `comm pid/tid` (perf); the pid is the digits after the last separator. */
static bool parse_task(const char *p, const char *col, struct trace_event *ev, struct why *w)
{
	const char *q = col, *d;
	uint64_t pid;
	while (q > p && is_ws(q[-1]))
		q--;
	for (d = q; d > p && is_digit(d[-1]); d--)
		;
	if (d > p + 1 && d[-1] == '/' && is_digit(d[-2])) {	/* perf's pid/tid: the tid */
		const char *t = d - 1;
		while (t > p && is_digit(t[-1]))
			t--;
		if (!parse_dec(d, q, INT32_MAX, &pid))
			return fail(w, "bad pid");
		d = t;
	} else if (!parse_dec(d, q, INT32_MAX, &pid)) {
		return fail(w, d == q ? "no pid before the CPU column" : "bad pid");
	}
	if (d == p || (d[-1] != '-' && !is_ws(d[-1])))
		return fail(w, "no task-pid before the CPU column");
	ev->pid = (int)pid;
	for (q = d - 1; q > p && is_ws(q[-1]); q--)
		;
	copy_span(ev->comm, sizeof(ev->comm), p, q);
	return true;
}

/* `[CPU] [flags] <seconds>:`; returns what follows the timestamp, NULL if bad. */
static const char *parse_cpu_ts(const char *col, const char *e, struct trace_event *ev,
				struct why *w)
{
	const char *p = col + 1, *q = p, *t, *te;
	char x[32];
	uint64_t v;
	while (q < e && is_digit(*q))
		q++;
	if (!parse_dec(p, q, UINT16_MAX, &v))
		return fail(w, "bad CPU '[%s]'", excerpt(x, sizeof(x), p, q)), NULL;
	ev->cpu = (int)v;
	t = skip_ws(q + 1, e);
	te = token_end(t, e);
	if (t < te && !is_digit(*t)) {	/* the flags column (irqs-off etc.) */
		t = skip_ws(te, e);
		te = token_end(t, e);
	}
	if (t == te)
		return fail(w, "no timestamp"), NULL;
	if (te[-1] != ':' || !parse_ts(t, te - 1, &ev->ts_ns))
		return fail(w, "bad timestamp '%s'",
			    excerpt(x, sizeof(x), t, te[-1] == ':' ? te - 1 : te)), NULL;
	return te;
}

/* The event name: `name:` or `system:name:` (perf), followed by a blank or
 * the end. Sets [*name, *name_end) to what was printed (system included);
 * returns what follows, NULL if there is no event name. */
static const char *parse_event_name(const char *p, const char *e, const char **name,
				    const char **name_end)
{
	const char *a;
	p = skip_ws(p, e);
	*name = a = p;
	while (p < e && is_ident(*p))
		p++;
	if (p == a || p == e || *p != ':')
		return NULL;
	if (p + 1 < e && is_ident(p[1])) {	/* system:event: */
		for (a = ++p; p < e && is_ident(*p); p++)
			;
		if (p == e || *p != ':')
			return NULL;
	}
	*name_end = p++;
	if (p < e && !is_ws(*p))
		return NULL;
	return p;
}

/* The index in kmem_events of a printed name (bare or "kmem:"), or -1. */
static int kmem_event_index(const char *p, const char *e)
{
	if (starts_with(p, e, "kmem:"))
		p += 5;
	for (size_t i = 0; i < ARRAY_SIZE(kmem_events); i++)
		if (span_is(p, e, kmem_events[i].name))
			return (int)i;
	return -1;
}

/* The bit of a field key, 0 for keys not used (gfp_flags, accounted, ...). */
static unsigned field_bit(const char *p, const char *e)
{
	for (size_t i = 0; i < ARRAY_SIZE(field_keys); i++)
		if (span_is(p, e, field_keys[i].key))
			return field_keys[i].bit;
	return 0;
}

/* Store one field's value [v, ve) in *ev; false (with the reason) if bad. */
static bool set_field(struct trace_event *ev, const char *evname, unsigned bit, const char *v,
		      const char *ve, struct why *w)
{
	char x[32];
	uint64_t n;
	switch (bit) {
	case F_CALL_SITE:
		copy_span(ev->call_site, sizeof(ev->call_site), v, ve);
		return true;
	case F_NAME:
		copy_span(ev->name, sizeof(ev->name), v, ve);
		return true;
	case F_GFP:
		ev->gfp = parse_gfp(v, ve);
		return true;
	case F_PTR:
		if (!parse_ptr(v, ve, &ev->ptr))
			return fail(w, "%s: bad ptr= '%s'", evname, excerpt(x, sizeof(x), v, ve));
		return true;
	case F_NODE:
		if (!parse_node(v, ve, &ev->node))
			return fail(w, "%s: bad node= '%s'", evname, excerpt(x, sizeof(x), v, ve));
		return true;
	default:
		if (!parse_dec(v, ve, UINT32_MAX, &n))
			return fail(w, "%s: bad %s= '%s'", evname,
				    bit == F_BYTES_REQ ? "bytes_req" : "bytes_alloc",
				    excerpt(x, sizeof(x), v, ve));
		*(bit == F_BYTES_REQ ? &ev->bytes_req : &ev->bytes_alloc) = (uint32_t)n;
		return true;
	}
}

/* Append a module tag (`[ext4]` after a %pS call site) to the call site. */
static void append_module(struct trace_event *ev, const char *p, const char *e)
{
	size_t n = strlen(ev->call_site);
	if (n + 2 < sizeof(ev->call_site)) {
		ev->call_site[n] = ' ';
		copy_span(ev->call_site + n + 1, sizeof(ev->call_site) - n - 1, p, e);
	}
}

/* The key=value fields, in any order; unknown keys and stray tokens are
 * skipped. An empty value may be followed by blanks and a token without
 * '=': that is the value (`ptr=  (null)`). A field given twice is bad. */
static bool parse_fields(const char *p, const char *e, struct trace_event *ev,
			 const char *evname, struct why *w)
{
	unsigned seen = 0, last = 0;
	bool alloc = ev->kind == TR_KMALLOC || ev->kind == TR_CACHE_ALLOC;
	while ((p = skip_ws(p, e)) < e) {
		const char *s = p, *eq, *v, *ve;
		unsigned bit;
		p = token_end(p, e);
		eq = memchr(s, '=', (size_t)(p - s));
		if (!eq) {
			if (last == F_CALL_SITE && *s == '[' && p[-1] == ']')
				append_module(ev, s, p);
			last = 0;
			continue;
		}
		v = eq + 1;
		ve = p;
		if (v == ve) {
			const char *n = skip_ws(p, e), *ne = token_end(n, e);
			if (n < ne && !memchr(n, '=', (size_t)(ne - n)))
				v = n, ve = p = ne;
		}
		last = bit = field_bit(s, eq);
		if (!bit)
			continue;
		if (seen & bit)
			return fail(w, "%s: two %.*s= fields", evname, (int)(eq - s), s);
		seen |= bit;
		if (!set_field(ev, evname, bit, v, ve, w))
			return false;
	}
	if (!(seen & F_PTR))
		return fail(w, "%s: no ptr= field", evname);
	if (alloc && !(seen & F_BYTES_REQ))
		return fail(w, "%s: no bytes_req= field", evname);
	if (alloc && !(seen & F_BYTES_ALLOC))
		return fail(w, "%s: no bytes_alloc= field", evname);
	return true;
}

/* Everything after the CPU column's '[': CPU, timestamp, event, fields. */
static enum trace_line_kind parse_after_task(const char *col, const char *e,
					     struct trace_event *ev, struct why *w)
{
	const char *p = parse_cpu_ts(col, e, ev, w), *name = NULL, *name_end = NULL;
	int i;
	if (!p)
		return TRACE_LINE_BAD;
	p = parse_event_name(p, e, &name, &name_end);
	if (!p)
		return fail(w, "no event name after the timestamp"), TRACE_LINE_BAD;
	i = kmem_event_index(name, name_end);
	if (i < 0) {
		if (w->buf && w->len)
			copy_span(w->buf, w->len, name, name_end);
		return TRACE_LINE_OTHER;
	}
	ev->kind = kmem_events[i].kind;
	ev->node_variant = kmem_events[i].node_variant;
	if (!parse_fields(p, e, ev, kmem_events[i].name, w))
		return TRACE_LINE_BAD;
	return TRACE_LINE_EVENT;
}

/* Classify and parse one line (see trace_load.h). */
enum trace_line_kind trace_parse_line(const char *line, size_t len, struct trace_event *ev,
				      char *why, size_t whylen)
{
	struct trace_event scratch;
	struct why w = { why, whylen };
	const char *p = line, *e, *col;
	if (!ev)
		ev = &scratch;
	memset(ev, 0, sizeof(*ev));
	ev->node = -1;
	ev->gfp = GFP_KERNEL;	/* a trace without gfp_flags= */
	if (why && whylen)
		why[0] = 0;
	if (!line || !len)
		return TRACE_LINE_HEADER;
	e = line + len;
	while (e > p && (is_ws(e[-1]) || e[-1] == '\r' || e[-1] == '\n'))
		e--;
	p = skip_ws(p, e);
	if (p == e || *p == '#' || is_header(p, e))
		return TRACE_LINE_HEADER;
	col = find_cpu_column(p, e);
	if (!col) {
		/* trace-cmd's "CPU 0 is empty", "CPU:0 [LOST 12 EVENTS]" */
		if (starts_with(p, e, "CPU") && p + 3 < e && (p[3] == ' ' || p[3] == ':'))
			return TRACE_LINE_HEADER;
		return fail(&w, "no [CPU] column"), TRACE_LINE_BAD;
	}
	if (!parse_task(p, col, ev, &w))
		return TRACE_LINE_BAD;
	return parse_after_task(col, e, ev, &w);
}

/* The name of an event kind, for messages and reports. */
const char *trace_kind_name(enum trace_kind k)
{
	static const char *const names[TR_NKINDS] = {
		[TR_KMALLOC] = "kmalloc",
		[TR_CACHE_ALLOC] = "kmem_cache_alloc",
		[TR_KFREE] = "kfree",
		[TR_CACHE_FREE] = "kmem_cache_free",
	};
	return (unsigned)k < TR_NKINDS ? names[k] : "?";
}

/* What a problem means, for messages and reports. */
const char *trace_problem_name(enum trace_problem p)
{
	static const char *const names[TP_NPROBLEMS] = {
		[TP_UNPARSABLE] = "unparsable line",
		[TP_OTHER_EVENT] = "not a kmem alloc/free event",
		[TP_NULL_FREE] = "kfree(NULL)",
		[TP_UNKNOWN_FREE] = "free of a pointer never allocated",
		[TP_DOUBLE_FREE] = "free of a pointer already freed",
		[TP_LIVE_REALLOC] = "allocation of a pointer still live",
	};
	return (unsigned)p < TP_NPROBLEMS ? names[p] : "?";
}
