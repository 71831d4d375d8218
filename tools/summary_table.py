#!/usr/bin/env python3
"""summary_table.py - a sweep's summary.json as a Markdown table: one row per
value of the x dimension, one column per line of the plot (the other
dimensions that vary), each cell the mean +- 95% CI of a metric.

usage: tools/summary_table.py RESULTS_DIR [METRIC] [X_DIMENSION]
"""
import json
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    s = json.load(open(sys.argv[1].rstrip("/") + "/summary.json"))
    metric = sys.argv[2] if len(sys.argv) > 2 else s["metrics"][0]["name"]
    dims = [d for d in s["dimensions"] if len(d["values"]) > 1]
    x = sys.argv[3] if len(sys.argv) > 3 else s["plot"].get("x") or (dims[0]["name"] if dims else None)
    others = [d["name"] for d in dims if d["name"] != x]
    cols, rows, cell = [], [], {}
    for p in s["points"]:
        lab = p["labels"]
        c = ", ".join(lab[o] for o in others) or "all"
        r = lab[x] if x else "all"
        if c not in cols:
            cols.append(c)
        if r not in rows:
            rows.append(r)
        m = p["metrics"][metric]
        if m["mean"] is None:
            cell[(r, c)] = ""
        elif m["ci95"] is None:
            cell[(r, c)] = "%.4g" % m["mean"]
        else:
            cell[(r, c)] = "%.4g ± %.2g" % (m["mean"], m["ci95"])
    label = [m["label"] for m in s["metrics"] if m["name"] == metric][0]
    print("%s: %s" % (s["experiment"], label))
    print()
    print("| %s | %s |" % (x or "", " | ".join(cols)))
    print("|" + "---|" * (len(cols) + 1))
    for r in rows:
        print("| %s | %s |" % (r, " | ".join(cell.get((r, c), "") for c in cols)))


if __name__ == "__main__":
    main()
