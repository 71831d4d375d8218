# test_mix.sh - workloads mix (a JSON cache mix) and kbuild (the kernel-build
# mix): both on core2-ep and tigerton with slab, slub and slqb, invariants ok
# and every object freed once; other-node frees only on a multi-node machine;
# bad descriptions exit 2 with their message; the same seed gives the same
# JSON; kbuild's SLUB free fast-path shares are ordered like the published
# ones (docs/workloads.md: names_cache 99, journal_handle 99, vm_area_struct 54,
# bio 13, filp 3, buffer_head 0).
. tests/cli/lib.sh
EX=configs/mix/example.json
BALANCED="sum(d['result']['frees'].values()) == d['result']['allocations'] > 0 and all(c['allocs'] == c['frees_local'] + c['frees_remote_cpu'] + c['frees_remote_node'] + c['frees_remote_unavailable'] > 0 for c in d['result']['caches'])"
for m in core2-ep tigerton; do
	for p in slab slub slqb; do
		f="$TMP/mix-$m-$p.json"
		expect_exit 0 "Mix: " "$SLABSIM" run -m $m -p $p -w "mix $EX" duration_ms=2 --json "$f" --quiet
		json "$f" "d['invariants'] == 'ok' and d['result']['finished']"
		json "$f" "$BALANCED"
		# one node: the other-node share is freed locally, and counted
		json "$f" "d['result']['frees']['remote_node'] == 0 and d['result']['frees']['remote_unavailable'] > 0"
		json "$f" "d['result']['frees']['remote_cpu'] > 0 and d['result']['tasks'] == d['machine']['cpus']"
		# the kernel's books agree: every cache the mix created ends empty
		json "$f" "all(c['allocs'] == c['frees'] for c in d['caches'] if c['name'] in ('kiocb', 'blkdev_requests'))"
		f="$TMP/kbuild-$m-$p.json"
		expect_exit 0 "kbuild: " "$SLABSIM" run -m $m -p $p -w kbuild duration_ms=5 --json "$f" --quiet
		json "$f" "d['invariants'] == 'ok' and d['result']['finished']"
		json "$f" "$BALANCED and len(d['result']['caches']) == 6"
		json "$f" "d['result']['frees']['remote_node'] == 0"
	done
done
# two nodes: objects handed to the other node
for w in "mix $EX" kbuild; do
	expect_exit 0 "" "$SLABSIM" run -m nehalem-ep -p slub -w "$w" duration_ms=2 --json "$TMP/n.json" --quiet
	json "$TMP/n.json" "d['invariants'] == 'ok' and $BALANCED"
	json "$TMP/n.json" "d['result']['frees']['remote_node'] > 0 and d['result']['frees']['remote_cpu'] > 0"
done

# the text report: the per-cache table, and the parameters of both workloads
expect_exit 0 "invariants: ok" "$SLABSIM" run -m core2-ep -p slub -w "mix $EX" duration_ms=1
grep -qE "^cache +size slab cache +allocs +local +remote_cpu +remote_node +unavailable$" "$TMP/out" ||
	fail "mix: no per-cache table"
grep -qE "^blkdev_requests +272 blkdev_requests +[0-9]+ " "$TMP/out" || fail "mix: no blkdev_requests row"
expect_exit 0 "usage: -w 'mix FILE [tasks=N] [duration_ms=T]'" "$SLABSIM" list workloads
grep -q "usage: -w 'kbuild \[jobs=N\]" "$TMP/out" || fail "list workloads: kbuild"
expect_exit 0 "workload mix:" "$SLABSIM" list params
grep -qE "^  (file|jobs|rate) " "$TMP/out" || fail "list params: mix and kbuild parameters"
# file= and tasks= as parameters
expect_exit 0 "Mix: " "$SLABSIM" run -m core2-ep -p slub -w mix file=$EX tasks=3 duration_ms=1 \
	--json "$TMP/t3.json" --quiet
json "$TMP/t3.json" "d['result']['tasks'] == 3 and d['workload']['params']['file'] == '$EX'"
expect_exit 0 "kbuild: " "$SLABSIM" run -m tigerton -p slub -w kbuild jobs=20 rate=20000 \
	duration_ms=2 --json "$TMP/j.json" --quiet
json "$TMP/j.json" "d['result']['tasks'] == 20 and d['invariants'] == 'ok'"

# the same seed, the same JSON (but the two wall-clock fields)
for i in 1 2; do
	"$SLABSIM" run -m tigerton -p slub -w "mix $EX" duration_ms=2 --seed 7 --json "$TMP/s$i.json" \
		--quiet > /dev/null || fail "seed run $i"
done
strip() {
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
del d['result']['wall_seconds'], d['result']['events_per_second'], d['result']['host_peak_rss_mb']
print(json.dumps(d, sort_keys=True))" "$1"
}
strip "$TMP/s1.json" > "$TMP/a"
strip "$TMP/s2.json" > "$TMP/b"
cmp -s "$TMP/a" "$TMP/b" || fail "mix: same seed, different JSON: $(diff "$TMP/a" "$TMP/b" | head -c 300)"

# bad descriptions: one message naming the file and the key, exit 2
bad() {
	printf '%s' "$2" > "$TMP/bad.json"
	expect_exit 2 "$TMP/bad.json: $1" "$SLABSIM" run -m core2-ep -p slub -w "mix $TMP/bad.json"
}
L='"lifetime": {"dist": "fixed", "us": 1}'
bad "caches[0].sise: unknown key" "{\"caches\": [{\"name\": \"a\", \"sise\": 8, \"rate\": 1, $L}]}"
# a key that is the empty string is unknown too (it once read past the list of
# valid keys: tests/fuzz/regressions/mix/)
bad "caches[0].: unknown key" "{\"caches\": [{\"name\": \"a\", \"\": 8, \"rate\": 1, $L}]}"
bad "caches[0].size: expected an integer" "{\"caches\": [{\"name\": \"a\", \"size\": \"8\", \"rate\": 1, $L}]}"
bad "caches[0].rate: missing" "{\"caches\": [{\"name\": \"a\", \"size\": 8, $L}]}"
bad "caches[0].rate: must be > 0" "{\"caches\": [{\"name\": \"a\", \"size\": 8, \"rate\": -3, $L}]}"
bad "caches[0].remote_cpu: must be a share in [0, 1]" "{\"caches\": [{\"name\": \"a\", \"size\": 8, \"rate\": 1, \"remote_cpu\": 2, $L}]}"
bad "caches[0]: remote_cpu + remote_node = 1.5" "{\"caches\": [{\"name\": \"a\", \"size\": 8, \"rate\": 1, \"remote_cpu\": 0.8, \"remote_node\": 0.7, $L}]}"
bad "caches[0].lifetime.dist: unknown distribution 'gamma' (fixed|exponential|lognormal|pareto)" \
	'{"caches": [{"name": "a", "size": 8, "rate": 1, "lifetime": {"dist": "gamma"}}]}'
bad "caches[0].lifetime.sigma: missing (lognormal needs median_us and sigma)" \
	'{"caches": [{"name": "a", "size": 8, "rate": 1, "lifetime": {"dist": "lognormal", "median_us": 5}}]}'
bad "caches[0].size: must be 1 to 4194304 bytes (4 MiB), not 0" "{\"caches\": [{\"name\": \"a\", \"size\": 0, \"rate\": 1, $L}]}"
bad "caches[0].size: must be 1 to 4194304 bytes (4 MiB), not 4194305" "{\"caches\": [{\"name\": \"a\", \"size\": 4194305, \"rate\": 1, $L}]}"
bad "caches: empty" '{"caches": []}'
printf '{"caches": [\n,]}' > "$TMP/bad.json"
expect_exit 2 "$TMP/bad.json: line 2, column 1: not valid JSON (from ',]}')" "$SLABSIM" run -m core2-ep -p slub -w "mix $TMP/bad.json"
expect_exit 2 "$TMP/none.json: cannot read" "$SLABSIM" run -m core2-ep -p slub -w "mix $TMP/none.json"
expect_exit 2 "mix: no description file" "$SLABSIM" run -m core2-ep -p slub -w mix
expect_exit 2 "mix: unexpected argument 'b'" "$SLABSIM" run -m core2-ep -p slub -w "mix a b"
expect_exit 2 "kbuild: unexpected argument '8'" "$SLABSIM" run -m core2-ep -p slub -w "kbuild 8"
expect_exit 2 "duration_ms=0" "$SLABSIM" run -m core2-ep -p slub -w kbuild duration_ms=0

# kbuild under SLUB: the free fast-path share of each cache (FREE_FASTPATH /
# (FREE_FASTPATH + FREE_SLOWPATH) of the cache its objects live in, merged or
# not), ordered as published
expect_exit 0 "kbuild: " "$SLABSIM" run -m tigerton -p slub -w kbuild --json "$TMP/kb.json" --quiet
python3 - "$TMP/kb.json" <<'PY' || fail "kbuild: SLUB free fast path not ordered as published"
import json, sys
d = json.load(open(sys.argv[1]))
slab = {c['name']: c for c in d['caches']}
pub = {'names_cache': 99, 'filp': 3, 'vm_area_struct': 54, 'buffer_head': 0, 'bio': 13,
       'journal_handle': 99}
fast = {}
for c in d['result']['caches']:
    st = slab[c['slab_cache']]['stats']
    fast[c['name']] = 100.0 * st['FREE_FASTPATH'] / (st['FREE_FASTPATH'] + st['FREE_SLOWPATH'])
for n in pub:
    print("  %-15s free fast path %5.1f%%  (published %d%%)" % (n, fast[n], pub[n]))
f = fast
assert min(f['names_cache'], f['journal_handle']) > 90
assert min(f['names_cache'], f['journal_handle']) > f['vm_area_struct'] > f['bio']
assert f['bio'] > max(f['filp'], f['buffer_head'])
assert max(f['filp'], f['buffer_head']) < 10
PY
finish
