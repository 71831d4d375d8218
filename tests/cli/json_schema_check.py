#!/usr/bin/env python3
"""json_schema_check.py SCHEMA FILE... - check JSON files (or JSON lines,
one document per line) against the subset of JSON Schema that
docs/run.schema.json uses: type, properties, required,
additionalProperties, items, minimum. Prints each violation with its path;
exits 1 if there is any."""
import json
import sys

TYPES = {"object": dict, "array": list, "string": str, "boolean": bool}


def is_type(v, t):
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == "integer":
        return (isinstance(v, int) and not isinstance(v, bool)) or \
            (isinstance(v, float) and v.is_integer())
    if t == "null":
        return v is None
    return isinstance(v, TYPES[t])


def check(v, s, path, errs):
    t = s.get("type")
    if t is not None:
        ts = t if isinstance(t, list) else [t]
        if not any(is_type(v, x) for x in ts):
            errs.append("%s: expected %s, got %r" % (path, "|".join(ts), v))
            return
    if "minimum" in s and is_type(v, "number") and v < s["minimum"]:
        errs.append("%s: %r below %r" % (path, v, s["minimum"]))
    if isinstance(v, dict):
        props = s.get("properties", {})
        for k in s.get("required", []):
            if k not in v:
                errs.append("%s: missing %s" % (path, k))
        extra = s.get("additionalProperties", True)
        for k, x in v.items():
            if k in props:
                check(x, props[k], path + "." + k, errs)
            elif extra is False:
                errs.append("%s: unexpected member %s" % (path, k))
            elif isinstance(extra, dict):
                check(x, extra, path + "." + k, errs)
    if isinstance(v, list) and "maxItems" in s and len(v) > s["maxItems"]:
        errs.append("%s: %d items, at most %d" % (path, len(v), s["maxItems"]))
    if isinstance(v, list) and "items" in s:
        for i, x in enumerate(v):
            check(x, s["items"], "%s[%d]" % (path, i), errs)


def main():
    schema = json.load(open(sys.argv[1]))
    bad = 0
    for f in sys.argv[2:]:
        text = open(f).read()
        try:
            docs = [json.loads(text)]
        except json.JSONDecodeError:
            docs = [json.loads(line) for line in text.splitlines() if line.strip()]
        for n, d in enumerate(docs):
            errs = []
            check(d, schema, "$", errs)
            for e in errs[:10]:
                print("%s#%d: %s" % (f, n, e))
            bad += bool(errs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
