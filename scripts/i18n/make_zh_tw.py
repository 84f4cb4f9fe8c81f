#!/usr/bin/env python3
"""Writes the Traditional Chinese catalog (zh-TW.json) from the Simplified one (zh-CN.json).

The conversion is OpenCC's `s2twp` (Simplified to Traditional with Taiwan's words: 電腦, 設定,
軟體), then the fixes below where OpenCC picks the wrong character for these games (复盘 is 復盤,
a game review, not 覆盤). Run it whenever zh-CN.json changes; the catalog test
(e2e/i18n-catalog.test.mjs) fails if a key is missing from zh-TW.json.

    python3 -m venv /tmp/venv-cc && /tmp/venv-cc/bin/pip install opencc-python-reimplemented==0.1.7
    /tmp/venv-cc/bin/python scripts/i18n/make_zh_tw.py          # writes the file
    /tmp/venv-cc/bin/python scripts/i18n/make_zh_tw.py --check  # exit 1 if it is out of date
"""

import argparse
import json
import os
import sys

from opencc import OpenCC

HERE = os.path.dirname(os.path.abspath(__file__))
CATALOGS = os.path.join(HERE, "..", "..", "crates", "web", "assets", "i18n")

# Where s2twp's choice is wrong for a board-game site (checked by hand on the whole catalog).
FIXES = {
    "覆盤": "復盤",  # review of a game
    "棋鍾": "棋鐘",  # the chess clock (鐘, not the cup 鍾)
    "隻剩": "只剩",  # "only one left" (只, not the measure word 隻)
    "實時": "即時",  # "live", as Taiwan writes it
    "簡體 車馬炮": "簡體 车马炮",  # the simplified piece style shows its own characters
}


def convert(text, cc):
    out = cc.convert(text)
    for wrong, right in FIXES.items():
        out = out.replace(wrong, right)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="only check zh-TW.json is up to date")
    args = ap.parse_args()
    with open(os.path.join(CATALOGS, "zh-CN.json"), encoding="utf-8") as f:
        src = json.load(f)
    cc = OpenCC("s2twp")
    out = {k: (convert(v, cc) if isinstance(v, str) else v) for k, v in src.items()}
    text = json.dumps(out, ensure_ascii=False, indent=1) + "\n"
    path = os.path.join(CATALOGS, "zh-TW.json")
    if args.check:
        with open(path, encoding="utf-8") as f:
            if f.read() != text:
                sys.exit("zh-TW.json is out of date: run scripts/i18n/make_zh_tw.py")
        print("zh-TW.json is up to date")
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {path}: {len(out)} keys")


if __name__ == "__main__":
    main()
