#!/usr/bin/env python3
"""results.py - make the reference results of results/ (`make results`).

Makes each folder that configs/results.list names, in its order, with the
slabsim of the top folder: a folder already made with this model (its
summary.json and every run name the model `slabsim --version` prints, and
every run finished) is left as it is; one this model left half made is
finished with --resume; any other (missing, made with another model, or an
archive of one) is made again from the start. So after an interruption the
same command goes on where it stopped.

Before each folder it prints a progress line: which folder of how many,
its runs, what it should take and when the whole should end. A folder's
time is predicted from the wall time of the runs it holds (scaled by the
config's `loops` when the runs were made at another size), less what this
model has already done of it; a folder with no runs counts as unknown.
Each sweep prints its own progress and ETA as it goes.

usage: tools/results.py [--list] [--only NAME[,NAME...]] [--jobs FILE]
                        [--results DIR] [-- ARGUMENT...]

  --list        print each folder's state and predicted time, run nothing
  --only NAMES  only these folders (names from the list)
  --jobs FILE   the list of folders (default configs/results.list)
  --results DIR where the folders are (default results)
  ARGUMENT...   added to every sweep (NAME=VALUE, -j N, --no-plot)

The binary is the top folder's slabsim, or $SLABSIM.

Exit status: 0 every folder made, 1 a folder failed (the rest are made),
2 bad usage.
"""
import datetime
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SLABSIM = os.environ.get("SLABSIM") or os.path.join(TOP, "slabsim")	# the binary to run
ARCHIVE = re.compile(r"^Archive of model ")


def die(msg):
    """One clear message and exit 2."""
    print(f"results.py: {msg}", file=sys.stderr)
    sys.exit(2)


def read_jobs(path):
    """[(name, kind, argument)] from a results list."""
    jobs = []
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        die(f"cannot read the list '{path}': {e.strerror}")
    for n, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        name, kind, arg = words[0], words[1] if len(words) > 1 else "", words[2:]
        if kind == "validate" and not arg:
            jobs.append((name, kind, None))
        elif kind in ("sweep", "script") and len(arg) == 1:
            jobs.append((name, kind, arg[0]))
        elif kind == "sensitivity" and arg:
            jobs.append((name, kind, arg))
        else:
            die(f"{path}:{n}: not 'NAME sweep CONFIG', 'NAME script PROGRAM', "
                f"'NAME sensitivity CASE [ARGS]' or 'NAME validate': {line.strip()!r}")
    return jobs


def runs_of(folder):
    """Every run JSON a folder holds: its *.jsonl lines and run *.json files."""
    runs = []
    for path in sorted(glob.glob(os.path.join(folder, "*.jsonl"))):
        if os.path.basename(path) == "crashed.jsonl":
            continue
        with open(path) as f:
            runs += [json.loads(line) for line in f if line.strip()]
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        with open(path) as f:
            try:
                doc = json.load(f)
            except ValueError:
                continue
        if isinstance(doc, dict) and isinstance(doc.get("result"), dict):
            runs.append(doc)
    return runs


def digest_of(run):
    """The model a run's JSON names."""
    v = run.get("slabsim")
    return v.get("model_digest", "unknown") if isinstance(v, dict) else "unknown"


def archived(folder):
    """Is the folder marked as an archive of an older model?"""
    try:
        with open(os.path.join(folder, "README.md")) as f:
            return bool(ARCHIVE.match(f.readline()))
    except OSError:
        return False


def summary_of(folder):
    """The folder's summary.json (a sensitivity study's sensitivity.json), or None."""
    for name in ("summary.json", "sensitivity.json"):
        try:
            with open(os.path.join(folder, name)) as f:
                return json.load(f)
        except (OSError, ValueError):
            pass
    return None


def state(folder, digest):
    """'current', 'partial' (this model's runs, unfinished), 'archive',
    'stale' or 'missing'."""
    if not os.path.isdir(folder):
        return "missing"
    if archived(folder):
        return "archive"
    runs, summary = runs_of(folder), summary_of(folder)
    mine = [r for r in runs if digest_of(r) == digest]
    if summary and summary.get("model_digest") == digest and len(mine) == len(runs) and \
            summary.get("runs_done", len(runs)) == summary.get("runs", len(runs)) and \
            not summary.get("runs_failed"):
        return "current"
    if mine and len(mine) == len(runs):
        return "partial"
    return "stale" if runs or summary else "missing"


def config_of(kind, arg):
    """A sweep's config, or {}."""
    if kind != "sweep":
        return {}
    try:
        with open(os.path.join(TOP, arg)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def loops_for(config, run):
    """The loops the config gives the run's workload: its fixed `loops`, or
    the last figure of a workload command of the same name and groups."""
    fixed = config.get("fixed", {}).get("loops")
    if fixed:
        return fixed
    wl = run.get("workload") or {}
    for w in config.get("workloads", []):
        words = (w.get("cmd", "") if isinstance(w, dict) else w).split()
        if len(words) >= 4 and words[0] == wl.get("name") and \
                words[1] == str(wl.get("params", {}).get("groups")) and words[-1].isdigit():
            return int(words[-1])
    return None


def predicted(folder, kind, arg, digest):
    """Seconds of wall time (2 runs at a time) the folder should still take,
    from the runs it holds, scaled to the config's loops and replicates;
    None when it holds none."""
    runs = runs_of(folder) if os.path.isdir(folder) else []
    if not runs:
        return None
    config = config_of(kind, arg)
    try:
        with open(os.path.join(folder, "sweep.json")) as f:
            had_reps = json.load(f).get("replicates")
    except (OSError, ValueError):
        had_reps = None	# not a sweep's folder
    reps = config.get("replicates")
    total = done = 0.0
    for r in runs:
        wall = r["result"].get("wall_seconds", 0)
        if digest_of(r) == digest:
            done += wall
            total += wall
            continue
        had, loops = (r.get("workload") or {}).get("params", {}).get("loops"), loops_for(config, r)
        total += wall * (loops / had if loops and had else 1.0) * \
            (reps / had_reps if reps and had_reps else 1.0)
    return max(0.0, total - done) / 2


def hm(seconds):
    """Seconds as '1 h 05 min', '12 min' or '40 s'."""
    if seconds < 59.5:
        return f"{int(round(seconds))} s"
    m = int(round(seconds / 60))
    return f"{m // 60} h {m % 60:02d} min" if m >= 60 else f"{m} min"


def command(name, kind, arg, folder, st, extra):
    """The command that makes (or finishes) the folder."""
    bin = SLABSIM
    if kind == "sweep":
        return [bin, "sweep", os.path.join(TOP, arg), "--out", folder, "--resume" if st == "partial" else "--force"] + extra
    if kind == "validate":
        return [bin, "validate", "--out", folder] + (["--resume"] if st == "partial" else [])
    if kind == "sensitivity":	# keeps the variants this model already ran
        return [bin, "sensitivity"] + arg + ["--out", folder]
    return [os.path.join(TOP, arg), "--out", folder, bin]


def fresh(folder, st):
    """Clear what a remake must not keep: an archive's mark and the old runs
    of a folder no sweep --force clears (a script's, validate's)."""
    if st in ("archive", "stale") and os.path.isdir(folder):
        for path in glob.glob(os.path.join(folder, "*")):
            if os.path.isfile(path):
                os.remove(path)


def main(argv):
    jobs_file, root, only, listing, extra = "configs/results.list", "results", None, False, []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--":
            extra = args
            break
        if a == "--list":
            listing = True
        elif a in ("--only", "--jobs", "--results"):
            if not args:
                die(f"{a} needs a value")
            v = args.pop(0)
            if a == "--only":
                only = v.split(",")
            elif a == "--jobs":
                jobs_file = v
            else:
                root = v
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        else:
            die(f"unknown argument '{a}' (see --help)")
    jobs = read_jobs(jobs_file)
    names = [j[0] for j in jobs]
    for n in only or []:
        if n not in names:
            die(f"no folder '{n}' in {jobs_file} (it has: {', '.join(names)})")
    jobs = [j for j in jobs if not only or j[0] in only]
    try:
        version = subprocess.run([SLABSIM, "--version"], capture_output=True, text=True).stdout
    except OSError:
        version = ""
    m = re.search(r"model ([0-9a-f]{16})", version)
    if not m:
        die(f"'{SLABSIM} --version' names no model (build it: make slabsim)")
    digest = m.group(1)
    plan = []
    for name, kind, arg in jobs:
        folder = os.path.join(root, name)
        st = state(folder, digest)
        plan.append((name, kind, arg, folder, st, 0.0 if st == "current" else predicted(folder, kind, arg, digest)))
    if listing:
        for name, kind, arg, folder, st, secs in plan:
            what = "nothing to do" if st == "current" else \
                f"about {hm(secs)}" if secs is not None else "time unknown"
            print(f"{st:8} {name}: {what}")
        known = sum(p[5] or 0 for p in plan)
        print(f"in all: about {hm(known)} on 2 cores (model {digest})")
        return 0
    failed = 0
    todo = [p for p in plan if p[4] != "current"]
    start = time.time()
    for i, (name, kind, arg, folder, st, secs) in enumerate(todo, 1):
        left = sum(p[5] or 0 for p in todo[i - 1:])
        end = datetime.datetime.now() + datetime.timedelta(seconds=left)
        print(f"results: {i}/{len(todo)} {name} ({st}): about "
              f"{hm(secs) if secs is not None else 'unknown'}; the {len(todo) - i + 1} left about "
              f"{hm(left)}, ETA {end:%H:%M}", flush=True)
        fresh(folder, st)
        os.makedirs(folder, exist_ok=True)
        t0 = time.time()
        rc = subprocess.call(command(name, kind, arg, folder, st, extra if kind == "sweep" else []))
        if kind == "validate" and rc == 1:
            rc = 0	# a check outside its band: the folder is made
        if rc:
            failed += 1
            print(f"results: {name} failed (exit {rc}); going on", flush=True)
        else:
            print(f"results: {name} made in {hm(time.time() - t0)}", flush=True)
    print(f"results: {len(todo) - failed} of {len(todo)} folders made in {hm(time.time() - start)}"
          f"{'' if todo else ' (every folder is current)'}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
