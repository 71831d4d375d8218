# test_sensitivity.sh - `slabsim sensitivity`: the figures of a case's
# machines and their ranges, each at both ends of its range (a hand-off moves
# the check of its own class by its range and no other), the Morris
# screening, the table, JSON and plots, variants kept for a second call, a
# case that judges another's runs (V8, C1's) sharing them, in its folder or
# another's (--runs), runs made with other files refused, and
# every bad input answered with one message and exit 2.
. tests/cli/lib.sh

"$SLABSIM" sensitivity --help | grep -q "^usage: slabsim sensitivity CASE" || fail "--help"
"$SLABSIM" sensitivity C3 --list > "$TMP/list" 2>&1 || fail "--list: $(cat "$TMP/list")"
grep -q "^westmere-ep:fabric.line_occupancy_cycles .* estimate, +-25%" "$TMP/list" ||
	fail "--list lacks an estimate: $(head -5 "$TMP/list")"
grep -q "handoff_cycles.same_socket" "$TMP/list" && fail "--list has a measured figure without --all"
"$SLABSIM" sensitivity C3 --all --list > "$TMP/all" 2>&1 || fail "--all --list"
grep -q "^westmere-ep:handoff_cycles.same_socket  *99  *94 .. 104  measured, +-5%" "$TMP/all" ||
	fail "--all --list: $(grep westmere-ep:handoff "$TMP/all")"
[ ! -e out/sensitivity-C3 ] || fail "--list ran something"

# westmere-ep's smt and same_socket hand-offs, measured: +-5%
F='westmere-ep:handoff_cycles.smt,westmere-ep:handoff_cycles.same_socket'
"$SLABSIM" sensitivity C3 --all --figures "$F" --morris 2 -j 2 --out "$TMP/s" > "$TMP/t" 2> "$TMP/e" ||
	fail "sensitivity C3: $(tail -3 "$TMP/e")"
grep -q "variant 1 of 11 (base)" "$TMP/e" || fail "no progress: $(head -3 "$TMP/e")"
for f in sensitivity.json table.txt tornado-1.png tornado-10.png; do
	[ -s "$TMP/s/$f" ] || fail "$f missing"
done
grep -q "^C3: westmere-ep same_socket: 37.0787 ns" "$TMP/s/table.txt" || fail "table: $(head -5 "$TMP/s/table.txt")"
python3 - "$TMP/s/sensitivity.json" <<'PY' || fail "sensitivity.json: the effects are wrong"
import json, sys
s = json.load(open(sys.argv[1]))
figs = [f["name"] for f in s["figures"]]
assert figs == ["handoff_cycles.smt", "handoff_cycles.same_socket"], figs
checks = {c["check"]: c for c in s["checks"]}
own = checks["westmere-ep same_socket"]["effects"]
# same_socket 94..104 around 99: the class's hand-off moves by -5% .. +5%
assert own[0]["figure"] == "westmere-ep:handoff_cycles.smt" and own[0]["effect"] == 0, own[0]
assert 0.09 < own[1]["effect"] < 0.11 and own[1]["low"] < 0 < own[1]["high"], own[1]
assert 0.09 < own[1]["mu_star"] < 0.12 and own[0]["mu_star"] == 0, own
# another machine's checks do not move
for e in checks["epyc-genoa-2s other_socket"]["effects"]:
    assert e["effect"] == 0 and e["mu_star"] == 0, e
PY
# tools/results_tables.py quotes a check's top figures from sensitivity.json
printf '<!-- sensitivity-table %s "westmere-ep same_socket" 1 -->\n<!-- end table -->\n' "$TMP/s" > "$TMP/t.md"
python3 tools/results_tables.py "$TMP/t.md" > /dev/null 2>&1 || fail "results_tables.py on sensitivity.json"
grep -q '^| `westmere-ep:handoff_cycles.same_socket` (measured) | 94 .. 104 | -5.1% | +5.1% | +10.1% |$' "$TMP/t.md" ||
	fail "the sensitivity table: $(cat "$TMP/t.md")"
python3 tools/results_tables.py --check "$TMP/t.md" > /dev/null 2>&1 || fail "the table differs from its folder"
# and a row a check, the two figures that move it most
printf '<!-- sensitivity-summary %s "westmere-ep same_socket" %s "westmere-ep smt" -->\n<!-- end table -->\n' \
	"$TMP/s" "$TMP/s" > "$TMP/u.md"
python3 tools/results_tables.py "$TMP/u.md" > /dev/null 2>&1 || fail "results_tables.py: sensitivity-summary"
grep -q '^| `s/` | C3: westmere-ep same_socket | 37.1 (37.2) | `handoff_cycles.same_socket` +10.1% | `handoff_cycles.smt` +0.0% |$' "$TMP/u.md" ||
	fail "the sensitivity summary: $(cat "$TMP/u.md")"
grep -q '^| `s/` | C3: westmere-ep smt | .* | `handoff_cycles.smt` +' "$TMP/u.md" ||
	fail "the sensitivity summary's second row: $(cat "$TMP/u.md")"

# a second call runs nothing: every variant is kept
"$SLABSIM" sensitivity C3 --all --figures "$F" --morris 2 -j 2 --out "$TMP/s" > "$TMP/t2" 2> "$TMP/e2" ||
	fail "second call"
[ ! -s "$TMP/e2" ] || fail "the second call ran variants again: $(head -2 "$TMP/e2")"
cmp -s "$TMP/t" "$TMP/t2" || fail "the second call's table differs"
# a variant made by another model is run again
sed -i 's/"model_digest":[[:space:]]*"[0-9a-f]*"/"model_digest": "0123456789abcdef"/' "$TMP/s/runs/base/out/summary.json"
"$SLABSIM" sensitivity C3 --all --figures "$F" --morris 2 -j 2 --out "$TMP/s" > "$TMP/t3" 2> "$TMP/e3" ||
	fail "third call"
[ "$(cat "$TMP/e3")" = "sensitivity: variant 1 of 11 (base)" ] ||
	fail "another model's variant was not run again, or more was: $(cat "$TMP/e3")"
# one more figure, after the others: only its two variants run; one before
# them would move theirs (f000 is another figure), which is refused
"$SLABSIM" sensitivity C3 --all --figures "$F,westmere-ep:handoff_cycles.other_socket" -j 2 \
	--out "$TMP/s" > /dev/null 2> "$TMP/e4" || fail "one more figure: $(tail -2 "$TMP/e4")"
[ "$(cat "$TMP/e4")" = "$(printf 'sensitivity: variant 6 of 7 (f002-low)\nsensitivity: variant 7 of 7 (f002-high)')" ] ||
	fail "one more figure ran: $(cat "$TMP/e4")"
expect_exit 2 "runs/f000-low/machines/westmere-ep.json differs" "$SLABSIM" sensitivity C3 --all \
	--figures "westmere-ep:handoff_cycles.same_core,$F" -j 2 --out "$TMP/s"

# V8 judges C1's runs: its variants run C1 (at a small size here) and judge
# both, so C1's sensitivity in the same folder runs nothing
A="loops=5 --replicates 2 --figures costs.slub.alloc_slowpath -j 2 --out $TMP/v8"
# shellcheck disable=SC2086
"$SLABSIM" sensitivity V8 $A > "$TMP/v8.txt" 2> "$TMP/v8.err" || fail "V8: $(tail -3 "$TMP/v8.err")"
grep -q "^V8: slow paths at 8, self time: " "$TMP/v8.txt" || fail "V8's table: $(head -4 "$TMP/v8.txt")"
grep -q "variant 3 of 3 (f000-high)" "$TMP/v8.err" || fail "V8 ran no variants"
# shellcheck disable=SC2086
"$SLABSIM" sensitivity C1 $A > "$TMP/c1.txt" 2> "$TMP/c1.err" || fail "C1 after V8"
[ ! -s "$TMP/c1.err" ] || fail "C1 ran again what V8 ran: $(head -2 "$TMP/c1.err")"
grep -q "^C1: collapse depth 8 / 32: " "$TMP/c1.txt" || fail "C1's table: $(head -4 "$TMP/c1.txt")"
# validate lists each replicate's value (a ratio's jackknife pseudo-values,
# whose mean is near the ratio), and the effects' CIs pair the replicates
python3 - "$TMP/v8/runs/base/out/summary.json" "$TMP/v8/sensitivity.json" <<'PY' ||
import json, sys
s = json.load(open(sys.argv[1]))
c1 = {c["case"]: c for c in s["cases"]}["C1"]
for ch in c1["checks"]:
    v = ch["values"]
    assert len(v) == 2 and all(isinstance(x, float) for x in v), ch
    assert abs(sum(v) / 2 - ch["simulated"]) < 0.5 * ch["simulated"], ch
e = json.load(open(sys.argv[2]))
assert all(x["ci95_half"] is not None for c in e["checks"] for x in c["effects"]), e
PY
	fail "validate's replicate values or the paired CIs"

# another folder may read those runs (--runs): nothing is run again, and
# the tables are the same; runs made with another size or other figures are
# refused, never replaced
# shellcheck disable=SC2086
"$SLABSIM" sensitivity V8 $A --runs "$TMP/v8/runs" --out "$TMP/v8b" > "$TMP/v8b.txt" 2> "$TMP/v8b.err" ||
	fail "V8 --runs: $(tail -3 "$TMP/v8b.err")"
[ ! -s "$TMP/v8b.err" ] || fail "V8 --runs ran again: $(head -2 "$TMP/v8b.err")"
[ ! -e "$TMP/v8b/runs" ] || fail "V8 --runs made its own runs folder"
sed -i '/^results in /d' "$TMP/v8.txt" "$TMP/v8b.txt"
cmp -s "$TMP/v8.txt" "$TMP/v8b.txt" || fail "V8 --runs: another table: $(diff "$TMP/v8.txt" "$TMP/v8b.txt" | head -5)"
# kept runs are judged by the case's checks of now: a case edited since
# (two checks fewer here) gets its new table, and nothing is run again
mkdir -p "$TMP/cases8"
python3 -c 'import json, sys; c = json.load(open("validation/V8.json")); c["checks"] = c["checks"][:-2]
json.dump(c, open(sys.argv[1] + "/V8.json", "w"))' "$TMP/cases8"
# shellcheck disable=SC2086
SLABSIM_VALIDATION="$TMP/cases8:validation" "$SLABSIM" sensitivity V8 $A --runs "$TMP/v8/runs" \
	--out "$TMP/v8d" > "$TMP/v8d.txt" 2> "$TMP/v8d.err" || fail "V8 edited: $(tail -3 "$TMP/v8d.err")"
[ ! -s "$TMP/v8d.err" ] || fail "V8 edited ran again: $(head -2 "$TMP/v8d.err")"
n=$(grep -c "^V8: " "$TMP/v8.txt") && m=$(grep -c "^V8: " "$TMP/v8d.txt") && [ $((n - 2)) -eq "$m" ] ||
	fail "V8 edited: $m checks judged, $n before"
cp "$TMP/v8/runs/base/out/summary.json" "$TMP/summary.kept"
expect_exit 2 "runs/base/case.json differs): give another --out or --runs" \
	"$SLABSIM" sensitivity V8 loops=6 --replicates 2 --figures costs.slub.alloc_slowpath -j 2 \
	--runs "$TMP/v8/runs" --out "$TMP/v8c"
expect_exit 2 "runs/base/machines/tigerton.json differs): give another --out or --runs" \
	"$SLABSIM" sensitivity V8 loops=5 --replicates 2 --figures costs.slub.free_slowpath -j 2 \
	--runs "$TMP/v8/runs" --out "$TMP/v8c"
cmp -s "$TMP/summary.kept" "$TMP/v8/runs/base/out/summary.json" || fail "a refused variant was touched"

expect_exit 2 "which case" "$SLABSIM" sensitivity
expect_exit 2 "no case 'C99'" "$SLABSIM" sensitivity C99
expect_exit 2 "matches no figure" "$SLABSIM" sensitivity C3 --figures 'nothing.*' --list
expect_exit 2 "an even number of levels" "$SLABSIM" sensitivity C3 --levels 3 --list
expect_exit 2 "--replicates x: not a valid count" "$SLABSIM" sensitivity C3 --replicates x --list
expect_exit 2 "one case at a time" "$SLABSIM" sensitivity C3 C4
finish
