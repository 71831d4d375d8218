#!/usr/bin/env python3
"""eta_replay.py - how far off a sweep's ETA was, replayed from its runs.

Takes a finished sweep's runs.jsonl (runs in the order they finished, each
with result.wall_seconds) and, after each run from 10% to 90% of the way,
compares the time the rest really took with two estimates: the old
"elapsed / done x left", and the rule `slabsim sweep` prints now
(sim/study/sweep_eta.c): each run left predicted from its point's finished
runs, else its machine's, else every machine's scaled by the fourth root of
the CPU count. Prints the mean and the largest relative error of each.
The same number of workers divides both sides, so it drops out.

usage: tools/eta_replay.py RUNS.jsonl...
Exit status: 0 done, 2 a file that is not a sweep's runs.jsonl.
"""
import json
import sys


def refuse(msg):
    """One clear message and exit 2, as slabsim answers bad input."""
    print("eta_replay.py: " + msg, file=sys.stderr)
    sys.exit(2)


def load(path):
    """The runs of PATH: point key, machine, its CPUs and the wall time."""
    runs = []
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                r = json.loads(line)
                runs.append((r["sweep"]["key"], r["machine"]["name"], r["machine"]["cpus"],
                             r["result"]["wall_seconds"]))
    except (OSError, ValueError, KeyError, TypeError) as e:
        refuse(f"{path}: not a sweep's runs.jsonl ({e})")
    if len(runs) < 10:
        refuse(f"{path}: {len(runs)} runs; a replay needs at least 10")
    return runs


def predict(done, run):
    """sweep_eta.c's rule for one run left, from the runs done."""
    key, machine, cpus, _ = run
    same = [w for k, _, _, w in done if k == key]
    if same:
        return sum(same) / len(same)
    mach = [w for _, m, _, w in done if m == machine]
    if mach:
        return sum(mach) / len(mach)
    scaled = [w / c ** 0.25 for _, _, c, w in done]
    return sum(scaled) / len(scaled) * cpus ** 0.25


def replay(runs):
    """Relative errors of the old and the new estimate after each run."""
    old, new = [], []
    n = len(runs)
    for k in range(n // 10, n - n // 10):
        done, rest = runs[:k], runs[k:]
        actual = sum(r[3] for r in rest)
        if actual <= 0:
            continue
        old.append(abs(sum(r[3] for r in done) / k * (n - k) / actual - 1))
        new.append(abs(sum(predict(done, r) for r in rest) / actual - 1))
    return old, new


def main():
    if len(sys.argv) < 2:
        refuse("usage: tools/eta_replay.py RUNS.jsonl...")
    sweeps = [(path, load(path)) for path in sys.argv[1:]]
    print("%-28s %5s  %-22s %-22s" % ("sweep", "runs", "elapsed/done: mean max",
                                       "slabsim's: mean max"))
    for path, runs in sweeps:
        old, new = replay(runs)
        name = path.rstrip("/").split("/")[-2] if "/" in path else path
        print("%-28s %5d  %9.0f%% %9.0f%%   %9.0f%% %9.0f%%" % (
            name, len(runs), 100 * sum(old) / len(old), 100 * max(old),
            100 * sum(new) / len(new), 100 * max(new)))


if __name__ == "__main__":
    main()
