#!/bin/sh
# lockbench-curve.sh - lock throughput against the number of CPUs for the three
# x86 spinlock kinds (byte, ticket, queued) on one machine: one lockbench run
# per (kind, cpus), in parallel, then a gnuplot PNG with its data and script.
#
# usage: configs/lockbench-curve.sh [SLABSIM] [MACHINE] [OUTDIR] [NAME=VALUE ...]
#   defaults: ./slabsim nehalem-ex results; further lockbench parameters
#   (think=, hold=, think_dist=, place=, duration_us=) are passed on.
# writes OUTDIR/lockbench-MACHINE.dat (cpus, then acquisitions/s, mean wait and
# mean hand-off cycles for each kind), .gp and .png.
set -eu
SLABSIM=${1:-./slabsim}
MACHINE=${2:-nehalem-ex}
OUTDIR=${3:-results}
[ $# -gt 3 ] && shift 3 || set --
PARAMS="think=2000 hold=200 duration_us=20000${*:+ $*}"
NCPUS=$("$SLABSIM" show machine "$MACHINE" | sed -n 2p | awk '{print $1}')
CPUS=$(awk -v n="$NCPUS" 'BEGIN { for (c = 1; c <= n; c += (c < 16 ? 1 : c < 32 ? 2 : 4)) printf "%d ", c;
	if ((c - (c <= 16 ? 1 : c <= 32 ? 2 : 4)) != n) printf "%d", n }')
KINDS="byte ticket queued"
TMP=$(mktemp -d /tmp/slabsim-lockbench.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
JOBS=$(nproc 2>/dev/null || echo 1)
mkdir -p "$OUTDIR"
echo "lockbench on $MACHINE ($NCPUS CPUs): $PARAMS; cpus = $CPUS; $JOBS at a time"
running=0
for k in $KINDS; do
	for c in $CPUS; do
		( rc=0
		  "$SLABSIM" run -m "$MACHINE" -p slub -w "lockbench cpus=$c $PARAMS" \
			spinlock=$k --quiet > "$TMP/$k.$c" 2> "$TMP/$k.$c.err" || rc=$?
		  echo $rc > "$TMP/$k.$c.rc" ) &
		running=$((running + 1))
		if [ "$running" -ge "$JOBS" ]; then
			wait
			running=0
		fi
	done
done
wait
for k in $KINDS; do
	for c in $CPUS; do
		if [ "$(cat "$TMP/$k.$c.rc")" != 0 ] || ! grep -q "^lockbench $k, $c CPUs" "$TMP/$k.$c"; then
			echo "spinlock=$k cpus=$c failed:" >&2
			cat "$TMP/$k.$c" "$TMP/$k.$c.err" >&2
			exit 1
		fi
	done
done
DAT="$OUTDIR/lockbench-$MACHINE.dat"
{
	echo "# slabsim lockbench on $MACHINE: $PARAMS"
	echo "# cpus  byte:acq/s wait handoff  ticket:acq/s wait handoff  queued:acq/s wait handoff (cycles)"
	for c in $CPUS; do
		printf "%4d" "$c"
		for k in $KINDS; do
			# "lockbench KIND, N CPUs: X acquisitions/s, wait W cycles, hand-off H cycles"
			awk '{ printf "  %s %s %s", $5, $8, $11 }' "$TMP/$k.$c"
		done
		echo
	done
} > "$DAT"
GP="$OUTDIR/lockbench-$MACHINE.gp"
PNG="lockbench-$MACHINE.png"
cat > "$GP" <<EOF
# slabsim: lockbench throughput vs CPUs, three spinlock kinds ($MACHINE).
# regenerate: configs/lockbench-curve.sh ./slabsim $MACHINE $OUTDIR; or edit and run: cd $OUTDIR && gnuplot lockbench-$MACHINE.gp
set terminal pngcairo size 900,560 font ',10'
set output '$PNG'
set title "lockbench on $MACHINE: one spinlock, $PARAMS" noenhanced
set xlabel 'CPUs taking the lock (packed: a socket is filled before the next)'
set ylabel 'acquisitions per second (millions)'
set key top right
set grid
set xrange [0:$NCPUS]
set yrange [0:*]
plot 'lockbench-$MACHINE.dat' using 1:(\$2/1e6) with linespoints title 'byte (x86 to 2.6.24)', \\
     '' using 1:(\$5/1e6) with linespoints title 'ticket (2.6.25-4.1)', \\
     '' using 1:(\$8/1e6) with linespoints title 'queued (4.2+, MCS)'
EOF
(cd "$OUTDIR" && gnuplot "lockbench-$MACHINE.gp")
echo "wrote $DAT, $GP and $OUTDIR/$PNG"
