# test_machines.sh - the machine catalogue: all eleven are listed, each loads,
# shows its tree, NUMA table and matrix, and runs hackbench.
. tests/cli/lib.sh
expect_exit 0 "" "$SLABSIM" list machines
awk '{print $1}' "$TMP/out" > "$TMP/names"
for m in tigerton core2-ep nehalem-ep westmere-ep nehalem-ex x3950-m2 niagara2-t5240 \
	 epyc-genoa-2s sapphire-rapids-2s opteron-2350-2s phenom-x4; do
	grep -qx "$m" "$TMP/names" || fail "list machines: $m missing"
done
[ "$(wc -l < "$TMP/names")" -eq 11 ] || fail "list machines: expected 11, got $(wc -l < "$TMP/names")"

for m in $(cat "$TMP/names"); do
	expect_exit 0 "node distances:" "$SLABSIM" show machine "$m"
	grep -q "^node 0 cpus: 0" "$TMP/out" || fail "show machine $m: no numactl-style node list"
	grep -q "hand-off matrix" "$TMP/out" || fail "show machine $m: no hand-off matrix"
	grep -q "      core 0: cpu 0" "$TMP/out" || fail "show machine $m: no topology tree"
	expect_exit 0 "Time:" "$SLABSIM" run -m "$m" -p slub -w "hackbench 1 process 20" \
		--json "$TMP/$m.json"
	grep -q "invariants: ok" "$TMP/out" || fail "hackbench on $m: invariants"
	json "$TMP/$m.json" "d['result']['sim_seconds'] > 0 and d['result']['finished'] and d['invariants'] == 'ok'"
done

# the tree and the classes of a few machines, as their files say
expect_exit 0 "" "$SLABSIM" show machine westmere-ep
grep -q "core 0: cpu 0 12" "$TMP/out" || fail "westmere-ep: cpu 12 is not cpu 0's SMT sibling"
grep -qE "other_socket +197 +73.8" "$TMP/out" || fail "westmere-ep: other_socket hand-off"
expect_exit 0 "" "$SLABSIM" show machine x3950-m2
grep -q "^available: 4 nodes (0-3)" "$TMP/out" || fail "x3950-m2: not 4 nodes"
grep -qE "other_node +900" "$TMP/out" || fail "x3950-m2: no other_node class"
grep -q "hand-off matrix by socket" "$TMP/out" || fail "x3950-m2: 64 CPUs should get the socket matrix"
expect_exit 0 "" "$SLABSIM" show machine x3950-m2 --matrix
[ "$(grep -c '^ *[0-9]' "$TMP/out")" -ge 64 ] || fail "--matrix: not every CPU"
expect_exit 0 "" "$SLABSIM" show machine epyc-genoa-2s
grep -qE "same_die +56 +23.3" "$TMP/out" || fail "genoa: the CCX class"
expect_exit 0 "" "$SLABSIM" show machine opteron-2350-2s
grep -q "^available: 2 nodes (0-1)" "$TMP/out" || fail "opteron-2350-2s: not 2 nodes"
grep -qE "other_socket +180 +90.0" "$TMP/out" || fail "opteron-2350-2s: other_socket hand-off"
expect_exit 2 "show machine: unknown option '--wide'" "$SLABSIM" show machine tigerton --wide
finish
