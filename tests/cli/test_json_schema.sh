# test_json_schema.sh - every kind of run writes JSON that docs/run.schema.json
# describes: each policy and workload, a sampled run, a trace replay, a run
# with fault injection, one checked mid-run and a sweep's runs.jsonl; a document that breaks the
# schema is caught.
. tests/cli/lib.sh
n=0
run() {	# run NAME ARGS...: one run's JSON into $TMP/NAME.json
	name=$1
	shift
	"$SLABSIM" "$@" --json "$TMP/$name.json" > "$TMP/$name.out" 2>&1 ||
		fail "$name: $(tail -2 "$TMP/$name.out")"
	n=$((n + 1))
}
run slub run -m tigerton -p slub -w 'hackbench 2 process 10'
run slab run -m nehalem-ex -p slab -w 'hackbench 2 process 10'
run slqb run -m core2-ep -p slqb -w 'slab_test run=1 count=100'
run magazine run -m x3950-m2 -p magazine -w 'hackbench 2 thread 10'
run sheaves run -m epyc-genoa-2s -p slub kernel=7.0 -w 'hackbench 2 process 5'
run sample run -m tigerton -p slub -w 'hackbench 4 process 60' sample=observe
run pingpong run -m westmere-ep -p slub -w pingpong
run lockbench run -m nehalem-ex -p slub -w 'lockbench cpus=8'
run oltp run -m core2-ep -p slub -w oltp duration_ms=20
run netperf run -m core2-ep -p slub -w netperf
run kbuild run -m core2-ep -p slub -w kbuild duration_ms=20
run trace trace replay tests/cli/data/traces/kmem_SLUB.log -m tigerton -p slab pace=asap
run faults run -m nehalem-ep -p slub -w 'mix configs/mix/example.json duration_ms=3' \
	failslab=1,5,0,-1 fail_page_alloc=1,20,0,-1 failslab_ignore_gfp_wait=N
run checks run -m tigerton -p slub -w 'hackbench 2 process 10' --check-interval 10
json "$TMP/checks.json" "d['checks']['mid_run'] > 0 and 'faults' not in d"
"$SLABSIM" sweep tests/cli/data/tiny-sweep.json --out "$TMP/sweep" -j 2 > /dev/null 2>&1 ||
	fail "the tiny sweep failed"
python3 tests/cli/json_schema_check.py docs/run.schema.json "$TMP"/*.json "$TMP/sweep/runs.jsonl" ||
	fail "a run's JSON does not match docs/run.schema.json"
[ "$n" -eq 14 ] || fail "only $n runs"
# the checker catches what breaks the schema
python3 - "$TMP/slub.json" "$TMP/bad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
del d["locks"][0]["contentions"]
d["cpu"]["busy"] = "high"
d["surprise"] = 1
d["locks"][0]["contention_points"] = [{"symbol": "add_partial", "contentions": 1,
                                       "wait_cycles": 9}] * 5	# lock_stat keeps 4
json.dump(d, open(sys.argv[2], "w"))
PY
python3 tests/cli/json_schema_check.py docs/run.schema.json "$TMP/bad.json" > "$TMP/bad.txt"
[ $? = 1 ] || fail "a broken document passed the schema check"
for e in "locks\[0\]: missing contentions" "cpu.busy: expected number" "unexpected member surprise" \
	"locks\[0\].contention_points: 5 items, at most 4"; do
	grep -q "$e" "$TMP/bad.txt" || fail "the checker missed: $e"
done
finish
