# test_validate.sh - `slabsim validate`: the quick cases run in seconds and
# give one row per check; the exit status says whether every check is inside
# its band; C3 (fitted hand-offs) and C4 (the Markov chain) must hold; a
# band that cannot hold fails with exit 1; bad cases and options exit 2
# with one message naming the key; --ci-target adds seeds where a point
# needs them.
. tests/cli/lib.sh
export SLABSIM_VALIDATION="$(pwd)/validation"
OUT="$TMP/val"
"$SLABSIM" validate --quick -j 2 --out "$OUT" > "$TMP/quick.txt" 2> "$TMP/quick.err"
rc=$?
[ "$rc" -le 1 ] || fail "validate --quick exited $rc: $(head -c 400 "$TMP/quick.err")"
cat "$TMP/quick.txt"
for f in summary.json C2.jsonl C3.jsonl C4.jsonl V4.jsonl V7.jsonl validation.dat validation.gp; do
	[ -s "$OUT/$f" ] || fail "validate wrote no $f"
done
# a case whose machine file sits beside it runs the same from another copy:
# its runs' keys, and so their seeds, name the file as the case does
mkdir -p "$TMP/elsewhere/deeper"
cp -r validation/C4.json validation/machines "$TMP/elsewhere/deeper/"
"$SLABSIM" validate "$TMP/elsewhere/deeper/C4.json" --no-plot --out "$TMP/val2" > /dev/null 2>&1 ||
	fail "C4 from a copy of the case failed"
python3 - "$OUT/C4.jsonl" "$TMP/val2/C4.jsonl" <<'PY' || fail "C4 from another folder gave other runs"
import json, sys
a, b = ({json.loads(l)["sweep"]["key"]: json.loads(l) for l in open(f)} for f in sys.argv[1:3])
assert sorted(a) == sorted(b) and all(k.startswith("machine=./machines/uniform16.json ") for k in a), list(a)[:2]
for k in a:
    assert a[k]["seed"] == b[k]["seed"] and a[k]["result"]["acquisitions"] == b[k]["result"]["acquisitions"], k
PY
python3 - "$OUT/summary.json" "$TMP/quick.txt" "$rc" <<'PY' || fail "validate --quick: summary"
import json, sys
d = json.load(open(sys.argv[1]))
rows = [l for l in open(sys.argv[2]) if l[:3] in ('C2 ', 'C3 ', 'C4 ', 'V4 ', 'V7 ')]
names = [c['case'] for c in d['cases']]
assert names == ['C2', 'C3', 'C4', 'V4', 'V7'], names	# the quick ones, in order
checks = [k for c in d['cases'] for k in c['checks']]
assert len(rows) == len(checks) == d['checks'], (len(rows), len(checks))
assert len(checks) == 93 + 10 + 8 + 6 + 2
for k in checks:	# the verdict follows from the band
    inside = k['simulated'] is not None and \
        k['band'][0] <= k['simulated'] / k['published'] <= k['band'][1]
    assert k['verdict'] == ('ok' if inside else 'fail' if k['simulated'] is not None else 'no value'), k
    assert k['reason']
assert d['passed'] == sum(k['verdict'] == 'ok' for k in checks)
assert int(sys.argv[3]) == (0 if d['passed'] == d['checks'] else 1), 'exit status'
by = {c['case']: c for c in d['cases']}
for case in ('C3', 'C4'):	# fitted figures and the verification must hold
    bad = [k['check'] for k in by[case]['checks'] if k['verdict'] != 'ok']
    assert not bad, (case, bad)
# C4's published figures are the chain's, solved here: at n = 1 the lock is
# never contended, and one CPU cycles through a, s and one transfer of the
# lock's line at c/2: 1 / (a + s + c/2)
k = [k for k in by['C4']['checks'] if k['check'] == 'throughput a=5000 s=400 n=1'][0]
assert abs(k['published'] - 1 / 5450) < 1e-12, k
# V7's orderings: a ratio of two symbols of one run (over_path), the band
# open above
for k in by['V7']['checks']:
    assert k['over_path'] == 'profile[symbol=kmem_cache_free].percent', k
    assert k['band'][0] == 1 and k['band'][1] >= 100, k
# the row of a SLAB run names SLAB's lock
assert any('l3->list_lock' in k['top_lock'] for k in by['V4']['checks'])
PY

# --from: the runs the quick cases left are judged again without running,
# to the same table and summary; a folder short of a case's runs, or made
# with other fitted figures, is refused
"$SLABSIM" validate --quick --from "$OUT" --out "$TMP/again" --no-plot > "$TMP/again.txt" 2>&1
[ $? -eq "$rc" ] || fail "validate --from: another exit status than the runs' ($rc)"
cmp -s "$TMP/quick.txt" "$TMP/again.txt" || fail "validate --from: another table: $(diff "$TMP/quick.txt" "$TMP/again.txt" | head -5)"
cmp -s "$OUT/summary.json" "$TMP/again/summary.json" || fail "validate --from: another summary.json"
cmp -s "$OUT/V7.jsonl" "$TMP/again/V7.jsonl" || fail "validate --from: V7.jsonl not copied to --out"
# ... and from a copy of the case elsewhere: the runs' digest is the case's own
mkdir -p "$TMP/elsewhere/deeper"
cp -r validation/C4.json validation/machines "$TMP/elsewhere/deeper/"
expect_exit 0 "8 of 8 checks inside their bands" "$SLABSIM" validate "$TMP/elsewhere/deeper/C4.json" --from "$OUT" --out "$TMP/again4"
expect_exit 2 "holds 0 of the case's" "$SLABSIM" validate C1 --from "$OUT" --out "$TMP/again"
cp -r "$OUT" "$TMP/short"
sed -i '$d' "$TMP/short/C3.jsonl"
expect_exit 2 "C3.jsonl holds 2 of the case's 3 runs" "$SLABSIM" validate C3 --from "$TMP/short" --out "$TMP/short"
sed -i 's/"fitted_digest":[[:space:]]*"[0-9a-f]*"/"fitted_digest": "0000000000000000"/' "$TMP/short/summary.json"
expect_exit 2 "the fitted figures changed since its runs" "$SLABSIM" validate C4 --from "$TMP/short" --out "$TMP/short"
expect_exit 2 "cannot read $TMP/nowhere/summary.json" "$SLABSIM" validate C4 --from "$TMP/nowhere"
# --resume: a validate killed after one of C3's runs (its .running-C3 folder
# keeps the fitted figures' digest; the next run was torn by the kill) runs
# the two missing ones and gives the same table and runs; a finished folder
# runs nothing; kept runs of other fitted figures, or of unknown ones, are refused
"$SLABSIM" validate C3 --out "$TMP/c3" --no-plot > "$TMP/c3.txt" 2> "$TMP/c3.err" || fail "validate C3 failed"
mkdir -p "$TMP/cut/.running-C3"
head -1 "$TMP/c3/C3.jsonl" > "$TMP/cut/C3.jsonl"
sed -n 2p "$TMP/c3/C3.jsonl" | head -c 200 >> "$TMP/cut/C3.jsonl"
"$SLABSIM" validate --fitted | sed -n 's/^fitted digest //p' > "$TMP/cut/.running-C3/fitted_digest"
"$SLABSIM" validate C3 --resume --out "$TMP/cut" --no-plot > "$TMP/cut.txt" 2> "$TMP/cut.err" ||
	fail "validate --resume failed: $(cat "$TMP/cut.err")"
grep -q "C3: 1 runs of 3 kept, 2 to run" "$TMP/cut.err" || fail "validate --resume: $(cat "$TMP/cut.err")"
cmp -s "$TMP/c3.txt" "$TMP/cut.txt" || fail "validate --resume: another table"
[ ! -e "$TMP/cut/.running-C3" ] || fail "validate --resume left .running-C3"
python3 - "$TMP/c3/C3.jsonl" "$TMP/cut/C3.jsonl" <<'PY' || fail "validate --resume: other runs"
import json, sys
def runs(path):	# each run's JSON but for the host's own figures
    out = []
    for line in open(path):
        d = json.loads(line)
        for k in ('wall_seconds', 'events_per_second', 'host_peak_rss_mb'):
            d['result'].pop(k, None)
        out.append(json.dumps(d, sort_keys=True))
    return sorted(out)
a, b = runs(sys.argv[1]), runs(sys.argv[2])
assert len(b) == 3 and a == b, (len(a), len(b))
PY
expect_exit 0 "C3: 3 runs of 3 kept, 0 to run" "$SLABSIM" validate C3 --resume --out "$TMP/cut" --no-plot
mkdir -p "$TMP/other/.running-C3"
cp "$TMP/c3/C3.jsonl" "$TMP/other/"
echo 0123456789abcdef > "$TMP/other/.running-C3/fitted_digest"
expect_exit 2 "the fitted figures changed since C3's runs" "$SLABSIM" validate C3 --resume --out "$TMP/other"
rm -r "$TMP/other/.running-C3"
expect_exit 2 "says which fitted figures C3's runs were made with" "$SLABSIM" validate C3 --resume --out "$TMP/other"
expect_exit 2 "give one of them" "$SLABSIM" validate C3 --resume --from "$TMP/c3"
# a table.txt that cannot be written is exit 2 with its path, and leaves the
# folder's summary.json as it was (each file goes in whole or not at all)
mkdir -p "$TMP/blocked/table.txt"
echo '{"kept": true}' > "$TMP/blocked/summary.json"
expect_exit 2 "cannot write $TMP/blocked/table.txt" "$SLABSIM" validate C4 --from "$OUT" --out "$TMP/blocked" --no-plot
grep -q '"kept": true' "$TMP/blocked/summary.json" || fail "validate: a failed table.txt emptied summary.json"
# the 95% confidence interval: V7's ratios of two symbols of one run (the
# delta method with their covariance), as computed here from its runs
python3 - "$OUT/summary.json" "$OUT/V7.jsonl" <<'PY' || fail "validate: V7's confidence interval"
import json, sys, math
d = json.load(open(sys.argv[1]))
runs = [json.loads(l) for l in open(sys.argv[2])]
assert len(runs) >= 2, len(runs)
T = {1: 12.7062, 2: 4.30265, 3: 3.18245, 4: 2.77645}
def pct(run, sym):
    return [p['percent'] for p in run['profile'] if p['symbol'] == sym][0]
for k in [c for c in d['cases'] if c['case'] == 'V7'][0]['checks']:
    sym = k['path'].split('symbol=')[1].split(']')[0]
    x = [pct(r, sym) for r in runs]
    y = [pct(r, 'kmem_cache_free') for r in runs]
    n = len(x)
    mx, my = sum(x) / n, sum(y) / n
    vx = sum((a - mx) ** 2 for a in x) / (n - 1) / n
    vy = sum((b - my) ** 2 for b in y) / (n - 1) / n
    cxy = sum((a - mx) * (b - my) for a, b in zip(x, y)) / (n - 1) / n
    r = mx / my
    half = T[n - 1] * math.sqrt(r * r * (vx / mx ** 2 + vy / my ** 2 - 2 * cxy / (mx * my)))
    assert k['replicates'] == n, k
    assert abs(k['simulated'] - r) < 1e-9 * r, (k, r)
    assert abs(k['ci95'][0] - (r - half)) < 1e-4 * r and abs(k['ci95'][1] - (r + half)) < 1e-4 * r, (k, r, half)
    assert half > 0, 'the runs of V7 differ by their seeds'
# one run a point: no interval
assert all(k['ci95'] is None and k['replicates'] == 1 for c in d['cases'] if c['case'] == 'C3' for k in c['checks'])
PY
python3 - "$OUT/validation.dat" <<'PY' || fail "validation.dat: no interval beside the bands"
import sys
rows = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip() and not l.startswith('#')]
assert rows and all(len(r) == 7 for r in rows), rows[:2]
assert all(r[4] <= r[1] <= r[5] for r in rows), 'published simulated band band ci ci outside'
assert all(r[6] in (0, 1) for r in rows), 'the last column says whether the check is outside its band'
assert any(r[4] < r[1] < r[5] for r in rows), "V7's runs give an interval"
PY

# a case whose band cannot hold: exit 1, the row says FAIL
mkdir -p "$TMP/cases"
python3 - "$TMP/cases" <<'PY'
import json, sys
c = {"case": "T1", "title": "pingpong smt", "citation": "a test", "quick": True,
     "experiment": {"machines": ["westmere-ep"], "policies": ["slub"],
                    "workloads": ["pingpong pairs=sample"]},
     "checks": [{"name": "smt", "path": "result.by_class.smt", "at": {"machine": "westmere-ep"},
                 "published": 7.1, "band": [0.9, 1.1], "reason": "fitted"}]}
json.dump(c, open(sys.argv[1] + "/ok.json", "w"))
c["checks"][0]["published"] = 71
json.dump(c, open(sys.argv[1] + "/off.json", "w"))
two = json.loads(json.dumps(c))	# two checks outside, one inside
two["checks"] += [dict(c["checks"][0], name="smt again"), dict(c["checks"][0], name="fine", published=7.1)]
json.dump(two, open(sys.argv[1] + "/off2.json", "w"))
r = json.loads(json.dumps(c))	# a ratio inside one run: other socket / SMT
r["checks"][0].update({"path": "result.by_class.other_socket",
                       "over_path": "result.by_class.smt", "published": 10, "band": [0.1, 10]})
json.dump(r, open(sys.argv[1] + "/ratio.json", "w"))
c["checks"][0]["at"] = {"machine": "tigerton"}
json.dump(c, open(sys.argv[1] + "/badat.json", "w"))
del c["checks"][0]["at"]
c["checks"][0]["at"] = {"policy": "slub"}
c["checks"][0]["band"] = [1.2, 1.1]
json.dump(c, open(sys.argv[1] + "/badband.json", "w"))
c["checks"][0]["band"] = [0.9, 1.1]
c["checks"][0]["metric"] = "time"
json.dump(c, open(sys.argv[1] + "/both.json", "w"))
del c["checks"][0]["metric"]
c["checks"][0]["colour"] = "red"
json.dump(c, open(sys.argv[1] + "/key.json", "w"))
PY
expect_exit 0 "1 of 1 checks inside their bands" "$SLABSIM" validate "$TMP/cases/ok.json" --out "$TMP/v1" --no-plot
# getopt_long's forms: --out=DIR, options before or after the cases
expect_exit 0 "1 of 1 checks inside their bands" "$SLABSIM" validate --no-plot --out="$TMP/v1b" "$TMP/cases/ok.json"
[ -s "$TMP/v1b/summary.json" ] || fail "validate --out=DIR wrote nothing there"
expect_exit 1 "FAIL" "$SLABSIM" validate "$TMP/cases/off.json" --out "$TMP/v2" --no-plot
expect_exit 0 "1 of 1 checks inside their bands" "$SLABSIM" validate "$TMP/cases/ratio.json" --out "$TMP/v3" --no-plot
python3 - "$TMP/v3" <<'PY' || fail "over_path: the ratio is not the run's other_socket / smt"
import json, sys
k = json.load(open(sys.argv[1] + "/summary.json"))['cases'][0]['checks'][0]
c = json.loads(open(sys.argv[1] + "/T1.jsonl").readline())['result']['by_class']
assert abs(k['simulated'] - c['other_socket'] / c['smt']) < 1e-9, (k, c)
PY
expect_exit 1 "0 of 1 checks inside their bands; outside: T1" "$SLABSIM" validate "$TMP/cases/off.json" --out "$TMP/v2" --no-plot
expect_exit 1 "1 of 3 checks inside their bands; outside: T1 (2)" "$SLABSIM" validate "$TMP/cases/off2.json" --out "$TMP/v2b" --no-plot
expect_exit 2 "checks[0].at: matches 0 points" "$SLABSIM" validate "$TMP/cases/badat.json"
expect_exit 2 "checks[0].band: expected [LOW, HIGH]" "$SLABSIM" validate "$TMP/cases/badband.json"
expect_exit 2 "give one of \"metric\"" "$SLABSIM" validate "$TMP/cases/both.json"
expect_exit 2 "checks[0].colour: unknown key" "$SLABSIM" validate "$TMP/cases/key.json"

# V8 judges C1's runs (runs_of): the slow paths' share of CPU time, read
# from each run's profile and lock table as the case file says: the
# callers' reading judged, the self time printed beside it
if [ -s results/validation/C1.jsonl ]; then
	expect_exit 1 "outside: V8" "$SLABSIM" validate V8 --from results/validation --out "$TMP/v8" --no-plot
	[ ! -e "$TMP/v8/V8.jsonl" ] && [ -s "$TMP/v8/C1.jsonl" ] || fail "V8's runs are not C1's file"
	python3 - "$TMP/v8/summary.json" results/validation/C1.jsonl <<'PY' || fail "V8's shares are not its runs' profile and locks"
import json, sys
s = json.load(open(sys.argv[1]))["cases"][0]["checks"]
runs = [json.loads(l) for l in open(sys.argv[2])]
at8 = [r for r in runs if r["policy"]["params"]["slub_min_objects"] == 8]
syms = ("__slab_alloc", "__slab_free", "add_partial")
def self_share(r):
    return sum(p["percent"] for p in r["profile"] if p["symbol"] in syms)
def callers(r):
    total = sum(p["cycles"] for p in r["profile"]) * 100 / sum(p["percent"] for p in r["profile"])
    waits = sum(c["wait_cycles"] for l in r["locks"] if l["name"].startswith("&n->list_lock")
                for c in l["contention_points"] if c["symbol"] in syms)
    return self_share(r) + 100 * waits / total
row = {c["check"]: c for c in s}
want = sum(map(self_share, at8)) / len(at8)
got = row["slow paths at 8, self time"]
assert abs(got["simulated"] - want) < 1e-9 * want and got["verdict"] == "info", (got, want)
# the judged reading: 2.6.25's oprofile charges _spin_lock's samples to its caller
want = sum(map(callers, at8)) / len(at8)
got = row["slow paths at 8, with callers' spin"]
assert abs(got["simulated"] - want) < 1e-9 * want and got["verdict"] in ("ok", "fail"), (got, want)
PY
fi
printf '{"case": "X", "title": "t", "citation": "c", "runs_of": "C1", "experiment": {}, "checks": []}\n' > "$TMP/cases/of2.json"
expect_exit 2 "give either \"experiment\" or \"runs_of\"" "$SLABSIM" validate "$TMP/cases/of2.json"
printf '{"case": "X", "title": "t", "citation": "c", "runs_of": "C99", "checks": []}\n' > "$TMP/cases/of3.json"
expect_exit 2 "runs_of: no validation case 'C99'" "$SLABSIM" validate "$TMP/cases/of3.json"
python3 - "$TMP/cases" <<'PY'
import json, sys
c = json.load(open("validation/V8.json"))
c["checks"] = [dict(c["checks"][-1])]
del c["checks"][0]["spin_locks"]
json.dump(c, open(sys.argv[1] + "/nolocks.json", "w"))
c["checks"][0].update(reading="maybe")
json.dump(c, open(sys.argv[1] + "/reading.json", "w"))
PY
expect_exit 2 "the callers reading needs spin_locks" "$SLABSIM" validate "$TMP/cases/nolocks.json" --list
expect_exit 2 "reading: expected \"self\" or \"callers\"" "$SLABSIM" validate "$TMP/cases/reading.json" --list
expect_exit 2 "no validation case 'C99'" "$SLABSIM" validate C99
expect_exit 2 "unknown option '--fast'" "$SLABSIM" validate --fast
expect_exit 2 "-j: expected a count" "$SLABSIM" validate -j 0
expect_exit 0 "C1: Tigerton" "$SLABSIM" validate --list
expect_exit 0 "usage: slabsim validate" "$SLABSIM" validate --help
# every case file in validation/ loads and names one point per check
expect_exit 0 "V4" "$SLABSIM" validate --list

# the fitted figures: each machine file keeps them in "fitted", with the case
"$SLABSIM" validate --fitted > "$TMP/fitted.txt" || fail "validate --fitted failed"
grep -q "^C1 tigerton.json fabric.line_occupancy_cycles = 550$" "$TMP/fitted.txt" ||
	fail "validate --fitted does not list tigerton's fitted line occupancy"
grep -q "^C2 core2-ep.json costs.mlp = 6$" "$TMP/fitted.txt" ||
	fail "validate --fitted does not list core2-ep's fitted mlp"
# ... and results/validation was made with the same fitted figures: a fitted
# figure changed without `make validate` fails here
if [ -f results/validation/summary.json ]; then
	now=$(sed -n 's/^fitted digest //p' "$TMP/fitted.txt")
	json results/validation/summary.json "d['fitted_digest'] == '$now'"
	[ "$FAILS" -eq 0 ] || echo "a fitted figure changed since results/validation was made: run make validate" >&2
fi
# a figure marked fit: outside "fitted", or set twice, is refused
mkdir -p "$TMP/m/costs"
cp machines/costs/core2.json "$TMP/m/costs/"
python3 - machines/tigerton.json "$TMP/m" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
a = json.loads(json.dumps(m))
a["fabric"]["line_occupancy_cycles"] = 450
json.dump(a, open(sys.argv[2] + "/twice.json", "w"))
b = json.loads(json.dumps(m))
del b["fitted"]
b["fabric"]["line_occupancy_cycles"] = 450
b["sources"]["fabric.line_occupancy_cycles"] = "fit: C1"
json.dump(b, open(sys.argv[2] + "/loose.json", "w"))
c = json.loads(json.dumps(m))
c["fitted"]["fabric.line_occupancy_cycles"]["case"] = "calibration"
json.dump(c, open(sys.argv[2] + "/nocase.json", "w"))
PY
expect_exit 2 "is fitted, and set again outside 'fitted'" "$SLABSIM" show machine "$TMP/m/twice.json"
expect_exit 2 "a fitted figure goes in 'fitted'" "$SLABSIM" show machine "$TMP/m/loose.json"
expect_exit 2 "must name the validation case" "$SLABSIM" show machine "$TMP/m/nocase.json"
expect_exit 0 "C1   tigerton.json" "$SLABSIM" show machine tigerton

# --ci-target: V6's points add seeds until their CI is within 5% (each
# took 2 or 3 of the case's 8 here); the summary says how many, and the
# runs it did are those of the full case's, byte for byte
"$SLABSIM" validate V6 --ci-target 0.05 -j 2 --no-plot --out "$TMP/ci" > "$TMP/ci.txt" 2>&1
[ $? -le 1 ] || fail "validate --ci-target failed: $(tail -3 "$TMP/ci.txt")"
grep -q "V6: up to 24 runs" "$TMP/ci.txt" || fail "validate --ci-target: no plan line: $(head -3 "$TMP/ci.txt")"
"$SLABSIM" validate V6 -j 2 --no-plot --out "$TMP/ci-all" > /dev/null 2>&1
python3 - "$TMP/ci" "$TMP/ci-all" <<'PY' || fail "validate --ci-target: the runs"
import json, sys
c = json.load(open(sys.argv[1] + "/summary.json"))["cases"][0]
assert c["ci_target"] == 0.05 and c["runs_at_most"] == 24 and 6 <= c["runs"] < 24, c
runs = [json.loads(l) for l in open(sys.argv[1] + "/V6.jsonl")]
assert len(runs) == c["runs"], (len(runs), c["runs"])
key = lambda d: (d["sweep"]["run"], d["result"]["sim_seconds"], json.dumps(d["locks"]))
full = {d["sweep"]["run"]: key(d) for d in map(json.loads, open(sys.argv[2] + "/V6.jsonl"))}
assert all(key(d) == full[d["sweep"]["run"]] for d in runs)
PY
[ "$(grep -c '"model_digest"' "$TMP/ci/summary.json")" = 1 ] ||
	fail "summary.json names its model more than once"
expect_exit 2 "--ci-target 0: expected a share of the mean between 0 and 1" \
	"$SLABSIM" validate V6 --ci-target 0 --out "$TMP/bad"
finish
