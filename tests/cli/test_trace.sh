# test_trace.sh - trace replay and trace record: both real captures replay
# with every line replayed or reported by number; the event counts match
# grep -c; strict=1; damaged and fuzzed traces; a recorded hackbench replays
# with the same allocations and frees per cache; cpu_map=; pace=.
. tests/cli/lib.sh
D=tests/cli/data/traces	# two real ftrace kmem captures (README.md there)
for f in kmem_SLAB kmem_SLUB; do
	expect_exit 0 "invariants: ok" "$SLABSIM" run -m core2-ep -p slub -w "trace $D/$f.log" \
		--json "$TMP/$f.json"
	for ev in kmalloc kmem_cache_alloc kfree kmem_cache_free; do
		n=$(grep -c " $ev: " "$D/$f.log")
		json "$TMP/$f.json" "d['result']['replayed']['$ev'] == $n"
	done
	# every line: replayed, a header line, or reported with its number
	json "$TMP/$f.json" "sum(d['result']['replayed'].values()) + d['result']['header_lines'] + sum(d['result']['problems'][p]['count'] for p in d['result']['problems'] if p in ('unparsable line', 'not a kmem alloc/free event', 'free of a pointer already freed')) == d['result']['lines']"
	json "$TMP/$f.json" "all(len(v['lines']) == v['count'] for v in d['result']['problems'].values())"
	nul=$(grep -n 'ptr=  (null)' "$D/$f.log" | head -1 | cut -d: -f1)
	json "$TMP/$f.json" "d['result']['problems']['kfree(NULL)']['lines'][0] == $nul"
	grep -qE "^  [0-9]+ x kfree\(NULL\): line $nul, " "$TMP/out" || fail "$f: the kfree(NULL) line numbers"
	grep -qE "^  [0-9]+ x free of a pointer never allocated" "$TMP/out" || fail "$f: unknown frees"
	# strict=1 refuses the NULL and unknown frees, naming the file and line
	expect_exit 2 "$f.log:" "$SLABSIM" run -m core2-ep -p slub -w "trace $D/$f.log" strict=1
done
json "$TMP/kmem_SLAB.json" "d['result']['problems']['kfree(NULL)']['count'] == 244 and d['result']['problems']['free of a pointer never allocated']['count'] == 2"
json "$TMP/kmem_SLUB.json" "d['result']['preallocated'] == 11 and d['result']['live_at_end'] > 5000"
# pace: the capture spans ~0.43 s; as fast as possible is much shorter
expect_exit 0 "as fast as possible" "$SLABSIM" run -m core2-ep -p slab -w "trace $D/kmem_SLAB.log" pace=asap --json "$TMP/asap.json"
python3 - "$TMP/kmem_SLAB.json" "$TMP/asap.json" <<'PY' || fail "pace=recorded vs asap"
import json, sys
rec, asap = (json.load(open(f))["result"]["sim_seconds"] for f in sys.argv[1:3])
assert 0.35 < rec < 0.6 and asap < rec / 10, (rec, asap)
PY
# a damaged trace: every bad line is reported by number, the rest replays
python3 - "$D/kmem_SLUB.log" "$TMP/bad.log" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")[:400]
lines[20] = lines[20][:40]                     # line 21: truncated
lines[30] = "garbage \x01\x02 not a trace line"  # line 31
lines[40] = lines[40].replace("kmalloc:", "mm_page_alloc:").replace("kmem_cache_alloc:", "mm_page_alloc:")
free = next(l for l in lines if "kmem_cache_free:" in l)
lines.append(free)                             # line 401: a double free
open(sys.argv[2], "w").write("\n".join(lines) + "\n")
PY
expect_exit 0 "invariants: ok" "$SLABSIM" run -m core2-ep -p slqb -w "trace $TMP/bad.log" --json "$TMP/bad.json"
json "$TMP/bad.json" "21 in d['result']['problems']['unparsable line']['lines'] and 31 in d['result']['problems']['unparsable line']['lines']"
json "$TMP/bad.json" "d['result']['problems']['not a kmem alloc/free event']['lines'] == [41]"
json "$TMP/bad.json" "d['result']['problems']['free of a pointer already freed']['lines'] == [401]"
expect_exit 2 "bad.log:18: kfree(NULL)" "$SLABSIM" run -m core2-ep -p slqb -w "trace $TMP/bad.log" strict=1
# fuzzed lines mixed into a real trace never crash the replay
python3 - "$D/kmem_SLAB.log" "$TMP/fuzz.log" <<'PY'
import random, sys
random.seed(7)
src = open(sys.argv[1], "rb").read().split(b"\n")[11:3000]
out = []
for l in src:
    r = random.random()
    if r < 0.1:
        l = l[:random.randrange(len(l) + 1)]
    elif r < 0.2:
        b = bytearray(l)
        for _ in range(3):
            if b:
                b[random.randrange(len(b))] = random.randrange(256)
        l = bytes(b)
    elif r < 0.25:
        l = bytes(random.randrange(256) for _ in range(random.randrange(200)))
    out.append(l.replace(b"\n", b" "))
open(sys.argv[2], "wb").write(b"\n".join(out) + b"\n")
PY
"$SLABSIM" run -m tigerton -p slub -w "trace $TMP/fuzz.log" pace=asap --json "$TMP/fuzz.json" > "$TMP/out" 2>&1
[ $? -eq 0 ] || fail "fuzzed trace: $(head -c 300 "$TMP/out")"
json "$TMP/fuzz.json" "d['result']['problems']['unparsable line']['count'] > 50 and d['invariants'] == 'ok'"
# bad input
expect_exit 2 "file= is required" "$SLABSIM" run -m core2-ep -p slub -w trace
expect_exit 2 "nosuch.log" "$SLABSIM" run -m core2-ep -p slub -w "trace $TMP/nosuch.log"
head -c 3000 /dev/urandom > "$TMP/random.bin"
expect_exit 2 "no kmem events" "$SLABSIM" run -m core2-ep -p slub -w "trace $TMP/random.bin"
: > "$TMP/empty.log"
expect_exit 2 "no kmem events" "$SLABSIM" run -m core2-ep -p slub -w "trace $TMP/empty.log"
expect_exit 2 "pace" "$SLABSIM" run -m core2-ep -p slub -w "trace $D/kmem_SLAB.log" pace=slow
expect_exit 2 "cpu_map=1,x" "$SLABSIM" run -m core2-ep -p slub -w "trace $D/kmem_SLAB.log" cpu_map=1,x
# kmallocs past the biggest order fail (NULL) as in the kernel; a 100000-byte
# kmalloc_large is booked by its call site and freed from another CPU; a clock
# that steps back; a file name with a space is refused with a clear message
L='kmalloc: call_site=c104de4f'
F='kfree: call_site=c104e161'
cat > "$TMP/big.log" <<EOF
 a-1 [000] .... 1.000000: $L ptr=c1000000 bytes_req=16777216 bytes_alloc=16777216 gfp_flags=GFP_KERNEL
 a-1 [000] .... 1.000010: $L ptr=c2000000 bytes_req=4294967295 bytes_alloc=4294967295 gfp_flags=GFP_KERNEL
 a-1 [000] .... 1.000020: $L ptr=c3000000 bytes_req=100000 bytes_alloc=131072 gfp_flags=GFP_KERNEL
 a-1 [001] .... 0.500000: $F ptr=c3000000
 a-1 [001] .... 1.000040: $F ptr=c1000000
EOF
expect_exit 0 "invariants: ok" "$SLABSIM" trace replay "$TMP/big.log" -m core2-ep -p slub \
	--json "$TMP/big.json"
json "$TMP/big.json" "d['result']['failed_allocs'] == 2 and d['kmem']['summary']['large_allocs'] == 1 and d['kmem']['summary']['large_frees'] == 1"
json "$TMP/big.json" "[c['bytes_alloc'] for c in d['kmem']['callers'] if c['callsite'] == 'c104de4f'] == [131072]"
json "$TMP/big.json" "d['kmem']['summary']['pingpong'] == 1"
grep -q "Page allocator (kmalloc_large): 1 allocs, 1 frees" "$TMP/out" || fail "kmem stat: large allocations"
grep -q "  2 allocations failed (NULL" "$TMP/out" || fail "failed allocations not reported"
cp "$TMP/big.log" "$TMP/big trace.log"
expect_exit 2 "has spaces" "$SLABSIM" trace replay "$TMP/big trace.log" -m core2-ep -p slub
# trace record: a hackbench replays with the same allocations and frees per cache
expect_exit 0 "kmem events written" "$SLABSIM" trace record -o "$TMP/hb.trace" -m tigerton -p slub \
	-w 'hackbench 1 process 5' --json "$TMP/hb.json"
json "$TMP/hb.json" "d['kmem']['summary']['allocs'] == 4000 and d['kmem']['summary']['frees'] == 4000"
[ "$(grep -c ': kmem_cache_alloc: ' "$TMP/hb.trace")" -eq 2000 ] || fail "recorded kmem_cache_alloc lines"
expect_exit 0 "invariants: ok" "$SLABSIM" trace replay "$TMP/hb.trace" -m tigerton -p slub \
	cpu_map=identity --json "$TMP/replay.json"
python3 - "$TMP/hb.json" "$TMP/replay.json" <<'PY' || fail "record -> replay: counts per cache differ"
import json, sys
run, rep = (json.load(open(f)) for f in sys.argv[1:3])
want = {c["name"]: (c["allocs"], c["frees"]) for c in run["caches"] if c["allocs"] or c["frees"]}
got = {c["name"]: (c["allocs"], c["frees"]) for c in rep["result"]["caches"]}
assert want == got, (want, got)
assert rep["result"]["streams"] > 1
PY
# 16 traced CPUs do not fit 8 one to one; modulo and spread fold them
expect_exit 2 "cpu_map=identity" "$SLABSIM" trace replay "$TMP/hb.trace" -m core2-ep -p slab cpu_map=identity
expect_exit 0 "invariants: ok" "$SLABSIM" trace replay "$TMP/hb.trace" -m core2-ep -p slab cpu_map=spread
expect_exit 2 "-o FILE is required" "$SLABSIM" trace record -m tigerton -p slub -w 'hackbench 1 process 1'
# trace record reads run's options with getopt: --output=FILE, -o anywhere,
# and its own name in the complaints
expect_exit 0 "kmem events written" "$SLABSIM" trace record -m tigerton -p slub \
	-w 'hackbench 1 process 5' --quiet --output="$TMP/hb2.trace"
cmp -s "$TMP/hb.trace" "$TMP/hb2.trace" || fail "--output=FILE: another trace than -o FILE"
expect_exit 2 "trace record: unknown option '--bogus' (slabsim trace record --help)" \
	"$SLABSIM" trace record -o "$TMP/x.trace" -m tigerton -p slub -w 'hackbench 1 process 1' --bogus
expect_exit 2 "trace record: -o needs a value" "$SLABSIM" trace record -m tigerton -p slub \
	-w 'hackbench 1 process 1' -o
expect_exit 2 "run: unknown option '-o'" "$SLABSIM" run -o "$TMP/x.trace" -m tigerton -p slub \
	-w 'hackbench 1 process 1'
expect_exit 0 "-o, --output FILE" "$SLABSIM" trace record --help
expect_exit 2 "unknown subcommand" "$SLABSIM" trace play x
expect_exit 0 "usage: slabsim trace record -o FILE" "$SLABSIM" trace --help
expect_exit 2 "usage: slabsim trace" "$SLABSIM" trace
expect_exit 2 "the trace FILE comes first" "$SLABSIM" trace replay -m core2-ep
# --from/--to keep the events of a window of simulated time only: each kept
# line is inside it, and the window's lines are those of the whole trace
"$SLABSIM" trace record -o "$TMP/w.trace" --from 0.001 --to 0.002 -m tigerton -p slub \
	-w 'hackbench 2 process 20' kernel=2.6.25-rc5 slub_min_objects=8 --json "$TMP/w.json" > "$TMP/out" 2>&1 ||
	fail "trace record --from/--to: $(head -c 300 "$TMP/out")"
"$SLABSIM" trace record -o "$TMP/all.trace" -m tigerton -p slub \
	-w 'hackbench 2 process 20' kernel=2.6.25-rc5 slub_min_objects=8 > /dev/null 2>&1
python3 - "$TMP/w.trace" "$TMP/all.trace" <<'PY' || fail "trace record --from/--to: the window"
import re, sys
def events(path):
    return [l for l in open(path) if re.search(r": (kmalloc|kmem_cache_alloc|kfree|kmem_cache_free): ", l)]
def ts(l):
    return float(re.search(r" ([\d.]+): ", l).group(1))
win, full = events(sys.argv[1]), events(sys.argv[2])
assert win and all(0.001 <= ts(l) < 0.002 for l in win), len(win)
assert len(win) < len(full) / 2, (len(win), len(full))
assert win == [l for l in full if 0.001 <= ts(l) < 0.002]
PY
expect_exit 2 "--to 1 is not after --from 2" "$SLABSIM" trace record -o "$TMP/x" --from 2 --to 1 \
	-m tigerton -p slub -w hackbench
expect_exit 2 "--from -1: expected simulated seconds" "$SLABSIM" trace record -o "$TMP/x" \
	--from -1 -m tigerton -p slub -w hackbench
expect_exit 2 "run: unknown option '--from'" "$SLABSIM" run --from 1 -m tigerton -p slub -w hackbench
# tools/slab_free_gaps.py: the gaps between frees of one slab, per cache,
# with the run's slab_lock hold; its counts are the trace's remote frees
expect_exit 0 "kmalloc-512" python3 tools/slab_free_gaps.py "$TMP/w.json" "$TMP/w.trace"
grep -qE "^kmalloc-192 +[0-9]+ +[0-9]+% .* [0-9.]+%$" "$TMP/out" || fail "slab_free_gaps: no kmalloc-192 row: $(cat "$TMP/out")"
: > "$TMP/empty.trace"
expect_exit 2 "no free of an object allocated inside the trace" python3 tools/slab_free_gaps.py \
	"$TMP/w.json" "$TMP/empty.trace"
# the same replay twice gives the same JSON
"$SLABSIM" trace replay "$TMP/hb.trace" -m tigerton -p slqb --json "$TMP/r1.json" > /dev/null 2>&1
"$SLABSIM" trace replay "$TMP/hb.trace" -m tigerton -p slqb --json "$TMP/r2.json" > /dev/null 2>&1
python3 - "$TMP/r1.json" "$TMP/r2.json" <<'PY' || fail "replay is not deterministic"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in (a, b):
    d["result"].pop("wall_seconds"); d["result"].pop("events_per_second"); d["result"].pop("host_peak_rss_mb")
assert a == b
PY
finish
