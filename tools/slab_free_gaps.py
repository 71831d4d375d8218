#!/usr/bin/env python3
"""slab_free_gaps.py - how close together the frees of one slab come.

    slabsim trace record -o T --from 30 --to 30.5 --json R.json -m ... -w ...
    python3 tools/slab_free_gaps.py R.json T

A free that finds its slab's page lock (slab_lock, SLUB's bit spinlock on
page->flags) held waits; whether frees convoy on that lock depends on how
close together the frees of one slab come, against how long the lock is
held. This reads a kmem trace (slabsim's own, or any ftrace kmem capture
with the slab sizes of the run) and, for each cache, prints the gaps
between consecutive frees of objects of one slab, with the run's mean
slab_lock hold beside them.

A slab is the object's address rounded down to the slab's size (PAGE_SIZE
<< order, from the run's JSON: the page allocator hands out naturally
aligned blocks). A free is remote when another CPU allocated the object:
in SLUB before 3.x that free takes __slab_free and the page lock. Frees of
objects allocated before the trace's first event have no known cache and
are left out (the trace names the cache of kmem_cache_free, not of kfree).
"""
import json
import re
import sys

EVENT = re.compile(r'\[(\d+)\]\s+\S+\s+([\d.]+): (kmalloc|kmem_cache_alloc|kfree|'
                   r'kmem_cache_free): .*?ptr=([0-9a-f]+)(.*)$')
PAGE_SIZE = 4096
SHARES = (1e-6, 5e-6, 20e-6, 100e-6)	# seconds: the "within" columns


def slab_sizes(run):
    """Each cache name's (the cache it is merged into, its slab size in
    bytes), and each cache's mean slab_lock hold (s)."""
    ghz = run["machine"]["clock_ghz"]
    sizes = {c["name"]: (c.get("alias_of", c["name"]), PAGE_SIZE << c["order"])
             for c in run["caches"]}
    holds = {}
    for lk in run.get("locks", []):
        m = re.match(r"slab_lock \[(.+)\]$", lk["name"])
        if m and lk["acquisitions"]:
            holds[m.group(1)] = lk["hold_cycles"] / lk["acquisitions"] / (ghz * 1e9)
    return sizes, holds


def cache_of_alloc(kind, rest):
    """The cache an allocation line names: name= or kmalloc-<bytes_alloc>."""
    m = re.search(r"name=(\S+)", rest)
    if m:
        return m.group(1)
    m = re.search(r"bytes_alloc=(\d+)", rest)
    return "kmalloc-%s" % m.group(1) if m and kind == "kmalloc" else None


def read_gaps(path, sizes):
    """Per cache: the gaps (s) between consecutive frees of one slab, all and remote."""
    owner = {}	# ptr -> (cache, cpu that allocated it)
    last = {}	# (cache, slab) -> time of its last free
    gaps = {}
    for line in open(path, errors="replace"):
        m = EVENT.search(line)
        if not m:
            continue
        cpu, ts, kind, ptr, rest = int(m.group(1)), float(m.group(2)), m.group(3), \
            int(m.group(4), 16), m.group(5)
        if kind in ("kmalloc", "kmem_cache_alloc"):
            cache = cache_of_alloc(kind, rest)
            if cache in sizes:
                owner[ptr] = (cache, cpu)
            continue
        got = owner.pop(ptr, None)
        if not got:
            continue
        cache, acpu = got
        cache, size = sizes[cache]
        slab = ptr & ~(size - 1)
        g = gaps.setdefault(cache, ([], []))
        prev = last.get((cache, slab))
        last[(cache, slab)] = ts
        if prev is not None:
            g[0].append(ts - prev)
            if acpu != cpu:
                g[1].append(ts - prev)
    return gaps


def pct(xs, q):
    """The q-quantile of sorted xs."""
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def share(xs, limit):
    """The share of xs under limit, as a percentage."""
    return "%.1f%%" % (100.0 * sum(1 for x in xs if x < limit) / len(xs))


def us(x):
    """Seconds as microseconds, three significant figures."""
    return "%.3g" % (x * 1e6)


def table(gaps, holds):
    """One row per cache with frees: counts, quantiles, shares within."""
    head = ("cache", "gaps", "remote", "p10 us", "p50 us", "p90 us") + \
        tuple("<%s us" % us(s) for s in SHARES) + ("hold us", "<hold")
    rows = [head]
    for cache in sorted(gaps, key=lambda c: -len(gaps[c][0])):
        allg, remote = sorted(gaps[cache][0]), gaps[cache][1]
        if len(allg) < 10:
            continue
        row = (cache, str(len(allg)), "%.0f%%" % (100.0 * len(remote) / len(allg)),
               us(pct(allg, .1)), us(pct(allg, .5)), us(pct(allg, .9)))
        row += tuple(share(allg, s) for s in SHARES)
        hold = holds.get(cache)
        row += (us(hold), share(allg, hold)) if hold else ("-", "-")
        rows.append(row)
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    return "\n".join("  ".join(c.rjust(w) if i else c.ljust(w)
                               for i, (c, w) in enumerate(zip(r, widths))) for r in rows)


def main(argv):
    if len(argv) != 3 or argv[1] in ("-h", "--help"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        run = json.load(open(argv[1]))
        sizes, holds = slab_sizes(run)
        gaps = read_gaps(argv[2], sizes)
    except (OSError, ValueError, KeyError) as e:
        print("slab_free_gaps: %s" % e, file=sys.stderr)
        return 2
    if not gaps:
        print("slab_free_gaps: %s: no free of an object allocated inside the trace"
              % argv[2], file=sys.stderr)
        return 2
    print("gaps between consecutive frees of one slab (%s); remote: freed on a CPU other\n"
          "than the allocating one; hold: the run's mean slab_lock hold" % argv[2])
    print(table(gaps, holds))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
