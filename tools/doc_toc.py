#!/usr/bin/env python3
"""doc_toc.py - the table of contents of a long Markdown document: the list
after its "**Contents**" line, one entry for each ## and ### heading below,
linked to its anchor as GitHub makes them.

usage: tools/doc_toc.py [--check] FILE.md ...
  without --check, rewrite each FILE's list; with --check, exit 1 naming
  each FILE whose list is not its headings.
"""
import re
import sys


def anchor(title):
    """GitHub's anchor of a heading."""
    t = re.sub(r"[^\w\- ]", "", title.lower())
    return t.replace(" ", "-")


def toc(text):
    """The list's lines for the headings below the Contents line."""
    at = text.index("**Contents**")
    lines, fence = [], False
    for line in text[at:].splitlines():
        fence ^= line.startswith("```")
        m = re.match(r"^(##+) (.*)$", line)
        if m and not fence and len(m.group(1)) <= 3:
            lines.append("  " * (len(m.group(1)) - 2) + f"- [{m.group(2)}](#{anchor(m.group(2))})")
    return lines


def main(argv):
    check = "--check" in argv
    files = [a for a in argv if a != "--check"]
    if not files or any(f.startswith("-") for f in files):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bad = 0
    for path in files:
        text = open(path).read()
        if "**Contents**" not in text:
            print(f"doc_toc.py: {path} has no **Contents** line", file=sys.stderr)
            return 2
        m = re.search(r"\*\*Contents\*\*\n\n((?:\s*- .*\n)*)", text)
        new = "\n".join(toc(text)) + "\n"
        if check and m.group(1) != new:
            print(f"doc_toc.py: {path}'s contents are not its headings (tools/doc_toc.py {path})")
            bad += 1
        elif not check:
            open(path, "w").write(text[:m.start(1)] + new + text[m.end(1):])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
