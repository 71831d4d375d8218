#!/usr/bin/env python3
"""soak.py - a random-configuration soak of slabsim.

Draws random valid runs (machine, policy, kernel era, lock kind, workload
and its size, policy parameters, sampling, fault injection where the
workload survives a failed allocation, seed), runs each twice with the
same seed, the second time with every invariant also checked mid-run
(--check-interval), and checks that each exits 0 with its invariants "ok"
and that both give the same JSON but for the host's figures and the
checks' own member. Every failing draw is
written to OUT/failures/ as a file of the run's arguments, one per line,
which `tests/cli/test_soak.sh` replays once it is moved into
tests/soak/regressions/. A draw's arguments depend only on --seed and its
number, so a failure can be drawn again.

    tools/soak.py [--draws N] [-j J] [--seed S] [--out DIR] [--slabsim PATH]
    tools/soak.py --replay FILE...      (run saved draws, as the test does)

Exit status: 0 every draw passed, 1 some failed, 2 bad usage.
"""
import argparse
import concurrent.futures
import json
import os
import random
import subprocess
import sys
import tempfile
import time

# the modelled machines and their CPU counts (`slabsim list machines`)
CPUS = {"core2-ep": 8, "epyc-genoa-2s": 384, "nehalem-ep": 16, "nehalem-ex": 64,
        "niagara2-t5240": 128, "opteron-2350-2s": 8, "phenom-x4": 4,
        "sapphire-rapids-2s": 224, "tigerton": 16, "westmere-ep": 24, "x3950-m2": 64}
MACHINES = sorted(CPUS)
SMALL = ["core2-ep", "nehalem-ep", "opteron-2350-2s", "phenom-x4", "tigerton", "westmere-ep"]
POLICIES = ["slab", "slub", "slqb", "magazine"]
SLUB_ERAS = ["2.6.24", "2.6.25-rc5", "2.6.25", "2.6.26", "3.1", "3.2", "6.18", "7.0"]
OTHER_ERAS = ["2.6.24", "2.6.25-rc5", "2.6.25", "2.6.26"]
HOST_FIGURES = ("wall_seconds", "events_per_second", "host_peak_rss_mb")
CHECK_INTERVAL_US = 20	# the second run of a draw checks this often mid-run


def draw(seed, i):
    """The arguments of draw i: a list for `slabsim run`."""
    r = random.Random(seed * 1000003 + i)
    # the large machines only with small workloads: a draw takes seconds
    machine = r.choice(MACHINES if r.random() < 0.3 else SMALL)
    policy = r.choice(POLICIES)
    kernel = r.choice(SLUB_ERAS if policy == "slub" else OTHER_ERAS)
    args = ["-m", machine, "-p", policy, f"kernel={kernel}",
            f"spinlock={r.choice(['byte', 'ticket', 'queued'])}"]
    kind = r.choice(["hackbench", "hackbench", "hackbench", "slab_test", "lockbench",
                     "pingpong", "oltp", "netperf", "kbuild", "mix", "trace"])
    if kind == "hackbench":
        w = (f"hackbench {r.randint(1, 5)} {r.choice(['process', 'thread'])} "
             f"{r.randint(2, 100)}")
        if r.random() < 0.3:
            args += ["sample=auto", f"sample_ci={r.choice(['0.05', '0.2'])}",
                     f"sample_state={r.choice(['0.2', '1000'])}"]
    elif kind == "slab_test":
        w = (f"slab_test run={r.randint(1, 31)} count={r.randint(20, 200)} "
             f"max_size={r.choice([64, 512, 4096, 16384])}")
    elif kind == "lockbench":
        w = f"lockbench cpus={r.randint(2, min(8, CPUS[machine]))} duration_us={r.randint(50, 300)}"
    elif kind == "pingpong":
        w = f"pingpong iterations={r.randint(2, 10)} pairs=sample samples={r.randint(2, 8)}"
    elif kind == "oltp":
        w = f"oltp {r.randint(8, 64)}"
        args += ["duration_ms=2", "warmup_ms=1"]
    elif kind == "netperf":
        w = f"netperf -t {r.choice(['TCP_STREAM', 'TCP_RR'])} -l 0.001"
    elif kind == "kbuild":
        w = f"kbuild jobs={r.randint(1, 8)} duration_ms={r.randint(1, 4)}"
    elif kind == "mix":
        w = f"mix configs/mix/{r.choice(['example', 'tbench'])}.json duration_ms={r.randint(1, 3)}"
    else:
        w = (f"trace tests/cli/data/traces/kmem_{r.choice(['SLAB', 'SLUB'])}.log pace=asap "
             f"cpu_map={r.choice(['modulo', 'spread'])}")
    args += ["-w", w]
    # fault injection where the workload survives a NULL (hackbench, oltp and
    # netperf end on one, as their real counterparts do)
    if kind in ("mix", "kbuild", "trace") and r.random() < 0.4:
        # ignore-gfp-wait is Y by default, as the kernel's: mostly N here, or
        # only the few allocations that cannot sleep would ever fail
        if r.random() < 0.7:
            args.append(f"failslab=1,{r.randint(1, 10)},0,-1")
            if r.random() < 0.8:
                args.append("failslab_ignore_gfp_wait=N")
        if r.random() < 0.5:
            args += [f"fail_page_alloc=1,{r.randint(5, 40)},0,-1",
                     f"fail_page_alloc_min_order={r.randint(0, 2)}"]
            if r.random() < 0.8:
                args.append("fail_page_alloc_ignore_gfp_wait=N")
    if policy == "slub":
        if r.random() < 0.5:
            args.append(f"slub_min_objects={r.choice([4, 8, 16, 32, 64])}")
        if r.random() < 0.3:
            args.append(f"slub_max_order={r.randint(0, 3)}")
    args += ["--seed", str(r.randint(1, 1 << 30))]
    return args


def strip(d):
    d = dict(d, result=dict(d["result"]))
    d.pop("checks", None)
    for k in HOST_FIGURES:
        d["result"].pop(k, None)
    return json.dumps(d, sort_keys=True)


def check(slabsim, args, timeout=600):
    """(None if the draw passes, else why it failed; the mid-run checks made)."""
    with tempfile.TemporaryDirectory(prefix="slabsim-soak.") as tmp:
        out = []
        for k, extra in ((1, []), (2, ["--check-interval", str(CHECK_INTERVAL_US)])):
            j = os.path.join(tmp, f"{k}.json")
            try:
                p = subprocess.run([slabsim, "run", *args, *extra, "--quiet", "--json", j],
                                   capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                return f"no end after {timeout} s{' (checked mid-run)' if extra else ''}", 0
            if p.returncode != 0:
                return (f"exit {p.returncode}{' (checked mid-run)' if extra else ''}: "
                        f"{(p.stderr or p.stdout).strip()[-400:]}", 0)
            d = json.load(open(j))
            if d.get("invariants") != "ok":
                return f"invariants: {d.get('invariants')}", 0
            out.append(strip(d))
        if out[0] != out[1]:
            return "the same seed gave two different JSONs (the second checked mid-run)", 0
    return None, d["checks"]["mid_run"]


def quote(a):
    return a if a and all(c.isalnum() or c in "-_=./," for c in a) else "'" + a + "'"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--draws", type=int, default=100)
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="out/soak")
    ap.add_argument("--slabsim", default="./slabsim")
    ap.add_argument("--replay", nargs="+", metavar="FILE")
    a = ap.parse_args()
    if a.draws < 1 or a.j < 1:
        ap.error("--draws and -j must be at least 1")
    if a.replay:
        jobs = [(f, [l.rstrip("\n") for l in open(f) if l.strip()]) for f in a.replay]
    else:
        jobs = [(i, draw(a.seed, i)) for i in range(a.draws)]
    t0 = time.time()
    failed, mid_run, checked = [], 0, 0
    with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
        futs = {ex.submit(check, a.slabsim, args): (name, args) for name, args in jobs}
        for n, f in enumerate(concurrent.futures.as_completed(futs), 1):
            name, args = futs[f]
            why, checks = f.result()
            mid_run += checks
            checked += checks > 0
            if why:
                failed.append((name, args, why))
                print(f"FAIL draw {name}: slabsim run {' '.join(map(quote, args))}: {why}",
                      flush=True)
            elif n % 50 == 0:
                print(f"{n} of {len(jobs)} draws done, {len(failed)} failed", flush=True)
    if failed and not a.replay:
        d = os.path.join(a.out, "failures")
        os.makedirs(d, exist_ok=True)
        for name, args, why in failed:
            with open(os.path.join(d, f"seed{a.seed}-draw{name}.args"), "w") as f:
                f.write("\n".join(args) + "\n")
        print(f"the failing draws' arguments are in {d}/")
    print(f"soak: {len(jobs) - len(failed)} of {len(jobs)} draws passed "
          f"(seed {a.seed}, {a.j} at a time, {time.time() - t0:.0f} s); "
          f"{mid_run} checks mid-run in {checked} of them")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
