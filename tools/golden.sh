#!/bin/sh
# golden.sh - the golden digests: each reference run of tests/golden/runs.txt
# gives the same JSON, byte for byte but for its wall-clock fields
# (result.wall_seconds, events_per_second, host_peak_rss_mb) and the model
# digest they name (slabsim.model_digest), as when the digests in
# tests/golden/digests.txt were written. A change that moves one is a model
# change and must say why (README.md, "Reproducibility").
#
#   tools/golden.sh [--update] [-j N] [--runs FILE] [--digests FILE] [SLABSIM]
#
# SLABSIM defaults to ./slabsim. --update rewrites the digests; -j runs N at
# once (default: the number of CPUs); --digests checks against (or writes)
# another file; --runs checks the runs of another list (a subset). Exit 0
# if every digest matches, 1 if one does not, 2 on bad usage.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
update=0 jobs=$(nproc 2>/dev/null || echo 2) bin=$top/slabsim
digests=$top/tests/golden/digests.txt runs=$top/tests/golden/runs.txt
abs() { case "$1" in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac; }
while [ $# -gt 0 ]; do
	case "$1" in
	--update) update=1 ;;
	-j) shift; jobs=$1 ;;
	--digests) shift; digests=$(abs "$1") ;;
	--runs) shift; runs=$(abs "$1") ;;
	-h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "golden.sh: unknown option '$1'" >&2; exit 2 ;;
	*) bin=$(abs "$1") ;;
	esac
	shift
done
[ -x "$bin" ] || { echo "golden.sh: '$bin' is not an executable slabsim" >&2; exit 2; }
[ -r "$runs" ] || { echo "golden.sh: cannot read the runs '$runs'" >&2; exit 2; }
cd "$top"
export SLABSIM_MACHINES="${SLABSIM_MACHINES:-$(pwd)/machines}"
tmp=$(mktemp -d /tmp/slabsim-golden.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# one reference run: its digest into $tmp/NAME.sha, its failure into $tmp/NAME.err
grep -v -e '^#' -e '^[[:space:]]*$' "$runs" > "$tmp/list"
export bin tmp
tr '\n' '\0' < "$tmp/list" | xargs -0 -n 1 -P "$jobs" sh -c '
	line=$1 name=${1%% *}
	eval "set -- ${line#* }"
	if "$bin" run "$@" --quiet --json "$tmp/$name.json" > "$tmp/$name.out" 2>&1; then
		sed -E "/^[[:space:]]*\"(wall_seconds|events_per_second|host_peak_rss_mb|model_digest)\":/d" "$tmp/$name.json" |
			sha256sum | cut -d" " -f1 > "$tmp/$name.sha"
	else
		echo "exit $?: $(tail -c 300 "$tmp/$name.out")" > "$tmp/$name.err"
	fi' sh

bad=0
: > "$tmp/new"
while read -r name rest; do
	if [ -f "$tmp/$name.err" ]; then
		echo "golden: $name failed: $(cat "$tmp/$name.err")" >&2
		bad=1
		continue
	fi
	sha=$(cat "$tmp/$name.sha")
	echo "$sha  $name" >> "$tmp/new"
	[ "$update" = 1 ] && continue
	want=$(awk -v n="$name" '$2 == n { print $1 }' "$digests" 2>/dev/null)
	if [ -z "$want" ]; then
		echo "golden: $name has no digest (tools/golden.sh --update)" >&2
		bad=1
	elif [ "$want" != "$sha" ]; then
		echo "golden: $name: JSON differs from the golden digest" >&2
		bad=1
	fi
done < "$tmp/list"
if [ "$update" = 1 ]; then
	[ "$bad" = 0 ] || exit 1
	cp "$tmp/new" "$digests"
	echo "golden: wrote $(wc -l < "$digests") digests to $digests"
	exit 0
fi
[ "$bad" = 0 ] && echo "golden: $(wc -l < "$tmp/new") runs match their digests"
exit "$bad"
