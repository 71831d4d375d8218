# test_host_limits.sh - bounded host resources: every run reports its peak
# host memory; a run over --host-memory stops with exit 1 and says what to
# shrink; a sweep's --run-timeout stops a run that takes too long, records
# it in crashed.jsonl, goes on, and --resume runs it again; a run whose
# policy module crashes is recorded with its signal; Ctrl-C stops a
# sweep with exit 130, no run counted as failed, and --resume finishes it;
# bad sizes refused.
. tests/cli/lib.sh
expect_exit 0 "MB of host memory at the peak" "$SLABSIM" run -m tigerton -p slub \
	-w 'hackbench 2 process 10' --json "$TMP/r.json"
json "$TMP/r.json" "8 < d['result']['host_peak_rss_mb'] < 4096"
# a run that grows past the limit stops cleanly (the check runs every 4M events)
expect_exit 1 "out of host memory: the simulation holds" "$SLABSIM" run -m tigerton -p slub \
	-w 'hackbench 10 process 2000' --host-memory 16 --json "$TMP/o.json"
grep -q "shrink the workload (groups, loops, tasks), node_mem_mb or the machine, or raise --host-memory" \
	"$TMP/out" || fail "the host-memory message does not say what to shrink"
json "$TMP/o.json" "d['invariants'].startswith('the run stopped: out of host memory')"
expect_exit 0 "Time:" "$SLABSIM" run -m tigerton -p slub -w 'hackbench 2 process 10' \
	--host-memory 2G --quiet
for bad in 10 abc 5X 101% -3; do
	expect_exit 2 "--host-memory $bad: expected a size of at least 16 MB" "$SLABSIM" run \
		-m tigerton -p slub -w 'hackbench 1 process 1' --host-memory "$bad"
done
expect_exit 2 "sweep: --host-memory 1K" "$SLABSIM" sweep tests/cli/data/tiny-sweep.json \
	--host-memory 1K --out "$TMP/never"
[ -e "$TMP/never" ] && fail "a refused sweep wrote its folder"
# --run-timeout: one run of 2-3 s (longer under sanitizers), one of 10 ms
cat > "$TMP/slowfast.json" <<'JSON'
{ "name": "slowfast", "question": "a slow run and a fast one",
  "machines": ["core2-ep"], "policies": ["slub"],
  "workloads": ["hackbench 10 process 150", "hackbench 1 process 5"], "seed": 1 }
JSON
expect_exit 1 "took longer than --run-timeout 1 s and was stopped" "$SLABSIM" sweep \
	"$TMP/slowfast.json" -j 1 --run-timeout 1 --no-plot --out "$TMP/t"
grep -q "hackbench 1 process 5 .*0.00" "$TMP/out" || fail "the sweep did not go on to the fast run"
[ "$(wc -l < "$TMP/t/runs.jsonl")" -eq 1 ] || fail "the stopped run has a result line"
json "$TMP/t/crashed.jsonl" "d['run'] == 0 and d['key'].startswith('hackbench 10 process 150') and 'run-timeout' in d['why']"
expect_exit 0 "" "$SLABSIM" sweep "$TMP/slowfast.json" -j 1 --resume --no-plot --out "$TMP/t"
[ "$(wc -l < "$TMP/t/runs.jsonl")" -eq 2 ] || fail "--resume did not run the stopped run again"
# Ctrl-C (SIGINT to the sweep) while the slow run goes
"$SLABSIM" sweep "$TMP/slowfast.json" -j 1 --no-plot --out "$TMP/i" > "$TMP/i.out" 2>&1 &
pid=$!
sleep 0.7
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || fail "an interrupted sweep exited $rc, not 130: $(tail -c 300 "$TMP/i.out")"
grep -q "sweep interrupted (Interrupt): 0 of 2 runs done; the same command with --resume finishes it" \
	"$TMP/i.out" || fail "no interrupt message: $(tail -c 300 "$TMP/i.out")"
[ -e "$TMP/i/crashed.jsonl" ] && fail "an interrupted run was recorded as crashed"
sleep 0.2
pgrep -f "slabsim sweep $TMP/slowfast.json" > /dev/null && fail "a worker outlived the interrupt"
expect_exit 0 "" "$SLABSIM" sweep "$TMP/slowfast.json" -j 1 --resume --no-plot --out "$TMP/i"
[ "$(wc -l < "$TMP/i/runs.jsonl")" -eq 2 ] || fail "--resume did not finish the interrupted sweep"
# a worker that crashes (a policy module's NULL dereference, SIGSEGV) is
# recorded with its signal, and the sweep goes on to the next run
make -s --no-print-directory policy SRC=tests/cli/data/modules/buggy_template.c \
	OUT="$TMP/crash.so" > "$TMP/build.log" 2>&1 || fail "make policy: $(tail -3 "$TMP/build.log")"
cat > "$TMP/crash.json" <<JSON
{ "name": "crash", "question": "one run whose module crashes, one whose does not",
  "machines": ["core2-ep"], "policies": ["$TMP/crash.so"],
  "workloads": ["hackbench 1 process 10"],
  "axes": [ { "param": "crash_after", "values": [100, 0] } ], "seed": 1 }
JSON
# (under ASan its handler reports the SEGV and exits 1 instead: a failed run)
crashed="the run crashed (signal 11: Segmentation fault)"
[ -n "${SLABSIM_SANITIZED:-}" ] && crashed=""
expect_exit 1 "$crashed" "$SLABSIM" sweep "$TMP/crash.json" -j 1 --no-plot --out "$TMP/c"
[ "$(wc -l < "$TMP/c/runs.jsonl")" -eq 1 ] || fail "the sweep did not go on past the crash"
json "$TMP/c/runs.jsonl" "d['invariants'] == 'ok' and d['policy']['params']['crash_after'] == 0"
[ -n "${SLABSIM_SANITIZED:-}" ] ||
	json "$TMP/c/crashed.jsonl" "d['run'] == 0 and 'signal 11' in d['why']"
expect_exit 2 "--run-timeout 0: expected whole seconds" "$SLABSIM" sweep \
	tests/cli/data/tiny-sweep.json --run-timeout 0 --out "$TMP/never"
finish
