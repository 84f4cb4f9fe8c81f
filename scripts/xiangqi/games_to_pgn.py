#!/usr/bin/env python3
"""Turns the games `qiyi match xiangqi --games-out FILE` writes (one JSON line each: the opening
FEN, whether A had red, ICCS moves, the end and A's score) into one XQ PGN file (a `FEN` tag for
the opening, ICCS moves `H2-E2`), what `qiyi review xiangqi` and `fsf_agreement.py` read.

    python3 scripts/xiangqi/games_to_pgn.py games.jsonl --a qiyi --b ElephantEye \
        --event "qiyi vs ElephantEye, 100 ms/move, seed 1" > games.pgn
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("jsonl")
    ap.add_argument("--a", default="A", help="player A's name")
    ap.add_argument("--b", default="B", help="player B's name")
    ap.add_argument("--event", default="qiyi match xiangqi")
    args = ap.parse_args()
    with open(args.jsonl, encoding="utf8") as f:
        games = [json.loads(l) for l in f if l.strip()]
    out = []
    for i, g in enumerate(games):
        red, black = (args.a, args.b) if g["a_is_red"] else (args.b, args.a)
        red_score = g["a_score"] if g["a_is_red"] else 1 - g["a_score"]
        result = {1: "1-0", 0: "0-1"}.get(red_score, "1/2-1/2")
        fen = g["opening"]
        black_first = fen.split()[1].lower() == "b"
        tags = [("Event", args.event), ("Round", str(i + 1)), ("Red", red), ("Black", black),
                ("Result", result), ("FEN", fen), ("Format", "ICCS"),
                ("Termination", g["end"])]
        lines = [f'[{k} "{v}"]' for k, v in tags]
        body, n = [], 1
        for j, m in enumerate(g["moves"]):
            mv = f"{m[:2].upper()}-{m[2:].upper()}"
            if black_first and j == 0:
                body.append(f"{n}... {mv}")
                n += 1
            elif (j % 2 == 0) != black_first:
                body.append(f"{n}. {mv}")
            else:
                body.append(mv)
                n += 1
        body.append(result)
        text, line = [], ""
        for tok in body:
            if len(line) + len(tok) + 1 > 90:
                text.append(line)
                line = tok
            else:
                line = f"{line} {tok}" if line else tok
        text.append(line)
        out.append("\n".join(lines) + "\n\n" + "\n".join(text) + "\n")
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
