# test_oltp.sh - the OLTP workload: its defaults on core2-ep give the published
# system profile (25% system time, ~43,000 context switches/s, 22,000-30,000
# interrupts/s) and print it beside the published one; interrupt routing
# decides where the direct-IO objects are freed; bad input.
. tests/cli/lib.sh
expect_exit 0 "OLTP: " "$SLABSIM" run -m core2-ep -p slub -w oltp --json "$TMP/o.json"
grep -qE "^System profile \(vmstat over 0\.1[0-9]* s\): us [0-9.]+% sy [0-9.]+% id [0-9.]+%, cs [0-9]+/s, in [0-9]+/s" "$TMP/out" ||
	fail "the vmstat line"
grep -qF "Published (Intel OLTP, 2 sockets x 4 cores, LKML 2008): us 75% sy 25%, cs ~43000/s, in 22000-30000/s" "$TMP/out" ||
	fail "the published line"
json "$TMP/o.json" "d['invariants'] == 'ok'"
json "$TMP/o.json" "22 <= d['result']['system_percent'] <= 28"
json "$TMP/o.json" "d['result']['idle_percent'] < 2"
json "$TMP/o.json" "38000 <= d['result']['context_switches_per_second'] <= 48000"
json "$TMP/o.json" "22000 <= d['result']['interrupts_per_second'] <= 30000"
json "$TMP/o.json" "d['result']['transactions_per_second'] > 10000"
# each IO allocates six objects, all freed by the HBA interrupt: on another CPU
json "$TMP/o.json" "all(c['allocs'] > 0 for c in d['kmem']['caches'] if c['cache'] in ('kiocb', 'bio', 'biovec-4', 'blkdev_requests', 'scsi_cmd_cache', 'sgpool-8'))"
json "$TMP/o.json" "[c for c in d['kmem']['caches'] if c['cache'] == 'sgpool-8'][0]['pingpong'] > 0.7 * [c for c in d['kmem']['caches'] if c['cache'] == 'sgpool-8'][0]['frees']"
# completion on the submitting CPU: the objects are mostly freed where allocated
expect_exit 0 "irq=submitter" "$SLABSIM" run -m core2-ep -p slub -w oltp irq=submitter duration_ms=30 --json "$TMP/s.json"
json "$TMP/s.json" "[c for c in d['kmem']['caches'] if c['cache'] == 'sgpool-8'][0]['pingpong'] < 0.3 * [c for c in d['kmem']['caches'] if c['cache'] == 'sgpool-8'][0]['frees']"
# every interrupt on CPU 0
expect_exit 0 "irq=cpu0" "$SLABSIM" run -m core2-ep -p slab -w 'oltp 64' irq=cpu0 duration_ms=20 --json "$TMP/c.json"
json "$TMP/c.json" "d['result']['clients'] == 64 and d['invariants'] == 'ok'"
# bad input
expect_exit 2 "irq" "$SLABSIM" run -m core2-ep -p slub -w oltp irq=msi
expect_exit 2 "ios_per_tx" "$SLABSIM" run -m core2-ep -p slub -w oltp ios_per_tx=-1
expect_exit 2 "unexpected argument 'fast'" "$SLABSIM" run -m core2-ep -p slub -w 'oltp 8 fast'
finish
