#!/usr/bin/env python3
"""design_table.py - policies/README.md's table of designs, from runs.

Builds the two example modules (policies/examples/template.c and
remote_batch.c) with `make policy`, runs each of them and the built-in
SLUB 3.2 and SLQB on `hackbench 10 process 100` on the 4-node Nehalem-EX
with kernel=3.2 (seed 1), and writes the table between the markers

    <!-- design-table -->
    <!-- end design-table -->

in policies/README.md: each design's time, CPU share spinning, the lock
waited on most with its acquisitions, contentions and wait. With --check
it writes nothing and exits 1 if the README's table is not what the runs
give now (a model change that moved it without the table being made
again); the same inputs give the same runs, so the table is exact.

usage: tools/design_table.py [--check] [--readme FILE] [SLABSIM]
  --readme FILE  the file with the block (default policies/README.md)
"""
import json
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(TOP, "policies", "README.md")
BEGIN, END = "<!-- design-table -->", "<!-- end design-table -->"
WORKLOAD = ["-m", "nehalem-ex", "-w", "hackbench 10 process 100", "kernel=3.2", "--seed", "1"]
DESIGNS = [("template", "module"), ("remote_batch", "module"), ("SLUB 3.2", "slub"), ("SLQB", "slqb")]


def run(slabsim, policy, out):
    """One run's JSON."""
    env = dict(os.environ, SLABSIM_MACHINES=os.environ.get("SLABSIM_MACHINES", os.path.join(TOP, "machines")))
    r = subprocess.run([slabsim, "run", "-p", policy] + WORKLOAD + ["--quiet", "--json", out],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    if r.returncode:
        sys.exit("design_table.py: the run of %s failed: %s" % (policy, r.stderr.strip()))
    with open(out) as f:
        return json.load(f)


def row(name, j):
    """The table's row of a design."""
    top = max(j["locks"], key=lambda lk: lk["wait_cycles"])
    ghz = j["machine"]["clock_ghz"]
    lock = "`%s`%s" % (top["name"], " (the socket's)" if top["name"] == "&u->lock" else "")
    return "| %s | %.3f | %.1f%% | %s | %s | %s | %s |" % (
        name, j["result"]["sim_seconds"], 100 * j["cpu"]["spin"], lock,
        format(top["acquisitions"], ","), format(top["contentions"], ","),
        format(round(top["wait_cycles"] / (ghz * 1e6)), ","))


def table(slabsim):
    """The table's lines, from fresh runs."""
    lines = ["| design | time (s) | CPU spinning | top lock | acquisitions | contended | wait (ms) |",
             "|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        for name, kind in DESIGNS:
            policy = kind
            if kind == "module":
                policy = os.path.join(tmp, name + ".so")
                subprocess.run(["make", "-s", "-C", TOP, "policy",
                                "SRC=policies/examples/%s.c" % name, "OUT=" + policy], check=True,
                               stdout=subprocess.DEVNULL)
            lines.append(row(name, run(slabsim, policy, os.path.join(tmp, name + ".json"))))
    return lines


def main(argv):
    check, readme, rest = False, README, []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--check":
            check = True
        elif a == "--readme" and args:
            readme = args.pop(0)
        elif a.startswith("-") or rest:
            print(__doc__.strip(), file=sys.stderr)
            return 2
        else:
            rest.append(a)
    slabsim = os.path.abspath(rest[0]) if rest else os.path.join(TOP, "slabsim")
    text = open(readme).read()
    m = re.search(re.escape(BEGIN) + r"\n(.*?)" + re.escape(END), text, re.S)
    if not m:
        print("design_table.py: %s has no %s ... %s block" % (readme, BEGIN, END), file=sys.stderr)
        return 2
    new = "\n".join(table(slabsim)) + "\n"
    if check:
        if m.group(1) != new:
            print("design_table.py: %s's table differs from the runs:\n%s" % (readme, new), file=sys.stderr)
            return 1
        print("design_table.py: %s's table is the runs'" % readme)
        return 0
    with open(readme, "w") as f:
        f.write(text[:m.start(1)] + new + text[m.end(1):])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
