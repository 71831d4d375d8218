# test_results_current.sh - slabsim --version names the model (the golden
# digests' set), every run's JSON and every summary.json carry it, and every
# folder of results/ was made with this model or is marked, in its
# README.md, as an archive of an older one; a folder made with another
# model, a current folder holding one older run, and a malformed archive
# mark are each caught and named. The tables README.md, results/README.md
# and docs/ quote from results folders are those folders' figures
# (tools/results_tables.py), and one changed by hand is caught.
. tests/cli/lib.sh
digest=$("$SLABSIM" --version | sed -n 's/^slabsim [^,]*, model \([0-9a-f]\{16\}\)$/\1/p')
[ -n "$digest" ] || fail "slabsim --version names no model digest: $("$SLABSIM" --version)"
[ "$digest" = "$(sha256sum tests/golden/digests.txt | cut -c1-16)" ] ||
	fail "the model digest $digest is not the golden digests' set"

# the committed results
python3 tools/results_current.py results "$digest" > "$TMP/out" 2>&1 ||
	fail "results/ holds folders of another model: $(grep -v -e '^current' -e '^archive' "$TMP/out")"

# a run and a sweep carry the digest
"$SLABSIM" run -m tigerton -p slub -w 'hackbench 1 process 2' --json "$TMP/r.json" > /dev/null 2>&1 ||
	fail "a run failed"
json "$TMP/r.json" "d['slabsim']['model_digest'] == '$digest'"
"$SLABSIM" sweep tests/cli/data/tiny-sweep.json loops=2 --replicates 2 --no-plot -j 2 \
	--out "$TMP/res/now" > "$TMP/sweep.out" 2>&1 || fail "the sweep failed: $(tail -3 "$TMP/sweep.out")"
json "$TMP/res/now/summary.json" "d['model_digest'] == '$digest'"
expect_exit 0 "current  now" python3 tools/results_current.py "$TMP/res" "$digest"

# a folder of another model is stale, and so is one older run among current ones
cp -r "$TMP/res/now" "$TMP/res/old"
sed -i "s/$digest/0123456789abcdef/g" "$TMP/res/old/runs.jsonl" "$TMP/res/old/summary.json"
expect_exit 1 "stale    old: model 0123456789abcdef in summary.json" \
	python3 tools/results_current.py "$TMP/res" "$digest"
cp -r "$TMP/res/now" "$TMP/res/mixed"
sed -i "1s/$digest/0123456789abcdef/" "$TMP/res/mixed/runs.jsonl"
expect_exit 1 "stale    mixed: model 0123456789abcdef in runs.jsonl:1" \
	python3 tools/results_current.py "$TMP/res" "$digest"
rm -r "$TMP/res/mixed"

# marked as an archive, the old folder passes; a malformed mark does not
printf 'Archive of model 0123456789abcdef: the last run of this experiment\n\nMore.\n' \
	> "$TMP/res/old/README.md"
expect_exit 0 "archive  old: model 0123456789abcdef" python3 tools/results_current.py "$TMP/res" "$digest"
printf 'Archive: old runs\n' > "$TMP/res/old/README.md"
expect_exit 1 "bad      old" python3 tools/results_current.py "$TMP/res" "$digest"
expect_exit 2 "usage" python3 tools/results_current.py "$TMP/res" not-a-digest

# the tables the docs quote are their folders' (tools/results_tables.py);
# a figure changed by hand is caught
docs="README.md results/README.md $(ls docs/*.md)"
# shellcheck disable=SC2086
python3 tools/results_tables.py --check $docs > "$TMP/tables" 2>&1 ||
	fail "a quoted table differs from its folder: $(cat "$TMP/tables")"
grep -q '^<!-- table results/oltp-irq metric=tps' results/README.md ||
	fail "results/README.md quotes no generated oltp-irq table"
awk '/^<!-- table results\/oltp-irq metric=tps/ { t = 1 } t && /^\| SLAB \|/ { sub(/[0-9]/, "9"); t = 0 } { print }' \
	results/README.md > "$TMP/edited.md"
cmp -s results/README.md "$TMP/edited.md" && fail "the edit of a table did not happen"
expect_exit 1 "the table differs from results/oltp-irq" python3 tools/results_tables.py --check "$TMP/edited.md"
python3 tools/results_tables.py "$TMP/edited.md" > /dev/null || fail "results_tables.py could not rewrite a copy"
cmp -s results/README.md "$TMP/edited.md" || fail "rewriting the edited copy did not give the committed tables back"
# the validation tables too: C1's runs in README.md
sed '/^<!-- runs-table results\/validation C1/,/^<!-- end table/ s/^| 8 | [0-9]/| 8 | 9/' README.md \
	> "$TMP/readme.md"
cmp -s README.md "$TMP/readme.md" && fail "the edit of README.md's C1 table did not happen"
expect_exit 1 "the table differs from results/validation" python3 tools/results_tables.py --check \
	"$TMP/readme.md"
# and docs/usage.md's sampling table, from tools/sample_table.sh's summary.json
grep -q '^<!-- sampling-table results/sampling -->' docs/usage.md ||
	fail "docs/usage.md quotes no generated sampling table"
sed '/^<!-- sampling-table/,/^<!-- end table/ s/=16 | 2 | [0-9]/=16 | 2 | 9/' docs/usage.md > "$TMP/usage.md"
cmp -s docs/usage.md "$TMP/usage.md" && fail "the edit of the sampling table did not happen"
expect_exit 1 "the table differs from results/sampling" python3 tools/results_tables.py --check \
	"$TMP/usage.md"
expect_exit 2 "usage" python3 tools/results_tables.py --check
finish

# tools/results.py (make results) makes a missing folder, keeps a current
# one, finishes a half-made one and makes a stale one again, with a progress
# line; --list predicts each folder's time from the runs it holds
printf '# a test list\ntiny sweep tests/cli/data/tiny-sweep.json\n' > "$TMP/list"
drive() { SLABSIM="$SLABSIM" python3 tools/results.py --jobs "$TMP/list" --results "$TMP/made" "$@"; }
expect_exit 0 "missing  tiny: time unknown" drive --list
expect_exit 0 "results: 1/1 tiny (missing)" drive -- loops=2 --replicates 2 --no-plot -j 2
grep -q "results: tiny made in" "$TMP/out" || fail "no line saying the folder was made: $(cat "$TMP/out")"
expect_exit 0 "current  tiny: nothing to do" drive --list
expect_exit 0 "(every folder is current)" drive -- loops=2 --replicates 2 --no-plot -j 2
head -5 "$TMP/made/tiny/runs.jsonl" > "$TMP/five" && mv "$TMP/five" "$TMP/made/tiny/runs.jsonl"
rm "$TMP/made/tiny/summary.json"
expect_exit 0 "partial  tiny" drive --list
expect_exit 0 "8 runs; 3 to do" drive -- loops=2 --replicates 2 --no-plot -j 2
[ "$(wc -l < "$TMP/made/tiny/runs.jsonl")" = 8 ] || fail "the half-made folder was not finished with its runs kept"
python3 - "$TMP/made/tiny/runs.jsonl" <<'PY'
import json, sys
runs = [json.loads(line) for line in open(sys.argv[1])]
for r in runs:
    r["slabsim"]["model_digest"] = "0123456789abcdef"
    r["result"]["wall_seconds"] = 60
open(sys.argv[1], "w").write("".join(json.dumps(r) + "\n" for r in runs))
PY
# 8 runs of 60 s at loops=2 and 2 replicates; the config's 20 loops and 3
# replicates make 8 x 60 x 10 x 1.5 s of runs, 2 at a time
expect_exit 0 "stale    tiny: about 1 h 00 min" drive --list
expect_exit 0 "results: 1/1 tiny (stale)" drive -- loops=2 --replicates 2 --no-plot -j 2
expect_exit 0 "current  tiny" python3 tools/results_current.py "$TMP/made" "$digest"
printf 'Archive of model 0123456789abcdef: kept\n' > "$TMP/made/tiny/README.md"
expect_exit 0 "archive  tiny" drive --list
expect_exit 2 "no folder 'nope' in" drive --only nope
printf 'tiny sweep\n' > "$TMP/list"
expect_exit 2 "not 'NAME sweep CONFIG'" drive --list
