# test_check_interval.sh - run --check-interval: every invariant checked
# mid-run as well as at the end, without changing the run (the same JSON but
# for the checks' own member), for every built-in policy and era; a bug that
# heals itself before the end (the buggy_template fixture's park_object) is caught mid-run
# and missed by the end check alone; bad intervals are refused.
. tests/cli/lib.sh
HB='hackbench 2 process 30'
same_run() {	# same_run A.json B.json: equal but for wall time and the checks
	python3 - "$1" "$2" <<'PY' || fail "$1 and $2 differ: the checks changed the run"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in (a, b):
    d.pop("checks", None)
    for k in ("wall_seconds", "events_per_second", "host_peak_rss_mb"):
        d["result"].pop(k, None)
sys.exit(a != b)
PY
}
# (magazines spin in the allocator nearly all of this run: a few checks only)
for pk in "slab" "slqb" "magazine" "slub kernel=2.6.25" "slub kernel=3.2" "slub kernel=7.0"; do
	set -- $pk
	n=$(echo "$pk" | tr ' =' '__')
	expect_exit 0 "invariants: ok" "$SLABSIM" run -m nehalem-ex -p $pk -w "$HB" --json "$TMP/$n-0.json"
	expect_exit 0 "checked" "$SLABSIM" run -m nehalem-ex -p $pk -w "$HB" --check-interval 10 \
		--json "$TMP/$n-1.json"
	grep -qE "^  checked [1-9][0-9]* times mid-run \(every 10 us" "$TMP/out" ||
		fail "$pk: no line saying how often it checked: $(grep checked "$TMP/out")"
	json "$TMP/$n-1.json" "d['checks']['interval_us'] == 10 and d['checks']['mid_run'] > 0"
	json "$TMP/$n-0.json" "'checks' not in d"
	same_run "$TMP/$n-0.json" "$TMP/$n-1.json"
done
# with failed allocations and the page allocator's per-CPU lists in play
expect_exit 0 "invariants: ok" "$SLABSIM" run -m nehalem-ep -p slub kernel=3.2 \
	-w 'mix configs/mix/example.json duration_ms=5' failslab=1,5,0,-1 \
	fail_page_alloc=1,20,0,-1 failslab_ignore_gfp_wait=N fail_page_alloc_ignore_gfp_wait=N \
	--check-interval 5 --json "$TMP/mix.json"
json "$TMP/mix.json" "d['checks']['mid_run'] > 10 and d['faults']['failslab']['injected'] > 0"

# a bug the end cannot see: one object off every list from the 1000th free
# to the 20000th (the buggy_template fixture's park_object=1)
make -s --no-print-directory policy SRC=tests/cli/data/modules/buggy_template.c \
	OUT="$TMP/buggy.so" > "$TMP/build.log" 2>&1 || fail "make policy: $(tail -3 "$TMP/build.log")"
expect_exit 0 "invariants: ok" "$SLABSIM" run -m tigerton -p "$TMP/buggy.so" -w "$HB" park_object=1
expect_exit 1 "run failed: mid-run check at 0.0" "$SLABSIM" run -m tigerton -p "$TMP/buggy.so" \
	-w "$HB" park_object=1 --check-interval 20 --json "$TMP/parked.json"
grep -qF "an object was lost or doubled" "$TMP/out" || fail "the parked object: $(tail -1 "$TMP/out")"
json "$TMP/parked.json" "d['invariants'].startswith('mid-run check at') and d['checks']['mid_run'] >= 1"

# the same bug, checked every 2000 slab operations; with that, a run's
# results are those of a run without it
expect_exit 1 "run failed: mid-run check at 0.0" "$SLABSIM" run -m tigerton -p "$TMP/buggy.so" \
	-w "$HB" park_object=1 --check-every 2000 --json "$TMP/parked2.json"
json "$TMP/parked2.json" "d['checks']['every_ops'] == 2000 and 'interval_us' not in d['checks']"
for p in slub slqb "$TMP/buggy.so"; do
	"$SLABSIM" run -m nehalem-ep -p "$p" -w "$HB" --json "$TMP/e0.json" > /dev/null 2>&1
	"$SLABSIM" run -m nehalem-ep -p "$p" -w "$HB" --check-every 500 --json "$TMP/e1.json" \
		> "$TMP/e1.txt" 2>&1 || fail "$p --check-every 500: $(tail -2 "$TMP/e1.txt")"
	grep -q "every 500 slab operations" "$TMP/e1.txt" || fail "$p: the text does not say the checks"
	python3 - "$TMP/e0.json" "$TMP/e1.json" <<'PY' || fail "$p: --check-every changed the run"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert b.pop("checks")["mid_run"] > 10
for d in (a, b):
    for k in ("wall_seconds", "events_per_second", "host_peak_rss_mb"):
        del d["result"][k]
assert a == b
PY
done
for v in 0 -1 x 2000000000; do
	expect_exit 2 "run: --check-every $v: expected slab operations, 1..1000000000" \
		"$SLABSIM" run -m tigerton -p slub -w "$HB" --check-every "$v"
done

# bad intervals
for v in 0 -5 abc 10us 2000000000; do
	expect_exit 2 "run: --check-interval $v: expected simulated microseconds, 1..1000000000" \
		"$SLABSIM" run -m tigerton -p slub -w "$HB" --check-interval "$v"
done
expect_exit 2 "trace record: --check-interval x" "$SLABSIM" trace record -o "$TMP/t" -m tigerton \
	-p slub -w "$HB" --check-interval x
finish
