#!/usr/bin/env python3
"""Lists every `unsafe` in the workspace's sources and fails if one is not accounted for.

An `unsafe { ... }` block needs a `// SAFETY:` comment in the lines just above it (or on its own
line); an `unsafe fn` needs a `# Safety` section in its doc comment saying what its caller must
guarantee. Run by CI (.ci/run); docs/reliability.md lists the sites and the tests that check each
fast path against its portable twin.

    python3 scripts/audit/unsafe_sites.py          # the table, exit 1 if a site lacks its comment
"""

import glob
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
WORD = re.compile(r"\bunsafe\b")


def code_part(line):
    """The line without a trailing // comment or the text of string literals (roughly)."""
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    return line.split("//", 1)[0]


def main():
    sites, missing = [], []
    files = sorted(glob.glob(os.path.join(ROOT, "crates", "*", "src", "**", "*.rs"), recursive=True))
    for path in files:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        rel = os.path.relpath(path, ROOT)
        for i, line in enumerate(lines):
            code = code_part(line)
            if not WORD.search(code) or code.lstrip().startswith("#!["):
                continue
            if re.search(r"\bunsafe\s+fn\b", code):
                kind = "unsafe fn"
                # The doc comment and attributes directly above the fn.
                j = i - 1
                doc = []
                while j >= 0 and (lines[j].lstrip().startswith("///") or lines[j].lstrip().startswith("#[")):
                    doc.append(lines[j])
                    j -= 1
                ok = any("# Safety" in d for d in doc)
            else:
                kind = "unsafe block"
                ok = any("SAFETY" in lines[k] for k in range(max(0, i - 6), i + 1))
            sites.append((rel, i + 1, kind, ok))
            if not ok:
                missing.append((rel, i + 1, kind, line.strip()))
    print(f"{len(sites)} unsafe sites in {len({s[0] for s in sites})} files")
    for rel, n, kind, ok in sites:
        print(f"  {'ok  ' if ok else 'MISS'} {rel}:{n} {kind}")
    if missing:
        print(f"\n{len(missing)} site(s) without a SAFETY comment / # Safety section:", file=sys.stderr)
        for rel, n, kind, text in missing:
            print(f"  {rel}:{n}: {text}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
