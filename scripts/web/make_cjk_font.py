#!/usr/bin/env python3
"""Makes crates/web/assets/fonts/qiyi-cjk.woff2: the Chinese characters the page draws, cut from
Noto Serif CJK Bold, so pieces, the river and titles never depend on the visitor's fonts.

The characters are every CJK character in the page's assets and the web crate's sources (piece
names, 楚河 漢界, titles, player names, result texts) and in the Xiangqi notation (the numerals and
进/退/平 of the Chinese move list). Noto Serif CJK is under the SIL Open Font License 1.1, which
allows subsetting and embedding; the licence sits beside the font (OFL.txt).

    apt-get install fonts-noto-cjk            # Debian: NotoSerifCJK-Bold.ttc
    python3 -m venv /tmp/ft && /tmp/ft/bin/pip install fonttools brotli
    /tmp/ft/bin/python scripts/web/make_cjk_font.py [--ttc PATH]

Run it again after adding Chinese text to the page; it prints the characters and the size.
"""

import argparse
import glob
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SOURCES = ["crates/web/assets/*.js", "crates/web/assets/*.html", "crates/web/assets/*.css",
           "crates/web/src/**/*.rs", "crates/xiangqi/src/notation.rs"]
OUT = "crates/web/assets/fonts/qiyi-cjk.woff2"
TTC = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"


def is_cjk(c):
    o = ord(c)
    return 0x3000 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF or 0xFF00 <= o <= 0xFFEF


def characters():
    chars = set()
    for pattern in SOURCES:
        for path in glob.glob(os.path.join(ROOT, pattern), recursive=True):
            with open(path, encoding="utf-8") as f:
                chars |= {c for c in f.read() if is_cjk(c)}
    return "".join(sorted(chars))


def face_index(ttc, family="Noto Serif CJK SC"):
    from fontTools.ttLib import TTCollection
    for i, font in enumerate(TTCollection(ttc).fonts):
        if font["name"].getDebugName(1) == family:
            return i
    sys.exit("no face %r in %s" % (family, ttc))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ttc", default=TTC, help="Noto Serif CJK Bold collection")
    args = ap.parse_args()
    chars = characters()
    out = os.path.join(ROOT, OUT)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    subprocess.run([sys.executable, "-m", "fontTools.subset", args.ttc,
                    "--font-number=%d" % face_index(args.ttc), "--text=" + chars,
                    "--flavor=woff2", "--layout-features=", "--no-hinting",
                    "--desubroutinize", "--name-IDs=0,1,2,3,4,5,6,13,14",
                    "--output-file=" + out], check=True)
    print("%d characters: %s" % (len(chars), chars))
    print("%s: %d bytes" % (OUT, os.path.getsize(out)))


if __name__ == "__main__":
    main()
