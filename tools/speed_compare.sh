#!/bin/sh
# speed_compare.sh - two slabsim binaries side by side on the reference
# hackbench runs of `slabsim bench` (the NEW binary's `bench --runs`): each
# run alternately with OLD and NEW, REPS times, in one process at a time so
# that both see the same machine. Prints the fastest wall time of each (on a
# shared machine other jobs only ever add time), the speed-up, the host
# nanoseconds per event and the median speed-up, and checks that both gave
# the same JSON but for the wall-clock fields (the model did not change).
#
#   tools/speed_compare.sh OLD NEW [REPS]
#
# Build OLD from an earlier commit with, for example:
#   git worktree add /tmp/old COMMIT && make -C /tmp/old slabsim
set -u
[ $# -ge 2 ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
old=$1 new=$2 reps=${3:-3}
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
SLABSIM_MACHINES=$new_machines "$new" bench --runs > "$tmp/runs" || exit 2
strip() { sed -E '/^[[:space:]]*"(wall_seconds|events_per_second|host_peak_rss_mb|model_digest)":/d' "$1"; }
printf '%-52s %9s %9s %8s %10s %10s %8s\n' run "old s" "new s" speedup "old ns/ev" "new ns/ev" median
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
    return [x["wall_seconds"] for x in w], w[0]["events"]
ow, ev = walls("old")
nw, _ = walls("new")
o, n = min(ow), min(nw)
med = statistics.median(ow) / statistics.median(nw)
print(f"{line[:52]:52s} {o:9.2f} {n:9.2f} {o / n:7.2f}x {o * 1e9 / ev:10.0f} {n * 1e9 / ev:10.0f} {med:7.2f}x")
PY
done < "$tmp/runs"
exit $status
