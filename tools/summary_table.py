#!/usr/bin/env python3
"""summary_table.py - a sweep's summary.json as a Markdown table: one row per
value of the x dimension, one column per line of the plot (the other
dimensions that vary), each cell the mean +- 95% CI of a metric. The table
is the one tools/results_tables.py writes into the docs.

usage: tools/summary_table.py RESULTS_DIR [METRIC] [X_DIMENSION]
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_tables  # noqa: E402


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    folder = os.path.abspath(sys.argv[1].rstrip("/"))
    s = json.load(open(folder + "/summary.json"))
    metric = sys.argv[2] if len(sys.argv) > 2 else s["metrics"][0]["name"]
    varying = [d["name"] for d in s["dimensions"] if len(d["values"]) > 1]
    x = sys.argv[3] if len(sys.argv) > 3 else s["plot"].get("x") or (varying or ["machine"])[0]
    label = [m["label"] for m in s["metrics"] if m["name"] == metric][0]
    spec = results_tables.parse_spec(f"{os.path.relpath(folder, results_tables.TOP)} "
                                     f"metric={metric} rows={x} ci")
    print("%s: %s\n" % (s["experiment"], label))
    print("\n".join(results_tables.make_table(spec)))


if __name__ == "__main__":
    main()
