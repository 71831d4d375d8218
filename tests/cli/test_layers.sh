# test_layers.sh - layers look down only: engine <- hw <- kernel <- policies
# <- workloads <- run <- report <- study <- cli. Every #include "..." of sim/ and
# policies/ must name a header of its own layer or one below (docs/
# architecture.md); the unit tests may include anything.
. tests/cli/lib.sh
python3 - <<'PY' || fail "an #include points up a layer"
import os, re, sys
layers = ["sim/engine", "sim/hw", "sim/kernel", "policies", "sim/workloads", "sim/run",
          "sim/report", "sim/study", "sim/cli"]
def layer(path):
    for i, d in enumerate(layers):
        if path.startswith(d + "/"):
            return i
    return None
def resolve(src, inc):
    # a module example includes the installed API (policy.h is policies/policy.h)
    for cand in (os.path.join(os.path.dirname(src), inc), os.path.join("sim", inc), inc,
                 os.path.join("policies", inc)):
        if os.path.exists(cand):
            return os.path.normpath(cand)
    return None
bad, seen = [], 0
for root in ("sim", "policies"):
    for d, _, fs in os.walk(root):
        for f in sorted(fs):
            if not f.endswith((".c", ".h")):
                continue
            src = os.path.join(d, f)
            ls = layer(src)
            if ls is None:
                bad.append("%s: in no layer (add its folder to the layers)" % src)
                continue
            for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', open(src).read(), re.M):
                seen += 1
                tgt = resolve(src, m.group(1))
                if tgt is None:
                    bad.append("%s: #include \"%s\" names no file" % (src, m.group(1)))
                elif layer(tgt) is not None and layer(tgt) > ls:
                    bad.append("%s (%s) includes %s (%s)" % (src, layers[ls], tgt,
                                                            layers[layer(tgt)]))
for b in bad:
    print(b)
assert seen > 250, seen	# the scan found the includes
sys.exit(1 if bad else 0)
PY
# A workload sees the kernel's allocator interface (kernel/slab_policy.h),
# never the policies; report and cli include policies/ only to call them.
python3 - <<'PY' || fail "an #include of policies/ that the file does not need"
import glob, re, sys
bad = []
for f in sorted(glob.glob("sim/workloads/*.[ch]") + glob.glob("sim/report/*.[ch]") +
                glob.glob("sim/study/*.[ch]") + glob.glob("sim/cli/*.[ch]")):
    s = open(f).read()
    incs = re.findall(r'^\s*#\s*include\s+"policies/([^"]+)"', s, re.M)
    if incs and f.startswith("sim/workloads/"):
        bad.append("%s: a workload includes policies/%s" % (f, incs[0]))
    elif incs and not re.search(r'\bslab_policy\w*|\bSLAB_POLICY_\w+|\bsb_\w+', s):
        bad.append("%s: includes policies/%s and calls nothing of it" % (f, incs[0]))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY

# The commands only parse, call and print: no function of sim/cli/ is over
# 60 lines (a function's body: from its "{" to its "}" in column 0)
python3 - <<'PY' || fail "a function of sim/cli/ is over 60 lines"
import glob, re, sys
long = []
for f in sorted(glob.glob("sim/cli/*.c")):
    lines = open(f).read().split("\n")
    for i, l in enumerate(lines):
        if l == "{":
            end = next(k for k in range(i, len(lines)) if lines[k].startswith("}"))
            head = next(lines[j] for j in range(i - 1, -1, -1) if re.match(r"[a-z]", lines[j]))
            if end - i - 1 > 60:
                long.append("%s: %s: %d lines" % (f, re.search(r"(\w+)\(", head).group(1),
                                                  end - i - 1))
if long:
    print("\n".join(long))
sys.exit(1 if long else 0)
PY

# Couplings no #include shows: the engine's CPU knows nothing of slabs (the
# kernel tallies its allocator's time through the engine's generic region)
# and no workload reads the name of the policy that ran (--compare's
# published column is the report's choice, sim/report/published.c).
python3 - <<'PY' || fail "a layer knows what it must not"
import glob, re, sys
bad = []
def code(path):	# the file without its comments and strings
    s = open(path).read()
    s = re.sub(r'/\*.*?\*/', ' ', s, flags=re.S)
    s = re.sub(r'//[^\n]*', ' ', s)
    return re.sub(r'"(\\.|[^"\\])*"', '""', s)
for f in sorted(glob.glob("sim/engine/*.[ch]")):
    for m in re.finditer(r'\w*slab\w*', code(f)):
        bad.append("%s: the engine names %s" % (f, m.group(0)))
for f in sorted(glob.glob("sim/workloads/*.[ch]")):
    if re.search(r'policy\s*->\s*name', code(f)):
        bad.append("%s: a workload reads the policy's name" % f)
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
finish
