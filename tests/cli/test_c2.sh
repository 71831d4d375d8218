# test_c2.sh - docs/calibration.md C2: slab_test tests 1 and 2, single thread, on
# core2-ep for SLAB, SLQB and SLUB (2.6.26) beside the published cycle
# counts (tools/c2_table.py prints the table). Every cell up to 4096 bytes
# must be within C2_TOLERANCE of the published figure, and SLUB's test 2
# must jump at 8192 (kmalloc above PAGE_SIZE goes to the page allocator).
. tests/cli/lib.sh
TOL=${C2_TOLERANCE:-0.30}
python3 tools/c2_table.py "$SLABSIM" core2-ep "$TOL" > "$TMP/c2.txt" 2>&1 ||
	fail "C2 not within $TOL: $(grep -E 'over|largest|jump' "$TMP/c2.txt")"
grep -E "^largest" "$TMP/c2.txt"
# the table must really hold every policy's cells
for p in slab/1 slab/2 slqb/1 slqb/2 slub/1 slub/2; do
	n=$(grep -c "^$p " "$TMP/c2.txt")
	[ "$n" -ge 7 ] || fail "$p: $n rows in the C2 table"
done
finish
