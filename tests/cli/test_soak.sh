# test_soak.sh - the random-configuration soak (tools/soak.py): a short
# soak passes; a draw is a function of the seed and its number; a failing
# run is reported with its arguments and saved; the second run of each
# draw checks the invariants mid-run too; the saved regressions of
# tests/soak/regressions/ replay; the drawer knows every machine's CPUs.
. tests/cli/lib.sh
DRAWS=40
[ -n "${SLABSIM_SANITIZED:-}" ] && DRAWS=8
expect_exit 0 "soak: $DRAWS of $DRAWS draws passed (seed 5" python3 tools/soak.py \
	--draws $DRAWS -j 2 --seed 5 --slabsim "$SLABSIM" --out "$TMP/soak"
grep -qE "; [1-9][0-9]* checks mid-run in [1-9][0-9]* of them$" "$TMP/out" ||
	fail "the soak made no mid-run checks: $(tail -1 "$TMP/out")"
python3 - "$SLABSIM" <<'PY' || fail "tools/soak.py's CPUS differs from slabsim list machines"
import subprocess, sys
sys.path.insert(0, "tools")
import soak
listed = {l.split()[0]: int(l.split()[1]) for l in
          subprocess.run([sys.argv[1], "list", "machines"], capture_output=True, text=True,
                         check=True).stdout.splitlines() if l.strip()}
assert listed == soak.CPUS, (listed, soak.CPUS)
assert soak.draw(5, 17) == soak.draw(5, 17) and soak.draw(5, 17) != soak.draw(6, 17)
PY
# a failing draw: reported with its arguments, exit 1
printf '%s\n' -m tigerton -p slub -w 'hackbench 1 process 5' no_such_param=1 > "$TMP/bad.args"
expect_exit 1 "FAIL draw $TMP/bad.args: slabsim run -m tigerton -p slub -w 'hackbench 1 process 5' no_such_param=1: exit 2" \
	python3 tools/soak.py --replay "$TMP/bad.args" --slabsim "$SLABSIM"
if ls tests/soak/regressions/*.args > /dev/null 2>&1; then
	expect_exit 0 "draws passed" python3 tools/soak.py --slabsim "$SLABSIM" \
		--replay tests/soak/regressions/*.args
fi
finish
