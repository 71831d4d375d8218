# test_lockbench.sh - the lockbench workload from the command line: its JSON,
# the three lock kinds, the curve script and its plot, and bad input.
. tests/cli/lib.sh
for k in byte ticket queued; do
	expect_exit 0 "lockbench $k, 8 CPUs:" "$SLABSIM" run -m core2-ep -p slub \
		-w "lockbench cpus=8 think=1000 hold=300" spinlock=$k --json "$TMP/$k.json"
	grep -q "lockbench lock" "$TMP/out" || fail "$k: the lock is not in the lock table"
	json "$TMP/$k.json" "d['result']['spinlock'] == '$k' and d['result']['cpus'] == 8"
	json "$TMP/$k.json" "d['result']['acquisitions_per_second'] > 1e5"
	json "$TMP/$k.json" "d['result']['mean_wait_cycles'] > d['result']['mean_handoff_cycles'] > 0"
	json "$TMP/$k.json" "d['kernel']['params']['spinlock'] == '$k'"
done
# one CPU: no waiting; the time of a lone loop is think + hold + the lock's own cost
expect_exit 0 "" "$SLABSIM" run -m core2-ep -p slub -w "lockbench cpus=1 think=1000 hold=300 think_dist=fixed" \
	--json "$TMP/one.json"
json "$TMP/one.json" "d['result']['mean_handoff_cycles'] == 0 and d['result']['mean_wait_cycles'] < 60"
json "$TMP/one.json" "abs(d['result']['acquisitions_per_second'] - 2.33e9 / 1300) < 0.05 * 2.33e9 / 1300"
# the kernel= preset picks the era's lock
expect_exit 0 "lockbench byte" "$SLABSIM" run -m core2-ep -p slub -w "lockbench cpus=2" kernel=2.6.24 --quiet
expect_exit 0 "lockbench ticket" "$SLABSIM" run -m core2-ep -p slub -w "lockbench cpus=2" kernel=2.6.25 --quiet
expect_exit 0 "lockbench ticket" "$SLABSIM" run -m core2-ep -p slub -w "lockbench cpus=2" kernel=2.6.26 --quiet
expect_exit 0 "lockbench queued" "$SLABSIM" run -m core2-ep -p slub -w "lockbench cpus=2" kernel=2.6.24 spinlock=queued --quiet
# spread puts one task per socket before the second
expect_exit 0 "" "$SLABSIM" run -m core2-ep -p slub -w "lockbench cpus=4 place=spread" --json "$TMP/sp.json"
json "$TMP/sp.json" "d['result']['cpu_list'] == [0, 4, 1, 5]"

# the measured window is simulated time, whichever CPU the lock starves: a
# byte lock that starves CPU 0 still measures 20 ms, with 16 of 64 CPUs busy
expect_exit 0 "over the measured 0.020 s" "$SLABSIM" run -m nehalem-ex -p slub \
	-w 'lockbench cpus=16 think=2000 hold=200 duration_us=20000' spinlock=byte \
	--seed 1389071947938801 --json "$TMP/starved.json"
json "$TMP/starved.json" "abs(d['cpu']['busy'] - 0.25) < 0.01 and d['invariants'] == 'ok'"
# a short window with 64 CPUs queueing: a wait in flight at either edge is
# counted inside the window only, so no share goes over 100%
expect_exit 0 "invariants: ok" "$SLABSIM" run -m nehalem-ex -p slub \
	-w 'lockbench cpus=64 think=2000 hold=200 duration_us=500' spinlock=ticket --json "$TMP/short.json"
json "$TMP/short.json" "d['cpu']['spin'] <= d['cpu']['busy'] <= 1 and all(p['percent'] <= 100 for p in d['profile'])"

# bad input
expect_exit 2 "cpus=99 but core2-ep has 8 CPUs" "$SLABSIM" run -m core2-ep -p slub -w "lockbench cpus=99"
expect_exit 2 "think_dist" "$SLABSIM" run -m core2-ep -p slub -w "lockbench think_dist=gauss"
expect_exit 2 "unexpected argument '8'" "$SLABSIM" run -m core2-ep -p slub -w "lockbench 8"
expect_exit 2 "hold" "$SLABSIM" run -m core2-ep -p slub -w "lockbench hold=-1"
finish
