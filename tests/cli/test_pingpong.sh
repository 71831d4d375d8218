# test_pingpong.sh - the pingpong workload: on every machine it reproduces
# the machine file's own hand-off table, pair by pair; Westmere-EP and EPYC
# Genoa match the measured medians of calibration.md C3; --plot draws a PNG.
. tests/cli/lib.sh

# every machine: every measured pair equals handoff_cycles[class] / clock_ghz
for m in $("$SLABSIM" list machines | awk '{print $1}'); do
	expect_exit 0 "pingpong, one-way hand-off" "$SLABSIM" run -m "$m" -p slub \
		-w "pingpong pairs=sample samples=6 iterations=50" --json "$TMP/$m.json"
	python3 - "$TMP/$m.json" "$SLABSIM_MACHINES/$m.json" <<'PY' || fail "pingpong on $m does not reproduce its table"
import json, sys
d = json.load(open(sys.argv[1]))
mf = json.load(open(sys.argv[2]))
ghz, table = mf["clock_ghz"], mf["handoff_cycles"]
res = d["result"]
mx = res["matrix_ns"]
n = len(mx)
assert n == d["machine"]["cpus"], "matrix is not N x N"
assert all(mx[i][i] == 0 for i in range(n)), "diagonal not 0"
assert res["by_class"], "no class measured"
for cls, ns in res["by_class"].items():
    want = table[cls] / ghz
    assert abs(ns - want) <= 0.01 * want, "%s: %s median %.2f ns, table %.2f" % (sys.argv[1], cls, ns, want)
measured = [(i, j) for i in range(n) for j in range(n) if i != j and mx[i][j] is not None]
assert len(measured) == 2 * res["pairs"], "pairs count"
assert all(mx[i][j] == mx[j][i] for i, j in measured), "matrix not symmetric"
for i, j in measured:   # each pair on its own, not just the medians
    assert any(abs(mx[i][j] - v / ghz) <= 0.01 * v / ghz for v in table.values()), (i, j, mx[i][j])
# a class the topology has is sampled
want = {"westmere-ep": {"smt", "same_socket", "other_socket"},
        "epyc-genoa-2s": {"smt", "same_die", "same_socket", "other_socket"},
        "x3950-m2": {"same_die", "same_socket", "other_socket", "other_node"}}.get(mf["name"])
if want:
    assert set(res["by_class"]) == want, res["by_class"].keys()
PY
done

# calibration.md C3: the measured medians (core-to-core-latency)
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
expect_exit 2 "unexpected argument 'fast'" "$SLABSIM" run -m tigerton -p slub -w "pingpong fast"
expect_exit 2 "pairs" "$SLABSIM" run -m tigerton -p slub -w pingpong pairs=some
expect_exit 2 "iterations" "$SLABSIM" run -m tigerton -p slub -w pingpong iterations=0
expect_exit 2 "draws no plot" "$SLABSIM" run -m tigerton -p slub -w "hackbench 1 process 1" --plot "$TMP/x.png"
expect_exit 2 "cannot write" "$SLABSIM" run -m tigerton -p slub -w pingpong --plot /nonexistent/dir/x.png
finish
