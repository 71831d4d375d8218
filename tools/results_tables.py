#!/usr/bin/env python3
"""results_tables.py - the tables that Markdown files quote from results
folders, made from each folder's summary.json so that no figure is copied
by hand. A table is a block

    <!-- table DIR metric=NAME rows=DIM [cols=DIM,...] [where=DIM:VALUE;...] [ci] [digits=N] -->
    ... (written by this script) ...
    <!-- end table -->

DIR is a results folder (relative to the repository), NAME one of its
summary's metrics (or several, comma-separated: a column each), rows the
dimension whose values make the rows; the
columns are the other dimensions with more than one value (or those of
cols), `where` keeps only the points with those labels, `ci` adds each
mean's 95% confidence interval, digits the significant digits (3).

Six more kinds of block read a validation, sensitivity or sampling folder:

    <!-- cases-table DIR -->            one row a case: what it checks, how
                                        many of its judged checks are inside
                                        their bands, and the checks outside
                                        (simulated against published)
    <!-- checks-table DIR CASE -->      a case's checks from DIR/summary.json:
                                        published, simulated with its 95% CI,
                                        error, band, verdict
    <!-- sensitivity-table DIR CHECK [N] -->  a sensitivity study's figures
                                        (DIR/sensitivity.json) that move check
                                        CHECK most, N of them (8): range, the
                                        change at each end, the effect and its CI
    <!-- sensitivity-summary DIR CHECK [DIR CHECK ...] -->  a row a check
                                        of a sensitivity study: its value at
                                        the figures' values against its
                                        published one, the two figures that
                                        move it most and their effects
    <!-- sampling-table DIR -->         tools/sample_table.sh's rows (DIR/summary.json):
                                        each run exact and sampled, side by side
    <!-- runs-table DIR CASE PARAM -->  a case's runs (DIR/CASE.jsonl) by the
                                        value of PARAM: the mean simulated time
                                        and the range of its seeds, and the CPU
                                        shares and top profile symbol of the
                                        first seed's run

usage: tools/results_tables.py [--check] FILE.md ...
  without --check, rewrite every block of each FILE in place;
  with --check, change nothing: exit 1 and name each block that differs
  from its folder (or whose folder or metric is missing), else exit 0.
Exit 2 on bad usage.
"""
import json
import math
import os
import re
import shlex
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START = re.compile(r"^<!-- (table|cases-table|checks-table|runs-table|sensitivity-table|"
                   r"sensitivity-summary|sampling-table) (.*) -->$")
END = "<!-- end table -->"


def number(x, digits):
    """x to `digits` significant digits, thousands separated, no exponent
    and no trailing zeros."""
    if x == 0 or not math.isfinite(x):
        return "%g" % x
    decimals = max(0, digits - 1 - int(math.floor(math.log10(abs(x)))))
    text = f"{round(x, decimals):,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def parse_spec(text):
    """The block's arguments as a dict (DIR under 'dir')."""
    words = shlex.split(text)
    if not words:
        raise ValueError("no results folder")
    spec = {"dir": words[0], "ci": False, "digits": 3, "where": {}, "cols": None}
    for w in words[1:]:
        if w == "ci":
            spec["ci"] = True
        elif "=" in w:
            k, v = w.split("=", 1)
            if k == "where":
                for cond in v.split(";"):
                    dim, _, val = cond.partition(":")
                    spec["where"][dim] = val
            elif k == "cols":
                spec["cols"] = v.split(",")
            elif k == "digits":
                spec["digits"] = int(v)
            elif k in ("metric", "rows"):
                spec[k] = v
            else:
                raise ValueError(f"unknown argument '{k}'")
        else:
            raise ValueError(f"unknown argument '{w}'")
    for k in ("metric", "rows"):
        if k not in spec:
            raise ValueError(f"{k}= is missing")
    return spec


def make_table(spec):
    """The Markdown lines of one table."""
    path = os.path.join(TOP, spec["dir"], "summary.json")
    with open(path) as f:
        s = json.load(f)
    dims = {d["name"]: d for d in s["dimensions"]}
    if spec["rows"] not in dims:
        raise ValueError(f"{spec['dir']} has no dimension '{spec['rows']}'")
    labels = {m["name"]: m["label"] for m in s["metrics"]}
    metrics = spec["metric"].split(",")
    for name in metrics:
        if name not in labels:
            raise ValueError(f"{spec['dir']} has no metric '{name}'")
    cols = spec["cols"] or [n for n, d in dims.items()
                            if len(d["values"]) > 1 and n != spec["rows"] and n not in spec["where"]]
    rows, heads, cell = [], [], {}
    for p in s["points"]:
        lab = p["labels"]
        if any(lab.get(k) != v for k, v in spec["where"].items()):
            continue
        r = lab[spec["rows"]]
        if r not in rows:
            rows.append(r)
        for name in metrics:	# a lone metric's column is headed by its label
            c = ", ".join(([labels[name]] if len(metrics) > 1 else []) + [lab[k] for k in cols]) \
                or labels[name]
            if c not in heads:
                heads.append(c)
            m = p["metrics"][name]
            if m["mean"] is None:
                cell[(r, c)] = ""
            elif spec["ci"] and m["ci95"] is not None:
                cell[(r, c)] = f"{number(m['mean'], spec['digits'])} ± {number(m['ci95'], 2)}"
            else:
                cell[(r, c)] = number(m["mean"], spec["digits"])
    if not rows:
        raise ValueError(f"no point of {spec['dir']} matches {spec['where']}")
    out = [f"| {spec['rows']} | " + " | ".join(heads) + " |", "|---" * (len(heads) + 1) + "|"]
    out += [f"| {r} | " + " | ".join(cell.get((r, c), "") for c in heads) + " |" for r in rows]
    return out


def folder_json(folder, name):
    """FOLDER/NAME (a results folder's JSON file), parsed."""
    with open(os.path.join(TOP, folder, name)) as f:
        return json.load(f)


def study_check(folder, name):
    """A sensitivity study (FOLDER/sensitivity.json), its check NAME, and the
    case's own entry for it (from the case file the study wrote there)."""
    s = folder_json(folder, "sensitivity.json")
    checks = {c["check"]: c for c in s["checks"]}
    if name not in checks:
        raise ValueError(f"{folder} has no check '{name}'")
    case = {c["name"]: c for c in folder_json(folder, s["case"] + ".json")["checks"]}
    return s, checks[name], case[name]


def top_effects(check):
    """A sensitivity check's effects, the largest first."""
    return sorted(check["effects"], key=lambda e: -abs(e["effect"] or 0))


def sensitivity_table(args):
    """The figures that move one check most (the lines of a sensitivity-table block)."""
    if len(args) not in (2, 3):
        raise ValueError("sensitivity-table takes DIR CHECK [N]")
    s, check, _ = study_check(args[0], args[1])
    limit = int(args[2]) if len(args) == 3 else 8
    figs = {f"{f['machine']}:{f['name']}": f for f in s["figures"]}
    effects = top_effects(check)
    out = ["| figure | range | low end | high end | effect (95% CI) |", "|---|---|---|---|---|"]
    pct = lambda x: "-" if x is None else f"{x * 100:+.1f}%"
    for e in effects[:limit]:
        f = figs[e["figure"]]
        ci = "" if e.get("ci95_half") is None else f" ± {e['ci95_half'] * 100:.1f}"
        out.append(f"| `{e['figure']}` ({f['origin']}) | {number(f['low'], 3)} .. "
                   f"{number(f['high'], 3)} | {pct(e['low'])} | {pct(e['high'])} | "
                   f"{pct(e['effect'])}{ci} |")
    return out


def sensitivity_summary(args):
    """A row a check of a sensitivity study (the lines of a sensitivity-summary block)."""
    if len(args) < 2 or len(args) % 2:
        raise ValueError("sensitivity-summary takes DIR CHECK [DIR CHECK ...]")
    out = ["| study | check | at the figures' values (published) | moves it most | next |",
           "|---|---|---|---|---|"]
    for folder, name in zip(args[::2], args[1::2]):
        s, c, own = study_check(folder, name)
        unit = unit_of(own)
        tops = top_effects(c)[:2]
        cells = [f"`{e['figure'].split(':', 1)[1]}` {e['effect'] * 100:+.1f}%" +
                 ("" if e.get("ci95_half") is None else f" ± {e['ci95_half'] * 100:.1f}")
                 for e in tops]
        cells += ["-"] * (2 - len(cells))
        out.append(f"| `{os.path.basename(folder)}/` | {s['case']}: {name} | "
                   f"{number(c['base'], 3)}{unit} ({number(own['published'], 3)}{unit}) | "
                   f"{cells[0]} | {cells[1]} |")
    return out


def sampling_table(args):
    """tools/sample_table.sh's table, from the rows its summary.json keeps."""
    if len(args) != 1:
        raise ValueError("sampling-table takes DIR")
    rows = folder_json(args[0], "summary.json")["table"]
    return ["| run | seed | exact (s) | sampled (s) | 95% CI | simulated | error | wall exact | "
            "wall sampled | verdict |", "|---|---|---|---|---|---|---|---|---|---|"] + rows


def unit_of(check):
    """A check's unit as its figures are written: " s", "x", "%" or none."""
    return " s" if check["unit"] == "s" else check["unit"] if check["unit"] in ("x", "%") else ""


def cases_table(args):
    """Every validation case in a row (the lines of one cases-table block)."""
    if len(args) != 1:
        raise ValueError("cases-table takes DIR")
    cases = folder_json(args[0], "summary.json")["cases"]
    out = ["| case | what it checks | inside its band | outside |", "|---|---|---|---|"]
    for c in cases:
        judged = [k for k in c["checks"] if k["verdict"] != "info"]
        outside = [f"{k['check']}: {number(k['simulated'], 3)}{unit_of(k)} against "
                   f"{number(k['published'], 3)}{unit_of(k)}" for k in judged if k["verdict"] != "ok"]
        out.append(f"| {c['case']} | {c['title']} | {len(judged) - len(outside)} of "
                   f"{len(judged)} | {'; '.join(outside) or '-'} |")
    return out


def checks_table(args):
    """A validation case's checks (the lines of one checks-table block)."""
    if len(args) != 2:
        raise ValueError("checks-table takes DIR CASE")
    cases = {c["case"]: c for c in folder_json(args[0], "summary.json")["cases"]}
    if args[1] not in cases:
        raise ValueError(f"{args[0]} has no case '{args[1]}'")
    out = ["| check | published | simulated (95% CI) | error | band | verdict |",
           "|---|---|---|---|---|---|"]
    for c in cases[args[1]]["checks"]:
        unit = unit_of(c)
        ci = c.get("ci95")
        sim = number(c["simulated"], 3) + unit
        if ci:
            sim += f" ({number(ci[0], 3)}-{number(ci[1], 3)})"
        lo, hi = c["band"]
        band = f"{round((lo - 1) * 100):+d}..{round((hi - 1) * 100):+d}%" if hi < 100 else \
            f">= {round((lo - 1) * 100):+d}%"
        out.append(f"| {c['check']} | {number(c['published'], 3)}{unit} | {sim} | "
                   f"{round(c['error'] * 100):+d}% | {band} | {c['verdict']} |")
    return out


def runs_table(args):
    """A validation case's runs by one parameter (the lines of one runs-table block)."""
    if len(args) != 3:
        raise ValueError("runs-table takes DIR CASE PARAM")
    folder, case, param = args
    by = {}
    with open(os.path.join(TOP, folder, case + ".jsonl")) as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                params = {**d["kernel"]["params"], **d["policy"]["params"], **d["workload"]["params"]}
                if param not in params:
                    raise ValueError(f"{case}'s runs have no parameter '{param}'")
                by.setdefault(params[param], []).append(d)
    out = [f"| {param} | simulated, mean (range) | CPU spinning | in the slab allocator | "
           "top of the profile |", "|---|---|---|---|---|"]
    for value in sorted(by, key=lambda v: (isinstance(v, str), v)):
        runs = by[value]
        t = [d["result"]["sim_seconds"] for d in runs]
        first = min(runs, key=lambda d: d["sweep"]["replicate"])
        top = first["profile"][0]
        out.append(f"| {value} | {number(sum(t) / len(t), 4)} s ({number(min(t), 4)}-"
                   f"{number(max(t), 4)}) | {round(first['cpu']['spin'] * 100)}% | "
                   f"{round(first['cpu']['slab'] * 100)}% | `{top['symbol']}` "
                   f"{number(top['percent'], 3)}% |")
    return out


def block_table(kind, text):
    """The lines of one block of the given kind."""
    if kind == "table":
        return make_table(parse_spec(text))
    args = shlex.split(text)
    if kind == "cases-table":
        return cases_table(args)
    if kind == "sensitivity-table":
        return sensitivity_table(args)
    if kind == "sensitivity-summary":
        return sensitivity_summary(args)
    if kind == "sampling-table":
        return sampling_table(args)
    return checks_table(args) if kind == "checks-table" else runs_table(args)


def process(path, check):
    """Rewrite (or check) every block of one file; returns the problems."""
    with open(path) as f:
        lines = f.read().split("\n")
    out, problems, i = [], [], 0
    while i < len(lines):
        m = START.match(lines[i])
        out.append(lines[i])
        i += 1
        if not m:
            continue
        start = i
        while i < len(lines) and lines[i] != END:
            i += 1
        if i == len(lines):
            problems.append(f"{path}:{start}: the table has no '{END}'")
            break
        try:
            table = block_table(m.group(1), m.group(2))
        except (OSError, ValueError, KeyError) as e:
            problems.append(f"{path}:{start}: {e}")
            table = lines[start:i]
        if table != lines[start:i] and not any(p.startswith(f"{path}:{start}:") for p in problems):
            problems.append(f"{path}:{start}: the table differs from {m.group(2).split()[0]}"
                            " (tools/results_tables.py rewrites it)")
        out += table
    if not check:
        with open(path, "w") as f:
            f.write("\n".join(out))
        problems = [p for p in problems if "differs" not in p]
    return problems


def main():
    args = sys.argv[1:]
    check = "--check" in args
    files = [a for a in args if a != "--check"]
    if not files or any(a.startswith("-") for a in files):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    problems = []
    for path in files:
        if not os.path.exists(path):
            print(f"results_tables.py: no file '{path}'", file=sys.stderr)
            return 2
        problems += process(path, check)
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
