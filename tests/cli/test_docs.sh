# test_docs.sh - the docs stand on their own: every relative link of every
# Markdown file resolves inside the repo, no file names a document outside
# it, README.md stays a user's front page (at most 200 lines) and
# results/README.md a report (at most 400), every
# document it lists exists, it names every package make deps installs, and
# no file speaks of the project's own history (its work sessions, branches
# of work in progress): that lives in the commit messages.
. tests/cli/lib.sh
python3 - <<'PY' || fail "docs: broken links or references outside the repo"
import os, re, subprocess, sys
files = subprocess.run(["git", "ls-files"], capture_output=True, text=True).stdout.split()
if not files:	# not a git checkout: every file under here
    files = [os.path.relpath(os.path.join(d, f)) for d, _, fs in os.walk(".") for f in fs]
bad = []
outside = "." + "./" + "sha" + "red"	# the notes a clone does not have, spelled so this file does not name them
for f in files:
    if f.startswith(("results/", "out/")) and not f.endswith("README.md"):
        continue
    if not os.path.isfile(f) or f.endswith((".png", ".so", ".jsonl", ".log")):
        continue
    try:
        text = open(f, encoding="utf-8").read()
    except UnicodeDecodeError:
        continue
    if outside in text:
        bad.append("%s: names %s" % (f, outside))
    if f.endswith(".md"):
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if "://" in target:
                continue
            path = os.path.normpath(os.path.join(os.path.dirname(f), target))
            if not os.path.exists(path):
                bad.append("%s: link to %s, which does not exist" % (f, target))
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
n=$(wc -l < README.md)
[ "$n" -le 200 ] || fail "README.md has $n lines; the front page keeps to 200"
n=$(wc -l < results/README.md)
[ "$n" -le 400 ] || fail "results/README.md has $n lines; the report keeps to 400"
# the project's history, spelled so that this file does not match itself
history="[Ss]top[- ][0-9]|[w]ip/|[p]robe branch"
if git ls-files > /dev/null 2>&1; then
	git grep -nE "$history" -- . > "$TMP/history" && fail "the tree speaks of its own history: $(head -5 "$TMP/history")"
fi
printf 'Before %s 49 the model ...\n' stop > "$TMP/history.md"
grep -qE "$history" "$TMP/history.md" || fail "the history pattern cannot fail"
for d in docs/usage.md docs/json.md docs/model.md docs/hardware.md docs/workloads.md \
	docs/calibration.md docs/architecture.md docs/hardening.md results/README.md \
	docs/run.schema.json man/slabsim.1; do
	[ -s "$d" ] || fail "$d is missing"
	grep -q "$d" README.md || [ "$d" = docs/run.schema.json ] || fail "README.md does not point at $d"
done
# docs/usage.md's contents list its headings (tools/doc_toc.py)
python3 tools/doc_toc.py --check docs/usage.md > "$TMP/toc" 2>&1 || fail "$(cat "$TMP/toc")"
printf '# T\n\n**Contents**\n\n- [A](#a)\n\n## A\n\n## B\n' > "$TMP/toc.md"
expect_exit 1 "contents are not its headings" python3 tools/doc_toc.py --check "$TMP/toc.md"
# the README names every Debian package make deps may install
readme=$(tr '\n' ' ' < README.md)
for pkg in $(sed -n '/^DEB_PKGS :=/,/^$/p' Makefile | sed 's/^DEB_PKGS :=//; s/\\//g'); do
	case "$readme" in *" $pkg,"*|*" $pkg "*) ;; *) fail "README.md does not list $pkg, which make deps installs" ;; esac
done
finish
