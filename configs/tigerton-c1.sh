#!/bin/sh
# tigerton-c1.sh - case C1 (validation/C1.json): hackbench 100 process on the 16-CPU
# Tigerton with SLUB of 2.6.25-rc5 (the kernel C1 was measured on) and
# slub_min_objects = 8, 16, 32, 64
# (slub_max_order=3), beside the times Zhang Yanmin published (LKML, 14 March
# 2008). Runs the four in parallel, one per CPU of this machine. The
# published times are of 2000 loops: at fewer loops only the ratios to the
# 32-object time compare (the growth phase weighs more in a short run).
# `slabsim validate C1` is the same comparison with acceptance bands.
#
# usage: configs/tigerton-c1.sh [SLABSIM] [LOOPS] [SEED]   (defaults: ./slabsim 2000 1)
set -u
SLABSIM=${1:-./slabsim}
LOOPS=${2:-2000}
SEED=${3:-1}
OUT=$(mktemp -d /tmp/slabsim-c1.XXXXXX)
trap 'rm -rf "$OUT"' EXIT
JOBS=$(nproc 2>/dev/null || echo 1)
echo "hackbench 100 process $LOOPS on tigerton, SLUB (kernel=2.6.25-rc5), slub_max_order=3, seed $SEED"
echo "running 4 simulations, $JOBS at a time ..."
running=0
for mo in 8 16 32 64; do
	"$SLABSIM" run -m tigerton -p slub -w "hackbench 100 process $LOOPS" \
		kernel=2.6.25-rc5 slub_min_objects=$mo slub_max_order=3 --seed "$SEED" \
		--json "$OUT/$mo.json" --quiet > "$OUT/$mo.txt" 2>&1 &
	running=$((running + 1))
	if [ "$running" -ge "$JOBS" ]; then
		wait
		running=0
	fi
done
wait
for mo in 8 16 32 64; do
	[ -s "$OUT/$mo.json" ] || { echo "slub_min_objects=$mo failed:"; cat "$OUT/$mo.txt"; exit 1; }
done
python3 - "$OUT" "$LOOPS" <<'PY'
import json, sys
out, loops = sys.argv[1], int(sys.argv[2])
published = {8: 250.0, 16: 23.0, 32: 18.6, 64: 17.5}	# 2000 loops
runs = {mo: json.load(open("%s/%d.json" % (out, mo))) for mo in (8, 16, 32, 64)}
t32 = runs[32]["result"]["sim_seconds"]
print()
print("slub_min_objects  simulated   / 32  published(2000)   / 32  kmalloc-512   spinning  slab  top symbol             wall    sim s/wall s")
for mo in (8, 16, 32, 64):
    d = runs[mo]
    r = d["result"]
    k = [c for c in d["caches"] if c["name"] == "kmalloc-512"][0]
    top = d["profile"][0]
    print("%16d  %8.2f s %5.2f  %13.1f s %5.2f  order %d/%-3d  %6.0f%%  %4.0f%%  %-16s %5.1f%%  %5.1f s  %5.2f" % (
        mo, r["sim_seconds"], r["sim_seconds"] / t32, published[mo], published[mo] / published[32],
        k["order"], k["objs_per_slab"], 100 * d["cpu"]["spin"],
        100 * d["cpu"]["slab"], top["symbol"], top["percent"], r["wall_seconds"],
        r["sim_seconds"] / r["wall_seconds"]))
    if d["invariants"] != "ok":
        print("  invariants:", d["invariants"])
if loops != 2000:
    print("(the published times are of 2000 loops; at %d loops compare only the ratios to 32)" % loops)
PY
