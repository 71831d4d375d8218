#!/usr/bin/env python3
"""readme_commands.py - every command the docs show, run as written.

Reads the indented code blocks of README.md, docs/*.md, results/README.md,
configs/README.md, policies/README.md and validation/README.md, keeps the lines that are
commands (they start with slabsim, ./slabsim, make, cp, sh, python3, tools/,
configs/, mpirun or NAME=VALUE), joins continued lines, and runs each block's
commands in order in a scratch folder whose entries link to the source tree
(so ./slabsim, configs/ and machines/ are there, and what a command writes
stays in the scratch folder); a command shown twice runs once. A synopsis
line (with MACHINE, FILE, ...) is not a command. A command the README says
is long runs at the reduced size REDUCE gives, or is skipped with the reason
SKIP gives; every other command runs exactly as printed and must exit 0.
Prints one line per command; exits 1 if any failed.

usage: readme_commands.py SOURCE_TREE SLABSIM [--list]
"""
import contextlib
import fcntl
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

READMES = ["README.md", "docs/usage.md", "docs/json.md", "docs/model.md", "docs/calibration.md", "docs/hardening.md",
           "docs/architecture.md", "results/README.md", "configs/README.md",
           "policies/README.md", "validation/README.md"]
COMMAND = re.compile(r"^(\./slabsim|slabsim|make|cp|sh|python3|tools/|configs/|mpirun|"
                     r"[A-Z_]+=\S+ \./slabsim)\b")
PLACEHOLDER = re.compile(r"\b(MACHINE|POLICY|WORKLOAD|FILE|DIR|NAME=VALUE|EXPERIMENT|RESULTS|"
                         r"CASE|SLURM_\w+|EXP)\b|\[-|\w\|\w")

# Commands the READMEs call long, at a smaller size (a regex and its
# replacement, applied in turn); the README says they are long.
REDUCE = [
    (r"'hackbench 100 process 2000'", "'hackbench 10 process 20'"),
    (r"'hackbench 10 process 100'", "'hackbench 4 process 20'"),
    (r"'hackbench 100 process 100'", "'hackbench 10 process 20'"),
    (r"'slab_test run=4'", "'slab_test run=4 count=100'"),
    (r"tigerton-min-objects\.json loops=10", "tigerton-min-objects.json loops=2 --replicates 1"),
    (r"\bduration_ms=20\b", "duration_ms=5"),
    (r"--from 30 --to 30\.5\b", "--from 0.01 --to 0.02"),	# a window of the reduced run
    (r"^tools/soak\.py --draws \d+", "tools/soak.py --draws 20"),	# minutes at 1000; test_soak.sh
    (r"^make demo-quick\b.*", "make -n demo-quick"),
    (r"^make demo\b(?!-).*", "make -n demo"),
    (r"^make bench\b.*", "./slabsim bench --quick"),
    (r"^make install\b.*", "make install PREFIX=$PWD/prefix"),
    (r"^make uninstall\b.*", "make install PREFIX=$PWD/prefix-u > /dev/null && "
     "make uninstall PREFIX=$PWD/prefix-u && test ! -e $PWD/prefix-u/bin/slabsim"),
    (r"^make -f /usr/local/share/slabsim/policy.mk", "make -f $PWD/prefix/share/slabsim/policy.mk"),
]

# Commands not run here, each with why (the test suite or CI runs them).
SKIP = [
    (r"^make test\b", "this is the test suite itself"),
    (r"^make check\b", "the fast tier of this suite"),
    (r"^make sanitize\b", "a 10-minute build and suite of its own (make sanitize)"),
    (r"^make valgrind\b", "long; run by hand before a release"),
    (r"^make fuzz\b", "minutes of fuzzing; make test runs its smoke tier (fuzz-smoke)"),
    (r"^make validate\b", "every case at its published size, about 3.2 hours on 2 cores (make validate)"),
    (r"^make MPI=1\b", "the MPI build: make test builds and tests it"),
    (r"^mpirun\b", "33 MPI ranks of a 33-run sweep at the published size"),
    (r"slabsim validate C1\b", "C1 at the published size, 50 minutes (make validate)"),
    (r"slabsim validate V1 V2 --resume\b", "V1 and V2 at the published size, about two hours "
     "(test_validate resumes C3)"),
    (r"slabsim validate \./my-case\.json", "a case file of the reader's own"),
    (r"^\./slabsim merge parts/\*", "the shards of the Slurm example above"),
]

# Commands whose documented exit status is not only 0, and where it says so.
EXITS = [
    (r"slabsim validate --quick", (0, 1), "1 while a check is outside its band"),
    (r"slabsim validate --from results/validation", (0, 1), "1 while a check of "
     "results/validation is outside its band"),
]


@contextlib.contextmanager
def calibrate_lock(cmd):
    """Hold the lock test_calibrate.sh takes while `cmd` runs slabsim calibrate:
    two calibrations at once on a 2-CPU host pin their ping-pong threads onto
    the same CPUs and each takes many times as long (one timed out)."""
    if "calibrate" not in cmd:
        yield
        return
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), "slabsim-calibrate.lock")
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def blocks(path):
    """Each indented code block's commands, continued lines joined."""
    out, cur, cont = [], [], None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("    "):
            text = line[4:]
            if cont is not None:
                cont += " " + text.strip()
                if not cont.endswith("\\"):
                    cur.append(cont)
                    cont = None
                else:
                    cont = cont[:-1].rstrip()
                continue
            body = text.split("  #")[0].rstrip()
            if COMMAND.match(body):
                if body.endswith("\\"):
                    cont = body[:-1].rstrip()
                else:
                    cur.append(body)
        elif line.strip() == "" and cont is None:
            continue
        else:
            if cur:
                out.append(cur)
            cur, cont = [], None
    if cur:
        out.append(cur)
    return out


def plan(cmd):
    """('run', command), ('skip', why) or ('synopsis', '')."""
    for pat, why in SKIP:
        if re.search(pat, cmd):
            return "skip", why
    if PLACEHOLDER.search(cmd) and not cmd.startswith("cp "):
        return "synopsis", ""
    for pat, rep in REDUCE:
        cmd = re.sub(pat, rep, cmd)
    return "run", cmd


def scratch(src):
    """A folder whose entries link to the source tree's (but out/)."""
    d = tempfile.mkdtemp(prefix="slabsim-readme.")
    for name in os.listdir(src):
        if name in ("out", ".git"):
            continue
        os.symlink(os.path.join(src, name), os.path.join(d, name))
    return d


def main():
    src, slabsim = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    listing = "--list" in sys.argv
    work = scratch(src)
    bindir = os.path.join(work, ".bin")
    os.mkdir(bindir)
    os.symlink(slabsim, os.path.join(bindir, "slabsim"))
    env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"], PWD=work,
               SLABSIM_MACHINES=os.path.join(src, "machines"))
    failed = ran = 0
    done = {}  # each command runs once: the docs repeat some (calibrate: minutes)
    try:
        for readme in READMES:
            for block in blocks(os.path.join(src, readme)):
                for cmd in block:
                    what, arg = plan(cmd)
                    if what == "synopsis":
                        continue
                    if what == "skip":
                        print("skip  %s: %s  (%s)" % (readme, cmd, arg))
                        continue
                    if arg in done:
                        print("skip  %s: %s  (ran above, from %s)" % (readme, cmd, done[arg]))
                        continue
                    done[arg] = readme
                    if listing:
                        print("run   %s: %s" % (readme, arg))
                        continue
                    with calibrate_lock(arg):
                        t0 = time.monotonic()
                        r = subprocess.run(arg, shell=True, cwd=work, env=env,
                                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                           timeout=600)
                    ran += 1
                    codes = [c for pat, c, _ in EXITS if re.search(pat, arg)]
                    ok = r.returncode in (codes[0] if codes else (0,))
                    print("%s  %s: %s  (%.0f s)" % ("ok  " if ok else "FAIL", readme, arg,
                                                  time.monotonic() - t0))
                    if not ok:
                        failed += 1
                        tail = r.stdout.decode(errors="replace").strip().splitlines()[-5:]
                        print("      exit %d: %s" % (r.returncode, " | ".join(tail)))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if not listing:
        print("%d README commands run, %d failed" % (ran, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
