#!/usr/bin/env python3
"""fit_c2.py - how the fitted costs of machines/core2-ep.json were fitted to
docs/calibration.md C2 (slab_test tests 1 and 2, single thread, on core2-ep).

Coordinate descent over the three policies' own cost entries (slab.*,
slub.*, slqb.*) and the core's memory-level parallelism and page-allocator
costs (mlp, stream_mlp, page_alloc, page_free, page_buddy_per_page), which
the three share; hardware figures (hand-offs, memory latency, caches) and
scheduler costs are not touched. Each entry may move within [1/4, 4] x the
core2 table's estimate. It starts from the machine file's current costs
(the last fit), so a rerun after a model change continues from there. The
loss is the largest |log(simulated / published)| over every C2 cell of all
three policies plus a tenth of their mean, and a penalty unless SLUB's
test 2 jumps at least 3x at 8192. Prints the fitted entries
as JSON, for core2-ep.json's "fitted" (each "costs.NAME", case C2).

usage: tools/fit_c2.py [SLABSIM] [ROUNDS]     (run from the repository root)"""
import json, math, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
C2_T1, C2_T2 = None, None
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "c2_table.py")).read()
     .split("def main():")[0])  # the C2 tables and run() of c2_table.py

FACTORS = (0.6, 0.8, 0.9, 1.1, 1.25, 1.6)
SHARED = ("mlp", "stream_mlp", "page_alloc", "page_free", "page_buddy_per_page")
POLICIES = ("slab", "slqb", "slub")

def policy_loss(res, policy):
    """The log errors of one policy's C2 cells, and SLUB's jump."""
    errs, t2 = [], {}
    for r in res:
        size, test = r["size"], r["test"]
        if test == 1 and size in C2_T1:
            want = C2_T1[size][policy]
            errs += [math.log(max(r["alloc_cycles"], 1) / want[0]),
                     math.log(max(r["free_cycles"], 1) / want[1])]
        elif test == 2 and size in C2_T2:
            t2[size] = r["alloc_cycles"]
            errs.append(math.log(max(r["alloc_cycles"], 1) / C2_T2[size][policy]))
    jump_missing = policy == "slub" and t2.get(8192, 0) < 3 * t2.get(4096, 1)
    return errs, jump_missing

def evaluate(slabsim, machine_json, costs, tmp, cache, policies):
    """Loss of every policy under `costs`; a policy whose entries did not
    change since its last run reuses that run's errors."""
    m = dict(machine_json)
    m.pop("costs", None)
    m["fitted"] = {k: v for k, v in machine_json.get("fitted", {}).items()
                   if not k.startswith("costs.")}
    for k in costs:
        m["fitted"]["costs." + k] = {"value": costs[k], "case": "C2", "how": "in progress"}
    path = os.path.join(tmp, "fit-machine.json")
    with open(path, "w") as f:
        json.dump(m, f)
    allerr, penalty = [], 0.0
    for policy in POLICIES:
        key = (policy, tuple(sorted((k, v) for k, v in costs.items()
                                    if k.startswith(policy + ".") or k in SHARED)))
        if key not in cache:
            cache[key] = policy_loss(run(slabsim, path, policy, []), policy)
        errs, jump_missing = cache[key]
        allerr += errs
        penalty += 1.0 if jump_missing else 0.0
    worst = max(abs(e) for e in allerr)
    return worst + 0.1 * sum(abs(e) for e in allerr) / len(allerr) + penalty, worst

def candidates(v, e):
    """Trial values near v, within [e/4, 4e] of the estimate e."""
    vals = {v - 1, v + 1, v - 2, v + 2} if v <= 10 else {round(v * f) for f in FACTORS}
    return sorted(x for x in vals if x >= 1 and x != v and e / 4 <= x <= max(e * 4, 4))

def main():
    slabsim = sys.argv[1] if len(sys.argv) > 1 else "./slabsim"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    os.environ.setdefault("SLABSIM_MACHINES", os.path.abspath("machines"))
    machine_json = json.load(open("machines/core2-ep.json"))
    t = json.load(open("machines/costs/core2.json"))
    table = dict(t["cycles"], **{k: v["value"] for k, v in t.get("fitted", {}).items()})
    names = [k for k in table if k.split(".")[0] in POLICIES] + list(SHARED)
    est = {k: table[k] for k in names}		# the core2 table's estimates: the bounds
    fitted = machine_json.get("fitted", {})
    cur = {k: fitted.get("costs." + k, {}).get("value", est[k]) for k in names}	# the last fit
    cache = {}
    with tempfile.TemporaryDirectory() as tmp:
        best, worst = evaluate(slabsim, machine_json, cur, tmp, cache, POLICIES)
        print("start: loss %.3f, worst %.1f%%" % (best, 100 * (math.exp(worst) - 1)),
              file=sys.stderr)
        for rnd in range(rounds):
            improved = False
            for k in names:
                for v in candidates(cur[k], est[k]):
                    trial = dict(cur, **{k: v})
                    loss, w = evaluate(slabsim, machine_json, trial, tmp, cache, POLICIES)
                    if loss < best - 1e-4:
                        best, worst, cur, improved = loss, w, trial, True
            print("round %d: loss %.3f, worst %.1f%%" %
                  (rnd + 1, best, 100 * (math.exp(worst) - 1)), file=sys.stderr)
            print(json.dumps({k: v for k, v in cur.items() if v != est[k]}, sort_keys=True),
                  file=sys.stderr)
            if not improved:
                break
    print(json.dumps({k: v for k, v in cur.items() if v != est[k]}, indent=1, sort_keys=True))

main()
