# test_sample.sh - sample=auto stops simulating once hackbench's rate of
# messages has settled and extrapolates the rest: the JSON and the text say
# so, with a CI, and the figure agrees with the exact run; sample=observe
# runs in full and says where auto would have stopped, with the slab pages
# beside the rate (a state a skip does not age); a run that does not
# settle, or whose state still drifts more than sample_state allows, is
# simulated in full and says why; a workload without units says so; bad
# values are refused; the same seed gives the same sampled JSON.
. tests/cli/lib.sh
# SLUB 3.2: with 2.6.25's balancing a run this small on 2.6.25 is
# mostly its start and its end (slub_min_objects=64: auto stops at 82% and
# misses the exact time by 3.0%); 3.2's rate holds still sooner
RUN="$SLABSIM run -m tigerton -p slub kernel=3.2 -w"
W='hackbench 40 process 200'
# at this size the slab pages still sink when the rate settles: the
# mechanics of the extrapolation are tested with the state test off, the
# state test itself below
S='sample_ci=0.05 sample_state=1000'
$RUN "$W" --json "$TMP/exact.json" > "$TMP/exact.txt" || fail "exact run failed"
$RUN "$W" sample=auto $S --json "$TMP/auto.json" > "$TMP/auto.txt" ||
	fail "sampled run failed: $(tail -3 "$TMP/auto.txt")"
grep -q '^Time: [0-9.]* (extrapolated from [0-9.]*% of the messages, 95% CI +-[0-9.]* s)$' \
	"$TMP/auto.txt" || fail "the Time line must say it is extrapolated: $(grep Time "$TMP/auto.txt")"
grep -q '^Sampling (sample=auto): settled after a warm-up of [0-9]* messages; simulated' \
	"$TMP/auto.txt" || fail "no Sampling line: $(head -5 "$TMP/auto.txt")"
json "$TMP/auto.json" "d['result']['sample']['mode'] == 'auto' and d['result']['sample']['settled']"
json "$TMP/auto.json" "d['result']['sample']['extrapolated'] and d['invariants'] == 'ok'"
json "$TMP/auto.json" "0.2 < d['result']['sample']['simulated_fraction'] < 0.9"
json "$TMP/auto.json" "d['result']['sample']['ci_seconds'] > 0 and d['result']['sample']['batches'] == 20"
json "$TMP/auto.json" "d['result']['sample']['warmup_units'] > 0"
json "$TMP/auto.json" "d['result']['sample']['method'].startswith('MSER-5')"
json "$TMP/auto.json" "d['result']['sample']['units_simulated'] < d['result']['sample']['units']"
json "$TMP/auto.json" "d['result']['sample']['state_gauge'] == 'slab_pages'"
json "$TMP/auto.json" "0 <= d['result']['sample']['state_drift'] <= d['result']['sample']['state_tolerance'] == 1000"
json "$TMP/auto.json" "d['result']['sample']['state_refusals'] == 0"
json "$TMP/auto.json" "d['result']['events'] < json.load(open('$TMP/exact.json'))['result']['events'] * 0.8"
python3 - "$TMP/exact.json" "$TMP/auto.json" <<'PY' || fail "sampled time too far from the exact one"
import json, sys
e = json.load(open(sys.argv[1]))['result']['sim_seconds']
a = json.load(open(sys.argv[2]))['result']
s = a['sample']
print("exact %.4f s, sampled %.4f +- %.4f s (%.0f%% simulated)"
      % (e, a['sim_seconds'], s['ci_seconds'], 100 * s['simulated_fraction']))
assert abs(a['sim_seconds'] - e) <= max(0.03 * e, 2 * s['ci_seconds'])
PY
# an exact run says nothing of sampling
json "$TMP/exact.json" "'sample' not in d['result']"
grep -q Sampling "$TMP/exact.txt" && fail "an exact run must not print a Sampling line"
# the same seed, the same sampled run
$RUN "$W" sample=auto $S --json "$TMP/auto2.json" > /dev/null || fail "second run failed"
strip() { sed -E '/"(wall_seconds|events_per_second|host_peak_rss_mb)":/d' "$1"; }
strip "$TMP/auto.json" > "$TMP/a1"
strip "$TMP/auto2.json" > "$TMP/a2"
cmp -s "$TMP/a1" "$TMP/a2" || fail "sample=auto is not reproducible"
# observe: the exact figure, and where auto would have stopped
$RUN "$W" sample=observe $S --json "$TMP/obs.json" > "$TMP/obs.txt" || fail "observe failed"
python3 - "$TMP/exact.json" "$TMP/obs.json" <<'PY' || fail "observe must give the exact time"
import json, sys
e, o = (json.load(open(f))['result'] for f in sys.argv[1:])
assert e['sim_seconds'] == o['sim_seconds'], (e['sim_seconds'], o['sim_seconds'])
s = o['sample']
assert s['simulated_fraction'] == 1 and not s['extrapolated']
assert 0 < s['auto_fraction'] < 1 and abs(s['auto_seconds'] - e['sim_seconds']) < 0.05 * e['sim_seconds']
assert len(s['series_cycles']) == 1000 and s['series_units'] == 3200
g = s['series_slab_pages']	# the state beside the rate
assert len(g) == 1000 and all(x >= 0 for x in g) and max(g) > 0 and g[0] != g[500]
PY
grep -q '^Sampling (sample=observe): slab_pages [0-9]* when the warm-up ended, [0-9]* where auto would have stopped, [0-9]* halfway through the rest' \
	"$TMP/obs.txt" || fail "observe's slab_pages line: $(grep Sampling "$TMP/obs.txt")"
json "$TMP/auto.json" "'series_slab_pages' not in d['result']['sample']"
grep -q 'slab_pages' "$TMP/auto.txt" && fail "auto must not print the observe gauge"
grep -q 'Sampling (sample=observe): simulated in full; auto would have stopped at' "$TMP/obs.txt" ||
	fail "observe's line: $(grep Sampling "$TMP/obs.txt")"
# tools/series.py: the series in stretches that add up to the run
python3 tools/series.py "$TMP/obs.json" 8 > "$TMP/series.txt" || fail "series.py failed"
python3 - "$TMP/obs.json" "$TMP/series.txt" <<'PY' || fail "series.py: $(cat "$TMP/series.txt")"
import json, sys
r = json.load(open(sys.argv[1]))
rows = [l.split('|')[1:-1] for l in open(sys.argv[2]) if l.startswith('| ') and '-' in l.split('|')[1]]
assert len(rows) == 8, rows
assert rows[0][0].strip() == '0-400000' and rows[-1][0].strip() == '2800000-3200000', rows
secs = sum(float(x[1]) for x in rows)
assert abs(secs - sum(r['result']['sample']['series_cycles']) / 2.93e9) < 0.01, secs
ratios = [float(x[3].strip().rstrip('x')) for x in rows]
assert abs(sum(ratios) / 8 - 1) < 0.02 and max(ratios) != min(ratios), ratios
assert int(rows[-1][4]) == r['result']['sample']['series_slab_pages'][-1]
PY
expect_exit 2 "no series: run it with sample=observe" python3 tools/series.py "$TMP/auto.json"
expect_exit 2 "N must be 1 to 1000" python3 tools/series.py "$TMP/obs.json" 1001
expect_exit 2 "not a run's JSON" python3 tools/series.py "$TMP/series.txt"
# a lock collapse that comes and goes does not settle: simulated in full
$SLABSIM run -m tigerton -p slub -w 'hackbench 20 process 100' slub_min_objects=8 slub_max_order=3 \
	sample=auto --json "$TMP/c.json" > "$TMP/c.txt" || fail "collapse run failed"
grep -q '^Sampling (sample=auto): did not settle (.*); simulated in full' "$TMP/c.txt" ||
	fail "a run that does not settle must say so: $(grep Sampling "$TMP/c.txt")"
json "$TMP/c.json" "not d['result']['sample']['extrapolated'] and d['result']['sample']['simulated_fraction'] == 1"
json "$TMP/c.json" "len(d['result']['sample']['not_settled']) > 0"
grep -q extrapolated "$TMP/c.txt" && fail "a run that did not settle must not be extrapolated"
# a flat rate over a state that still sinks is not extrapolated: the
# default sample_state (0.2) holds it back until the state holds still
# (late in this run); a tight one until too near the end to skip any
$RUN "$W" sample=auto sample_ci=0.05 --json "$TMP/d.json" > /dev/null || fail "default run failed"
json "$TMP/d.json" "d['result']['sample']['simulated_fraction'] > json.load(open('$TMP/auto.json'))['result']['sample']['simulated_fraction'] + 0.2"
$RUN "$W" sample=auto sample_ci=0.05 sample_state=0.02 --json "$TMP/s.json" > "$TMP/s.txt" ||
	fail "state run failed"
# (the state holds it back to the end, or until the last batches widen the
# interval: either way the line says the state drifted)
grep -Eq '^Sampling \(sample=auto\): .*(the state drifts: at its trend, slab_pages would move [0-9.]*% over the rest of the run, more than sample_state=0.02|settled [0-9]+ times over a state still drifting).*; simulated in full$' \
	"$TMP/s.txt" || fail "a drifting state must say so: $(grep Sampling "$TMP/s.txt")"
json "$TMP/s.json" "not d['result']['sample']['extrapolated'] and d['result']['sample']['simulated_fraction'] == 1"
json "$TMP/s.json" "d['result']['sample']['state_refusals'] > 0"
json "$TMP/s.json" "d['result']['sim_seconds'] == json.load(open('$TMP/exact.json'))['result']['sim_seconds']"
# a workload that reports no units runs in full and says so
$SLABSIM run -m tigerton -p slub -w 'slab_test run=1 count=50 max_size=64' sample=auto \
	--json "$TMP/st.json" > "$TMP/st.txt" || fail "slab_test with sample=auto failed"
grep -q 'this workload reports no units of work; simulated in full' "$TMP/st.txt" ||
	fail "slab_test must say it is not sampled"
json "$TMP/st.json" "d['result']['sample']['supported'] is False"
# bad values
expect_exit 2 "one of: off|auto|observe" $RUN "$W" sample=maybe
expect_exit 2 "sample_ci" $RUN "$W" sample=auto sample_ci=2
expect_exit 2 "sample_ci" $RUN "$W" sample=auto sample_ci=0
expect_exit 2 "sample_state" $RUN "$W" sample=auto sample_state=0
expect_exit 2 "sample_state" $RUN "$W" sample=auto sample_state=-1
# listed among the parameters
$SLABSIM list params | grep -q '^run:' || fail "list params must show the run's parameters"
$SLABSIM list params | grep -q 'sample  *default off' || fail "list params must show sample"
finish
