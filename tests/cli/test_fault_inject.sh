# test_fault_inject.sh - failslab= and fail_page_alloc= as the kernel's
# fault injection: failed allocations counted in the report and the JSON,
# survived with invariants intact where the workload copes (mix, trace),
# SLUB's ORDER_FALLBACK on a failed high-order page, hackbench's sender
# exiting on its failed write as hackbench does, memory running out for
# real said as such, the same seed giving the same run, bad specs refused;
# ignore-gfp-wait as the kernel's (Y by default: only allocations that cannot
# sleep fail), with the trace's own gfp_flags in a replay.
. tests/cli/lib.sh
MIX="mix configs/mix/example.json duration_ms=5"
WAIT="failslab_ignore_gfp_wait=N fail_page_alloc_ignore_gfp_wait=N"	# GFP_KERNEL may fail
# a default run has no fault section
expect_exit 0 "invariants: ok" "$SLABSIM" run -m nehalem-ep -p slub -w "$MIX" --json "$TMP/d.json"
grep -q "Allocation failures" "$TMP/out" && fail "a default run reports allocation failures"
json "$TMP/d.json" "'faults' not in d"
# failslab: every policy survives failed object allocations in mix
for p in slab slub slqb magazine; do
	expect_exit 0 "invariants: ok" "$SLABSIM" run -m nehalem-ep -p $p -w "$MIX" \
		failslab=1,5,0,-1 $WAIT --json "$TMP/$p.json"
	grep -qE "^failslab=1,5,0,-1: [1-9][0-9]* of [0-9]+ slab allocations failed$" "$TMP/out" ||
		fail "$p: no failslab line"
	# (magazines come from a cache too: a failed one falls back to the slab layer)
	json "$TMP/$p.json" "d['faults']['failslab']['injected'] >= d['result']['alloc_failures'] > 0"
done
# times and min-order: one failure only; order-0 pages spared by default
expect_exit 0 "failslab=1,100,0,1: 1 of" "$SLABSIM" run -m nehalem-ep -p slab -w "$MIX" failslab=1,100,0,1 $WAIT
# fail_page_alloc: SLAB's cache_grow fails the allocation; SLUB from 2.6.26
# retries at the smallest order that fits and counts ORDER_FALLBACK
expect_exit 0 "invariants: ok" "$SLABSIM" run -m nehalem-ep -p slab -w "$MIX" \
	fail_page_alloc=1,30,0,-1 fail_page_alloc_min_order=0 $WAIT --json "$TMP/pa.json"
json "$TMP/pa.json" "d['faults']['fail_page_alloc']['injected'] == d['result']['alloc_failures'] > 0"
for k in 2.6.26 3.2 7.0; do
	expect_exit 0 "invariants: ok" "$SLABSIM" run -m nehalem-ep -p slub kernel=$k -w "$MIX" \
		fail_page_alloc=1,50,0,-1 $WAIT --json "$TMP/of.json"
	json "$TMP/of.json" "sum(c['stats'].get('ORDER_FALLBACK', 0) for c in d['caches']) > 0"
done
# the same seed gives the same run with injection (the run's own generator)
"$SLABSIM" run -m nehalem-ep -p slub -w "$MIX" failslab=1,5,0,-1 $WAIT --json "$TMP/s2.json" > /dev/null 2>&1
python3 - "$TMP/slub.json" "$TMP/s2.json" <<'PY' || fail "injection is not reproducible"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in (a, b):
    for k in ("wall_seconds", "events_per_second", "host_peak_rss_mb"):
        d["result"].pop(k)
assert a == b
PY
# a trace replay counts its failed allocations and goes on
expect_exit 0 "invariants: ok" "$SLABSIM" trace replay tests/cli/data/traces/kmem_SLUB.log \
	-m nehalem-ep -p slub pace=asap cpu_map=spread failslab=1,2,0,-1 $WAIT
grep -qE "allocations failed \(NULL" "$TMP/out" || fail "the replay does not report its failed allocations"
# ignore-gfp-wait=Y, the kernel's default: of the real trace's allocations
# only those whose gfp_flags cannot sleep (GFP_ATOMIC, GFP_NOWARN alone)
# fail, every one of them at probability 100
expect_exit 0 "invariants: ok" "$SLABSIM" trace replay tests/cli/data/traces/kmem_SLUB.log \
	-m nehalem-ep -p slub pace=asap cpu_map=spread failslab=1,100,0,-1 --json "$TMP/gfp.json"
atomic=$(grep -cE "(kmalloc|kmem_cache_alloc): .*gfp_flags=(GFP_ATOMIC|GFP_NOWARN)" \
	tests/cli/data/traces/kmem_SLUB.log)
[ "$atomic" -gt 0 ] || fail "the trace has no allocation that cannot sleep"
json "$TMP/gfp.json" "d['faults']['failslab']['injected'] == $atomic and d['faults']['failslab']['ignore_gfp_wait'] and d['faults']['failslab']['spared'] > 1000"
grep -qF "that may sleep spared: ignore-gfp-wait is Y, the kernel's default; failslab_ignore_gfp_wait=N fails them too" \
	"$TMP/out" || fail "the report does not say what ignore-gfp-wait spared"
# hackbench's writes are GFP_KERNEL: spared by default, so it runs to the end
expect_exit 0 "invariants: ok" "$SLABSIM" run -m tigerton -p slub -w 'hackbench 2 process 20' \
	failslab=1,100,0,-1 --json "$TMP/hbY.json"
json "$TMP/hbY.json" "d['faults']['failslab']['injected'] == 0 and d['faults']['failslab']['spared'] == 2 * 2 * 20 * 20 * 20"
# the allocations' flags are in a recorded trace: TCP's ACKs are GFP_ATOMIC
"$SLABSIM" trace record -o "$TMP/tcp.trace" -m nehalem-ep -p slub -w 'netperf -t TCP_STREAM -l 0.002' \
	--quiet > /dev/null 2>&1 || fail "trace record of netperf failed"
grep -q "gfp_flags=GFP_ATOMIC" "$TMP/tcp.trace" || fail "no GFP_ATOMIC allocation in netperf's trace"
grep -q "gfp_flags=GFP_KERNEL" "$TMP/tcp.trace" || fail "no GFP_KERNEL allocation in netperf's trace"
# a sender exits on a failed write (barf("SENDER: write")), as it does; the
# run says so beside the allocator's invariants, which are still checked
expect_exit 1 "stopped early: hackbench: SENDER: write: No buffer space available (an skb allocation failed; by then failslab had injected 1 failure," \
	"$SLABSIM" run -m tigerton -p slub -w 'hackbench 10 process 20' failslab=1,100,0,1 $WAIT \
	--json "$TMP/barf.json"
grep -qx "invariants: ok" "$TMP/out" || fail "the allocator's invariants are not reported after the early exit"
grep -qF "slabsim: the workload stopped early (the allocator's invariants hold)" "$TMP/out" ||
	fail "no closing line for the early exit"
json "$TMP/barf.json" "d['invariants'] == 'ok' and d['stopped'].startswith('hackbench: SENDER: write') and not d['result']['finished']"
json "$TMP/barf.json" "d['faults']['failslab']['injected'] >= 1"
# memory that runs out for real (the issue's node_mem_mb=64) says so
expect_exit 1 "and the page allocator had found no free block" "$SLABSIM" run -m tigerton -p slub \
	-w 'hackbench 100 process 20' node_mem_mb=64
grep -q "^page allocator: no free block [1-9]" "$TMP/out" || fail "no page allocator line"
grep -qx "invariants: ok" "$TMP/out" || fail "out of memory: the allocator's invariants are not reported"
# bad specifications: one message, exit 2, before the run
for bad in 1,10 0,10,0,1 1,101,0,1 1,10,0,-2 x; do
	expect_exit 2 "failslab=$bad: " "$SLABSIM" run -m tigerton -p slub -w 'hackbench 1 process 1' \
		failslab=$bad
done
expect_exit 2 "fail_page_alloc_min_order" "$SLABSIM" run -m tigerton -p slub \
	-w 'hackbench 1 process 1' fail_page_alloc_min_order=11
expect_exit 2 "failslab_ignore_gfp_wait=maybe: not a boolean" "$SLABSIM" run -m tigerton -p slub \
	-w 'hackbench 1 process 1' failslab_ignore_gfp_wait=maybe
finish
