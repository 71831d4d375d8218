#!/bin/sh
# speed_compare.sh - two slabsim binaries side by side on the reference
# hackbench runs of `slabsim bench` (the NEW binary's `bench --runs`), or on
# the runs of RUNS (one `slabsim run` argument list a line, as in
# tools/speed_runs.txt): each run alternately with OLD and NEW, REPS times,
# in one process at a time so that both see the same machine. Prints the
# fastest wall time of each (on a shared machine other jobs only ever add
# time), the speed-up, events per message, host nanoseconds per event and
# microseconds per message of each, and the median speed-up, and checks that
# both gave the same JSON but for the wall-clock fields and the model digest
# (the model did not change).
#
#   tools/speed_compare.sh OLD NEW [REPS [RUNS]]
#
# Build OLD from an earlier commit with, for example:
#   git worktree add /tmp/old COMMIT && make -C /tmp/old slabsim
set -u
[ $# -ge 2 ] || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
old=$1 new=$2 reps=${3:-3} runs_file=${4:-}
for b in "$old" "$new"; do
	[ -x "$b" ] || { echo "speed_compare.sh: '$b' is not an executable" >&2; exit 2; }
done
cd "$(dirname "$0")/.."
# each binary reads the machine files of its own tree when it has one
# beside it (an old tree's files are in the format its binary reads)
machines_of() {
	d=$(cd "$(dirname "$1")" && pwd)
	if [ -d "$d/machines" ]; then echo "$d/machines"; else echo "$(pwd)/machines"; fi
}
old_machines=$(machines_of "$old") new_machines=$(machines_of "$new")
tmp=$(mktemp -d /tmp/slabsim-speed.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
if [ -n "$runs_file" ]; then
	grep -v -e '^#' -e '^[[:space:]]*$' "$runs_file" > "$tmp/runs" ||
		{ echo "speed_compare.sh: no runs in '$runs_file'" >&2; exit 2; }
else
	SLABSIM_MACHINES=$new_machines "$new" bench --runs > "$tmp/runs" || exit 2
fi
strip() { sed -E '/^[[:space:]]*"(wall_seconds|events_per_second|host_peak_rss_mb|model_digest)":/d' "$1"; }
printf '%-52s %9s %9s %8s %7s %7s %9s %9s %9s %9s %8s\n' run "old s" "new s" speedup \
	"old ev" "new ev" "old ns/ev" "new ns/ev" "old us/m" "new us/m" median
status=0
while read -r line; do
	eval "set -- $line"
	for r in $(seq "$reps"); do
		SLABSIM_MACHINES=$old_machines "$old" run "$@" --quiet --json "$tmp/old.$r.json" \
			> /dev/null || status=1
		SLABSIM_MACHINES=$new_machines "$new" run "$@" --quiet --json "$tmp/new.$r.json" \
			> /dev/null || status=1
	done
	strip "$tmp/old.1.json" > "$tmp/o"
	strip "$tmp/new.1.json" > "$tmp/n"
	cmp -s "$tmp/o" "$tmp/n" || { echo "speed_compare.sh: the JSON differs: $line" >&2; status=1; }
	python3 - "$tmp" "$reps" "$line" <<'PY'
import json, statistics, sys
tmp, reps, line = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def walls(which):
    w = [json.load(open(f"{tmp}/{which}.{r}.json"))["result"] for r in range(1, reps + 1)]
    return [x["wall_seconds"] for x in w], w[0]["events"], w[0].get("messages") or 0
ow, oev, msgs = walls("old")
nw, nev, _ = walls("new")
o, n = min(ow), min(nw)
med = statistics.median(ow) / statistics.median(nw)
per = lambda ev: f"{ev / msgs:7.1f}" if msgs else f"{'-':>7s}"
us = lambda w: f"{w * 1e6 / msgs:9.2f}" if msgs else f"{'-':>9s}"
print(f"{line[:52]:52s} {o:9.2f} {n:9.2f} {o / n:7.2f}x {per(oev)} {per(nev)} "
      f"{o * 1e9 / oev:9.0f} {n * 1e9 / nev:9.0f} {us(o)} {us(n)} {med:7.2f}x")
PY
done < "$tmp/runs"
exit $status
