# test_diff.sh - `slabsim diff`: two runs' JSON side by side (text and
# Markdown), the largest changes first, runs picked from a results folder by
# their inputs, and every bad input answered with one message and exit 2.
. tests/cli/lib.sh
HB='hackbench 10 process 20'
"$SLABSIM" run -m tigerton -p slub -w "$HB" slub_min_objects=8 --quiet --json "$TMP/a.json" \
	> /dev/null || fail "run A"
"$SLABSIM" run -m tigerton -p slub -w "$HB" slub_min_objects=64 slub_max_order=3 --quiet \
	--json "$TMP/b.json" > /dev/null || fail "run B"

"$SLABSIM" diff "$TMP/a.json" "$TMP/b.json" > "$TMP/d.txt" 2>&1 || fail "diff exited $?"
python3 - "$TMP/d.txt" "$TMP/a.json" "$TMP/b.json" <<'PY' || fail "diff's text: $(head -40 "$TMP/d.txt")"
import json, re, sys
text = open(sys.argv[1]).read()
a, b = (json.load(open(f)) for f in sys.argv[2:4])
sec = {}
for block in text.split("\n\n"):
    lines = block.strip("\n").split("\n")
    sec[lines[0]] = lines[1:]
def rows(title):
    t = next(k for k in sec if k.startswith(title))
    return [re.split(r"\s{2,}", l.strip()) for l in sec[t][1:] if not l.startswith("  (")]
# the inputs that differ, and only those
differs = {r[0]: r[1:] for r in rows("What differs")}
assert differs == {"slub_min_objects": ["8", "64"], "slub_max_order": ["1", "3"]}, differs
# the time and its change, from the two JSONs
t = dict((r[0], r[1:]) for r in rows("Result"))["time (simulated s)"]
ta, tb = a["result"]["sim_seconds"], b["result"]["sim_seconds"]
assert abs(float(t[0]) - ta) / ta < 1e-3 and abs(float(t[1]) - tb) / tb < 1e-3, t
assert t[2] == "%+.1f%%" % ((tb - ta) / ta * 100), t
spin = dict((r[0], r[1:]) for r in rows("CPU time"))["spinning on locks"]
assert spin[0] == "%.1f%%" % (a["cpu"]["spin"] * 100) and spin[2].endswith(" pp"), spin
# locks: the largest change of wait first, 10 rows and the rest counted
tot = dict((r[0], r[1:]) for r in rows("Locks, the allocator's own"))
la, lb = a["lock_totals"]["allocator"], b["lock_totals"]["allocator"]
assert tot["allocator: acquisitions"][:2] == [str(la["acquisitions"]), str(lb["acquisitions"])], tot
assert tot["allocator: wait, share of CPU time"][0] == "%.1f%%" % (100 * la["wait_share"]), tot
locks = rows("Locks (lock_stat)")
ghz = a["machine"]["clock_ghz"]
def wait(run, name):
    return next((l["wait_cycles"] for l in run["locks"] if l["name"] == name), 0) / (ghz * 1e6)
changes = [abs(wait(b, r[0]) - wait(a, r[0])) for r in locks]
assert len(locks) == 10 and changes == sorted(changes, reverse=True), locks
assert locks[0][0] == "&n->list_lock [kmalloc-512]", locks[0]
assert re.search(r"\(\d+ more; --limit 0 shows all\)", text)
prof = rows("Profile")
d = [abs(float(r[3].split()[0])) for r in prof]
assert d == sorted(d, reverse=True) and prof[0][0] == "_spin_lock", prof
geo = {(r[0], r[1]): r[2:] for r in rows("Caches")}
assert geo[("kmalloc-512", "order")] == ["0", "3", "+3"], geo
stats = rows("Cache statistics")
assert all(len(r) == 5 for r in stats) and stats, stats
PY

# the allocator's own locks come before the CPU shares and the lock table
grep -n "^Locks, the allocator's own" "$TMP/d.txt" | cut -d: -f1 > "$TMP/l1"
grep -n "^CPU time" "$TMP/d.txt" | cut -d: -f1 > "$TMP/l2"
[ "$(cat "$TMP/l1")" -lt "$(cat "$TMP/l2")" ] 2>/dev/null || fail "the allocator's locks are not first"

# the same run twice: nothing differs, every change is "="
"$SLABSIM" diff "$TMP/a.json" "$TMP/a.json" --limit 0 > "$TMP/same.txt" 2>&1 || fail "diff A A"
grep -q "(the same inputs)" "$TMP/same.txt" || fail "diff A A: $(head -5 "$TMP/same.txt")"
python3 - "$TMP/same.txt" <<'PY' || fail "diff A A shows a change"
import re, sys
for line in open(sys.argv[1]):
    cells = re.split(r"\s{2,}", line.strip())
    if len(cells) >= 4 and cells[-1] not in ("=", "+0.0 pp", "change"):
        sys.exit("a change in: " + line.strip())
PY
grep -q "more; --limit 0" "$TMP/same.txt" && fail "--limit 0 cut a table"

# Markdown: tables with a head and an alignment row
"$SLABSIM" diff "$TMP/a.json" "$TMP/b.json" --format markdown --limit 3 > "$TMP/d.md" ||
	fail "diff --format markdown"
grep -q '^| class | acq A | acq B | contended A | contended B | wait A (ms) | wait B (ms) | change |$' \
	"$TMP/d.md" || fail "markdown lock table head: $(grep class "$TMP/d.md")"
grep -q '^|---|---:|' "$TMP/d.md" || fail "markdown alignment row"
grep -q '^| `&n->list_lock \[kmalloc-512\]` |' "$TMP/d.md" || fail "markdown lock row"
grep -q "more rows; --limit 0 shows all" "$TMP/d.md" || fail "markdown --limit 3"

# a results folder: runs picked by their inputs and replicate
"$SLABSIM" sweep tests/cli/data/tiny-sweep.json loops=5 -j 2 --no-plot --out "$TMP/sw" \
	> /dev/null 2>&1 || fail "sweep"
expect_exit 0 "core2-ep" "$SLABSIM" diff "$TMP/sw:machine=nehalem-ep,slub_min_objects=4,replicate=0" \
	"$TMP/sw:machine=core2-ep,slub_min_objects=4,replicate=0"
expect_exit 0 "slub_min_objects" "$SLABSIM" diff \
	"$TMP/sw:machine=nehalem-ep,slub_min_objects=4.0,replicate=0" \
	"$TMP/sw:machine=nehalem-ep,slub_min_objects=16,replicate=2"
expect_exit 2 "3 runs match (replicates 0, 1, 2); pick one" "$SLABSIM" diff \
	"$TMP/sw:machine=nehalem-ep,slub_min_objects=4" "$TMP/a.json"
# runs.jsonl is in finishing order; the replicates are named in number order
mkdir -p "$TMP/rev" && tac "$TMP/sw/runs.jsonl" > "$TMP/rev/runs.jsonl"
expect_exit 2 "3 runs match (replicates 0, 1, 2); pick one" "$SLABSIM" diff \
	"$TMP/rev:machine=nehalem-ep,slub_min_objects=4" "$TMP/a.json"
expect_exit 2 "holds 12 runs; pick one" "$SLABSIM" diff "$TMP/sw" "$TMP/a.json"
expect_exit 2 "none of the 12 runs" "$SLABSIM" diff "$TMP/sw:slub_min_objects=5" "$TMP/a.json"
expect_exit 2 "is none of machine, policy" "$SLABSIM" diff "$TMP/sw:colour=red" "$TMP/a.json"
expect_exit 2 "expected DIR:NAME=VALUE" "$SLABSIM" diff "$TMP/sw:slub_min_objects" "$TMP/a.json"
expect_exit 2 "no runs.jsonl" "$SLABSIM" diff "$TMP:x=1" "$TMP/a.json"
# a runs file itself (a validation case's CASE.jsonl), with or without a selector
cp "$TMP/sw/runs.jsonl" "$TMP/case.jsonl"
expect_exit 0 "core2-ep" "$SLABSIM" diff "$TMP/case.jsonl:machine=nehalem-ep,slub_min_objects=4,replicate=0" \
	"$TMP/case.jsonl:machine=core2-ep,slub_min_objects=4,replicate=0"
expect_exit 2 "none of the 12 runs in $TMP/case.jsonl" "$SLABSIM" diff "$TMP/case.jsonl:slub_min_objects=5" \
	"$TMP/a.json"
expect_exit 2 "holds 12 runs; pick one with $TMP/case.jsonl:NAME=VALUE" "$SLABSIM" diff \
	"$TMP/case.jsonl" "$TMP/a.json"
expect_exit 2 "expected FILE.jsonl:NAME=VALUE" "$SLABSIM" diff "$TMP/case.jsonl:slub_min_objects" \
	"$TMP/a.json"

# bad input: one message, exit 2
expect_exit 2 "expected two runs" "$SLABSIM" diff "$TMP/a.json"
expect_exit 2 "expected text or markdown" "$SLABSIM" diff "$TMP/a.json" "$TMP/b.json" --format html
expect_exit 2 "expected a count" "$SLABSIM" diff "$TMP/a.json" "$TMP/b.json" --limit -1
expect_exit 2 "is not a run's JSON" "$SLABSIM" diff machines/tigerton.json "$TMP/b.json"
expect_exit 2 "cannot open" "$SLABSIM" diff "$TMP/none.json" "$TMP/b.json"
printf '{"result": ' > "$TMP/torn.json"
expect_exit 2 "torn.json" "$SLABSIM" diff "$TMP/a.json" "$TMP/torn.json"
expect_exit 0 "usage: slabsim diff" "$SLABSIM" diff --help
[ "$FAILS" -eq 0 ] && echo ok
exit "$FAILS"
