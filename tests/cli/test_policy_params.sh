# test_policy_params.sh - the policies' tunables from the command line:
# cpu_partial and cpu_partial_caches reach `show policy --json` and runs;
# every bad value (of those, SLAB's and SLQB's) is refused with exit 2 and
# a message naming it.
. tests/cli/lib.sh
RUN="$SLABSIM run -m tigerton -p slub -w"
W='hackbench 1 process 1'

# good values: every cache, or only the named ones (a merged name sets the
# cache it shares), shown by show policy and used by a run
expect_exit 0 "" "$SLABSIM" show policy slub kernel=3.2 cpu_partial=50 --json "$TMP/all.json"
json "$TMP/all.json" "all(c['tunables']['cpu_partial'] == 50 for c in d['caches'])"
expect_exit 0 "kmalloc-512:7" "$SLABSIM" show policy slub kernel=3.2 \
	cpu_partial_caches=kmalloc-512:7,skbuff_head_cache:9 --json "$TMP/one.json"
json "$TMP/one.json" "{c['name']: c['tunables']['cpu_partial'] for c in d['caches']} == {
	'kmalloc-8': 30, 'kmalloc-16': 30, 'kmalloc-32': 30, 'kmalloc-64': 30, 'kmalloc-96': 30,
	'kmalloc-128': 30, 'kmalloc-192': 9, 'kmalloc-256': 13, 'kmalloc-512': 7,
	'kmalloc-1024': 6, 'kmalloc-2048': 6, 'kmalloc-4096': 2, 'skbuff_head_cache': 9}"
expect_exit 0 "Time:" $RUN "hackbench 2 process 5" kernel=3.2 cpu_partial=0 \
	cpu_partial_caches=kmalloc-512:7 --json "$TMP/run.json"
json "$TMP/run.json" "d['invariants'] == 'ok' and d['policy']['params']['cpu_partial'] == 0"
json "$TMP/run.json" "{c['name']: c['tunables']['cpu_partial'] for c in d['caches']}['kmalloc-512'] == 7"
json "$TMP/run.json" "{c['name']: c['tunables']['cpu_partial'] for c in d['caches']}['kmalloc-256'] == 0"

# bad values: exit 2, the parameter named
expect_exit 2 "cpu_partial=4097: out of range" $RUN "$W" kernel=3.2 cpu_partial=4097
grep -qF "[-1, 4096]" "$TMP/out" || fail "cpu_partial=4097: the valid range is not given"
expect_exit 2 "cpu_partial=-2: out of range" $RUN "$W" kernel=3.2 cpu_partial=-2
expect_exit 2 "cpu_partial=many: not an integer" $RUN "$W" kernel=3.2 cpu_partial=many
expect_exit 2 "cpu_partial_caches=kmalloc-512:99999: '99999' is not a count in [0, 4096]" \
	$RUN "$W" kernel=3.2 cpu_partial_caches=kmalloc-512:99999
expect_exit 2 "cpu_partial_caches=kmalloc-512:-1: '-1' is not a count" \
	$RUN "$W" kernel=3.2 cpu_partial_caches=kmalloc-512:-1
expect_exit 2 "cpu_partial_caches=kmalloc-512:7x: '7x' is not a count" \
	$RUN "$W" kernel=3.2 cpu_partial_caches=kmalloc-512:7x
expect_exit 2 "cpu_partial_caches: no cache named 'nosuchcache'" \
	$RUN "$W" kernel=3.2 cpu_partial_caches=nosuchcache:3
expect_exit 2 "cpu_partial_caches: no cache named 'kmalloc-51'" \
	$RUN "$W" kernel=3.2 cpu_partial_caches=kmalloc-512:7,kmalloc-51:3
expect_exit 2 "cpu_partial_caches=garbage: expected NAME:N" \
	$RUN "$W" kernel=3.2 cpu_partial_caches=garbage
expect_exit 2 "cpu_partial_caches=:3: expected NAME:N" $RUN "$W" kernel=3.2 cpu_partial_caches=:3
LONG=$(python3 -c "print(','.join('kmalloc-%d:7' % s for s in (8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096) * 2))")
expect_exit 2 "too long or has spaces" $RUN "$W" kernel=3.2 cpu_partial_caches=$LONG
# the per-cache sysfs form of docs/usage.md: CACHE.cpu_partial=N, later settings winning
expect_exit 0 "kmalloc-512" "$SLABSIM" show policy slub -m tigerton kernel=3.2 \
	kmalloc-512.cpu_partial=30 kmalloc-256.cpu_partial=7 kmalloc-256.cpu_partial=9 --json "$TMP/attr.json"
json "$TMP/attr.json" "{c['name']: c['tunables']['cpu_partial'] for c in d['caches']}['kmalloc-512'] == 30"
json "$TMP/attr.json" "{c['name']: c['tunables']['cpu_partial'] for c in d['caches']}['kmalloc-256'] == 9"
json "$TMP/attr.json" "{c['name']: c['tunables']['cpu_partial'] for c in d['caches']}['kmalloc-1024'] == 6"
expect_exit 2 "'5000' is not a count in [0, 4096]" $RUN "$W" kernel=3.2 kmalloc-512.cpu_partial=5000
expect_exit 2 "no cache named 'kmalloc-51'" $RUN "$W" kernel=3.2 kmalloc-51.cpu_partial=3
expect_exit 2 "unknown per-cache attribute 'kmalloc-512.limit' of policy slab" \
	"$SLABSIM" run -m tigerton -p slab -w "$W" kmalloc-512.limit=5
expect_exit 2 "unknown per-cache attribute 'kmalloc-512.objects'" $RUN "$W" kernel=3.2 kmalloc-512.objects=5
expect_exit 2 "cpu_partial_caches: no cache named 'nosuchcache'" \
	"$SLABSIM" show policy slub kernel=3.2 cpu_partial_caches=nosuchcache:3
expect_exit 2 "cpu_partial=4097: out of range" "$SLABSIM" show policy slub cpu_partial=4097
expect_exit 2 "slub_unfreeze_bug=2: not a boolean" $RUN "$W" kernel=3.2 slub_unfreeze_bug=2
# the per-CPU partial tunables on a SLUB without per-CPU partial lists
expect_exit 2 "cpu_partial applies to per-CPU partial lists" $RUN "$W" kernel=3.1 cpu_partial=5
expect_exit 2 "cpu_partial_caches applies to per-CPU partial lists" \
	$RUN "$W" kernel=3.2 slub_percpu_partial=0 cpu_partial_caches=kmalloc-512:7
expect_exit 2 "slub_unfreeze_bug applies to per-CPU partial lists" $RUN "$W" slub_unfreeze_bug=1
# the other policies' tunables, and SLUB's names on SLAB
SLAB="$SLABSIM run -m tigerton -p slab -w"
expect_exit 2 "slab_limit=4097: out of range" $SLAB "$W" slab_limit=4097
expect_exit 2 "slab_batchcount=-1: out of range" $SLAB "$W" slab_batchcount=-1
expect_exit 2 "slab_shared=65: out of range" $SLAB "$W" slab_shared=65
expect_exit 2 "slab_batchcount=20 is above slab_limit=10" \
	$SLAB "$W" slab_limit=10 slab_batchcount=20
expect_exit 2 "slab_tunables=kmalloc-512:10:20:8: 'kmalloc-512:10:20:8' is out of range" \
	$SLAB "$W" slab_tunables=kmalloc-512:10:20:8
expect_exit 2 "slab_tunables=kmalloc-512:0:0:0: 'kmalloc-512:0:0:0' is out of range" \
	$SLAB "$W" slab_tunables=kmalloc-512:0:0:0
expect_exit 2 "slab_tunables: no cache named 'nosuchcache'" \
	$SLAB "$W" slab_tunables=nosuchcache:1:1:0
expect_exit 2 "slab_tunables=garbage: 'garbage' is not NAME:LIMIT:BATCHCOUNT:SHARED" \
	$SLAB "$W" slab_tunables=garbage
expect_exit 2 "cpu_partial is a parameter of policy slub, not of slab (-p slub)" $SLAB "$W" cpu_partial=5
expect_exit 2 "slqb_hiwater=5 is below freebatch 10" \
	"$SLABSIM" run -m tigerton -p slqb -w "$W" slqb_freebatch=10 slqb_hiwater=5
expect_exit 2 "slqb_freebatch=65536: out of range" \
	"$SLABSIM" run -m tigerton -p slqb -w "$W" slqb_freebatch=65536
finish
