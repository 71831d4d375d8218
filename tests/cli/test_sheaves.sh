# test_sheaves.sh - SLUB's percpu sheaves: kernel=7.0 gives every cache a
# sheaf capacity by object size and no CPU slab, kernel=6.18 only the caches
# that ask (vm_area_struct); the sheaves take nearly every allocation and
# free, remote-node frees bypass them, the barn holds at most 10 full
# sheaves, the SHEAF_* and BARN_* counters count; per-cache capacities and
# the refusals of combinations no kernel had.
. tests/cli/lib.sh
RUN="$SLABSIM run -m tigerton -p slub"

# capacities: calculate_sheaf_capacity() by size, rounded up to fill the kmalloc object
expect_exit 0 "slub_sheaves=all" "$SLABSIM" show policy slub -m tigerton kernel=7.0 --json "$TMP/geo70.json"
python3 - "$TMP/geo70.json" <<'PY' || fail "7.0 sheaf capacities"
import json, sys
c = {x["name"]: x["tunables"]["sheaf_capacity"] for x in json.load(open(sys.argv[1]))["caches"]}
want = {"kmalloc-8": 60, "kmalloc-192": 60, "kmalloc-256": 28, "kmalloc-512": 28,
        "kmalloc-1024": 12, "kmalloc-2048": 12, "kmalloc-4096": 4, "kmalloc-8192": 4}
bad = {n: (c.get(n), v) for n, v in want.items() if c.get(n) != v}
print(bad or "ok", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
expect_exit 0 "kmalloc-8192" "$SLABSIM" show policy slub -m tigerton kernel=6.18 --json "$TMP/geo618.json"
json "$TMP/geo618.json" 'all(c["tunables"]["sheaf_capacity"] == 0 for c in d["caches"])'

# 7.0 hackbench on one node: every allocation and free through the sheaves
expect_exit 0 "invariants: ok" $RUN kernel=7.0 -w 'hackbench 10 process 50' --json "$TMP/h70.json"
python3 - "$TMP/h70.json" <<'PY' || fail "7.0 on tigerton"
import json, sys
d = json.load(open(sys.argv[1]))
s = [c for c in d["caches"] if c["name"] == "kmalloc-512"][0]["stats"]
print({k: v for k, v in s.items() if v}, file=sys.stderr)
ok = (s["ALLOC_FASTPATH"] >= 0.99 * (s["ALLOC_FASTPATH"] + s["ALLOC_SLOWPATH"])
      and s["FREE_SLOWPATH"] == 0 and s["BARN_GET"] > 100 and s["BARN_PUT"] > 100
      and s["SHEAF_REFILL"] > 0 and s["ALLOC_PCS"] == 0 and s["CPU_PARTIAL_FREE"] == 0
      and s["DEACTIVATE_BYPASS"] == 0)
sys.exit(0 if ok else 1)
PY
grep -q "__alloc_empty_sheaf" "$TMP/out" || fail "the sheaves' own kmalloc is not in perf kmem stat"
# on four nodes the frees of another node's objects go to their slabs: as many as perf kmem counts
expect_exit 0 "invariants: ok" "$SLABSIM" run -m nehalem-ex -p slub kernel=7.0 -w 'hackbench 10 process 50' \
	--json "$TMP/ex70.json"
python3 - "$TMP/ex70.json" <<'PY' || fail "remote-node frees bypass the sheaves"
import json, sys
d = json.load(open(sys.argv[1]))
s = [c for c in d["caches"] if c["name"] == "kmalloc-512"][0]["stats"]
k = [c for c in d["kmem"]["caches"] if c["cache"] == "kmalloc-512"][0]
print(f"FREE_SLOWPATH {s['FREE_SLOWPATH']}, remote-node frees {k['remote_node_frees']}", file=sys.stderr)
sys.exit(0 if k["remote_node_frees"] > 1000 and abs(s["FREE_SLOWPATH"] - k["remote_node_frees"])
         < 0.02 * k["remote_node_frees"] else 1)
PY
# CPU 0 frees what 15 CPUs allocated: its full sheaves fill the barn (10), then are flushed
expect_exit 0 "invariants: ok" $RUN kernel=7.0 -w 'slab_test run=8 count=2000 min_size=512 max_size=512' \
	--json "$TMP/rf.json"
json "$TMP/rf.json" '(lambda s: s["BARN_PUT"] == 10 and s["BARN_PUT_FAIL"] > 100 and s["SHEAF_FLUSH"] > 10000)([c for c in d["caches"] if c["name"] == "kmalloc-512"][0]["stats"])'

# 6.18: sheaves above the CPU slab, for vm_area_struct only (kbuild), counted as ALLOC_PCS
expect_exit 0 "invariants: ok" "$SLABSIM" run -m nehalem-ep -p slub kernel=6.18 -w 'kbuild duration_ms=5' \
	--json "$TMP/kb.json"
python3 - "$TMP/kb.json" <<'PY' || fail "6.18 on kbuild"
import json, sys
c = {x["name"]: x for x in json.load(open(sys.argv[1]))["caches"]}
v, f = c["vm_area_struct"], c["filp"]
ok = (v["tunables"]["sheaf_capacity"] == 32 and "alias_of" not in v
      and v["stats"]["ALLOC_PCS"] > 0.5 * v["allocs"] and v["stats"]["FREE_PCS"] > 0
      and f["tunables"]["sheaf_capacity"] == 0)
sys.exit(0 if ok else 1)
PY
# per cache, and none
expect_exit 0 "invariants: ok" $RUN kernel=7.0 -w 'hackbench 2 process 20' kmalloc-512.sheaf_capacity=8 \
	--json "$TMP/pc.json"
json "$TMP/pc.json" '[c for c in d["caches"] if c["name"] == "kmalloc-512"][0]["tunables"]["sheaf_capacity"] == 8'
expect_exit 0 "invariants: ok" $RUN kernel=7.0 -w 'hackbench 2 process 20' sheaf_capacity=0 --json "$TMP/none.json"
json "$TMP/none.json" '(lambda s: s["ALLOC_FASTPATH"] == 0 and s["ALLOC_SLOWPATH"] > 1000)([c for c in d["caches"] if c["name"] == "kmalloc-512"][0]["stats"])'
expect_exit 0 "invariants: ok" $RUN kernel=3.2 slub_sheaves=all -w 'hackbench 2 process 20'	# a what-if

# refusals
W='hackbench 1 process 1'
expect_exit 2 "apply to sheaves, which this SLUB does not have" $RUN -w "$W" kernel=3.2 sheaf_capacity=8
expect_exit 2 "sheaves sit on the lockless slab paths" $RUN -w "$W" slub_sheaves=all
expect_exit 2 "per-CPU partial lists hang off the CPU slab" $RUN -w "$W" kernel=3.2 slub_cpu_slab=0
expect_exit 2 "sheaf_capacity_caches: no cache named 'nosuch'" $RUN -w "$W" kernel=7.0 nosuch.sheaf_capacity=4
expect_exit 2 "is not a count in [0, 1020]" $RUN -w "$W" kernel=7.0 kmalloc-512.sheaf_capacity=5000
expect_exit 2 "sheaf_capacity=1021: a sheaf of 1021 objects (8200 bytes) is more than the largest kmalloc (8192 bytes) holds: at most 1020" $RUN -w "$W" kernel=7.0 sheaf_capacity=1021
expect_exit 0 "invariants: ok" $RUN -w "hackbench 1 process 5" kernel=7.0 sheaf_capacity=1020
expect_exit 2 "slub_sheaves=some: not a valid choice" $RUN -w "$W" kernel=7.0 slub_sheaves=some
finish
