# test_progress.sh - `slabsim run` on a terminal: a progress line on stderr
# (simulated time, messages done of the total, ETA) a few times a second,
# erased at the end; none when stderr is not a terminal or with
# --no-progress; the run's output and JSON the same either way.
. tests/cli/lib.sh
HB='hackbench 20 process 100'
# pty_run OUT ERR ARGS...: slabsim with stderr on a pseudo-terminal
pty_run() {
	python3 - "$@" <<'PY'
import os, pty, subprocess, sys
out, err, args = sys.argv[1], sys.argv[2], sys.argv[3:]
m, s = pty.openpty()
with open(out, "wb") as o:
    p = subprocess.Popen(args, stdout=o, stderr=s, stdin=subprocess.DEVNULL)
    os.close(s)
    data = b""
    while True:
        try:
            d = os.read(m, 65536)
        except OSError:	# EIO: every copy of the terminal's other end is closed
            break
        if not d:
            break
        data += d
    rc = p.wait()
open(err, "wb").write(data)
sys.exit(rc)
PY
}
strip() { sed -E '/"(wall_seconds|events_per_second|host_peak_rss_mb)":/d' "$1"; }

pty_run "$TMP/tty.out" "$TMP/tty.err" "$SLABSIM" run -m tigerton -p slub -w "$HB" \
	--json "$TMP/tty.json" || fail "run on a terminal exited $?"
python3 - "$TMP/tty.err" <<'PY' || fail "the progress line: $(od -c "$TMP/tty.err" | head -5)"
import re, sys
raw = open(sys.argv[1], "rb").read().decode()
lines = raw.split("\r")[1:]
assert raw.endswith("\r\x1b[K"), "not erased at the end: %r" % raw[-40:]
shown = [l for l in lines if l.startswith("slabsim: ")]
assert len(shown) >= 2, "fewer than two updates: %r" % raw[:300]
dur = r"(\d+s|\d+m\d\ds|\d+h\d\dm)"	# 12s, 3m05s, 1h02m (slow under the sanitizers)
pat = re.compile(r"slabsim: ([0-9.]+) s simulated, (\d+) of 800000 messages \(([0-9.]+)%\), "
                 + dur + r" elapsed(, ETA " + dur + r")?\x1b\[K$")
done = []
for l in shown:
    m = pat.match(l)
    assert m, "malformed: %r" % l
    done.append(int(m.group(2)))
assert done == sorted(done) and done[-1] > done[0], done
assert any("ETA" in l for l in shown)
PY
"$SLABSIM" run -m tigerton -p slub -w "$HB" --json "$TMP/file.json" > "$TMP/file.out" \
	2> "$TMP/file.err" || fail "run exited $?"
[ -s "$TMP/file.err" ] && fail "stderr not a terminal, yet: $(head -c 200 "$TMP/file.err")"
grep -v "of wall time" "$TMP/tty.out" > "$TMP/a"	# the one line with the host's speed
grep -v "of wall time" "$TMP/file.out" > "$TMP/b"
[ -s "$TMP/a" ] && cmp -s "$TMP/a" "$TMP/b" || fail "the report differs on a terminal"
strip "$TMP/tty.json" > "$TMP/a"
strip "$TMP/file.json" > "$TMP/b"
cmp -s "$TMP/a" "$TMP/b" || fail "the JSON differs on a terminal"

pty_run "$TMP/np.out" "$TMP/np.err" "$SLABSIM" run -m tigerton -p slub -w "$HB" --no-progress ||
	fail "--no-progress exited $?"
[ -s "$TMP/np.err" ] && fail "--no-progress printed: $(head -c 200 "$TMP/np.err")"

# sample=auto may stop early: the ETA is a bound
pty_run "$TMP/s.out" "$TMP/s.err" "$SLABSIM" run -m tigerton -p slub -w "$HB" sample=auto ||
	fail "sample=auto on a terminal exited $?"
grep -q "ETA at most" "$TMP/s.err" || fail "sample=auto: $(tr '\r' '\n' < "$TMP/s.err" | head -3)"
[ "$FAILS" -eq 0 ] && echo ok
exit "$FAILS"
