# test_workloads_all.sh - the real-world workloads (oltp, netperf, kbuild, mix)
# and trace replay of a real capture run on every seed machine with slab,
# slub and slqb: exit 0, invariants ok, and each one's own counts in its
# JSON. A run that hangs fails after TIMEOUT seconds.
. tests/cli/lib.sh
MACHINES="tigerton core2-ep nehalem-ep westmere-ep nehalem-ex x3950-m2"
POLICIES="slab slub slqb"
TRACE=tests/cli/data/traces/kmem_SLUB.log	# a real capture (README.md there)
TIMEOUT=120
[ -n "${SLABSIM_SANITIZED:-}" ] && TIMEOUT=900
WORKLOADS="oltp clients=48 warmup_ms=2 duration_ms=5|netperf test=TCP_RR duration_ms=2|netperf test=TCP_STREAM duration_ms=2|kbuild duration_ms=2|mix configs/mix/example.json duration_ms=2|trace $TRACE pace=asap"
IFS='|'
set -- $WORKLOADS
unset IFS
for m in $MACHINES; do
	for p in $POLICIES; do
		j=0
		for w in "$@"; do
			expect_exit 0 "invariants: ok" timeout $TIMEOUT "$SLABSIM" run -m "$m" -p "$p" \
				-w "$w" --json "$TMP/$m.$p.$j.json"
			j=$((j + 1))
		done
	done
done
python3 - "$TMP" <<'PY' || fail "a run's JSON (see above)"
import glob, json, os, sys
bad = []
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    d = json.load(open(f))
    w, r = d["workload"]["name"], d["result"]
    what = os.path.basename(f)
    if d["invariants"] != "ok" or not r["finished"]:
        bad.append(f"{what}: {d['invariants']}")
    k = d["kmem"]["summary"]
    if k["allocs"] == 0:
        bad.append(f"{what}: no allocation in perf kmem stat")
    if w == "oltp" and r["transactions"] <= 0:
        bad.append(f"{what}: no transaction")
    if w == "trace" and (r["replayed"]["kmalloc"] != 2211 or r["replayed"]["kmem_cache_alloc"] != 6432
                         or r["replayed"]["kfree"] != 428 or r["replayed"]["kmem_cache_free"] != 2469):
        bad.append(f"{what}: replayed {r['replayed']}")
for b in bad:
    print(b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
finish
