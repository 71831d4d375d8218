# test_kmem_stat.sh - the perf kmem stat report of every run: the call-site
# and cache tables, the SUMMARY, and the JSON's kmem agreeing with the
# caches' own counts and with each other.
. tests/cli/lib.sh
expect_exit 0 "Cross CPU allocations: " "$SLABSIM" run -m tigerton -p slub \
	-w 'hackbench 2 process 20' --json "$TMP/hb.json"
grep -qE "^ Callsite +\| Total_alloc/Per \| Total_req/Per +\| Hit +\| Ping-pong \| Frag$" "$TMP/out" ||
	fail "the call-site table header"
grep -qE "^ __alloc_skb +\| +11264000/352 \| +9984000/312 \| +32000 \| +[0-9]+ \| 11\.364%$" "$TMP/out" ||
	fail "__alloc_skb's row (2 x 20 x 20 x 20 messages, 192 + 512 bytes each)"
grep -qE "^ kmalloc-512 +\| +8192000/512 \| +7040000/440 \| +16000 \|" "$TMP/out" || fail "kmalloc-512's row"
grep -qF "Internal fragmentation: 11.363636%" "$TMP/out" || fail "the fragmentation line"
cross=$(sed -n 's/^Cross CPU allocations: \([0-9]*\)\/32000$/\1/p' "$TMP/out")
[ -n "$cross" ] || fail "the Cross CPU allocations line"
json "$TMP/hb.json" "d['kmem']['summary']['cross_cpu_allocations'] == ${cross:-0}"
json "$TMP/hb.json" "d['kmem']['summary']['allocs'] == sum(c['allocs'] for c in d['caches'])"
json "$TMP/hb.json" "d['kmem']['summary']['pingpong'] == sum(c['pingpong'] for c in d['kmem']['callers'])"
json "$TMP/hb.json" "all(c['allocs'] == c['frees'] for c in d['kmem']['caches'])"
json "$TMP/hb.json" "d['kmem']['summary']['bytes_freed'] == d['kmem']['summary']['bytes_alloc']"
# one node: nothing is freed on another node; four nodes: some is
json "$TMP/hb.json" "d['kmem']['summary']['remote_node_frees'] == 0"
expect_exit 0 "" "$SLABSIM" run -m nehalem-ex -p slab -w 'hackbench 2 process 5' --json "$TMP/ex.json" --quiet
json "$TMP/ex.json" "d['kmem']['summary']['remote_node_frees'] > 0"
json "$TMP/ex.json" "d['kmem']['summary']['remote_node_frees'] <= d['kmem']['summary']['pingpong']"
finish
