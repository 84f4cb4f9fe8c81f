#!/usr/bin/env python3
"""Plays full English checkers games with pydraughts' HubEngine driving `qiyi hub`.

pydraughts (an independent implementation) keeps the board, checks that every move the engine
returns is legal, and decides when the game is over. One side is `qiyi hub` at the given level,
the other a seeded random mover (or a second `qiyi hub` with --both).

Setup (outside the repository):
    python3 -m venv /work/venv-ckengine && /work/venv-ckengine/bin/pip install pydraughts==0.6.7
Run:
    /work/venv-ckengine/bin/python scripts/checkers/hub_pydraughts.py --qiyi target/release/qiyi \
        --games 4 --movetime 0.05
Exit status 0 when every game finished with only legal engine moves.
"""
import argparse
import random
import sys

import draughts
from draughts.engine import HubEngine, Limit


def play(args, game_no, rng):
    board = draughts.Board(variant="english")
    engines = {}
    qiyi_colour = draughts.WHITE if game_no % 2 else draughts.BLACK
    for colour in (draughts.WHITE, draughts.BLACK):
        if args.both or colour == qiyi_colour:
            e = HubEngine([args.qiyi, "hub", "--level", args.level])
            e.init()
            engines[colour] = e
    plies = 0
    while not board.is_over() and plies < args.max_plies:
        legal = board.legal_moves()
        if board.turn in engines:
            result = engines[board.turn].play(board, Limit(movetime=args.movetime), ponder=False)
            move = result.move
            if move.pdn_move not in [m.pdn_move for m in legal]:
                print(f"game {game_no}: illegal engine move {move.pdn_move}", file=sys.stderr)
                return False, "illegal"
        else:
            move = rng.choice(legal)
        board.push(move)
        plies += 1
    for e in engines.values():
        e.quit()
        e.kill_process()
    winner = board.winner() if board.is_over() else None
    who = {draughts.WHITE: "pydraughts-white", draughts.BLACK: "pydraughts-black", 0: "draw", None: "unfinished"}
    qiyi_won = winner == qiyi_colour
    print(f"game {game_no}: {plies} plies, winner {who.get(winner, winner)}"
          f"{' (qiyi)' if qiyi_won else ''}, final {board.fen}")
    return True, ("qiyi" if qiyi_won else str(winner))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--qiyi", required=True)
    ap.add_argument("--level", default="10")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--movetime", type=float, default=0.05)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--both", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    ok_all = True
    results = []
    for g in range(args.games):
        ok, res = play(args, g, rng)
        ok_all &= ok
        results.append(res)
    print("results:", results)
    sys.exit(0 if ok_all else 1)


if __name__ == "__main__":
    main()
