#!/bin/sh
# sample_table.sh - is sampling right? The published C1 runs (Tigerton,
# hackbench 100 process 2000, SLUB of 2.6.25, slub_min_objects 8 16 32 64,
# slub_max_order=3) and the x3950 M2's hackbench 90 (process, 100 loops)
# with SLAB and SLUB, each exact (sample=off) and sampled (sample=auto),
# with seeds 1 and 2; prints them side by side as a markdown table with the
# wall time of each run (docs/usage.md, "Is it right?"), and writes them
# with the model that made the runs to DIR/summary.json.
#
#   tools/sample_table.sh [-j N] [--out DIR] [SLABSIM]
#
# Runs go to DIR (default results/sampling), one JSON each; a run whose JSON
# is already there is not run again, so the table can be rebuilt, or
# finished after an interruption, at no cost. Delete DIR to start afresh.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2) out=$top/results/sampling bin=$top/slabsim
while [ $# -gt 0 ]; do
	case "$1" in
	-j) shift; jobs=$1 ;;
	--out) shift; out=$1 ;;
	-h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "sample_table.sh: unknown option '$1'" >&2; exit 2 ;;
	*) bin=$1 ;;
	esac
	shift
done
[ -x "$bin" ] || { echo "sample_table.sh: '$bin' is not an executable slabsim" >&2; exit 2; }
mkdir -p "$out" || exit 2
export SLABSIM_MACHINES="${SLABSIM_MACHINES:-$top/machines}"

# NAME|ARGUMENTS of each run, exact and sampled, both seeds
list() {
	for seed in 1 2; do
		for mode in off auto; do
			for mo in 8 16 32 64; do
				echo "c1-mo$mo-$mode-s$seed|-m tigerton -p slub -w 'hackbench 100 process 2000' kernel=2.6.25 slub_min_objects=$mo slub_max_order=3 sample=$mode --seed $seed"
			done
			for p in slab slub; do
				echo "x3950-$p-$mode-s$seed|-m x3950-m2 -p $p -w 'hackbench 90 process 100' kernel=2.6.26 sample=$mode --seed $seed"
			done
		done
	done
}
list | while IFS='|' read -r name args; do
	[ -s "$out/$name.json" ] || printf '%s|%s\n' "$name" "$args"
done > "$out/.todo"
n=$(wc -l < "$out/.todo")
[ "$n" -gt 0 ] && echo "sample_table.sh: $n runs to do, $jobs at a time, into $out" >&2
export bin out
tr '\n' '\0' < "$out/.todo" | xargs -0 -r -n 1 -P "$jobs" sh -c '
	name=${1%%|*} args=${1#*|}
	eval "set -- $args"
	if "$bin" run "$@" --quiet --json "$out/$name.json.part" > "$out/$name.log" 2>&1; then
		mv "$out/$name.json.part" "$out/$name.json" && rm -f "$out/$name.log"
	else
		echo "sample_table.sh: $name failed: $(tail -2 "$out/$name.log")" >&2
		rm -f "$out/$name.json.part"
	fi' sh
rm -f "$out/.todo"
python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
def load(name):
    p = os.path.join(out, name + ".json")
    return json.load(open(p)) if os.path.exists(p) else None
rows = [("Tigerton, C1, slub_min_objects=%d" % mo, "c1-mo%d" % mo, 0.03 if mo > 8 else 0.10)
        for mo in (8, 16, 32, 64)]
rows += [("x3950 M2, hackbench 90, %s" % p.upper(), "x3950-%s" % p, 0.03) for p in ("slab", "slub")]
print("| run | seed | exact (s) | sampled (s) | 95% CI | simulated | error | wall exact | wall sampled | verdict |")
print("|---|---|---|---|---|---|---|---|---|---|")
bad, lines, digests = 0, [], set()
for label, key, bound in rows:
    for seed in (1, 2):
        e, a = load("%s-off-s%d" % (key, seed)), load("%s-auto-s%d" % (key, seed))
        if not e or not a:
            print("| %s | %d | (not run) | | | | | | | |" % (label, seed))
            bad += 1
            continue
        digests |= {r.get("slabsim", {}).get("model_digest", "unknown") for r in (e, a)}
        et, ar = e["result"]["sim_seconds"], a["result"]
        s = ar["sample"]
        err = (ar["sim_seconds"] - et) / et
        if s["extrapolated"]:
            ok = abs(err) <= bound or abs(ar["sim_seconds"] - et) <= s["ci_seconds"]
            verdict = "within %d%%" % round(100 * bound) if abs(err) <= bound else \
                      "inside its CI" if ok else "OUT OF BOUNDS"
        else:
            ok = True
            verdict = "not settled: simulated in full"
            if s.get("state_refusals"):
                verdict = "held back by the state: simulated in full"
        bad += not ok
        lines.append("| %s | %d | %.3f | %.3f | +-%.3f | %.0f%% | %+.1f%% | %.0f s | %.0f s | %s |" % (
            label, seed, et, ar["sim_seconds"], s["ci_seconds"], 100 * s["simulated_fraction"],
            100 * err, e["result"]["wall_seconds"], ar["wall_seconds"], verdict))
        print(lines[-1])
# summary.json: the model that made every run (or "mixed") and the table's rows
summary = {"model_digest": digests.pop() if len(digests) == 1 else "mixed",
           "complete": not bad, "table": lines}
with open(os.path.join(out, "summary.json"), "w") as f:
    json.dump(summary, f, indent=1)
    f.write("\n")
sys.exit(1 if bad else 0)
PY
