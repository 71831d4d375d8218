#!/bin/sh
# pgo_train.sh - the training runs of the profile-guided build (Makefile,
# PGO=1): an instrumented slabsim runs the paths that sweeps spend their time
# on, at a small size, so that gcc lays out and inlines the final binary for
# them. The runs are `slabsim bench`'s reference hackbench runs (SLUB of
# three eras on three machines), C1's collapse at 8 objects (the ticket
# lock's waiters and hand-offs), SLAB and SLQB, and slab_test.
#
#   tools/pgo_train.sh SLABSIM
set -eu
[ $# -eq 1 ] && [ -x "$1" ] || { echo "usage: tools/pgo_train.sh SLABSIM" >&2; exit 2; }
bin=$1
cd "$(dirname "$0")/.."
export SLABSIM_MACHINES="$(pwd)/machines"
run() { "$bin" run --quiet --no-progress "$@" > /dev/null; }
# the reference runs themselves (whatever `bench --runs` lists), at a few loops
"$bin" bench --runs > "${TMPDIR:-/tmp}/pgo_runs.$$"
while read -r line; do
	eval "set -- $line"
	run "$@" loops=4
done < "${TMPDIR:-/tmp}/pgo_runs.$$"
rm -f "${TMPDIR:-/tmp}/pgo_runs.$$"
run -m tigerton -p slub -w 'hackbench 100 process 8' slub_min_objects=8 kernel=2.6.25
run -m nehalem-ex -p slab -w 'hackbench 20 process 20'
run -m nehalem-ex -p slqb -w 'hackbench 20 process 20'
run -m tigerton -p slub -w 'slab_test run=1 count=2000'
