# test_slab_test.sh - the slab_test module: its output lines, JSON results
# for every test and size, --compare with docs/calibration.md C2, bad input.
. tests/cli/lib.sh
expect_exit 0 "10000 times kmalloc(8) -> " "$SLABSIM" run -m core2-ep -p slub \
	-w "slab_test run=31 max_size=16384" kernel=2.6.26 --json "$TMP/st.json" --compare --quiet
grep -qE "^10000 times kmalloc\(4096\)/kfree -> [0-9]+ cycles +\[C2 slub: 97\]$" "$TMP/out" ||
	fail "test 2 line or its C2 figure"
grep -qE "^Kmalloc N\*alloc N\*free\(8\): 0=[0-9]+/[0-9]+ 1=.* 7=[0-9]+/[0-9]+ Average=[0-9]+/[0-9]+$" "$TMP/out" ||
	fail "test 3 line"
grep -qE "^N\*remote free\(4096\): 0=[0-9]/[0-9]+ 1=" "$TMP/out" ||
	fail "test 4 line (CPU 0 allocates nothing: it only stores NULL into its t->v)"
grep -qE "^1 alloc N free\(64\): 0=[0-9]+ 1=[0-9]+ " "$TMP/out" || fail "test 5 line (one figure a CPU)"
grep -qE "^Kmalloc N\*\(alloc free\)\(512\): 0=[0-9]+ 1=.* 7=[0-9]+ Average=[0-9]+$" "$TMP/out" ||
	fail "test 3's alloc/free pairs line"
# 12 sizes for tests 1-2 (8..16384), 10 for tests 3-5 (8..4096), test 3 twice
json "$TMP/st.json" "len(d['result']['tests']) == 12 * 2 + 10 * 4"
json "$TMP/st.json" "[t['name'] for t in d['result']['tests'] if t['test'] == 3 and t['size'] == 8] == ['Kmalloc N*alloc N*free', 'Kmalloc N*(alloc free)']"
json "$TMP/st.json" "all(t['ops_per_second'] > 1e6 for t in d['result']['tests'] if t['test'] == 3)"
json "$TMP/st.json" "all(t['per_cpu'][0][1] == 0 for t in d['result']['tests'] if t.get('name') == 'Kmalloc N*(alloc free)')"
json "$TMP/st.json" "all(t['alloc_cycles'] > 0 for t in d['result']['tests'] if t['test'] != 4)"
json "$TMP/st.json" "all(len(t['per_cpu']) == 8 for t in d['result']['tests'] if t['test'] >= 3)"
# test 4: CPU 0 frees everything the others allocated (allocating nothing,
# it stores NULL into its t->v: a few cycles a count); they free nothing
json "$TMP/st.json" "all(t['per_cpu'][0][0] < 10 and t['per_cpu'][0][1] > 0 and t['per_cpu'][1][1] == 0 for t in d['result']['tests'] if t['test'] == 4)"
# SLUB hands kmalloc above PAGE_SIZE (2.6.26) to the page allocator: test 2 jumps at 8192
json "$TMP/st.json" "[t['alloc_cycles'] for t in d['result']['tests'] if t['test'] == 2 and t['size'] == 8192][0] > 3 * [t['alloc_cycles'] for t in d['result']['tests'] if t['test'] == 2 and t['size'] == 4096][0]"
# tests 3-5: each kthread kzalloc's its array of pointers (t->v) for every
# test and size, and CPU 0 reads the others' in test 4: 4 sizes x 8 CPUs of
# 8000 bytes, which SLUB of 2.6.26 hands to the page allocator
expect_exit 0 "Page allocator (kmalloc_large): 32 allocs, 32 frees" "$SLABSIM" run -m core2-ep \
	-p slub kernel=2.6.26 -w "slab_test run=8 count=1000 max_size=64"
# --compare picks C2's column by the run's policy (the report's choice, not
# the workload's): SLAB's figures for slab, a line saying there are none
# for a design C2 did not measure, and nothing without --compare
expect_exit 0 "[C2 slab: 77 / 128]" "$SLABSIM" run -m core2-ep -p slab \
	-w "slab_test run=1 max_size=8" --compare --quiet
expect_exit 0 "(docs/calibration.md C2 has no figures for policy magazine)" "$SLABSIM" run \
	-m core2-ep -p magazine -w "slab_test run=1 max_size=8" --compare --quiet
expect_exit 0 "10000 times kmalloc(8) -> " "$SLABSIM" run -m core2-ep -p slub \
	-w "slab_test run=1 max_size=8" --quiet
grep -q "C2" "$TMP/out" && fail "figures beside the lines without --compare"
# TEST_COUNT and the mask
expect_exit 0 "100 times kmalloc(8)/kfree" "$SLABSIM" run -m core2-ep -p slub -w "slab_test run=2 count=100" --quiet
grep -q "times kmalloc(8) ->" "$TMP/out" && fail "run=2 ran test 1"
# cpus=: the concurrent tests on the first N CPUs only
expect_exit 0 "Kmalloc N*(alloc free)(8): 0=" "$SLABSIM" run -m tigerton -p slub \
	-w "slab_test run=4 count=200 max_size=8 cpus=3" --json "$TMP/c3.json"
grep -qE "^Kmalloc N\*\(alloc free\)\(8\): 0=[0-9]+ 1=[0-9]+ 2=[0-9]+ Average=[0-9]+$" "$TMP/out" ||
	fail "cpus=3: three CPUs in the line"
json "$TMP/c3.json" "all(len(t['per_cpu']) == 3 for t in d['result']['tests'])"
expect_exit 2 "slab_test: cpus=17 but tigerton has 16 CPUs" "$SLABSIM" run -m tigerton -p slub \
	-w "slab_test cpus=17"
expect_exit 2 "tests 4 and 5 (run & 24) need two CPUs; cpus=1 gives one" "$SLABSIM" run -m tigerton \
	-p slub -w "slab_test run=8 cpus=1"
expect_exit 0 "Kmalloc N*(alloc free)(8): 0=" "$SLABSIM" run -m tigerton -p slub \
	-w "slab_test run=4 count=50 max_size=8 cpus=1"
expect_exit 0 "times kmalloc(8)" "$SLABSIM" run -m tigerton -p slub -w "slab_test run=3 count=10 cpus=1"
# bad input
expect_exit 2 "run=0" "$SLABSIM" run -m core2-ep -p slub -w "slab_test run=0"
expect_exit 2 "run=32" "$SLABSIM" run -m core2-ep -p slub -w "slab_test run=32"
expect_exit 2 "unexpected argument 'fast'" "$SLABSIM" run -m core2-ep -p slub -w "slab_test fast"
expect_exit 2 "no published figures" "$SLABSIM" run -m core2-ep -p slub -w "lockbench cpus=2" --compare
finish
