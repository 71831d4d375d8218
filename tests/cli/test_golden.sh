# test_golden.sh - the reference runs of tests/golden/runs.txt give the JSON
# their committed digests hold (every policy and era, hackbench, slab_test,
# oltp, trace replay and more, on Tigerton, the x3950 M2 and Genoa), and a
# digest that does not match is reported by name with exit 1; the die
# caches' narrow tags change no run, even when they widen mid-run.
. tests/cli/lib.sh
if [ "${SLABSIM_SANITIZED:-0}" = 1 ]; then	# the sanitizer build: a few runs are enough
	grep -E '^(tig-slub-2.6.25-mo8|tig-slub-3.2|x3950-slab|tig-trace) ' tests/golden/runs.txt \
		> "$TMP/runs"
else
	cp tests/golden/runs.txt "$TMP/runs"
fi
tools/golden.sh --runs "$TMP/runs" "$SLABSIM" > "$TMP/out" 2>&1 ||
	fail "golden digests: $(cat "$TMP/out")"
# 16-bit tags (and their widening mid-run, when the run's memory outgrows
# them) give the same runs as 32-bit ones: a die cache of 16 sets on four
# nodes widens within this hackbench
strip() { sed -E '/"(wall_seconds|events_per_second|host_peak_rss_mb)":/d' "$1"; }
for w in x3950-m2 tests/machines/x3950-small-llc.json; do
	"$SLABSIM" run -m "$w" -p slub -w 'hackbench 20 process 20' --json "$TMP/n.json" > /dev/null ||
		fail "$w: narrow run failed"
	SLABSIM_WIDE_TAGS=1 "$SLABSIM" run -m "$w" -p slub -w 'hackbench 20 process 20' \
		--json "$TMP/w.json" > /dev/null || fail "$w: wide run failed"
	strip "$TMP/n.json" > "$TMP/n"
	strip "$TMP/w.json" > "$TMP/w"
	cmp -s "$TMP/n" "$TMP/w" || fail "$w: narrow and wide tags give different runs"
done
# a digest that differs is found and named
sed '1s/^./x/' tests/golden/digests.txt > "$TMP/bad"
grep -v -e "^#" -e "^$" "$TMP/runs" | head -1 > "$TMP/one"
[ "$(awk '{print $2}' tests/golden/digests.txt | head -1)" = "$(awk '{print $1}' "$TMP/one")" ] ||
	fail "the first run and the first digest must be the same run"
tools/golden.sh --runs "$TMP/one" --digests "$TMP/bad" "$SLABSIM" > "$TMP/out" 2>&1
[ $? = 1 ] || fail "a wrong digest must exit 1"
grep -q "$(awk '{print $1}' "$TMP/one"): JSON differs" "$TMP/out" || fail "the run is not named: $(cat "$TMP/out")"
finish
