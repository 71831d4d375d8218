# test_list_show.sh - list and show.
. tests/cli/lib.sh
expect_exit 0 "tigerton" "$SLABSIM" list machines
grep -q "16 CPUs" "$TMP/out" || fail "list machines: no CPU count"
expect_exit 0 "slub" "$SLABSIM" list policies
expect_exit 0 "hackbench [GROUPS] [process|thread] [LOOPS]" "$SLABSIM" list workloads
expect_exit 0 "slub_min_objects" "$SLABSIM" list params
grep -q "spinlock" "$TMP/out" || fail "list params: no kernel parameters"
grep -q "loops" "$TMP/out" || fail "list params: no workload parameters"

expect_exit 0 "socket 3" "$SLABSIM" show machine tigerton
grep -q "core 15: cpu 15" "$TMP/out" || fail "show machine: CPU 15 missing from the tree"
grep -q "other_socket" "$TMP/out" || fail "show machine: no hand-off by distance"
grep -q "hand-off matrix" "$TMP/out" || fail "show machine: no matrix"
grep -q "caches: L1 32 KB 8-way per core; last level 4096 KB 16-way per die, 14 cycles" "$TMP/out" || fail "show machine: caches line"
expect_exit 2 "unknown machine 'cray'" "$SLABSIM" show machine cray
# --matrix anywhere after the word (getopt); a misspelt option is named
expect_exit 0 "hand-off matrix" "$SLABSIM" show machine --matrix tigerton
expect_exit 2 "show machine: unknown option '--matrx'" "$SLABSIM" show machine tigerton --matrx
expect_exit 2 "one NAME only" "$SLABSIM" show machine tigerton core2-ep

# the effective geometry of each cache (2.6.25, C1's kernel)
expect_exit 0 "kmalloc-512" "$SLABSIM" show policy slub slub_min_objects=8 slub_max_order=3 \
	--json "$TMP/geom.json"
grep -E "^kmalloc-512 +512 +512 +0 +8 " "$TMP/out" > /dev/null || fail "kmalloc-512 is not order 0 with 8 objects"
grep -q "min_partial=5" "$TMP/out" || fail "show policy: no min_partial"
json "$TMP/geom.json" "any(c['name']=='kmalloc-512' and c['order']==0 and c['objs_per_slab']==8 and c['tunables']['min_partial']==5 for c in d['caches'])"
json "$TMP/geom.json" "any(c['name']=='skbuff_head_cache' and c.get('alias_of')=='kmalloc-192' for c in d['caches'])"
expect_exit 0 "kmalloc-512" "$SLABSIM" show policy slub -m tigerton kernel=2.6.26
grep -E "^kmalloc-512 +512 +512 +2 +32 " "$TMP/out" > /dev/null || fail "2.6.26 on 16 CPUs: kmalloc-512 not order 2, 32 objects"
expect_exit 2 "unknown policy 'slob'" "$SLABSIM" show policy slob
expect_exit 2 "slub_min_objects=lots: not an integer" "$SLABSIM" show policy slub slub_min_objects=lots
# list costs: every entry of the machine's table with its file and source
expect_exit 0 "# cost table 'nehalem' of nehalem-ex" "$SLABSIM" list costs -m nehalem-ex -p slub
python3 - "$TMP/out" <<'PY' || fail "list costs: $(head -5 "$TMP/out")"
import re, sys
lines = open(sys.argv[1]).read().split("\n")
entries = {}
for i, l in enumerate(lines):
    m = re.match(r"^(\S+) +([0-9.e+]+)  (\S+)$", l)
    if m:
        entries[m.group(1)] = (float(m.group(2)), m.group(3), lines[i + 1].strip())
assert len(entries) > 50, len(entries)
assert entries["slab.alloc_hit"][1] in ("costs/core2.json", "costs/nehalem.json"), entries["slab.alloc_hit"]
assert all(src for _, _, src in entries.values()), [k for k, v in entries.items() if not v[2]]
assert "# policy slub brings no entries of its own" in lines
PY
expect_exit 2 "list costs: which machine?" "$SLABSIM" list costs
expect_exit 2 "unknown machine 'nosuch'" "$SLABSIM" list costs -m nosuch
expect_exit 2 "list costs: unknown argument '--all'" "$SLABSIM" list costs -m tigerton --all
finish
