# test_calibrate.sh - `slabsim calibrate` on this host: it writes a machine
# file that loads and runs, whose topology is the CPUs this process may use,
# every figure with its source, and whose pingpong run reproduces the
# measured hand-offs within 10%; one CPU, or bad options, are refused with
# one message and exit 2.
. tests/cli/lib.sh
# one calibration at a time (readme_commands.py takes the same lock): two at
# once pin their ping-pong threads onto the same CPUs of a small host
flock "${TMPDIR:-/tmp}/slabsim-calibrate.lock" \
	"$SLABSIM" calibrate --out "$TMP/host.json" --pairs 2 > "$TMP/cal.out" 2> "$TMP/cal.err" ||
	fail "calibrate exited $?: $(cat "$TMP/cal.err")"
grep -q "wrote $TMP/host.json" "$TMP/cal.err" || fail "calibrate said: $(cat "$TMP/cal.err")"
"$SLABSIM" show machine "$TMP/host.json" > "$TMP/show.txt" 2>&1 || fail "show machine: $(head -3 "$TMP/show.txt")"
"$SLABSIM" run -m "$TMP/host.json" -p slub -w pingpong > "$TMP/pp.txt" 2>&1 ||
	fail "pingpong on the calibrated machine: $(head -3 "$TMP/pp.txt")"
python3 - "$TMP/host.json" "$TMP/pp.txt" <<'PY' || fail "the calibrated machine: $(head -c 600 "$TMP/pp.txt")"
import json, os, re, sys
m = json.load(open(sys.argv[1]))
t = m["topology"]
cpus = t["nodes"] * t["sockets_per_node"] * t["dies_per_socket"] * t["cores_per_die"] * t["threads_per_core"]
assert cpus == len(os.sched_getaffinity(0)), (cpus, os.sched_getaffinity(0))
src = m["sources"]
for key, how in [("clock_ghz", "measured"), ("topology", "hwloc"), ("handoff_cycles.same_core", "measured"),
                 ("memory_cycles.local", "measured"), ("atomic_cycles", "measured"),
                 ("llc.kb", "hwloc"), ("l1.kb", "hwloc"),
                 ("fabric.line_occupancy_cycles", "not measurable")]:
    assert src[key].startswith(how), (key, src[key])
# the memory chase: 8 times the caches, in 256 MB to 2 GB (a guest may report
# its host's whole L3: 8 GB and 5 minutes on the development VM)
mb = int(re.search(r"pointer chase through (\d+) MB", src["memory_cycles.local"]).group(1))
assert 256 <= mb <= 2048, src["memory_cycles.local"]
measured = m["_calibration"]["handoff_ns"]
assert measured and all(("handoff_cycles." + k) in src for k in measured), measured
# the model's ping-pong on this file against what was measured
line = next(l for l in open(sys.argv[2]) if l.startswith("pingpong, one-way hand-off"))
model = dict((k, float(v)) for k, v in re.findall(r"(\w+) ([0-9.]+)", line.split(":", 1)[1]))
for k, ns in measured.items():
    assert abs(model[k] - ns) <= 0.10 * ns, (k, model[k], ns)
print("measured", measured, "model", model)
PY
# one CPU: nothing to bounce a line between
if command -v taskset > /dev/null; then
	expect_exit 2 "only one CPU is available" taskset -c 0 "$SLABSIM" calibrate
fi
expect_exit 2 "--pairs 0: expected 1..64" "$SLABSIM" calibrate --pairs 0
expect_exit 2 "--name '': 1 to 60 characters" "$SLABSIM" calibrate --name ''
expect_exit 2 "unknown argument 'now'" "$SLABSIM" calibrate now
expect_exit 2 "calibrate: " "$SLABSIM" calibrate --out "$TMP/no/such/dir/host.json"
expect_exit 0 "usage: slabsim calibrate" "$SLABSIM" calibrate --help
[ "$FAILS" -eq 0 ] && echo ok
exit "$FAILS"
