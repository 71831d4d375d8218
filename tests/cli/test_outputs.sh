# test_outputs.sh - files a user names (--json FILE, trace record -o FILE)
# are written as a Unix tool writes them: through a symbolic link (the link
# stays), into a dangling link's target, "-" as standard output (the report
# then on standard error), a device in place; a missing folder or a folder
# as the file is refused before the run, with exit 2 and the path as given.
. tests/cli/lib.sh
RUN="run -m core2-ep -p slub -w pingpong"
SLABSIM=$(cd "$(dirname "$SLABSIM")" && pwd)/$(basename "$SLABSIM")
cd "$TMP" || exit 1

# a regular file: replaced whole
"$SLABSIM" $RUN --json plain.json > /dev/null || fail "--json plain.json"
json plain.json "d['machine']['name'] == 'core2-ep'"

# a link: its target gets the JSON, the link stays a link
: > target.json
ln -s target.json link.json
"$SLABSIM" $RUN --json link.json > /dev/null || fail "--json link.json"
[ -L link.json ] || fail "--json replaced the symlink link.json"
json target.json "d['machine']['name'] == 'core2-ep'"

# a dangling link: the file it names is created
ln -s made.json dangling.json
"$SLABSIM" $RUN --json dangling.json > /dev/null || fail "--json dangling.json"
[ -L dangling.json ] || fail "--json replaced the dangling symlink"
json made.json "d['machine']['name'] == 'core2-ep'"

# -: the JSON alone on standard output, the report on standard error
"$SLABSIM" $RUN --json - > stdout.json 2> stderr.txt || fail "--json -"
json stdout.json "d['machine']['name'] == 'core2-ep'"
grep -q "^slabsim " stderr.txt || fail "--json -: the report is not on standard error"
[ ! -e ./- ] || fail "--json - made a file named '-'"

# a device is written in place (/dev/stdout, here a file)
if [ -w /dev/stdout ]; then
	"$SLABSIM" $RUN --quiet --json /dev/stdout > dev.txt 2>&1 || fail "--json /dev/stdout"
	grep -q '"machine"' dev.txt || fail "--json /dev/stdout wrote no JSON to standard output"
	[ -L /dev/stdout ] || [ ! -e /dev/stdout ] || [ -c /dev/stdout ] ||
		fail "--json /dev/stdout replaced /dev/stdout"
fi

# refused before the run, naming the path as given (no .tmp), exit 2
t0=$(date +%s)
expect_exit 2 "cannot write nodir/x.json: no folder nodir" \
	"$SLABSIM" run -m tigerton -p slub -w "hackbench 100 process 2000" --json nodir/x.json
[ $(( $(date +%s) - t0 )) -le 2 ] || fail "--json nodir/x.json was found only after the run"
grep -q "tmp" "$TMP/out" && fail "the message names a temporary file: $(cat "$TMP/out")"
expect_exit 2 "cannot write .: it is a folder" "$SLABSIM" $RUN --json .
expect_exit 2 "cannot write nodir/t.trace: no folder nodir" \
	"$SLABSIM" trace record -o nodir/t.trace -m core2-ep -p slub -w "slab_test run=1 count=10"
[ ! -d nodir ] || fail "a refused run made the folder nodir"
ls -a | grep -q "tmp" && fail "a temporary file was left behind: $(ls -a)"

finish
