# test_help.sh - every subcommand answers --help, and usage errors exit 2.
. tests/cli/lib.sh
expect_exit 0 "usage: slabsim COMMAND" "$SLABSIM" --help
for c in run list show bench diff calibrate tune sensitivity; do
	expect_exit 0 "usage: slabsim $c" "$SLABSIM" "$c" --help
done
expect_exit 0 "slabsim 0." "$SLABSIM" --version
expect_exit 0 "list    machines|policies|workloads|params | costs -m MACHINE" "$SLABSIM" --help
# a workload that allocates nothing needs no -p; one that allocates does
expect_exit 0 "policy slub" "$SLABSIM" run -m tigerton -w 'lockbench cpus=2 duration_us=50'
expect_exit 0 "policy slub" "$SLABSIM" run -m tigerton -w 'pingpong'
expect_exit 2 "run: -m MACHINE, -p POLICY and -w WORKLOAD are required" "$SLABSIM" run -m tigerton -w 'hackbench 1 process 1'
expect_exit 2 "usage: slabsim COMMAND" "$SLABSIM"
expect_exit 2 "unknown command 'fly'" "$SLABSIM" fly
expect_exit 2 "run: -m MACHINE, -p POLICY and -w WORKLOAD are required" "$SLABSIM" run -m tigerton
expect_exit 2 "run: --seed needs a value" "$SLABSIM" run -m tigerton -p slub -w hackbench --seed
expect_exit 2 "run: unknown option '--fast'" "$SLABSIM" run --fast
expect_exit 2 "list: say what to list" "$SLABSIM" list
expect_exit 2 "list: unknown list 'cpus'" "$SLABSIM" list cpus
expect_exit 2 "show: expected" "$SLABSIM" show
expect_exit 2 "bench: unknown option '--slow'" "$SLABSIM" bench --slow
finish
