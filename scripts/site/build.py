#!/usr/bin/env python3
"""Builds qiyi's static site into a folder: every game, its AI and solver in WebAssembly, playable
offline once loaded. Put the folder on any static file host (see README, "Hosting the static site").

    python3 scripts/site/build.py OUT            (or: scripts/site/build.sh OUT)

Needs: the Rust target (`rustup target add wasm32-unknown-unknown`) and wasm-bindgen-cli at the
version of the wasm-bindgen crate in Cargo.lock (`cargo install wasm-bindgen-cli --version V`);
uses binaryen's `wasm-opt` when it is on PATH (Debian: `apt-get install binaryen`). Runs cargo
under `nice -n 10`, in $CARGO_TARGET_DIR when set (else target/). Prints the size of every file and what a first visit downloads, gzipped.
"""
import argparse
import gzip
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "crates/web/assets"
SITE = ROOT / "crates/wasm/site"
TARGET = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
WASM = (ROOT / TARGET).resolve() / "wasm32-unknown-unknown/release/qiyi_wasm.wasm"
PAGES = ["index.html", "play.html", "puzzles.html", "lab.html"]  # games.html (the archive) needs a server


def puzzle_games():
    """The games with a puzzle set: the server's list (`GAMES` in crates/web/src/puzzles.rs),
    which the site's puzzle book checks too."""
    text = (ROOT / "crates/web/src/puzzles.rs").read_text()
    m = re.search(r"pub const GAMES: \[&str; \d+\] = \[(.*?)\];", text, re.S)
    if not m:
        fail("no GAMES list in crates/web/src/puzzles.rs")
    return re.findall(r'"([a-z-]+)"', m.group(1))


def fail(msg):
    print(f"build.py: error: {msg}", file=sys.stderr)
    sys.exit(1)


def run(cmd, **kw):
    print("+ " + " ".join(str(c) for c in cmd), flush=True)
    r = subprocess.run(cmd, cwd=ROOT, **kw)
    if r.returncode != 0:
        fail(f"{cmd[0]} failed with status {r.returncode}")


def locked_version(name):
    text = (ROOT / "Cargo.lock").read_text()
    m = re.search(r'\[\[package\]\]\nname = "%s"\nversion = "([^"]+)"' % re.escape(name), text)
    if not m:
        fail(f"{name} is not in Cargo.lock")
    return m.group(1)


def workspace_repository():
    m = re.search(r'^repository = "([^"]+)"', (ROOT / "Cargo.toml").read_text(), re.M)
    return m.group(1) if m else "https://example.invalid/qiyi"


def png(size):
    """A plain icon: a board-game piece (a ring on a disc) on the site's colour, as PNG bytes."""
    bg, disc, ring = (0xF6, 0xEF, 0xE2), (0xFF, 0xFA, 0xF0), (0xB5, 0x34, 0x1C)
    c = (size - 1) / 2
    rows = []
    for y in range(size):
        row = bytearray([0])
        for x in range(size):
            d = ((x - c) ** 2 + (y - c) ** 2) ** 0.5 / (size / 2)
            row += bytes(ring if 0.62 < d < 0.78 or d < 0.2 else disc if d < 0.86 else bg)
        rows.append(bytes(row))
    chunk = lambda t, b: struct.pack(">I", len(b)) + t + b + struct.pack(">I", zlib.crc32(t + b) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))


def static_page(html):
    """A server page as a static one: relative addresses, the in-browser engine loaded before
    backend.js, the manifest and the site script."""
    html = html.replace('"/assets/', '"assets/')
    html = html.replace('href="/"', 'href="./"').replace('href="/lab"', 'href="lab.html"')
    head = ('<link rel="manifest" href="manifest.webmanifest">\n'
            '<meta name="theme-color" content="#8a6d43">\n</head>')
    html = html.replace("</head>", head, 1)
    engine = ('<script src="site.js"></script>\n<script src="pkg/qiyi_wasm.js"></script>\n'
              '<script src="local.js"></script>\n<script src="assets/backend.js"></script>')
    if '<script src="assets/backend.js"></script>' in html:
        html = html.replace('<script src="assets/backend.js"></script>', engine, 1)
    else:  # the Lab: tables and charts only
        html = html.replace("</body>", '<script src="site.js"></script>\n</body>', 1)
    # What needs a server is said once, by site.js; the server's archive/API lines go.
    html = re.sub(r'<li><a href="/games".*?</li>\n?', "", html, flags=re.S)
    # The puzzle pages: one page, the game in its query (as play.html).
    html = re.sub(r'href="/puzzles/([a-z-]+)"', r'href="puzzles.html?game=\1"', html)
    html = re.sub(r'<a href="/games"[^>]*>[^<]*</a>( · )?', "", html)
    html = re.sub(r'<footer><span data-i18n="home.api">.*?</footer>\n?', "", html, flags=re.S)
    html = re.sub(r' · API: <code>/api/games</code> \(see crates/web/API.md\)', "", html)
    return html


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", help="folder to write the site into (emptied first)")
    ap.add_argument("--skip-cargo", action="store_true", help="use the wasm already built")
    args = ap.parse_args()
    out = Path(args.out).resolve()
    if out == ROOT or ROOT in out.parents and out.parts[len(ROOT.parts)] not in ("target",):
        fail(f"{out}: write the site outside the sources (or under target/)")

    version = locked_version("wasm-bindgen")
    wbg = os.environ.get("WASM_BINDGEN", "wasm-bindgen")
    if not shutil.which(wbg):
        fail(f"no {wbg}: install it with `cargo install wasm-bindgen-cli --version {version}`")
    have = subprocess.run([wbg, "--version"], capture_output=True, text=True).stdout.split()
    if len(have) < 2 or have[1] != version:
        fail(f"{wbg} is {' '.join(have) or 'unknown'}, but Cargo.lock has wasm-bindgen {version}: "
             f"cargo install wasm-bindgen-cli --version {version}")

    if not args.skip_cargo:
        # WebAssembly SIMD (every current browser: Chrome 91, Firefox 89, Safari 16.4): the
        # checkers network's layers run 4-16 lanes at a time (local.js names a browser without it).
        env = dict(os.environ)
        env.setdefault("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS", "-C target-feature=+simd128")
        run(["nice", "-n", "10", "cargo", "build", "--release", "--target", "wasm32-unknown-unknown",
             "-p", "qiyi-wasm"], env=env)
    if out.exists():
        shutil.rmtree(out)
    (out / "pkg").mkdir(parents=True)
    run([wbg, "--target", "no-modules", "--no-typescript", "--out-dir", out / "pkg", WASM])
    wasm = out / "pkg/qiyi_wasm_bg.wasm"
    if shutil.which("wasm-opt"):
        # Old binaryen releases (Debian 12 has 108) cannot read what current rustc emits
        # (reference types, bulk memory): then the wasm stays as rustc wrote it.
        opt = subprocess.run(["wasm-opt", "-O3", "--detect-features", wasm, "-o", wasm.with_suffix(".opt")],
                             capture_output=True, text=True)
        if opt.returncode == 0:
            wasm.with_suffix(".opt").replace(wasm)
        else:
            print("(wasm-opt could not read the module, left as rustc wrote it: " + opt.stderr.strip().splitlines()[-1] + ")")
    else:
        print("(no wasm-opt on PATH: the wasm is left as rustc wrote it)")

    # The page's assets, the static pages, the in-browser back end.
    shutil.copytree(ASSETS, out / "assets", ignore=shutil.ignore_patterns("*.html"))
    for page in PAGES:
        (out / page).write_text(static_page((ASSETS / page).read_text()))
    repo = workspace_repository()
    for f in ["local.js", "engine-worker.js", "manifest.webmanifest", "site.js"]:
        (out / f).write_text((SITE / f).read_text().replace("https://example.invalid/qiyi", repo))
    (out / "icons").mkdir()
    for size in (192, 512):
        (out / f"icons/icon-{size}.png").write_bytes(png(size))

    # The aeroplane tables, packed (see crates/wasm/src/pack.rs) and gzipped.
    (out / "data").mkdir()
    with tempfile.TemporaryDirectory() as tmp:
        packed = Path(tmp) / "tables.bin"
        run(["nice", "-n", "10", "cargo", "run", "--quiet", "-p", "qiyi-wasm", "--example",
             "pack_tables", "--", packed])
        (out / "data/aeroplane-tables.bin.gz").write_bytes(gzip.compress(packed.read_bytes(), 9, mtime=0))

    # The puzzle sets, gzipped, fetched when a game's puzzle page opens (local.js).
    (out / "data/puzzles").mkdir()
    for g in puzzle_games():
        text = (ROOT / f"crates/{g}/puzzles/{g}.jsonl").read_bytes()
        (out / f"data/puzzles/{g}.jsonl.gz").write_bytes(gzip.compress(text, 9, mtime=0))

    # The service worker caches every file of this version at install, except the aeroplane
    # tables, the puzzle sets and the Lab's data, which it keeps once they were fetched (so a
    # first visit stays small, and aeroplane plays offline once it was played online, a game's
    # puzzles once its puzzle page was opened online).
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    precache = [f for f in files if not f.startswith(("data/", "assets/lab/"))]
    digest = hashlib.sha256()
    for f in files:
        digest.update(f.encode() + b"\0" + (out / f).read_bytes())
    sw = (SITE / "sw.js").read_text()
    sw = sw.replace("@VERSION@", digest.hexdigest()[:16]).replace("@FILES@", json.dumps(["./"] + precache))
    (out / "sw.js").write_text(sw)

    # Sizes: every file, and what a first visit (home, then one game) downloads gzipped.
    first = ["index.html", "play.html", "sw.js", "site.js", "local.js", "engine-worker.js",
             "manifest.webmanifest", "pkg/qiyi_wasm.js", "pkg/qiyi_wasm_bg.wasm"]
    first += [f for f in files if f.startswith("assets/") and f.endswith((".js", ".css", ".woff2", ".svg")) and "/lab/" not in f]
    first += [f for f in files if f.startswith("assets/i18n/") and f.endswith(".json")]  # both catalogs, bounding the one loaded
    gz = lambda f: len(gzip.compress((out / f).read_bytes(), 9))
    total = sum(gz(f) for f in first)
    print(f"site: {out} ({len(files) + 1} files, version {digest.hexdigest()[:16]})")
    print(f"wasm: {wasm.stat().st_size} bytes, {gz('pkg/qiyi_wasm_bg.wasm')} gzipped")
    print(f"first visit (home + a game page, gzipped): {total} bytes; "
          f"aeroplane tables once when aeroplane is played: {(out / 'data/aeroplane-tables.bin.gz').stat().st_size} bytes")
    puzzle_sizes = {f.name.split(".")[0]: f.stat().st_size for f in sorted((out / "data/puzzles").iterdir())}
    print("puzzle sets, each once when its puzzle page opens (gzipped bytes): "
          + ", ".join(f"{g} {n}" for g, n in puzzle_sizes.items()))
    print(json.dumps({"wasm_bytes": wasm.stat().st_size, "wasm_gzip": gz("pkg/qiyi_wasm_bg.wasm"),
                      "first_visit_gzip": total,
                      "aeroplane_tables_gzip": (out / "data/aeroplane-tables.bin.gz").stat().st_size,
                      "puzzles_gzip": puzzle_sizes}))


if __name__ == "__main__":
    main()
