# test_run_json.sh - a run's text report and the JSON contract of docs/json.md.
. tests/cli/lib.sh
expect_exit 0 "Time: " "$SLABSIM" run -m tigerton -p slub -w 'hackbench 2 process 20' \
	slub_min_objects=8 slub_max_order=3 --json "$TMP/r.json"
for s in "# Slab caches (slabinfo)" "kmalloc-512" "# Locks (lock_stat" "&n->list_lock [kmalloc-512]" \
	"# Profile (perf report" "[k] " "ALLOC_FASTPATH=" "invariants: ok"; do
	grep -qF "$s" "$TMP/out" || fail "text report lacks '$s'"
done
J="$TMP/r.json"
json "$J" "d['slabsim']['version'].startswith('0.')"
json "$J" "d['machine'] == {'name':'tigerton','cpus':16,'nodes':1,'clock_ghz':2.93}"
json "$J" "d['policy']['name']=='slub' and d['policy']['params']['slub_min_objects']==8 and d['policy']['params']['slub_max_order']==3"
json "$J" "d['workload']['name']=='hackbench' and d['workload']['params']['groups']==2 and d['workload']['params']['loops']==20 and d['workload']['params']['mode']=='process'"
json "$J" "d['kernel']['params']['kernel']=='2.6.25' and d['kernel']['params']['spinlock']=='ticket'"
json "$J" "d['seed']==1"
json "$J" "all(k in d['result'] for k in ('sim_seconds','wall_seconds','events','events_per_second'))"
json "$J" "d['result']['sim_seconds'] > 0 and d['result']['events'] > 0 and d['result']['messages'] == 2*20*20*20"
json "$J" "0 < d['cpu']['busy'] <= 1 and 0 <= d['cpu']['slab'] <= d['cpu']['busy'] and 0 <= d['cpu']['spin'] <= d['cpu']['busy']"
json "$J" "len(d['profile']) > 5 and all(a['percent'] >= b['percent'] for a, b in zip(d['profile'], d['profile'][1:]))"
json "$J" "abs(sum(p['percent'] for p in d['profile']) - 100) < 0.5"
json "$J" "any(c['name']=='kmalloc-512' and c['order']==0 and c['objs_per_slab']==8 and c['stats']['ALLOC_FASTPATH']>0 and c['slabs_peak']>0 and 'slabs_end' in c for c in d['caches'])"
json "$J" "all(k in c for c in d['caches'] for k in ('name','object_size','order','objs_per_slab','stats','slabs_peak','slabs_end'))"
json "$J" "any(l['name'].startswith('&n->list_lock') and l['acquisitions']>0 for l in d['locks'])"
json "$J" "all(k in l for l in d['locks'] for k in ('name','acquisitions','contentions','wait_cycles','hold_cycles'))"
# lock_stat's contention points: at most four of each; with no more than
# four callers they account for every contention and (waiters) every cycle
json "$J" "all(len(l['contention_points']) <= 4 and len(l['contending_points']) <= 4 for l in d['locks'])"
json "$J" "all(l['contention_points'] == l['contending_points'] == [] for l in d['locks'] if not l['contentions'])"
json "$J" "[(sum(p['contentions'] for p in l['contention_points']), sum(p['wait_cycles'] for p in l['contention_points']), sum(p['contentions'] for p in l['contending_points'])) for l in d['locks'] if l['name']=='&n->list_lock [kmalloc-512]'] == [(l['contentions'], l['wait_cycles'], l['contentions']) for l in d['locks'] if l['name']=='&n->list_lock [kmalloc-512]']"
json "$J" "{p['symbol'] for l in d['locks'] if l['name']=='&n->list_lock [kmalloc-512]' for p in l['contention_points']} >= {'add_partial', 'get_partial_node'}"
grep -Eq '^ +&n->list_lock \[kmalloc-512\] +[0-9]+  add_partial \(waittime-total [0-9.]+\)$' "$TMP/out" ||
	fail "no contention point under list_lock [kmalloc-512]: $(grep -A3 '^&n->list_lock .kmalloc-512' "$TMP/out")"
json "$J" "d['memory']['slab_bytes_peak'] >= d['memory']['slab_bytes_end'] > 0"
json "$J" "d['invariants']=='ok'"
# the allocator's counters agree with the workload: one skb head and one
# data buffer per message, every one freed
json "$J" "[c for c in d['caches'] if c['name']=='kmalloc-512'][0]['allocs'] == 16000 == [c for c in d['caches'] if c['name']=='kmalloc-512'][0]['frees']"
# the workload's command line as users type it, or as NAME=VALUE: same run
"$SLABSIM" run -m tigerton -p slub -w 'hackbench 2 thread 10' --json "$TMP/a.json" --quiet > /dev/null
"$SLABSIM" run -m tigerton -p slub -w hackbench groups=2 mode=thread loops=10 --json "$TMP/b.json" --quiet > /dev/null
"$SLABSIM" run -m tigerton -p slub -w 'hackbench groups=2 loops=10 thread' --json "$TMP/c.json" --quiet > /dev/null
for f in b c; do
	python3 -c "
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
for d in (a, b):
    del d['result']['wall_seconds'], d['result']['events_per_second'], d['result']['host_peak_rss_mb']
assert a == b" "$TMP/a.json" "$TMP/$f.json" || fail "-w forms $f differ"
done
# every lock class says whose it is, and lock_totals sums the table by owner
for p in slub slab slqb magazine; do
	"$SLABSIM" run -m nehalem-ep -p $p -w 'hackbench 2 process 20' --json "$TMP/own.json" \
		> "$TMP/own.txt" || fail "$p run"
	grep -q "^# the allocator's own locks: [0-9]* acquisitions" "$TMP/own.txt" ||
		fail "$p: the text has no allocator's lock totals"
	json "$TMP/own.json" '{l["name"]: l["owner"] for l in d["locks"]}.get("&zone->lock") == "kernel"'
	json "$TMP/own.json" '{l["name"]: l["owner"] for l in d["locks"]}["&pipe->wait (hackbench start)"] == "workload"'
	json "$TMP/own.json" '{l["name"]: l["owner"] for l in d["locks"]}["&u->lock"] == "kernel"'
	json "$TMP/own.json" 'any(l["owner"] == "allocator" for l in d["locks"]) and all(l["owner"] == "allocator" for l in d["locks"] if "kmalloc" in l["name"] or "skbuff" in l["name"])'
	json "$TMP/own.json" 'all(d["lock_totals"]["all"][k] == sum(l[k if k != "wait_cycles" else "wait_cycles"] for l in d["locks"]) for k in ("acquisitions", "contentions", "wait_cycles"))'
	json "$TMP/own.json" 'd["lock_totals"]["allocator"]["acquisitions"] == sum(l["acquisitions"] for l in d["locks"] if l["owner"] == "allocator")'
done
# --quiet prints only the workload's line; thread mode runs
expect_exit 0 "Time: " "$SLABSIM" run -m tigerton -p slub -w 'hackbench 2 thread 10' --quiet
[ "$(wc -l < "$TMP/out")" -eq 1 ] || fail "--quiet printed more than one line"
finish
