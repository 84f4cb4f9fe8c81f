#!/usr/bin/env python3
"""Writes the fixed set of middlegame positions the checkers depth table uses
(crates/checkers/data/middlegames.tsv): 24 tournament ballots (every 6th of the 156, in ACF
order), each played on for 10-20 plies (and on past forced single replies) by qiyi's previous engine (core's searcher, `--search
core`, fixed depth 8, deterministic), so the set does not move when the engine changes.

usage: depth_positions.py --qiyi target/release/qiyi [--out crates/checkers/data/middlegames.tsv]
needs pydraughts (to apply the moves and write the FEN): pip install pydraughts==0.6.7
"""
import argparse, json, subprocess, sys
from pathlib import Path
from draughts import Board

ROOT = Path(__file__).resolve().parents[2]


def ballots():
    out = []
    for line in (ROOT / "crates/checkers/data/ballots-3move.tsv").read_text().splitlines():
        if line.startswith("#"):
            continue
        num, _m1, _m2, _m3, status, fen = line.split("\t")
        if status != "barred":
            out.append((int(num), fen))
    return out


def qiyi_move(qiyi, fen):
    r = subprocess.run([qiyi, "--threads", "1", "--json", "analyze", "checkers", "--fen", fen,
                        "--depth", "8", "--search", "core"],
                       capture_output=True, text=True, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])["bestmove"]


def play(board, text):
    sq = [int(x) for x in text.replace("x", "-").split("-")]
    for m in board.legal_moves():
        if m.steps_move == sq or (len(sq) == 2 and m.steps_move[0] == sq[0] and m.steps_move[-1] == sq[-1]):
            board.push(m)
            return
    raise SystemExit(f"qiyi played {text}, not legal in {board.fen}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--qiyi", required=True)
    ap.add_argument("--out", default=str(ROOT / "crates/checkers/data/middlegames.tsv"))
    a = ap.parse_args()
    rows = []
    for i, (num, fen) in enumerate(ballots()[::6][:24]):
        plies = 10 + (i * 7) % 11
        b = Board(variant="english", fen=fen)
        moves = []
        # The planned plies, then on while the side to move has a single legal move (an engine
        # answers a forced move at once, so such a position says nothing about its depth).
        while len(moves) < plies or len(list(b.legal_moves())) == 1:
            if not list(b.legal_moves()) or len(moves) >= plies + 6:
                break
            mv = qiyi_move(a.qiyi, b.fen)
            play(b, mv)
            moves.append(mv)
        rows.append(f"{num}\t{len(moves)}\t{b.fen}\t{' '.join(moves)}")
        print(rows[-1], file=sys.stderr)
    head = ("# Middlegame positions for the checkers depth table (docs/performance.md): tournament\n"
            "# ballot, plies played after it by qiyi's previous engine (core search, depth 8), the\n"
            "# position (pydraughts FEN), the moves. Regenerate: scripts/checkers/depth_positions.py\n"
            "# ballot\tplies\tfen\tmoves\n")
    Path(a.out).write_text(head + "\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
