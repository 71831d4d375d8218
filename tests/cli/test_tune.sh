# test_tune.sh - `slabsim tune`: successive halving over slub_min_objects on
# Tigerton finds the plain sweep's best value (within the sweep's CI) in
# fewer runs, with the sweep's own runs (the same seeds, the same times);
# the memory objective and the Pareto front; bad input exits 2.
. tests/cli/lib.sh
HB='hackbench 10 process 20'
"$SLABSIM" tune -m tigerton -p slub -w "$HB" slub_min_objects=4..64 slub_max_order=3 \
	--grid 5 --replicates 4 -j 2 --out "$TMP/t" > "$TMP/t.out" 2> "$TMP/t.err" ||
	fail "tune exited $?: $(tail -3 "$TMP/t.err")"
grep -q "^best: slub_min_objects=" "$TMP/t.out" || fail "tune printed: $(cat "$TMP/t.out")"
"$SLABSIM" sweep "$TMP/t/experiment.json" -j 2 --no-plot --out "$TMP/sweep" > /dev/null 2>&1 ||
	fail "the plain sweep of tune's grid"
python3 - "$TMP/t/tune.json" "$TMP/sweep/summary.json" <<'PY' || fail "tune against the sweep: $(cat "$TMP/t.out")"
import json, sys
t = json.load(open(sys.argv[1]))
s = json.load(open(sys.argv[2]))
sweep = {float(p["labels"]["slub_min_objects"]): p["metrics"]["time"] for p in s["points"]}
assert t["sweep_runs"] == sum(m["n"] for m in sweep.values()) == 20, t["sweep_runs"]
assert t["runs"] < t["sweep_runs"], (t["runs"], t["sweep_runs"])
# the same runs as the sweep's: a value run to every replicate has the sweep's mean
for v in t["values"]:
    if v["runs"] == 4:
        assert abs(v["mean"] - sweep[v["value"]]["mean"]) < 1e-12, (v, sweep[v["value"]])
best = min(sweep, key=lambda k: sweep[k]["mean"])
assert sweep[t["best"]]["mean"] <= sweep[best]["mean"] + sweep[best]["ci95"], (t["best"], best)
# the knee: the smallest value tried whose mean is within the best's CI
b = next(v for v in t["values"] if v["value"] == t["best"])
within = [v["value"] for v in t["values"] if v["runs"] and v["mean"] <= b["mean"] + b["ci95"]]
assert t["knee"] == min(within), (t["knee"], within)
PY

# memory: the smallest peak slab memory of the values left
"$SLABSIM" tune -m tigerton -p slub -w "$HB" slub_min_objects=4..64 --grid 3 --replicates 2 \
	--objective memory -j 2 --out "$TMP/m" > /dev/null 2>&1 || fail "--objective memory"
json "$TMP/m/tune.json" 'd["best"] == min((v for v in d["values"] if v["runs"]), key=lambda v: v["slab_mb_peak"])["value"]'

# pareto: every value, the front of time against memory, and its plot
"$SLABSIM" tune -m tigerton -p slub -w "$HB" slub_min_objects=4..64 --grid 4 --replicates 2 \
	--objective pareto -j 2 --out "$TMP/p" > "$TMP/p.out" 2>&1 || fail "--objective pareto"
python3 - "$TMP/p/tune.json" <<'PY' || fail "the Pareto front"
import json, sys
v = [x for x in json.load(open(sys.argv[1]))["values"]]
assert all(x["runs"] == 2 for x in v), v
def dominated(a):
    return any(b is not a and b["mean"] <= a["mean"] and b["slab_mb_peak"] <= a["slab_mb_peak"] and
               (b["mean"] < a["mean"] or b["slab_mb_peak"] < a["slab_mb_peak"]) for b in v)
assert all(x["front"] == (not dominated(x)) for x in v) and any(x["front"] for x in v), v
PY
[ -s "$TMP/p/pareto.png" ] || fail "no pareto.png: $(tail -3 "$TMP/p.out")"

expect_exit 2 "no range to search" "$SLABSIM" tune -m tigerton -p slub -w "$HB" slub_min_objects=8
expect_exit 2 "one range at a time" "$SLABSIM" tune -m tigerton -p slub -w "$HB" \
	slub_min_objects=4..8 slub_max_order=1..3
expect_exit 2 "expected PARAM=LO..HI with LO < HI" "$SLABSIM" tune -m tigerton -p slub -w "$HB" \
	slub_min_objects=64..4
expect_exit 2 "--objective speed: expected time, memory or pareto" "$SLABSIM" tune -m tigerton \
	-p slub -w "$HB" slub_min_objects=4..64 --objective speed
expect_exit 2 "--budget 0: expected a whole number" "$SLABSIM" tune -m tigerton -p slub -w "$HB" \
	slub_min_objects=4..64 --budget 0
expect_exit 2 "-m MACHINE, -p POLICY and -w WORKLOAD are required" "$SLABSIM" tune \
	slub_min_objects=4..64
expect_exit 2 "colour" "$SLABSIM" tune -m tigerton -p slub -w "$HB" colour=1..4 --out "$TMP/x"
expect_exit 0 "usage: slabsim tune" "$SLABSIM" tune --help
[ "$FAILS" -eq 0 ] && echo ok
exit "$FAILS"
