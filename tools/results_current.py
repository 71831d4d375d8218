#!/usr/bin/env python3
"""results_current.py - is every folder of a results tree made with the
model this slabsim runs? Each folder under RESULTS is either current (its
summary.json (a sensitivity study's sensitivity.json), every run of its *.jsonl files and every run JSON in it carry
`model_digest` equal to DIGEST, the one `slabsim --version` prints) or
marked as an archive of an older model: its README.md opens with a line

    Archive of model DIGEST16: why it is kept

(DIGEST16 the model digest it was made with, or `unknown` for runs made
before runs carried one). Prints one line per folder and exits 0 when none
is stale, 1 when one is (named with the digests it holds), 2 on bad usage.

usage: tools/results_current.py RESULTS DIGEST
"""
import glob
import json
import os
import re
import sys

ARCHIVE = re.compile(r"^Archive of model ([0-9a-f]{16}|unknown): (\S.*)$")


def archive_line(folder):
    """The archive marker of FOLDER's README.md (a match), None if it has none,
    or a string saying what is wrong with a marker that is malformed."""
    path = os.path.join(folder, "README.md")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        first = next((line.strip() for line in f if line.strip()), "")
    if not first.startswith("Archive"):
        return None
    m = ARCHIVE.match(first)
    return m if m else f"README.md's first line is not 'Archive of model DIGEST16: why': {first!r}"


def run_digest(doc):
    """The model digest a run's JSON names, 'unknown' if none."""
    v = doc.get("slabsim") if isinstance(doc, dict) else None
    return v.get("model_digest", "unknown") if isinstance(v, dict) else None


def folder_digests(folder):
    """Every model digest FOLDER's files name: {digest: [where, ...]}."""
    seen = {}
    summary = os.path.join(folder, "summary.json")
    if not os.path.exists(summary):	# a sensitivity study's
        summary = os.path.join(folder, "sensitivity.json")
    if os.path.exists(summary):
        with open(summary) as f:
            seen.setdefault(json.load(f).get("model_digest", "unknown"), []).append(
                os.path.basename(summary))
    else:
        seen.setdefault("unknown", []).append("no summary.json")
    for path in sorted(glob.glob(os.path.join(folder, "*.jsonl"))):
        with open(path) as f:
            for n, line in enumerate(f, 1):
                if line.strip():
                    d = run_digest(json.loads(line))
                    if d:
                        seen.setdefault(d, []).append(f"{os.path.basename(path)}:{n}")
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        if os.path.basename(path) == "summary.json":
            continue
        with open(path) as f:
            d = run_digest(json.load(f))
        if d:
            seen.setdefault(d, []).append(os.path.basename(path))
    return seen


def main():
    if len(sys.argv) != 3 or not re.fullmatch(r"[0-9a-f]{16}", sys.argv[2]):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    root, digest = sys.argv[1], sys.argv[2]
    if not os.path.isdir(root):
        print(f"results_current.py: '{root}' is not a folder", file=sys.stderr)
        return 2
    stale = 0
    for folder in sorted(p for p in glob.glob(os.path.join(root, "*")) if os.path.isdir(p)):
        name = os.path.basename(folder)
        mark = archive_line(folder)
        if isinstance(mark, str):
            print(f"bad      {name}: {mark}")
            stale += 1
            continue
        if mark:
            print(f"archive  {name}: model {mark.group(1)} ({mark.group(2)})")
            continue
        seen = folder_digests(folder)
        if set(seen) == {digest}:
            print(f"current  {name}")
            continue
        stale += 1
        other = {d: w for d, w in seen.items() if d != digest}
        said = "; ".join(f"model {d} in {', '.join(w[:3])}{' ...' if len(w) > 3 else ''}"
                         for d, w in sorted(other.items()))
        print(f"stale    {name}: {said} (this slabsim runs model {digest}: `make results` "
              f"makes it again, or mark it an archive in its README.md)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
