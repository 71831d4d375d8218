# test_sweep.sh - `slabsim sweep` on configs/tigerton-min-objects.json at
# loops=10: the results folder's files, the same summary for -j 2, -j 1, a
# run killed with SIGKILL (and a torn last line) then --resume, and
# `mpirun -n 3` of the MPI build (SLABSIM_MPI, built by `make mpi`).
# Under SLABSIM_SANITIZED=1 (make sanitize) the same checks run on the small
# tests/cli/data/tiny-sweep.json.
. tests/cli/lib.sh
EXP=configs/tigerton-min-objects.json
RUNS=36		# 12 values of slub_min_objects x 3 replicates
POINTS=12
LOOPS=loops=10
REPS="--replicates 3"	# the file has 2; 3 give a CI the plots draw
if [ "${SLABSIM_SANITIZED:-0}" = 1 ]; then
	EXP=tests/cli/data/tiny-sweep.json RUNS=12 POINTS=4 LOOPS=loops=100
fi

"$SLABSIM" sweep "$EXP" $LOOPS $REPS -j 2 --out "$TMP/j2" > "$TMP/j2.out" 2> "$TMP/j2.err" ||
	fail "sweep -j 2 exited $?: $(tail -3 "$TMP/j2.err")"
for f in runs.jsonl summary.csv summary.json experiment.json sweep.json metric.png \
	 metric.dat metric.gp lock-wait.png profile.png memory.png; do
	[ -s "$TMP/j2/$f" ] || fail "sweep did not write $f"
done
[ "$(wc -l < "$TMP/j2/runs.jsonl")" -eq $RUNS ] || fail "runs.jsonl has $(wc -l < "$TMP/j2/runs.jsonl") lines"
[ ! -e "$TMP/j2/.running" ] || fail "the workers' folder was left behind"
cmp -s "$EXP" "$TMP/j2/experiment.json" || fail "experiment.json is not the file as given"
# the summary: 12 points with n=3, CI from Student's t, and the C1 shape
json "$TMP/j2/summary.json" "len(d['points']) == $POINTS and d['runs_done'] == $RUNS and d['runs_failed'] == 0"
json "$TMP/j2/summary.json" 'all(p["metrics"]["time"]["n"] == 3 and p["metrics"]["time"]["ci95"] > 0 for p in d["points"])'
json "$TMP/j2/summary.json" "d['overrides'] == ['$LOOPS'] and d['points'][0]['labels']['slub_min_objects'] == '4'"
# C1's shape: slub_min_objects=4 is far slower than 64
[ "$EXP" = "${EXP#configs}" ] ||
	json "$TMP/j2/summary.json" 'd["points"][0]["metrics"]["time"]["mean"] > 1.5 * d["points"][-1]["metrics"]["time"]["mean"]'
python3 - "$TMP/j2/summary.json" "$TMP/j2/runs.jsonl" <<'PY' || fail "summary.json does not follow from runs.jsonl"
import json, math, sys
s = json.load(open(sys.argv[1]))
runs = [json.loads(l) for l in open(sys.argv[2])]
seeds = {r["seed"] for r in runs}
assert len(seeds) == len(runs), "two runs share a seed"
p = s["points"][2]
t = sorted((r["sweep"]["replicate"], r["result"]["sim_seconds"]) for r in runs if r["sweep"]["point"] == 2)
x = [v for _, v in t]
m = sum(x) / 3
sd = math.sqrt(sum((v - m) ** 2 for v in x) / 2)
assert abs(p["metrics"]["time"]["mean"] - m) < 1e-9 * m
assert abs(p["metrics"]["time"]["ci95"] - 4.302652729911275 * sd / math.sqrt(3)) < 1e-9 * m
PY
head -1 "$TMP/j2/summary.csv" | grep -q "^machine,policy,workload,slub_min_objects,runs,failed,time_n,time_mean,time_sd,time_ci95" ||
	fail "summary.csv header: $(head -1 "$TMP/j2/summary.csv")"
[ "$(wc -l < "$TMP/j2/summary.csv")" -eq $((POINTS + 1)) ] || fail "summary.csv rows"

# the same summary with one worker
"$SLABSIM" sweep "$EXP" $LOOPS $REPS -j 1 --out "$TMP/j1" > /dev/null 2>&1 || fail "sweep -j 1 failed"
cmp -s "$TMP/j1/summary.json" "$TMP/j2/summary.json" || fail "-j 1 and -j 2 summaries differ"
cmp -s "$TMP/j1/summary.csv" "$TMP/j2/summary.csv" || fail "-j 1 and -j 2 summary.csv differ"

# an existing results folder is not overwritten without --resume or --force
expect_exit 2 "--resume to finish it" "$SLABSIM" sweep "$EXP" $LOOPS $REPS --out "$TMP/j1"
expect_exit 2 "another experiment" "$SLABSIM" sweep "$EXP" loops=11 --resume --out "$TMP/j1"

# killed with SIGKILL mid-way, a torn last line, then resumed
"$SLABSIM" sweep "$EXP" $LOOPS $REPS -j 2 --out "$TMP/k" > /dev/null 2>&1 &
pid=$!
i=0
while [ "$(cat "$TMP/k/runs.jsonl" 2>/dev/null | wc -l)" -lt $((RUNS / 4)) ] && [ $i -lt 600 ]; do
	sleep 0.2
	i=$((i + 1))
done
kill -9 $pid
wait $pid 2>/dev/null
sleep 0.5
done_before=$(wc -l < "$TMP/k/runs.jsonl")
[ "$done_before" -lt $RUNS ] || fail "the sweep finished before it was killed"
printf '{"slabsim":{"version":"0.1.0"},"machine":{"na' >> "$TMP/k/runs.jsonl"
"$SLABSIM" sweep "$EXP" $LOOPS $REPS -j 2 --resume --out "$TMP/k" > "$TMP/k.out" 2> "$TMP/k.err" ||
	fail "--resume failed: $(tail -3 "$TMP/k.err")"
grep -q "$((RUNS - done_before)) to do" "$TMP/k.err" || fail "--resume redid finished runs: $(head -1 "$TMP/k.err")"
[ "$(wc -l < "$TMP/k/runs.jsonl")" -eq $RUNS ] || fail "after --resume runs.jsonl has $(wc -l < "$TMP/k/runs.jsonl") lines"
cmp -s "$TMP/k/summary.json" "$TMP/j1/summary.json" || fail "the resumed summary differs"

# a point no seed changes (7.0's queued spinlocks draw no random number) says
# so in the table; one the seeds do change (2.6.25's ticket locks) gets its CI
cat > "$TMP/same.json" <<'EOF2'
{ "name": "same", "machines": ["tigerton"], "workloads": ["hackbench 20 process 20"],
  "policies": [ { "name": "slub", "label": "sheaves", "set": { "kernel": "7.0" } },
                { "name": "slub", "label": "ticket", "set": { "kernel": "2.6.25" } } ],
  "replicates": 2, "seed": 1 }
EOF2
"$SLABSIM" sweep "$TMP/same.json" -j 2 --no-plot --out "$TMP/same" > "$TMP/same.out" 2> /dev/null ||
	fail "the sweep of same.json failed"
grep -q "^  sheaves .*, all 2 runs the same: no seed changed it$" "$TMP/same.out" ||
	fail "identical replicates not reported: $(cat "$TMP/same.out")"
grep -q "^  ticket  *[0-9.]* ([0-9.]*, [0-9.]*)$" "$TMP/same.out" ||
	fail "the seed-dependent point of 2 runs does not show both: $(cat "$TMP/same.out")"

# a CI target: each point adds seeds (two, then one a round) until its CI is
# within the target or it has --replicates of them; the runs it does are
# those of the fixed sweep, byte for byte; --resume with a tighter target adds
# runs; a bad target, or one with --shard or from the file, is refused
"$SLABSIM" sweep tests/cli/data/tiny-sweep.json loops=5 --replicates 8 --ci-target 0.02 -j 2 \
	--no-plot --out "$TMP/ci" > "$TMP/ci.out" 2>&1 || fail "the --ci-target sweep failed: $(tail -3 "$TMP/ci.out")"
"$SLABSIM" sweep tests/cli/data/tiny-sweep.json loops=5 --replicates 8 -j 2 --no-plot \
	--out "$TMP/ci-all" > /dev/null 2>&1 || fail "the fixed sweep of 8 failed"
python3 - "$TMP/ci" "$TMP/ci-all" <<'PY' || fail "--ci-target: the points' runs"
import json, math, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
assert s["ci_target"] == 0.02 and s["runs"] == 32, (s["ci_target"], s["runs"])
took = {p["key"]: p["runs"] for p in s["points"]}
for p in s["points"]:
    m = p["metrics"]["time"]
    within = m["ci95"] is not None and m["ci95"] <= 0.02 * abs(m["mean"])
    assert 2 <= p["runs"] <= 8 and (within or p["runs"] == 8), (p["key"], p["runs"], m)
# core2-ep's points give every seed the same time (CI 0): two runs; nehalem-ep's vary
assert sorted(took.values())[:2] == [2, 2] and max(took.values()) > 2, took
assert s["runs_done"] == sum(took.values()), s["runs_done"]
strip = lambda d: {k: v for k, v in d.items() if k != "result"} | {"sim": d["result"]["sim_seconds"]}
fixed = {json.loads(l)["sweep"]["run"]: strip(json.loads(l)) for l in open(sys.argv[2] + "/runs.jsonl")}
for l in open(sys.argv[1] + "/runs.jsonl"):
    d = json.loads(l)
    assert strip(d) == fixed[d["sweep"]["run"]], d["sweep"]["key"]
PY
grep -q "until each point's 95% CI is within +-2% of its mean" "$TMP/ci.out" ||
	fail "--ci-target: no plan line: $(head -2 "$TMP/ci.out")"
grep -Eq "^  nehalem-ep slub_min_objects=4 .* \(([3-8]) runs\)$" "$TMP/ci.out" ||
	fail "--ci-target: the table does not say how many runs: $(tail -6 "$TMP/ci.out")"
n1=$(wc -l < "$TMP/ci/runs.jsonl")
"$SLABSIM" sweep tests/cli/data/tiny-sweep.json loops=5 --replicates 8 --ci-target 0.001 -j 2 \
	--no-plot --resume --out "$TMP/ci" > "$TMP/ci2.out" 2>&1 || fail "--ci-target --resume failed"
n2=$(wc -l < "$TMP/ci/runs.jsonl")
[ "$n2" -gt "$n1" ] || fail "a tighter target on --resume added no run ($n1, $n2)"
json "$TMP/ci/summary.json" "d['ci_target'] == 0.001 and max(p['runs'] for p in d['points']) == 8"
# --resume without --ci-target goes on with the folder's target: nothing left to do
"$SLABSIM" sweep tests/cli/data/tiny-sweep.json loops=5 --replicates 8 -j 2 --no-plot --resume \
	--out "$TMP/ci" > "$TMP/ci3.out" 2>&1 || fail "--resume of a CI-target sweep failed"
[ "$(wc -l < "$TMP/ci/runs.jsonl")" -eq "$n2" ] || fail "--resume without --ci-target ran more runs"
expect_exit 2 "--ci-target 1.5: expected a share of the mean between 0 and 1" \
	"$SLABSIM" sweep tests/cli/data/tiny-sweep.json --ci-target 1.5 --out "$TMP/bad"
expect_exit 2 "--shard splits a fixed set of runs" \
	"$SLABSIM" sweep tests/cli/data/tiny-sweep.json --ci-target 0.05 --shard 0/2 --out "$TMP/bad"
sed 's/"replicates": 3,/"replicates": 3, "ci_target": 2,/' tests/cli/data/tiny-sweep.json > "$TMP/badci.json"
expect_exit 2 "ci_target: expected a share of the mean between 0 and 1" \
	"$SLABSIM" sweep "$TMP/badci.json" --out "$TMP/bad"
[ ! -e "$TMP/bad" ] || fail "a refused sweep wrote its folder"

# MPI: rank 0 writes, ranks 1-2 run; the same summary again
if [ -n "${SLABSIM_MPI:-}" ] && [ -x "${SLABSIM_MPI:-}" ] && command -v mpirun > /dev/null; then
	# CI runs as root in a container: allow root, and no ptrace-based
	# single-copy between ranks (containers often forbid it)
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_MCA_btl_vader_single_copy_mechanism=none
	mpirun -n 3 --oversubscribe "$SLABSIM_MPI" sweep "$EXP" $LOOPS $REPS --out "$TMP/mpi" \
		> "$TMP/mpi.out" 2>&1 || fail "mpirun sweep failed: $(tail -5 "$TMP/mpi.out")"
	grep -q "2 MPI ranks working" "$TMP/mpi.out" || fail "the MPI sweep did not spread over ranks"
	cmp -s "$TMP/mpi/summary.json" "$TMP/j1/summary.json" || fail "the MPI summary differs from -j 1"
	expect_exit 2 "run it without mpirun" mpirun -n 2 --oversubscribe "$SLABSIM_MPI" sweep \
		tests/cli/data/tiny-sweep.json --ci-target 0.05 --out "$TMP/mpi-ci"
	[ ! -e "$TMP/mpi-ci" ] || fail "the refused MPI sweep wrote its folder"
else
	echo "SKIP: MPI (no SLABSIM_MPI binary or mpirun; make test builds build-mpi/slabsim)"
fi
finish
