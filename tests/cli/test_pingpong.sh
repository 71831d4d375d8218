# test_pingpong.sh - the pingpong workload: on every machine it reproduces
# the machine file's own hand-off table, pair by pair; Westmere-EP and EPYC
# Genoa match the measured medians of docs/calibration.md C3; --plot draws a PNG.
. tests/cli/lib.sh

# every machine: every measured pair equals handoff_cycles[its class] / clock_ghz
for m in $("$SLABSIM" list machines | awk '{print $1}'); do
	expect_exit 0 "pingpong, one-way hand-off" "$SLABSIM" run -m "$m" -p slub \
		-w "pingpong pairs=sample samples=6 iterations=50" --json "$TMP/$m.json"
	python3 - "$TMP/$m.json" "$SLABSIM_MACHINES/$m.json" <<'PY' || fail "pingpong on $m does not reproduce its table"
import json, sys
d = json.load(open(sys.argv[1]))
mf = json.load(open(sys.argv[2]))
ghz, table, t = mf["clock_ghz"], mf["handoff_cycles"], mf["topology"]
res = d["result"]
mx = res["matrix_ns"]
n = len(mx)
assert n == d["machine"]["cpus"], "matrix is not N x N"
# the class of two CPUs from the topology, numbered as Linux does: every
# core's first thread, then every second thread (README, Machines)
cores = n // t["threads_per_core"]
def place(c):
    core = c % cores
    die = core // t["cores_per_die"]
    socket = die // t["dies_per_socket"]
    return core, die, socket, socket // t["sockets_per_node"]
def cls(a, b):
    pa, pb = place(a), place(b)
    if pa[0] == pb[0]: return "smt"
    if pa[1] == pb[1] and t["dies_per_socket"] > 1: return "same_die"
    if pa[2] == pb[2]: return "same_socket"
    if pa[3] == pb[3] or t["sockets_per_node"] == 1: return "other_socket"
    return "other_node"
measured = [(i, j) for i in range(n) for j in range(i + 1, n) if mx[i][j] is not None]
assert len(measured) == res["pairs"] > 0, "pairs count"
for i, j in measured:   # each pair against its own class, not just the medians
    want = table[cls(i, j)] / ghz
    assert abs(mx[i][j] - want) <= 0.01 * want, "%s: cpus %d-%d (%s) %.2f ns, table %.2f" % (mf["name"], i, j, cls(i, j), mx[i][j], want)
for c, ns in res["by_class"].items():
    want = table[c] / ghz
    assert abs(ns - want) <= 0.01 * want, "%s: %s median %.2f ns, table %.2f" % (mf["name"], c, ns, want)
# every class the topology has is sampled
classes = {cls(i, j) for i in range(n) for j in range(i + 1, n)} if n <= 128 else None
if classes is not None:
    assert set(res["by_class"]) == classes, (res["by_class"].keys(), classes)
PY
done

# docs/calibration.md C3: the measured medians (core-to-core-latency)
json "$TMP/westmere-ep.json" "abs(d['result']['by_class']['smt'] - 7.1) <= 0.71"
json "$TMP/westmere-ep.json" "abs(d['result']['by_class']['same_socket'] - 37.2) <= 3.72"
json "$TMP/westmere-ep.json" "abs(d['result']['by_class']['other_socket'] - 73.7) <= 7.37"
json "$TMP/epyc-genoa-2s.json" "abs(d['result']['by_class']['smt'] - 9) <= 0.15 * 9"
json "$TMP/epyc-genoa-2s.json" "22 * 0.85 <= d['result']['by_class']['same_die'] <= 25 * 1.15"
json "$TMP/epyc-genoa-2s.json" "97 * 0.85 <= d['result']['by_class']['same_socket'] <= 104 * 1.15"
json "$TMP/epyc-genoa-2s.json" "188 * 0.85 <= d['result']['by_class']['other_socket'] <= 200 * 1.15"

# every pair of a small machine, and the heatmap
expect_exit 0 "smt 7.1 same_socket 37.1 other_socket 73.8" "$SLABSIM" run -m westmere-ep -p slub \
	-w pingpong --json "$TMP/all.json" --plot "$TMP/heat.png" --quiet
json "$TMP/all.json" "d['result']['pairs'] == 24 * 23 // 2"
json "$TMP/all.json" "all(v is not None for row in d['result']['matrix_ns'] for v in row)"
[ -s "$TMP/heat.png" ] || fail "--plot wrote no PNG"
head -c 8 "$TMP/heat.png" | grep -q "PNG" || fail "--plot: not a PNG file"
grep -q "matrix with image" "$TMP/heat.png.gp" || fail "--plot: no gnuplot script beside the PNG"
[ "$(wc -l < "$TMP/heat.png.dat")" -eq 24 ] || fail "--plot: the data file is not 24 rows"

# bad input
python3 - "$SLABSIM_MACHINES/core2-ep.json" "$TMP/one.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["name"] = "one"
m["topology"] = {"nodes": 1, "sockets_per_node": 1, "dies_per_socket": 1, "cores_per_die": 1, "threads_per_core": 1}
m["handoff_cycles"] = {"same_core": 3}
m["sources"] = {k: v for k, v in m["sources"].items() if not k.startswith("handoff_cycles.") or k == "handoff_cycles.same_core"}
json.dump(m, open(sys.argv[2], "w"))
PY
expect_exit 2 "unexpected argument 'fast'" "$SLABSIM" run -m tigerton -p slub -w "pingpong fast"
expect_exit 2 "pairs" "$SLABSIM" run -m tigerton -p slub -w pingpong pairs=some
expect_exit 2 "iterations" "$SLABSIM" run -m tigerton -p slub -w pingpong iterations=0
expect_exit 2 "needs two CPUs" "$SLABSIM" run -m "$TMP/one.json" -p slub -w pingpong
expect_exit 2 "ideal fabric" "$SLABSIM" run -m validation/machines/uniform16.json -p slub -w pingpong
expect_exit 2 "draws no plot" "$SLABSIM" run -m tigerton -p slub -w "hackbench 1 process 1" --plot "$TMP/x.png"
expect_exit 2 "cannot write" "$SLABSIM" run -m tigerton -p slub -w pingpong --plot /nonexistent/dir/x.png
finish
