# test_c1.sh - docs/calibration.md C1 on tigerton (kernel=2.6.25-rc5, hackbench 100 process, loops
# reduced, slub_max_order=3): slub_min_objects=8 collapses (at least 3x the
# time at 32), 32 -> 64 changes the time by less than 40%, and at 8 the CPUs
# are in the slab paths and spinning on kmalloc-512's list_lock, more than at
# 64, with more of the time in SLUB's slow paths (V8, as oprofile read it). At 300 loops the start's backlog is a large part of each run, and it
# contends at 64 too: 8 takes 3.5x the time of 32, 64 4% less than 32, and
# 64 still spends 30% of its time spinning (55% of the profile in the slab
# paths, against 8's 72%). At the published 2000 loops `slabsim validate C1`
# checks the depth (8 over 32) against the published 13.4x, which the model
# does not reach (results/README.md).
. tests/cli/lib.sh
L=${C1_LOOPS:-300}
if [ -n "${SLABSIM_SANITIZED:-}" ]; then	# sanitizer builds: run the paths, skip the timing claims
	for mo in 8 64; do
		expect_exit 0 "invariants: ok" "$SLABSIM" run -m tigerton -p slub \
			-w "hackbench 10 process 10" slub_min_objects=$mo slub_max_order=3
	done
	finish
	exit 0
fi
for mo in 8 32 64; do
	"$SLABSIM" run -m tigerton -p slub -w "hackbench 100 process $L" kernel=2.6.25-rc5 slub_min_objects=$mo \
		slub_max_order=3 --json "$TMP/c1_$mo.json" --quiet > /dev/null ||
		fail "run at slub_min_objects=$mo failed"
done
python3 - "$TMP" <<'PY' || fail "C1 collapse not reproduced"
import json, sys
d = {mo: json.load(open('%s/c1_%d.json' % (sys.argv[1], mo))) for mo in (8, 32, 64)}
t = {mo: d[mo]['result']['sim_seconds'] for mo in d}
for mo in d:
    p = d[mo]['profile']
    print("slub_min_objects=%2d: %7.3f s  cpu busy %.2f slab %.2f spin %.2f  top: %s" % (
        mo, t[mo], d[mo]['cpu']['busy'], d[mo]['cpu']['slab'], d[mo]['cpu']['spin'],
        ', '.join('%s %.1f%%' % (x['symbol'], x['percent']) for x in p[:3])))
    assert d[mo]['invariants'] == 'ok', d[mo]['invariants']
assert t[8] >= 3 * t[32], "8 must be at least 3x slower than 32 (3.5x with this seed)"
assert abs(t[64] - t[32]) / t[32] < 0.40, "32 -> 64 must change the time by less than 40%"
# at 8 the CPUs are in the allocator (its paths and its lock spinning)
assert d[8]['cpu']['slab'] >= 0.5 and d[8]['cpu']['spin'] >= 0.35
# the slow paths' share as 2.6.25's oprofile reads it, list_lock's spinning
# charged to the function that took it (V8: 88% at 8, 12% at 64), falls as
# slub_min_objects grows; the model's share at 8 is well below the published
# one (validate V8 says by how much), so only the direction is asserted here
slowsyms = ('__slab_alloc', '__slab_free', 'add_partial')
def slow_share(r):
    total = sum(x['cycles'] for x in r['profile']) * 100 / sum(x['percent'] for x in r['profile'])
    waits = sum(c['wait_cycles'] for l in r['locks'] if l['name'].startswith('&n->list_lock')
                for c in l['contention_points'] if c['symbol'] in slowsyms)
    return sum(x['percent'] for x in r['profile'] if x['symbol'] in slowsyms) + 100 * waits / total
slow = {mo: slow_share(d[mo]) for mo in d}
print("__slab_alloc + __slab_free + add_partial, callers' spin: %s" % ', '.join('%d: %.1f%%' % (mo, slow[mo]) for mo in d))
assert slow[8] > slow[32] > 0 and slow[8] > slow[64], slow
slabsyms = ('_spin_lock', '__slab_free', '__slab_alloc', 'get_partial_node', 'add_partial',
            'kmem_cache_alloc', '__kmalloc_track_caller', 'kfree', 'kmem_cache_free',
            'new_slab', 'discard_slab', 'deactivate_slab')
share = {mo: sum(x['percent'] for x in d[mo]['profile'] if x['symbol'] in slabsyms) for mo in d}
print("profile share of the slab paths and _spin_lock: %s" % ', '.join('%d: %.1f%%' % (mo, share[mo]) for mo in d))
assert share[8] >= 65, share
# at 64 less of it (72% against 55% at this size)
assert share[64] <= share[8] - 10, share
assert d[64]['cpu']['spin'] <= d[8]['cpu']['spin'] - 0.05
# the list_lock of kmalloc-512 is where they wait, nearly every time at 8
lk = {mo: {l['name']: l for l in d[mo]['locks']}['&n->list_lock [kmalloc-512]'] for mo in (8, 64)}
con = {mo: lk[mo]['contentions'] / lk[mo]['acquisitions'] for mo in lk}
print("kmalloc-512's list_lock contended: 8: %.2f, 64: %.2f" % (con[8], con[64]))
assert con[8] > 0.8 and con[64] < con[8] - 0.1, con
PY
finish
