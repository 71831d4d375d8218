#!/usr/bin/env python3
"""series.py - how a run's rate moved: the series that `sample=observe`
records (result.sample.series_cycles, and the state gauge beside it), cut
into N equal stretches of units (hackbench: messages), each with the
simulated seconds it took, what the whole run would take at its rate, that
rate against the run's mean, and the gauge where it ended.

usage: tools/series.py RUN.json [N]      (N: stretches, default 20)

A lock collapse that comes and goes, or a change of how tasks batch their
work, shows as stretches far from 1.00x (results/README.md, C1 at 8).
Exit status: 0 done, 2 a file that is not the JSON of a sample=observe run.
"""
import json
import sys


def refuse(msg):
    """One clear message and exit 2, as slabsim answers bad input."""
    print("series.py: " + msg, file=sys.stderr)
    sys.exit(2)


def main():
    """Read the run, cut its series into N stretches, print the table."""
    if len(sys.argv) in (2, 3) and sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0)
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    path = sys.argv[1]
    try:
        n = int(sys.argv[2]) if len(sys.argv) == 3 else 20
    except ValueError:
        refuse("N must be a whole number of stretches, not '%s'" % sys.argv[2])
    try:
        run = json.load(open(path))
    except (OSError, ValueError) as e:
        refuse("%s: not a run's JSON (%s)" % (path, e))
    try:
        hz = run["machine"]["clock_ghz"] * 1e9
        s = run["result"]["sample"]
    except (KeyError, TypeError):
        refuse("%s: not a run's JSON (no machine.clock_ghz or result.sample)" % path)
    series = s.get("series_cycles")
    if not series:
        refuse("%s: no series: run it with sample=observe (mode here: %s)"
               % (path, s.get("mode", "off")))
    if n < 1 or n > len(series):
        refuse("N must be 1 to %d (the observations in the run), not %d" % (len(series), n))
    per = s["series_units"]
    unit = s.get("unit", "units")
    gname = s.get("state_gauge")
    gauge = s.get("series_" + gname) if gname else None
    total = sum(series)
    units = per * len(series)
    print("%s: %s, %s, %d %s in %d observations of %d; %.3f s simulated"
          % (path, run["machine"]["name"], run["workload"]["name"], units, unit,
             len(series), per, total / hz))
    head = "| %s | seconds | whole run at this rate (s) | against the mean |" % unit
    if gauge:
        head += " %s at the end |" % gname
    print(head)
    print("|---" * (head.count("|") - 1) + "|")
    for i in range(n):
        a, b = i * len(series) // n, (i + 1) * len(series) // n
        part = sum(series[a:b])
        whole = part / (b - a) * len(series) / hz
        row = "| %d-%d | %.3f | %.2f | %.2fx |" % (a * per, b * per, part / hz, whole,
                                                   whole / (total / hz))
        if gauge:
            row += " %d |" % gauge[b - 1]
        print(row)


if __name__ == "__main__":
    main()
