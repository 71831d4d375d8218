# test_golden.sh - the reference runs of tests/golden/runs.txt give the JSON
# their committed digests hold (every policy and era, hackbench, slab_test,
# oltp, trace replay and more, on Tigerton, the x3950 M2 and Genoa), and a
# digest that does not match is reported by name with exit 1.
. tests/cli/lib.sh
if [ "${SLABSIM_QUICK:-0}" = 1 ]; then	# the sanitizer build: a few runs are enough
	grep -E '^(tig-slub-2.6.25-mo8|tig-slub-3.2|x3950-slab|tig-trace) ' tests/golden/runs.txt \
		> "$TMP/runs"
else
	cp tests/golden/runs.txt "$TMP/runs"
fi
tools/golden.sh --runs "$TMP/runs" "$SLABSIM" > "$TMP/out" 2>&1 ||
	fail "golden digests: $(cat "$TMP/out")"
# a digest that differs is found and named
sed '1s/^./x/' tests/golden/digests.txt > "$TMP/bad"
grep -v -e "^#" -e "^$" "$TMP/runs" | head -1 > "$TMP/one"
[ "$(awk '{print $2}' tests/golden/digests.txt | head -1)" = "$(awk '{print $1}' "$TMP/one")" ] ||
	fail "the first run and the first digest must be the same run"
tools/golden.sh --runs "$TMP/one" --digests "$TMP/bad" "$SLABSIM" > "$TMP/out" 2>&1
[ $? = 1 ] || fail "a wrong digest must exit 1"
grep -q "$(awk '{print $1}' "$TMP/one"): JSON differs" "$TMP/out" || fail "the run is not named: $(cat "$TMP/out")"
finish
