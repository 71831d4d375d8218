# test_sweep_tools.sh - the rest of the experiment tools on a small
# experiment (tests/cli/data/tiny-sweep.json): the ETA replay runs, --shard
# and merge give the sweep's summary, plot redraws (png, svg), CIs narrow as
# replicates grow, machine expressions, and bad experiment files get one
# message with the key path, exit 2, and no results folder.
. tests/cli/lib.sh
EXP=tests/cli/data/tiny-sweep.json

"$SLABSIM" sweep "$EXP" -j 2 --out "$TMP/all" > "$TMP/all.out" 2>&1 || fail "tiny sweep failed"
grep -q "nehalem-ep slub_min_objects=16" "$TMP/all.out" || fail "no summary table: $(cat "$TMP/all.out")"

# tools/eta_replay.py: the two ETA rules replayed on the sweep's own runs
python3 tools/eta_replay.py "$TMP/all/runs.jsonl" > "$TMP/eta.txt" || fail "eta_replay.py failed"
grep -Eq "^all +12 +[0-9]+% +[0-9]+% +[0-9]+% +[0-9]+%$" "$TMP/eta.txt" ||
	fail "eta_replay.py: $(cat "$TMP/eta.txt")"
expect_exit 2 "not a sweep's runs.jsonl" python3 tools/eta_replay.py "$EXP"

# shards, as Slurm array tasks would run them, then merge
for i in 0 1 2; do
	"$SLABSIM" sweep "$EXP" --shard $i/3 -j 1 --out "$TMP/shard$i" > /dev/null 2>&1 ||
		fail "shard $i/3 failed"
done
[ "$(cat "$TMP"/shard*/runs.jsonl | wc -l)" -eq 12 ] || fail "the shards did not split 12 runs"
[ ! -e "$TMP/shard0/metric.png" ] || fail "a shard drew plots of a part of the sweep"
"$SLABSIM" merge "$TMP/shard0" "$TMP/shard1" --out "$TMP/half" > "$TMP/half.out" 2>&1
[ $? = 1 ] || fail "merge with shards missing must exit 1 (a Slurm afterok chain must notice)"
grep -q "missing" "$TMP/half.out" || fail "merge did not report the missing runs"
"$SLABSIM" merge "$TMP/shard0" "$TMP/shard1" "$TMP/shard2" "$TMP/shard1" --out "$TMP/merged" \
	> "$TMP/merged.out" 2>&1 || fail "merge failed: $(cat "$TMP/merged.out")"
grep -q "12 of 12 runs" "$TMP/merged.out" || fail "merge: $(cat "$TMP/merged.out")"
cmp -s "$TMP/merged/summary.json" "$TMP/all/summary.json" || fail "merged summary differs from the sweep's"
[ -s "$TMP/merged/metric.png" ] || fail "merge drew no plot"
head -1 "$TMP/merged/runs.jsonl" | grep -q '"caches":\[{' || fail "merge dropped the runs' caches"
expect_exit 2 "no sweep.json" "$SLABSIM" merge "$TMP" --out "$TMP/x"
"$SLABSIM" sweep "$EXP" loops=21 --shard 0/2 --out "$TMP/other" > /dev/null 2>&1
expect_exit 2 "another experiment" "$SLABSIM" merge "$TMP/shard0" "$TMP/other" --out "$TMP/x"

# plot: redraw as svg; bad folders are refused
"$SLABSIM" plot "$TMP/all" --format svg > /dev/null 2>&1 || fail "plot --format svg failed"
for f in metric lock-wait profile memory; do
	grep -q "<svg" "$TMP/all/$f.svg" 2>/dev/null || fail "plot wrote no $f.svg"
	[ -s "$TMP/all/$f.gp" ] && [ -s "$TMP/all/$f.dat" ] || fail "$f: no .gp/.dat beside the plot"
done
grep -q "core2-ep" "$TMP/all/metric.gp" && grep -q "yerrorlines" "$TMP/all/metric.gp" ||
	fail "metric.gp: not one error-bar line per machine"
grep -q "slub_min_objects" "$TMP/all/metric.gp" || fail "metric.gp: no x axis label"
grep -q "^set title .*\\\\nloops=20 (3 runs a point: mean and 95% CI)" "$TMP/all/metric.gp" ||
	fail "metric.gp: the title does not give the file's fixed loops and what is drawn: $(grep '^set title' "$TMP/all/metric.gp")"
grep -q "set logscale x 2" "$TMP/all/metric.gp" && fail "metric.gp: 4 and 16 (4x) drawn on a log axis"
grep -q "with points pt 6" "$TMP/all/metric.gp" || fail "metric.gp: each run is not drawn as a dot"
json "$TMP/all/summary.json" "d['fixed'] == ['loops=20'] and all(len(p['metrics']['time']['values']) == 3 for p in d['points'])"
# with 2 runs a point: no CI (it would be +-9 sd), each run a dot; one line: no legend
sed 's/"nehalem-ep", "core2-ep"/"nehalem-ep"/' "$EXP" > "$TMP/one.json"
"$SLABSIM" sweep "$TMP/one.json" --replicates 2 -j 2 --out "$TMP/two" > /dev/null 2>&1 ||
	fail "the sweep of 2 replicates failed"
grep -q "yerrorlines\|xyerrorbars" "$TMP/two/metric.gp" "$TMP/two/memory.gp" && fail "a CI drawn from 2 runs"
grep -q "(2 runs a point: the mean, and each run as a dot)" "$TMP/two/metric.gp" ||
	fail "metric.gp of 2 runs: $(grep '^set title' "$TMP/two/metric.gp")"
grep -q "^set key off" "$TMP/two/metric.gp" || fail "one line with a legend"
grep -q 'title "all"' "$TMP/two/metric.gp" && fail "a legend 'all'"
grep -q "boxxyerror" "$TMP/two/profile.gp" && grep -q "^set ylabel \"slub_min_objects\"" "$TMP/two/profile.gp" ||
	fail "profile.gp: not labelled horizontal bars"
grep -q "^set xrange \[0:\*\]" "$TMP/two/memory.gp" || fail "memory.gp: the x axis may go below 0"
expect_exit 2 "no summary.json" "$SLABSIM" plot "$TMP"
mkdir "$TMP/bad" && echo '{"points": 3}' > "$TMP/bad/summary.json"
expect_exit 2 "not a sweep's summary" "$SLABSIM" plot "$TMP/bad"
expect_exit 2 "expected png or svg" "$SLABSIM" plot "$TMP/all" --format jpg
# a damaged summary is refused, never followed into a crash
for mut in 'd["dimensions"][0]["values"] = [1]' 'del d["points"][0]["labels"]' \
	   'd["dimensions"][3]["x"] = ["a", "b"]' 'd["points"][1]["profile"][0]["symbol"] = 3' \
	   'd["points"][0]["labels"]["machine"] = "nope"'; do
	python3 -c "import json; d = json.load(open('$TMP/all/summary.json')); $mut; json.dump(d, open('$TMP/bad/summary.json', 'w'))"
	expect_exit 2 "summary.json: " "$SLABSIM" plot "$TMP/bad"
done

# confidence intervals narrow as replicates grow (same points, 3 -> 12)
"$SLABSIM" sweep "$EXP" --replicates 12 -j 2 --out "$TMP/r12" > /dev/null 2>&1 || fail "12 replicates failed"
python3 - "$TMP/all/summary.json" "$TMP/r12/summary.json" <<'PY' || fail "CIs did not narrow with replicates"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
# three replicates' sd is itself noisy: one point may draw three close
# runs; the CIs must narrow at most points and in total (about 4x expected)
pairs = [(p["metrics"]["time"]["ci95"], q["metrics"]["time"]["ci95"])
         for p, q in zip(a["points"], b["points"])]
assert all(q["metrics"]["time"]["n"] == 12 for q in b["points"])
narrower = sum(cb < ca for ca, cb in pairs)
assert narrower >= 0.75 * len(pairs), pairs
assert sum(cb for _, cb in pairs) < 0.5 * sum(ca for ca, _ in pairs), pairs
PY

# machine expressions: 2 x CPUs per node is 16 on nehalem-ep (2 nodes of 8),
# 32 on tigerton (one node of 16)
cat > "$TMP/expr.json" <<'EOF'
{ "name": "expr", "machines": ["nehalem-ep", "tigerton"], "policies": ["slub"],
  "workloads": ["hackbench 1 process"], "fixed": { "loops": 5 },
  "axes": [ { "name": "min_objects", "variants": [ { "label": "default", "set": {} },
             { "label": "2 x cpus per node", "set": { "slub_min_objects": "=2*cpus_per_node" } } ] } ] }
EOF
"$SLABSIM" sweep "$TMP/expr.json" --out "$TMP/expr" --no-plot > /dev/null 2>&1 || fail "expression sweep failed"
python3 - "$TMP/expr/runs.jsonl" <<'PY' || fail "=2*cpus_per_node did not evaluate per machine"
import json, sys
got = {(r["machine"]["name"], r["sweep"]["key"].split("=")[-1]): r["policy"]["params"]["slub_min_objects"]
       for r in map(json.loads, open(sys.argv[1]))}
assert got[("nehalem-ep", "2 x cpus per node")] == 16 and got[("tigerton", "2 x cpus per node")] == 32, got
assert got[("nehalem-ep", "default")] == 4, got
PY

# a run whose check fails is recorded and reported, and the sweep exits 1
# (slab_test's tests 3-5 stop at PAGE_SIZE, so at 8192 bytes no test runs)
cat > "$TMP/fails.json" <<'EOF'
{ "name": "fails", "machines": ["core2-ep"], "policies": ["slub"],
  "workloads": ["slab_test count=10"], "axes": [ { "param": "run", "values": [1, 4] } ],
  "fixed": { "min_size": 8192, "max_size": 8192 } }
EOF
expect_exit 1 "failed: slab_test: no test ran" "$SLABSIM" sweep "$TMP/fails.json" --out "$TMP/fails"
json "$TMP/fails/summary.json" 'd["runs_done"] == 2 and d["runs_failed"] == 1 and d["points"][1]["metrics"]["time"]["n"] == 0'
grep -q '"invariants":"slab_test: no test ran"' "$TMP/fails/runs.jsonl" || fail "the failed run is not in runs.jsonl"

# bad experiment files: one message with the key path, exit 2, no folder
bad() {	# NEEDLE JSON
	printf '%s\n' "$2" > "$TMP/bad.json"
	expect_exit 2 "$1" "$SLABSIM" sweep "$TMP/bad.json" --out "$TMP/badout"
	[ ! -e "$TMP/badout" ] || { fail "a bad experiment left $TMP/badout ($1)"; rm -rf "$TMP/badout"; }
	[ "$(grep -c "slabsim:" "$TMP/out")" -eq 1 ] || fail "more than one message for: $1"
}
OK='"name": "b", "machines": ["tigerton"], "policies": ["slub"], "workloads": ["hackbench 1"]'
bad "axes[0].stepp: unknown key" "{ $OK, \"axes\": [ { \"param\": \"loops\", \"from\": 1, \"to\": 4, \"stepp\": 1 } ] }"
bad "machinez: unknown key" "{ $OK, \"machinez\": [] }"
bad "axes[0].values: empty axis" "{ $OK, \"axes\": [ { \"param\": \"loops\", \"values\": [] } ] }"
bad "axes[0].to: smaller than" "{ $OK, \"axes\": [ { \"param\": \"loops\", \"from\": 4, \"to\": 1, \"step\": 1 } ] }"
bad "replicates: expected an integer" "{ $OK, \"replicates\": \"three\" }"
bad "fixed.loops: expected a number" "{ $OK, \"fixed\": { \"loops\": [1] } }"
bad "machines: expected a list" "{ \"name\": \"b\", \"machines\": \"tigerton\", \"policies\": [\"slub\"], \"workloads\": [\"hackbench\"] }"
bad "policies: missing" "{ \"name\": \"b\", \"machines\": [\"tigerton\"], \"workloads\": [\"hackbench\"] }"
bad "fixed.slub_min_objectz: unknown parameter" "{ $OK, \"fixed\": { \"slub_min_objectz\": 8 } }"
bad "axes[0].values[1]: slub_min_objects" "{ $OK, \"axes\": [ { \"param\": \"slub_min_objects\", \"values\": [8, 99999] } ] }"
bad "axes[0].values[0]: unknown parameter 'nosuch'" "{ $OK, \"axes\": [ { \"param\": \"nosuch\", \"values\": [1] } ] }"
bad "machines[0]: unknown machine" "{ \"name\": \"b\", \"machines\": [\"pdp11\"], \"policies\": [\"slub\"], \"workloads\": [\"hackbench\"] }"
bad "policies[0]: unknown policy" "{ \"name\": \"b\", \"machines\": [\"tigerton\"], \"policies\": [\"slob\"], \"workloads\": [\"hackbench\"] }"
bad "unknown variable" "{ $OK, \"fixed\": { \"slub_min_objects\": \"=2*cpus_per_socket\" } }"
bad "label '4' repeats" "{ $OK, \"axes\": [ { \"param\": \"loops\", \"values\": [4, 4] } ] }"
bad "line 1, column" "{ $OK, "
bad "name: use letters" "{ \"name\": \"../up\", \"machines\": [\"tigerton\"] }"
bad "name: missing" "{ \"machines\": [\"tigerton\"] }"
expect_exit 2 "command line 'nosuch=1': unknown parameter" "$SLABSIM" sweep "$EXP" nosuch=1 --out "$TMP/badout"
[ ! -e "$TMP/badout" ] || fail "a bad override left a folder"
expect_exit 2 "cannot read experiment" "$SLABSIM" sweep "$TMP/none.json" --out "$TMP/badout"
expect_exit 2 "expected I/N" "$SLABSIM" sweep "$EXP" --shard 3/3
expect_exit 2 "expected 1..4096" "$SLABSIM" sweep "$EXP" -j 0
expect_exit 2 "which experiment" "$SLABSIM" sweep
expect_exit 0 "--resume" "$SLABSIM" sweep --help

# the default folder is out/NAME (untracked), never the committed results/;
# lockbench has no slab memory, so no memory plot; the table gives a
# point of 2 runs as its runs, of 3 as the mean +- its CI; the profile's
# title promises no CIs it does not draw
ABS=$(cd "$(dirname "$SLABSIM")" && pwd)/$(basename "$SLABSIM")
mkdir -p "$TMP/fresh" && cp configs/lockbench-curve.json "$TMP/fresh/"
(cd "$TMP/fresh" && "$ABS" sweep lockbench-curve.json -j 2 > table.txt 2>&1) ||
	fail "sweep lockbench-curve.json: $(tail -3 "$TMP/fresh/table.txt")"
L="$TMP/fresh/out/lockbench-curve"
[ -s "$L/metric.png" ] || fail "the sweep did not default to out/lockbench-curve"
[ ! -e "$L/memory.png" ] && [ ! -e "$L/memory.gp" ] || fail "an empty memory plot for lockbench"
grep -q "results in out/lockbench-curve" "$TMP/fresh/table.txt" || fail "the table does not name out/"
grep -Eq "cpus=64 +[0-9.]+ \([0-9.]+, [0-9.]+\)$" "$TMP/fresh/table.txt" ||
	fail "the table does not give a point's 2 runs: $(grep cpus=64 "$TMP/fresh/table.txt")"
grep -Eq "nehalem-ep slub_min_objects=16 +[0-9.]+ \+- [0-9.]+$" "$TMP/all.out" ||
	fail "the table does not give the mean +- CI of 3 runs: $(grep 'ep slub_min_objects=16' "$TMP/all.out")"
grep -q "(2 runs a point: the mean)" "$L/profile.gp" || fail "profile.gp's title claims CIs"
grep -q "(2 runs a point: the mean, and each run as a dot)" "$L/metric.gp" ||
	fail "metric.gp's title does not say what it draws: $(grep '^set title' "$L/metric.gp")"
grep -q "set logscale x 2" "$L/metric.gp" || fail "1 to 64 CPUs not on a log-2 axis"
grep -q 'set xtics ("1" 1, "2" 2, "3" 3, "4" 4, "6" 6,' "$L/metric.gp" ||
	fail "the x tics are not the swept values: $(grep xtics "$L/metric.gp")"

# with two series dimensions (slab-test: policy, test) a series' dots are
# drawn in its line's colour: the policy's
cp -r results/slab-test "$TMP/st"
"$SLABSIM" plot "$TMP/st" > /dev/null 2>&1 || fail "plot results/slab-test"
python3 - "$TMP/st/metric.gp" <<'PY' || fail "a series' dots are not in its line's colour"
import re, sys
gp = open(sys.argv[1]).read()
lines = re.findall(r"index (\d+) using 1:2(?::3)? with \w+ lc (\d+) dt", gp)
dots = dict(re.findall(r"index (\d+) using 1:2 with points pt 6 ps 0.5 lc (\d+)", gp))
assert len(lines) == 15 and len(dots) == 15, (len(lines), len(dots))
for i, colour in lines:
    assert dots[str(int(i) + 15)] == colour, (i, colour, dots)
assert len({c for _, c in lines}) == 3
PY

# a last value named by a word ("never" for 1000000) is drawn a step past
# the one before (4x on a log axis), labelled with its word
cat > "$TMP/word.json" <<'EOF2'
{ "name": "word", "machines": ["core2-ep"], "policies": ["slub"],
  "workloads": ["lockbench cpus=2 hold=200 duration_us=300"],
  "axes": [ { "param": "think", "values": [1000, 2000, { "label": "never", "value": 1000000 }] } ],
  "plot": { "x": "think" }, "replicates": 1, "seed": 1 }
EOF2
"$SLABSIM" sweep "$TMP/word.json" -j 2 --out "$TMP/word" > /dev/null 2>&1 || fail "sweep word.json"
grep -q 'set xtics ("1000" 1000, "2000" 2000, "never" 8000)' "$TMP/word/metric.gp" ||
	fail "the word value is not drawn past the last number: $(grep xtics "$TMP/word/metric.gp")"
finish
