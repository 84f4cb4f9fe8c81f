#!/usr/bin/env python3
"""Finds circles of files that import each other inside each crate (issue #60).

A file imports another when its code names a path into that file's module: `use crate::a::b`,
`crate::a::b::f(..)` in an expression, `super::x` at the file's top level (inside an inline
`mod tests { use super::*; }` it is the file itself), or `self::x` (a child module). A name that
`lib.rs`/`main.rs`/`mod.rs` only re-exports counts as an import of that file, as the compiler
sees it: the arrow goes to the file that declares the re-export. Declaring a child (`mod x;`)
is not an import. Every strongly connected component of more than one file is a circle.

    python3 scripts/audit/module_cycles.py            # lists the circles, exit 1 if there is one
    python3 scripts/audit/module_cycles.py --edges    # also every arrow, for reading
    python3 scripts/audit/module_cycles.py --known    # CI: exit 1 only on a circle not in KNOWN
"""

import glob
import os
import re
import sys

# The circles that remain, by crate: issue #60 untied the ones in aeroplane, chinese-checkers,
# checkers (engine book), peg-solitaire and cli (play, review) and left these for later, because
# their crates were being changed by other work at the time (xiangqi's rules, the server, the
# Python and browser bindings). With --known a circle passes if all its files are in one of these
# (one that shrinks or splits still passes); a new circle, or a known one that takes in another
# file, fails. Remove an entry once its circle is untied (the run says when one is gone).
KNOWN = {
    "python": [{"batch.rs", "dynamic.rs"}],
    "wasm": [{"job.rs", "local.rs"}],
    "web": [
        {"db.rs", "resign.rs", "store.rs", "tokens.rs"},
        {"analysis_http.rs", "api.rs", "host.rs", "live.rs", "openapi.rs", "review.rs"},
    ],
    "xiangqi": [
        {"eval.rs", "game.rs", "position.rs", "rules.rs"},
    ],
}

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip_comments_and_strings(text):
    """The code without comments, string and char literals (a left-to-right scan)."""
    token = re.compile(
        r"//[^\n]*"  # line comment
        r"|/\*(?:.|\n)*?\*/"  # block comment (not nested; enough here)
        r"|\bb?r(#*)\"(?:.|\n)*?\"\1"  # raw string
        r"|b?\"(?:\\.|[^\"\\])*\""  # string
        r"|b?'(?:\\.|[^'\\\n])'"  # char literal (a lifetime has no closing quote)
    )
    return token.sub(lambda m: '""' if m.group(0)[-1] in "\"'#" else " ", text)


def module_of(src, path):
    """The module path (a tuple) of `path` under the crate's `src` folder."""
    rel = os.path.relpath(path, src)[: -len(".rs")].split(os.sep)
    if rel[-1] == "mod" or (len(rel) == 1 and rel[0] in ("lib", "main")):
        rel = rel[:-1]
    return tuple(rel)


def expand_use_tree(text):
    """Every full path of a use tree `a::{b, c::{d, e}}` as a list of segment lists."""
    out = []

    def parse(s, i, prefix):
        # Reads items separated by commas until a closing brace or the end.
        while i < len(s):
            m = re.match(r"\s*((?:" + IDENT + r"\s*::\s*)*)(\{|" + IDENT + r"|\*)?", s[i:])
            segs = [x for x in re.split(r"\s*::\s*", m.group(1).strip()) if x]
            i += m.end()
            tail = m.group(2)
            if tail == "{":
                i = parse(s, i, prefix + segs)
            elif tail is not None:
                out.append(prefix + segs + ([tail] if tail != "*" else []))
            # Skip `as name`, spaces; then a comma or a closing brace.
            m2 = re.match(r"\s*(?:as\s+" + IDENT + r")?\s*", s[i:])
            i += m2.end()
            if i < len(s) and s[i] == ",":
                i += 1
                continue
            if i < len(s) and s[i] == "}":
                return i + 1
            break
        return i

    parse(text, 0, [])
    return out


def crate_files(src):
    files = sorted(glob.glob(os.path.join(src, "**", "*.rs"), recursive=True))
    return {module_of(src, f): f for f in files}


def resolve(modules, here, segs, top_level):
    """The module (a key of `modules`) the path `segs`, written in module `here`, lands in."""
    if not segs:
        return None
    if segs[0] == "crate":
        base, rest = (), segs[1:]
    elif segs[0] == "super":
        if not top_level:
            return here
        base, rest = here[:-1], segs[1:]
        while rest and rest[0] == "super":
            base, rest = base[:-1], rest[1:]
    elif segs[0] == "self":
        base, rest = here, segs[1:]
    else:
        return None
    best = base if base in modules else None
    cur = base
    for s in rest:
        cur = cur + (s,)
        if cur in modules:
            best = cur
        else:
            break
    return best


def edges_of(modules):
    edges = {m: set() for m in modules}
    for here, path in modules.items():
        code = strip_comments_and_strings(open(path, encoding="utf-8").read())
        # use items (possibly multi-line trees), with the indentation of the `use` line.
        for m in re.finditer(r"(?m)^([ \t]*)(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]*);", code):
            top = m.group(1) == ""
            for segs in expand_use_tree(m.group(2)):
                target = resolve(modules, here, segs, top)
                if target is not None and target != here:
                    edges[here].add(target)
        # paths in expressions and types: crate::a::b, super::a (outside use lines).
        body = re.sub(r"(?m)^[ \t]*(?:pub(?:\([^)]*\))?\s+)?use\s+[^;]*;", "", code)
        for line in body.split("\n"):
            top = not line.startswith((" ", "\t"))
            for m in re.finditer(r"\b((?:crate|super)(?:\s*::\s*" + IDENT + r")+)", line):
                segs = re.split(r"\s*::\s*", m.group(1))
                # In an indented line `super` still means the file's parent when the file
                # has no inline module; treat indented `super::` as the parent unless the
                # file has an inline module.
                inline = re.search(r"(?m)^\s*(?:pub\s+)?mod\s+" + IDENT + r"\s*\{", code)
                target = resolve(modules, here, segs, top or not inline)
                if target is not None and target != here:
                    edges[here].add(target)
    return edges


def sccs(edges):
    """Tarjan's strongly connected components."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    show_edges = "--edges" in sys.argv[1:]
    known_only = "--known" in sys.argv[1:]
    circles = new = 0
    seen_known = set()
    for src in sorted(glob.glob(os.path.join(ROOT, "crates", "*", "src"))):
        crate = os.path.basename(os.path.dirname(src))
        modules = crate_files(src)
        edges = edges_of(modules)
        name = lambda m: os.path.relpath(modules[m], src)
        if show_edges:
            for a in sorted(edges):
                for b in sorted(edges[a]):
                    print(f"{crate}: {name(a)} -> {name(b)}")
        for comp in sccs(edges):
            if len(comp) > 1:
                circles += 1
                files = {name(m) for m in comp}
                known = [i for i, k in enumerate(KNOWN.get(crate, [])) if files <= k]
                seen_known.update((crate, i) for i in known)
                if not known:
                    new += 1
                mark = " (known)" if known_only and known else ""
                print(f"crates/{crate}/src: a circle of {len(comp)} files{mark}: "
                      + ", ".join(name(m) for m in comp))
    print(f"{circles} circle(s) of imports inside crates")
    if not known_only:
        return 1 if circles else 0
    for crate, ks in sorted(KNOWN.items()):
        for i, k in enumerate(ks):
            if (crate, i) not in seen_known:
                print(f"known circle in crates/{crate}/src is gone ({', '.join(sorted(k))}): "
                      "remove it from KNOWN")
    if new:
        print(f"{new} circle(s) not in KNOWN: untie them (see issue #60)")
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
