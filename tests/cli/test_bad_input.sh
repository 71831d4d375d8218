# test_bad_input.sh - every kind of bad input: one clear message, exit 2,
# never a crash.
. tests/cli/lib.sh
RUN="$SLABSIM run -m tigerton -p slub -w"
W='hackbench 1 process 1'
expect_exit 2 "unknown machine 'cray'; valid machines: " "$SLABSIM" run -m cray -p slub -w "$W"
grep -q tigerton "$TMP/out" || fail "unknown machine: the valid ones are not listed"
expect_exit 2 "unknown policy 'slob' (did you mean 'slab'?); valid policies: slab slub slqb" $RUN "$W" -p slob
expect_exit 2 "unknown workload 'dbench'; valid workloads: hackbench" $RUN dbench
expect_exit 2 "unknown parameter 'slub_max_objects' (did you mean 'slub_min_objects'?); valid names:" $RUN "$W" slub_max_objects=8
grep -q "slub_min_objects" "$TMP/out" || fail "unknown parameter: valid names not listed"
# a mistyped command or option: the nearest valid one
expect_exit 2 "unknown command 'runn' (did you mean 'run'?); commands: run sweep" "$SLABSIM" runn
expect_exit 2 "run: unknown option '--jsn' (did you mean '--json'?)" $RUN "$W" --jsn x.json
expect_exit 2 "sweep: unknown option '--replicats=3' (did you mean '--replicates'?)" \
	"$SLABSIM" sweep configs/tigerton-c1.json --replicats=3
expect_exit 2 "run: unknown option '--frobnicate' (slabsim run --help)" $RUN "$W" --frobnicate
expect_exit 2 "slub_min_objects=-3: out of range" $RUN "$W" slub_min_objects=-3
expect_exit 2 "slub_min_objects=eight: not an integer" $RUN "$W" slub_min_objects=eight
expect_exit 2 "loops=0: out of range" $RUN "hackbench 1 process 0"
expect_exit 2 "hackbench: 'many' is neither a count nor a mode (process, thread)" $RUN "hackbench many"
expect_exit 2 "groups=12x: not an integer" $RUN "hackbench 12x"
expect_exit 2 "mode=fiber: not a valid choice" $RUN "$W" mode=fiber
expect_exit 2 "spinlock=mcs: not a valid choice (spinlock of the kernel expects one of: byte|ticket|queued)" \
	$RUN "$W" spinlock=mcs
expect_exit 2 "kernel=2.6.27: not a valid choice" $RUN "$W" kernel=2.6.27
expect_exit 2 "unexpected argument 'four'" $RUN "hackbench 1 process 2 four"
expect_exit 2 "-pipe: pipes are not modelled yet" $RUN "hackbench -pipe 1"
expect_exit 2 "'=3' is not NAME=VALUE" $RUN "$W" =3
expect_exit 2 "slub_min_order=4 is above slub_max_order=1" $RUN "$W" slub_min_order=4
expect_exit 2 "--seed -1: expected a whole number in 0..9007199254740991 (2^53 - 1)" $RUN "$W" --seed -1
expect_exit 2 "--seed 9007199254740992: expected a whole number in 0..9007199254740991" \
	$RUN "$W" --seed 9007199254740992
expect_exit 2 "--seed 1.5: expected a whole number" $RUN "$W" --seed 1.5
expect_exit 2 "--seed 1e16: expected a whole number" $RUN "$W" --seed 1e16
expect_exit 2 "cannot write" $RUN "$W" --json /nonexistent/dir/out.json

# machine files: malformed, incomplete, inconsistent, and a path that is not there
printf '{ "name": "broken", \n "description": ' > "$TMP/malformed.json"
expect_exit 2 "malformed.json: line 2, column 16: not valid JSON (it ends too soon)" "$SLABSIM" run -m "$TMP/malformed.json" -p slub -w "$W"
sed 's/"atomic_cycles": 20,//' machines/tigerton.json > "$TMP/incomplete.json"
expect_exit 2 "incomplete.json: missing field 'atomic_cycles'" \
	"$SLABSIM" run -m "$TMP/incomplete.json" -p slub -w "$W"
sed 's/"sockets_per_node": 4/"sockets_per_node": 0/' machines/tigerton.json > "$TMP/zero.json"
expect_exit 2 "field 'topology.sockets_per_node' = 0 is out of range" \
	"$SLABSIM" show machine "$TMP/zero.json"
sed 's/"same_die": 20/"same_die": "near"/' machines/tigerton.json > "$TMP/type.json"
expect_exit 2 "field 'handoff_cycles.same_die' must be a number" \
	"$SLABSIM" run -m "$TMP/type.json" -p slub -w "$W"
expect_exit 2 "machine file './missing.json' not found" "$SLABSIM" run -m ./missing.json -p slub -w "$W"
# a user's own machine file that is right runs
cp machines/tigerton.json "$TMP/mine.json"
expect_exit 0 "Time:" "$SLABSIM" run -m "$TMP/mine.json" -p slub -w "$W" --quiet
finish
