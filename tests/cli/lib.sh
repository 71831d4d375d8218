# lib.sh - helpers for the command-line tests (POSIX sh).
# SLABSIM is the binary under test; SLABSIM_SANITIZED=1 (make sanitize) says it
# is the slow sanitizer build: long tests shrink and skip their timing claims.
set -u
: "${SLABSIM:=./slabsim}"
export SLABSIM_MACHINES="${SLABSIM_MACHINES:-$(pwd)/machines}"
TMP=$(mktemp -d /tmp/slabsim-cli.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
FAILS=0

fail() {
	echo "FAIL: $*" >&2
	FAILS=$((FAILS + 1))
}

# expect_exit CODE NEEDLE CMD...: run CMD, check its exit status and that
# NEEDLE (a fixed string, may be empty) appears in its stdout+stderr.
expect_exit() {
	want=$1 needle=$2
	shift 2
	"$@" > "$TMP/out" 2>&1
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "'$*' exited $got, expected $want: $(head -c 400 "$TMP/out")"
	elif [ -n "$needle" ] && ! grep -qF -- "$needle" "$TMP/out"; then
		fail "'$*' did not say '$needle': $(head -c 400 "$TMP/out")"
	fi
}

# json FILE PYTHON-EXPR: evaluate EXPR with d = the parsed file; fails unless true.
json() {
	python3 - "$1" "$2" <<'PY' || fail "json check failed on $1: $2"
import json, sys
d = json.load(open(sys.argv[1]))
ok = eval(sys.argv[2])
if not ok:
    print("false:", sys.argv[2], file=sys.stderr)
    sys.exit(1)
PY
}

finish() {
	if [ "$FAILS" -ne 0 ]; then
		echo "$FAILS check(s) failed" >&2
		exit 1
	fi
	echo "ok"
}
