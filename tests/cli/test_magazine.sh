# test_magazine.sh - the magazine policy (Bonwick & Adams 2001, illumos kmem):
# slab_test's concurrent alloc/free pairs scale near-linearly with CPUs on
# the 16-CPU Tigerton (and do not without the magazine layer); under depot
# contention kmem_cache_update grows the magazines, and that relieves the
# depot lock; without contention they stay; the geometry of kmem_cache_create
# and kmem_magtype[]; its parameters' refusals.
. tests/cli/lib.sh

# throughput of "Kmalloc N*(alloc free)(64)" on 1, 2, 4, 8 and 16 CPUs
for n in 1 2 4 8 16; do
	for cfg in mag nomag; do
		extra=""
		[ $cfg = nomag ] && extra="magazine_size=0"
		expect_exit 0 "invariants: ok" "$SLABSIM" run -m tigerton -p magazine \
			-w "slab_test run=4 count=5000 min_size=64 max_size=64 cpus=$n" $extra \
			--json "$TMP/$cfg-$n.json"
	done
done
python3 - "$TMP" <<'PY' || fail "concurrent alloc/free throughput against CPUs"
import json, sys
def tput(cfg, n):
    d = json.load(open(f"{sys.argv[1]}/{cfg}-{n}.json"))
    return [t for t in d["result"]["tests"] if t["name"] == "Kmalloc N*(alloc free)"][0]["ops_per_second"]
mag = {n: tput("mag", n) for n in (1, 2, 4, 8, 16)}
nomag = {n: tput("nomag", n) for n in (1, 2, 4, 8, 16)}
print("magazines:   ", " ".join(f"{n}={v / 1e6:.1f}M/s" for n, v in mag.items()))
print("no magazines:", " ".join(f"{n}={v / 1e6:.2f}M/s" for n, v in nomag.items()))
ok = True
for a, b in ((1, 2), (2, 4), (4, 8), (8, 16)):	# each doubling of CPUs nearly doubles it
    if mag[b] < 1.85 * mag[a]:
        print(f"magazines: {a} -> {b} CPUs only x{mag[b] / mag[a]:.2f}", file=sys.stderr); ok = False
if mag[16] < 14 * mag[1]:
    print(f"magazines: 16 CPUs give x{mag[16] / mag[1]:.1f} of one", file=sys.stderr); ok = False
if nomag[16] > 2 * nomag[1]:	# the slab layer's one cache_lock does not scale
    print(f"no magazines: 16 CPUs give x{nomag[16] / nomag[1]:.1f} of one", file=sys.stderr); ok = False
sys.exit(0 if ok else 1)
PY

# depot contention grows the magazines: hackbench on 16 CPUs, kmem_cache_update every 20 ms
W='hackbench 10 process 100'
expect_exit 0 "invariants: ok" "$SLABSIM" run -m tigerton -p magazine -w "$W" magazine_update_ms=20 \
	--json "$TMP/grow.json"
expect_exit 0 "invariants: ok" "$SLABSIM" run -m tigerton -p magazine -w "$W" magazine_update_ms=20 \
	magazine_contention=1000000000 --json "$TMP/fixed.json"
python3 - "$TMP" <<'PY' || fail "magazine growth under depot contention"
import json, sys
g, f = (json.load(open(f"{sys.argv[1]}/{x}.json")) for x in ("grow", "fixed"))
c = lambda d, n: [c for c in d["caches"] if c["name"] == n][0]
ok = True
for name, start in (("kmem_alloc_512", 3), ("skbuff_head_cache", 7)):
    cg, cf = c(g, name), c(f, name)
    print(f"{name}: magazine_size {start} -> {cg['tunables']['magazine_size']} after "
          f"{cg['stats']['magazine_resize']} resizes; depot_contention {cg['stats']['depot_contention']}"
          f" (held at {cf['tunables']['magazine_size']}: {cf['stats']['depot_contention']})")
    if not (cg["tunables"]["magazine_size"] > start and cg["stats"]["magazine_resize"] >= 2
            and cf["tunables"]["magazine_size"] == start and cf["stats"]["magazine_resize"] == 0):
        ok = False
    wait = lambda d: [l["wait_cycles"] for l in d["locks"]
                      if l["name"] == f"&cp->cache_depot_lock [{name}]"][0]
    print(f"{name}: waits on its depot lock {wait(g) / 1e6:.0f} M cycles, held: {wait(f) / 1e6:.0f} M")
    if wait(g) * 10 > wait(f):
        print(f"{name}: growing did not relieve the depot lock", file=sys.stderr); ok = False
tg, tf = g["result"]["sim_seconds"], f["result"]["sim_seconds"]
print(f"hackbench: {tg:.3f} s with growth, {tf:.3f} s without")
if tg * 2 > tf:
    ok = False
sys.exit(0 if ok else 1)
PY
# kmem_alloc_512 goes no further than 95 rounds: 512-byte chunks stop at maxbuf 512
json "$TMP/grow.json" '[c for c in d["caches"] if c["name"] == "kmem_alloc_512"][0]["tunables"]["magazine_size"] <= 95'
# no contention, no growth: one CPU, an update every 0.1 ms
expect_exit 0 "invariants: ok" "$SLABSIM" run -m tigerton -p magazine \
	-w "slab_test run=7 count=2000 max_size=4096 cpus=1" magazine_update_ms=0.1 --json "$TMP/one.json"
json "$TMP/one.json" 'sum(c["stats"].get("magazine_resize", 0) for c in d["caches"]) == 0'
json "$TMP/one.json" '[c for c in d["caches"] if c["name"] == "kmem_alloc_64"][0]["tunables"]["magazine_size"] == 15'
# resizes while 64 CPUs use the depot (an update every 20 ms of a 0.3 s run):
# the purge takes every depot magazine at once
expect_exit 0 "invariants: ok" "$SLABSIM" run -m nehalem-ex -p magazine kernel=2.6.26 \
	magazine_update_ms=20 -w 'slab_test run=30 count=1000 min_size=256 max_size=256' --json "$TMP/ex.json"
json "$TMP/ex.json" 'sum(c["stats"].get("magazine_resize", 0) for c in d["caches"]) >= 5'
# reaping: the depot's magazines beyond the working set go back
expect_exit 0 "invariants: ok" "$SLABSIM" run -m nehalem-ep -p magazine -w 'hackbench 4 process 50' \
	magazine_update_ms=5 magazine_reap=1 --json "$TMP/reap.json"
json "$TMP/reap.json" 'sum(c["stats"]["reap"] for c in d["caches"] if "reap" in c["stats"]) > 10'

# kmem_cache_create's geometry and kmem_magtype[] (show policy)
expect_exit 0 "kmem_magazine_15" "$SLABSIM" show policy magazine -m tigerton --json "$TMP/geo.json"
python3 - "$TMP/geo.json" <<'PY' || fail "magazine geometry"
import json, sys
caches = {c["name"]: c for c in json.load(open(sys.argv[1]))["caches"]}
want = {	# objs_per_slab, order, magazine_size
    "kmem_alloc_8": (503, 0, 15), "kmem_alloc_64": (62, 0, 15), "kmem_alloc_256": (15, 0, 7),
    "kmem_alloc_512": (8, 0, 3), "kmem_alloc_2048": (2, 0, 3), "kmem_alloc_4096": (1, 0, 1),
    "kmem_alloc_8192": (1, 1, 1), "kmem_magazine_15": (31, 0, 7), "kmem_magazine_143": (3, 0, 3),
}
bad = [n for n, (o, order, m) in want.items() if (caches[n]["objs_per_slab"], caches[n]["order"],
       caches[n]["tunables"]["magazine_size"]) != (o, order, m)]
for n in bad:
    print(n, caches[n], file=sys.stderr)
sys.exit(1 if bad else 0)
PY
expect_exit 2 "magazine_size=5: not a magazine type" "$SLABSIM" run -m tigerton -p magazine \
	-w 'hackbench 1 process 1' magazine_size=5
expect_exit 2 "magazine_update_ms=0: out of range" "$SLABSIM" run -m tigerton -p magazine \
	-w 'hackbench 1 process 1' magazine_update_ms=0
finish
