# test_first_contact.sh - what a newcomer meets first: mistakes answered by
# naming the right field with a did-you-mean; combinations that never
# existed said so; the report's first lines, lock table and sections as a
# kernel developer reads them.
. tests/cli/lib.sh
W='hackbench 1 process 5'
RUN="$SLABSIM run -m core2-ep -p slub -w"

# near misses of every name: machine, policy, workload, parameter, mode
expect_exit 2 "unknown machine 'tigerto' (did you mean 'tigerton'?)" "$SLABSIM" run -m tigerto -p slub -w "$W"
expect_exit 2 "unknown policy 'slbu' (did you mean 'slub'?)" "$SLABSIM" run -m tigerton -p slbu -w "$W"
expect_exit 2 "unknown workload 'hackbnch' (did you mean 'hackbench'?)" $RUN 'hackbnch 1 process 5'
expect_exit 2 "unknown parameter 'slub_min_object' (did you mean 'slub_min_objects'?)" $RUN "$W" slub_min_object=8
expect_exit 2 "hackbench: 'proces' is neither a count nor a mode (process, thread) (did you mean 'process'?)" \
	$RUN 'hackbench 1 proces 5'
expect_exit 2 "unknown parameter 'zzz'; valid names" $RUN "$W" zzz=1	# nothing near: no guess
grep -q "did you mean" "$TMP/out" && fail "a guess for a name nothing is near: $(cat "$TMP/out")"
# a parameter without its =, a workload without its quotes, another policy's parameter
expect_exit 2 "parameters are written NAME=VALUE, as slub_min_objects=VALUE" $RUN "$W" slub_min_objects 8
expect_exit 2 "a workload's arguments go inside its quotes" "$SLABSIM" run -m core2-ep -p slub -w hackbench 2 thread 5
expect_exit 2 "slub_min_objects is a parameter of policy slub, not of slab (-p slub)" \
	"$SLABSIM" run -m core2-ep -p slab -w "$W" slub_min_objects=8

# combinations no kernel had: said, not silently accepted
expect_exit 0 "note: SLAB left the kernel in 6.8" "$SLABSIM" run -m core2-ep -p slab -w "$W" kernel=7.0
expect_exit 0 "note: SLQB was posted for 2.6.29 and never merged" "$SLABSIM" run -m core2-ep -p slqb -w "$W" kernel=3.2
"$SLABSIM" run -m core2-ep -p slab -w "$W" kernel=2.6.26 > /dev/null 2> "$TMP/err"
[ -s "$TMP/err" ] && fail "a note for SLAB in 2.6.26: $(cat "$TMP/err")"
expect_exit 0 "published SLUB figures (C2) are of the 2.6.26 era; this run is kernel=2.6.25" \
	$RUN 'slab_test run=1 count=100' --compare

# the workload's own time first; the rest of the clock said for what it is
"$SLABSIM" run -m core2-ep -p slab -w "$W" > "$TMP/slab.txt"
sed -n 3p "$TMP/slab.txt" | grep -q "^Simulated 0.0[0-9]* s measured by the workload (.* s in all" ||
	fail "SLAB's run: $(sed -n 2,3p "$TMP/slab.txt")"
# lock_stat's columns, averages included
grep -q "class name  *con-bounces  *contentions  *waittime-min  *waittime-max  *waittime-total  *waittime-avg  *acq-bounces  *acquisitions  *holdtime-min  *holdtime-max  *holdtime-total  *holdtime-avg" \
	"$TMP/slab.txt" || fail "the lock table lacks lock_stat's columns"
# a run without slab allocations has no empty slabinfo or perf kmem tables
$RUN pingpong > "$TMP/pp.txt"
grep -q "# No slab allocations in this run" "$TMP/pp.txt" || fail "pingpong: no word on its missing tables"
grep -q "SUMMARY\|# Slab caches" "$TMP/pp.txt" && fail "pingpong prints empty slabinfo or kmem tables"
# slabinfo -AD's %Fast beside SLUB's counters
$RUN kbuild > "$TMP/kb.txt"
grep -q "^vm_area_struct: .* | %Fast alloc/free [0-9]*/[0-9]*$" "$TMP/kb.txt" || fail "kbuild: no %Fast"
# trace replay's header names the file
"$SLABSIM" trace replay tests/cli/data/traces/kmem_SLAB.log -m tigerton -p slab pace=asap > "$TMP/tr.txt"
head -1 "$TMP/tr.txt" | grep -q "workload 'trace file=tests/cli/data/traces/kmem_SLAB.log pace=asap'" ||
	fail "trace replay header: $(head -1 "$TMP/tr.txt")"
# --plot and --compare say which workload they belong to
"$SLABSIM" run --help > "$TMP/help.txt"
grep -q "\[--plot FILE.png\] *(pingpong" "$TMP/help.txt" || fail "run --help: --plot looks general"
grep -q "\[--compare\] *(slab_test" "$TMP/help.txt" || fail "run --help: --compare looks general"

# make demo writes only where git does not look; results/ is make results'
make -n demo 2>/dev/null | grep -q -- "--out out/demo --force" || fail "make demo does not write to out/demo"
make -n demo 2>/dev/null | grep -q "results/" && fail "make demo touches results/"
if git rev-parse --git-dir > /dev/null 2>&1; then
	git check-ignore -q out/demo || fail "out/ is not ignored by git"
fi
finish
