#!/usr/bin/env python3
"""How often `qiyi review checkers` agrees with a deeper search on the moves it classes.

For every game of a match log (the format `qiyi match checkers --log` and ck_match.py write), the
game is reviewed at the review's depth; then every move it calls a blunder or a mistake, and a
seeded sample of the moves it calls best, is judged again by a deep search: the engine searches
the position after the move played and after the review's best move to `--deep` plies, and the
loss of win chance between the two (the review's own logistic slope) is compared with the
class. Positions are replayed with pydraughts (not our move generator), and the engine gets
each child as a fresh position (no game history).

    python3 scripts/checkers/review_agreement.py --qiyi target/release/qiyi \
        --log games.log --depth 16 --deep 22 --best-sample 20 --seed 1

Prints one line per judged move and a summary: the share of blunders whose deep loss is at least
the blunder threshold (0.15), at least the mistake threshold (0.10), and of best moves whose deep
loss is below the inaccuracy threshold (0.05). Needs `pip install pydraughts`.
"""
import argparse
import json
import math
import random
import re
import subprocess
import tempfile

from draughts import Board

INACCURACY, MISTAKE, BLUNDER = 0.05, 0.10, 0.15


def find(board, text):
    sq = [int(x) for x in re.split(r"[-x]", text)]
    for m in board.legal_moves():
        st = m.steps_move
        if st == sq or (len(sq) == 2 and st[0] == sq[0] and st[-1] == sq[-1]):
            return m
    raise SystemExit(f"illegal move {text} in {board.fen}")


def qiyi_json(qiyi, args):
    run = subprocess.run([qiyi, "--json", *args], capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"qiyi {' '.join(args)}: {run.stderr.strip()}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def read_log(path):
    with open(path, encoding="utf8") as lines:
        for line in lines:
            f = dict(x.split(" ", 1) for x in line.rstrip("\n").split("\t")[1:] if " " in x)
            if "fen" in f and "moves" in f:
                yield f["fen"], f["moves"].split()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qiyi", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--depth", type=int, default=16, help="the review's depth")
    ap.add_argument("--deep", type=int, default=22, help="the deep search's depth on each child")
    ap.add_argument("--games", type=int, default=1000, help="at most this many games of the log")
    ap.add_argument("--best-sample", type=int, default=20, help="best moves judged per game")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    judged = {"blunder": [], "mistake": [], "best": []}
    for gi, (fen, moves) in enumerate(read_log(args.log)):
        if gi >= args.games:
            break
        pdn = f'[FEN "{fen}"]\n\n' + " ".join(moves) + " *\n"
        with tempfile.NamedTemporaryFile("w", suffix=".pdn") as f:
            f.write(pdn)
            f.flush()
            review = qiyi_json(args.qiyi, ["review", "checkers", f.name, "--depth", str(args.depth)])
        slope = float(re.search(r"slope ([0-9.]+)", review["judge"]).group(1))
        plies = review["plies"]
        best_plies = [p for p in plies if p["class"] == "best" and not p["forced"] and not p["exact"]]
        sample = rng.sample(best_plies, min(args.best_sample, len(best_plies)))
        chosen = {p["ply"] for p in sample}
        board = Board(variant="english", fen=fen)
        for p in plies:
            cls = p["class"]
            want = (cls in ("blunder", "mistake") and not p["exact"]) or p["ply"] in chosen
            if want and p["best"] != p["played"]:
                vals = []
                for mv in (p["played"], p["best"]):
                    child = Board(variant="english", fen=board.fen)
                    child.push(find(child, mv))
                    if not list(child.legal_moves()):
                        vals.append(1.0)
                        continue
                    a = qiyi_json(args.qiyi, ["analyze", "checkers", "--fen", child.fen, "--depth", str(args.deep)])
                    vals.append(1.0 / (1.0 + math.exp(slope * a["score"])))
                loss = vals[1] - vals[0]
                judged[cls if cls != "best" else "best"].append(loss)
                print(f"game {gi + 1} ply {p['ply'] + 1}: {p['played']} ({cls}, review loss {p['loss']:.3f}), "
                      f"best {p['best']}: deep loss {loss:+.3f}", flush=True)
            elif want:
                judged["best"].append(0.0)
            board.push(find(board, p["played"]))

    def rate(xs, ok):
        return f"{sum(1 for x in xs if ok(x))}/{len(xs)}" + (f" = {100 * sum(1 for x in xs if ok(x)) / len(xs):.0f}%" if xs else "")

    print(f"review depth {args.depth}, deep search depth {args.deep} on each child, seed {args.seed}")
    print(f"blunders with a deep loss >= {BLUNDER}: {rate(judged['blunder'], lambda x: x >= BLUNDER)}; "
          f">= {MISTAKE}: {rate(judged['blunder'], lambda x: x >= MISTAKE)}")
    print(f"mistakes with a deep loss >= {MISTAKE}: {rate(judged['mistake'], lambda x: x >= MISTAKE)}; "
          f">= {INACCURACY}: {rate(judged['mistake'], lambda x: x >= INACCURACY)}")
    print(f"best moves with a deep loss < {INACCURACY}: {rate(judged['best'], lambda x: x < INACCURACY)}")


if __name__ == "__main__":
    main()
