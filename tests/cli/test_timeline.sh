# test_timeline.sh - run --timeline: the run over simulated time, a row every
# --timeline-every simulated ms, as a tab-separated table; the run's report
# and JSON the same as without it; --timeline-plot draws it; bad values
# answered with exit 2.
. tests/cli/lib.sh
HB='hackbench 20 process 100'	# 20 groups: 800000 messages
strip() { sed -E '/"(wall_seconds|events_per_second|host_peak_rss_mb)":/d' "$1"; }

"$SLABSIM" run -m tigerton -p slub -w "$HB" --json "$TMP/plain.json" > "$TMP/plain.out" ||
	fail "run exited $?"
"$SLABSIM" run -m tigerton -p slub -w "$HB" --json "$TMP/tl.json" --timeline "$TMP/tl.tsv" \
	--timeline-every 20 > "$TMP/tl.out" || fail "run --timeline exited $?"
strip "$TMP/plain.json" > "$TMP/a"
strip "$TMP/tl.json" > "$TMP/b"
cmp -s "$TMP/a" "$TMP/b" || fail "the JSON differs with --timeline"
grep -v "of wall time" "$TMP/plain.out" > "$TMP/a"
grep -v "of wall time" "$TMP/tl.out" > "$TMP/b"
cmp -s "$TMP/a" "$TMP/b" || fail "the report differs with --timeline"

# the table: three comment lines, then rows of 23 numbers, a call site and a lock's name; one row in each
# 20 ms of simulated time that a tick reached (the last row: the run's end),
# messages from 0 to all of them, shares between 0 and 100
python3 - "$TMP/tl.tsv" "$TMP/tl.json" 20 <<'PY' || fail "the timeline table: $(head -5 "$TMP/tl.tsv")"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
run, every = json.load(open(sys.argv[2])), float(sys.argv[3]) / 1e3
head = [l for l in lines if l.startswith("#")]
body = [l.split("\t") for l in lines if not l.startswith("#")]
rows = [[float(x) for x in f[:-2]] for f in body]
sites = [f[-2] for f in body]
names = [f[-1] for f in body]
assert len(head) == 3 and "tigerton, policy slub, workload 'hackbench 20 process 100'" in head[0]
cols = head[2][2:].split("\t")
assert cols[:3] == ["time_s", "messages", "messages_per_s"] and len(cols) == 25, cols
assert cols[8:11] == ["runnable", "wait_wmem", "wait_data"] and all(len(r) == 23 for r in rows)
assert cols[15:] == ["queue_wait_ms", "wakeup_wait_ms", "lock_acq_per_s", "lock_contended_pct",
                     "lock_wait_us", "lock_hold_us", "partial_slabs", "lock_site_pct",
                     "lock_site", "lock"], cols
# slabs on partial lists: some while the messages flow, never more than
# the slab pages (a slab is at least a page)
assert max(r[21] for r in rows) > 0 and all(r[21] <= r[4] for r in rows)
assert len(rows) >= 10, len(rows)
t = [r[0] for r in rows]
slot = [int(x / every + 1e-9) for x in t[:-1]]
assert t[0] == 0 and all(a < b for a, b in zip(slot, slot[1:])), t[:5]
assert t[-1] > t[-2] and abs(t[-1] - run["result"]["sim_seconds"]) < 0.1, (t[-1], run["result"])
done = [r[1] for r in rows]
assert done == sorted(done) and done[0] == 0 and done[-1] == 800000, done[-3:]
for r in rows[1:]:
    assert all(0 <= r[i] <= 100 for i in (5, 6, 7)), r
    assert r[5] > 0 or r[2] == 0, r
# the rate over each interval is the messages done over it
a, b = rows[3], rows[4]
assert abs(b[2] - (b[1] - a[1]) / (b[0] - a[0])) <= 1 + 1e-3 * b[2], (a, b)
# the allocator is busy while the messages flow: slab objects live mid-run;
# at most the workload's 800 tasks (and its parent) run, none once all exited
assert max(r[3] for r in rows) > 0 and max(r[4] for r in rows) > 0
assert 0 < max(r[8] for r in rows) <= 801 and rows[-1][8] == 0, [r[8] for r in rows]
# writers and readers in their sockets' waits: some of the 400 of each at
# times, none at the end
assert 0 < max(r[9] for r in rows) <= 400 and 0 < max(r[10] for r in rows) <= 400
assert rows[-1][9] == rows[-1][10] == 0
# run-queue waits: Little's law over the run, the tasks queued (runnable
# beyond the 16 CPUs) against switch-ins a second times their mean wait;
# every switch-in here comes after a wait of some kind
assert all(r[15] >= 0 and r[16] >= 0 for r in rows) and max(r[16] for r in rows) > 0
queued = waited = 0
for a, b in zip(rows, rows[1:]):
    dt = b[0] - a[0]
    queued += dt * max(0, (a[8] + b[8]) / 2 - 16)
    waited += dt * b[11] * b[15] / 1e3
assert 0.8 < waited / queued < 1.25, (waited, queued)
# the lock waited on most in each interval: SLUB's kmalloc-512 list_lock
# while the messages flow (the run's lock table has it first); a wait
# counts as a contention when it begins and as an acquisition when it
# ends, so an interval's contentions pass its acquisitions by at most the
# 16 CPUs' waits still going at its end; its mean hold under a millisecond
assert names[0] == "-" and all(n for n in names), names[:3]
flowing = [(a, b, n, site) for a, b, n, site in zip(rows, rows[1:-1], names[1:-1], sites[1:-1])
           if b[2] > 0]
assert sum(n == "&n->list_lock [kmalloc-512]" for a, b, n, site in flowing) > len(flowing) / 2
for a, b, n, site in flowing:
    acq = b[17] * (b[0] - a[0])
    assert acq > 0 and 0 <= b[18] / 100 * acq <= acq + 16.5 and 0 < b[20] < 1000, (b, n)
# the site that waited most for it: one of SLUB's that take list_lock,
# with at least a share of the wait no site can fall under (a third of
# three) and at most all of it
slub_sites = {"get_partial_node", "add_partial", "__slab_free"}
for a, b, n, site in flowing:
    if n == "&n->list_lock [kmalloc-512]" and b[19] > 0:
        assert site in slub_sites and 100 / 3 - 0.1 <= b[22] <= 100, (site, b)
PY

# standard output: the table alone there, the report on stderr
"$SLABSIM" run -m tigerton -p slub -w "$HB" --timeline - --timeline-every 50 > "$TMP/std.tsv" \
	2> "$TMP/std.err" || fail "run --timeline - exited $?"
head -1 "$TMP/std.tsv" | grep -q "^# slabsim .* timeline: tigerton" ||
	fail "--timeline -: $(head -c 200 "$TMP/std.tsv")"
grep -q "^Time: " "$TMP/std.err" || fail "--timeline -: no report on stderr"
grep -q "^Time: " "$TMP/std.tsv" && fail "--timeline -: the report went to standard output"

# --timeline-plot: the same table beside a PNG of five panels and the
# script that drew it
"$SLABSIM" run -m tigerton -p slub -w "$HB" --timeline "$TMP/both.tsv" --timeline-every 50 \
	--timeline-plot "$TMP/tl.png" --quiet > /dev/null || fail "run --timeline-plot exited $?"
head -c 8 "$TMP/tl.png" | grep -q "PNG" || fail "--timeline-plot: no PNG"
cmp -s "$TMP/both.tsv" "$TMP/tl.png.dat" || fail "--timeline-plot: its table is not --timeline's"
[ "$(grep -c "^plot '" "$TMP/tl.png.gp")" = 5 ] &&
	grep -q "multiplot layout 5,1" "$TMP/tl.png.gp" || fail "--timeline-plot: $(cat "$TMP/tl.png.gp")"
"$SLABSIM" run -m tigerton -p slub -w "$HB" --timeline-plot "$TMP/alone.png" \
	--timeline-every 50 --quiet > /dev/null || fail "run --timeline-plot alone exited $?"
cmp -s "$TMP/both.tsv" "$TMP/alone.png.dat" || fail "--timeline-plot alone: another table"

# bad values
for v in 0 -5 abc 10ms 2000000; do
	expect_exit 2 "run: --timeline-every $v: expected simulated milliseconds, 0.001..1000000" \
		"$SLABSIM" run -m tigerton -p slub -w "$HB" --timeline "$TMP/x" --timeline-every "$v"
done
expect_exit 2 "run: --timeline-every needs --timeline FILE or --timeline-plot FILE.png" \
	"$SLABSIM" run -m tigerton -p slub -w "$HB" --timeline-every 10
expect_exit 2 "cannot both go to standard output" \
	"$SLABSIM" run -m tigerton -p slub -w "$HB" --timeline - --json -
expect_exit 2 "cannot write $TMP/no/such/dir/t.tsv" \
	"$SLABSIM" run -m tigerton -p slub -w "$HB" --timeline "$TMP/no/such/dir/t.tsv"
expect_exit 2 "--timeline-plot: cannot write $TMP/no/dir/t.png.dat" \
	"$SLABSIM" run -m tigerton -p slub -w "$HB" --timeline-plot "$TMP/no/dir/t.png"
[ -e "$TMP/x" ] && fail "a refused run wrote its timeline"
finish
