# test_linearity.sh - simulated time grows linearly with hackbench's loops:
# past the start (queues filling), each further block of loops costs about
# the same: nothing accumulates. Blocks of 100 loops vary by up to ~30%
# with the list_lock contention bursts of 20 groups on 16 CPUs (seed 1:
# 0.18, 0.18, 0.28, 0.15, 0.21 s per 100 loops up to 800), so the two
# blocks compared (100->200, and 200->400 per 100) may differ by 35%.
. tests/cli/lib.sh
if [ -n "${SLABSIM_SANITIZED:-}" ]; then	# sanitizer builds: the timing claim is checked in make test
	finish
	exit 0
fi
for l in 100 200 400; do
	"$SLABSIM" run -m tigerton -p slub -w "hackbench 20 process $l" slub_min_objects=64 \
		slub_max_order=3 --json "$TMP/l$l.json" --quiet > /dev/null || fail "loops=$l failed"
done
python3 - "$TMP" <<'PY' || fail "time is not linear in loops"
import json, sys
d = {l: json.load(open('%s/l%d.json' % (sys.argv[1], l))) for l in (100, 200, 400)}
assert all(x['invariants'] == 'ok' for x in d.values())
t = {l: d[l]['result']['sim_seconds'] for l in d}
per100 = [(t[200] - t[100]) / 1, (t[400] - t[200]) / 2]
print("T(100)=%.3f T(200)=%.3f T(400)=%.3f; per 100 loops: %.3f then %.3f" % (t[100], t[200], t[400], *per100))
assert abs(per100[1] - per100[0]) / per100[0] < 0.35
assert t[100] < t[200] < t[400]
PY
finish
