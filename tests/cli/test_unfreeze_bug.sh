# test_unfreeze_bug.sh - 3.2-rc's unfreeze_partials kept an empty slab on
# the node partial list whenever nr_partial >= min_partial (`<` for `>`,
# fixed by Alex Shi's "Discard slab page only when node partials > minimum
# setting", Sept. 2011): slub_unfreeze_bug=1. Workload: slab_test's remote
# free test (CPUs 1-15 allocate COUNT kmalloc-512 objects each, CPU 0 frees
# them all, in turn): CPU 0 freezes the slabs onto its per-CPU partial list
# and drains it with unfreeze_partials. With the bug the memory left in
# slabs at the end grows with COUNT (empty slabs are never given back);
# fixed, it stays flat: at most min_partial empty slabs per node remain.
# (hackbench frees on CPUs that also allocate, which reuse those slabs, so
# it hardly shows the bug.)
. tests/cli/lib.sh
for m in tigerton nehalem-ep; do
	for bug in 0 1; do
		for count in 1000 2000 4000; do
			expect_exit 0 "invariants: ok" "$SLABSIM" run -m $m -p slub kernel=3.2 \
				-w "slab_test run=8 count=$count min_size=512 max_size=512" \
				slub_unfreeze_bug=$bug --json "$TMP/$m-$bug-$count.json"
		done
	done
done
python3 - "$TMP" <<'PY' || fail "memory with and without the unfreeze_partials bug (table above)"
import json, sys
bad, table = [], []
def check(ok, msg):
    if not ok:
        bad.append(msg)
for m, nodes in (("tigerton", 1), ("nehalem-ep", 2)):
    r = {}
    for bug in (0, 1):
        for count in (1000, 2000, 4000):
            d = json.load(open(f"{sys.argv[1]}/{m}-{bug}-{count}.json"))
            c = [c for c in d["caches"] if c["name"] == "kmalloc-512"][0]
            r[bug, count] = (d["memory"]["slab_bytes_end"] >> 10, c["slabs_peak"],
                             c["slabs_end"], c["partial_end"], c["tunables"]["min_partial"])
            table.append(f"{m} slub_unfreeze_bug={bug} count={count}: slab KB at end "
                         f"{r[bug, count][0]}, kmalloc-512 slabs peak {c['slabs_peak']} end "
                         f"{c['slabs_end']} partial {c['partial_end']}")
    for count in (1000, 2000, 4000):
        fixed, buggy = r[0, count], r[1, count]
        check(fixed[1] == buggy[1], f"{m} {count}: the bug changed the peak")
        # fixed: the partial lists keep at most min_partial empty slabs
        check(fixed[3] <= fixed[4] * nodes, f"{m} {count}: fixed kernel kept {fixed[3]} partial slabs")
        check(fixed[2] < 64, f"{m} {count}: fixed kernel ended with {fixed[2]} slabs")
        # buggy: about 40% of the peak is never given back
        check(buggy[3] > buggy[1] / 4, f"{m} {count}: buggy kernel kept only {buggy[3]} partial slabs")
        check(buggy[0] > 5 * fixed[0], f"{m} {count}: buggy {buggy[0]} KB vs fixed {fixed[0]} KB")
    # growth with the run's length: buggy nearly linear, fixed flat
    check(r[1, 2000][2] > 1.6 * r[1, 1000][2] and r[1, 4000][2] > 3 * r[1, 1000][2],
          f"{m}: buggy slabs at end do not grow with count")
    check(r[0, 4000][2] < 2 * r[0, 1000][2], f"{m}: fixed slabs at end grow with count")
for line in table:
    print(line, file=sys.stderr)
for b in bad:
    print("false:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
finish
