#!/usr/bin/env python3
"""Oracle fixture for qiyi-checkers: positions from seeded random playouts with their legal move
sets, all computed by an independent implementation, pydraughts (`Board(variant="english")`).

Writes crates/checkers/tests/data/oracle-pydraughts.tsv: one line per position,
`FEN <tab> full paths <tab> pdn moves`: the full path of every legal move built from pydraughts'
`steps_move` (every landing square, e.g. `10x17x26x19x10`), sorted, and in the same order
pydraughts' own `pdn_move` text, which is the short form `10x26` unless two captures share their
first and last squares.

A second independent implementation, clatsop 0.1.0 (`Ruleset.american()`), gives for every
position the number of legal moves and an FNV-1a-64 digest of the sorted list of positions they
lead to (each `%08x%08x%08x` of the black, white and king bitboards, bit i = square i + 1, joined
by newlines); clatsop names moves by rule indices, not squares, so positions are compared.

Conventions checked against qiyi (see crates/checkers/README.md):
- pydraughts writes FEN squares in string order (`B1,10,11,2,...`); the PDN meaning is the same.
- pydraughts lists both king "windmill" paths that take the same pieces; so does qiyi.
- Only the rules' move sets are compared; pydraughts' draw handling is not used.

Setup (outside the repo):
    python3 -m venv /work/venv-checkers && /work/venv-checkers/bin/pip install pydraughts==0.6.7 clatsop==0.1.0
Positions come from seeded random playouts: from the start position, and (for kings and
multi-jumps in numbers) 12-ply playouts from random setups of 3-12 pieces a side.

Usage:
    /work/venv-checkers/bin/python scripts/checkers/gen_fixture.py [--games N] [--seed S]
"""
import argparse
import os
import random

import clatsop
from draughts import Board

CLATSOP = clatsop.Ruleset.american()


def fen_masks(fen):
    """(black, white, kings, black_to_move) bitboards (bit i = square i + 1) of a PDN FEN."""
    fields = fen.split(":")
    masks = {"B": 0, "W": 0}
    kings = 0
    for f in fields[1:]:
        for item in filter(None, f[1:].split(",")):
            king = item.startswith("K")
            bit = 1 << (int(item.lstrip("K")) - 1)
            masks[f[0]] |= bit
            if king:
                kings |= bit
    return masks["B"], masks["W"], kings, 1 if fields[0] == "B" else 0


def fnv1a64(text):
    h = 0xCBF29CE484222325
    for byte in text.encode():
        h ^= byte
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def clatsop_digest(fen):
    """Second oracle, clatsop 0.1.0 `Ruleset.american()`: the number of legal moves and an FNV-1a
    digest of the sorted positions they lead to (`%08x%08x%08x` of black, white, kings)."""
    turn = clatsop.Turn.from_masks(*fen_masks(fen))
    succ = sorted("%08x%08x%08x" % (t.turn.black, t.turn.white, t.turn.kings)
                  for t in CLATSOP.legal_transitions(turn))
    return "%d:%016x" % (len(succ), fnv1a64("\n".join(succ)))


def full_path(m):
    """Every square of the move: `a-b` for a step, `axbxc...` for a capture."""
    sep = "x" if m.captures else "-"
    return sep.join(str(s) for s in m.steps_move)


def random_setup(rng):
    """A random position: 3-12 pieces a side on random squares, many of them kings (men never on
    their own crowning row), either side to move."""
    squares = list(range(1, 33))
    rng.shuffle(squares)
    lists = {"W": [], "B": []}
    for color in ("B", "W"):
        for _ in range(rng.randint(3, 12)):
            while squares:
                sq = squares.pop()
                king = rng.random() < 0.35
                crown = range(29, 33) if color == "B" else range(1, 5)
                if not king and sq in crown:
                    squares.insert(0, sq)
                    continue
                lists[color].append(("K" if king else "") + str(sq))
                break
    side = rng.choice("BW")
    return f"{side}:W{','.join(lists['W'])}:B{','.join(lists['B'])}"


def playout(board, rng, max_plies, seen, rows, stats):
    for _ply in range(max_plies):
        fen = board.fen
        moves = board.legal_moves()
        pairs = sorted((full_path(m), m.pdn_move) for m in moves)
        texts = [p[0] for p in pairs]
        if fen not in seen:
            seen.add(fen)
            rows.append((fen, texts, [p[1] for p in pairs], clatsop_digest(fen)))
            if "K" in fen:
                stats["kings"] += 1
            if any("x" in t for t in texts):
                stats["captures"] += 1
            if any(t.count("x") >= 2 for t in texts):
                stats["multi"] += 1
            ends = [(t.split("x")[0], t.split("x")[-1]) for t in texts if "x" in t]
            if len(ends) != len(set(ends)):
                stats["same_ends"] += 1
            if not texts:
                stats["terminal"] += 1
        if not moves:
            break
        board.push(rng.choice(moves))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--setups", type=int, default=300)
    ap.add_argument("--max-plies", type=int, default=120)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                  "crates", "checkers", "tests", "data",
                                                  "oracle-pydraughts.tsv"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    seen = set()
    rows = []
    stats = {"kings": 0, "captures": 0, "multi": 0, "same_ends": 0, "terminal": 0}
    # Playouts from the start position: openings and middle games.
    for _ in range(args.games):
        playout(Board(variant="english"), rng, args.max_plies, seen, rows, stats)
    # Playouts from hand-picked positions: the king windmill and a crowning capture.
    for fen in ("W:WK10:B14,15,22,23", "B:WK14,K15,K22,23:BK10,K1", "B:W26,27:B22",
                "W:WK10,K19:B14,15,22,23,6,7"):
        for _ in range(3):
            playout(Board(variant="english", fen=fen), rng, 12, seen, rows, stats)
    # Playouts from random setups: kings and multi-jumps in numbers.
    for _ in range(args.setups):
        playout(Board(variant="english", fen=random_setup(rng)), rng, 12, seen, rows, stats)
    with open(args.out, "w") as f:
        f.write("# Oracle: legal move sets from pydraughts 0.6.7 Board(variant='english'); successor digests "
                "from clatsop 0.1.0 Ruleset.american().\n")
        f.write(f"# Generated by scripts/checkers/gen_fixture.py --games {args.games} --setups {args.setups}"
                f" --seed {args.seed} --max-plies {args.max_plies}\n")
        f.write(f"# positions {len(rows)}; with kings {stats['kings']}; with captures "
                f"{stats['captures']}; with multi-jumps {stats['multi']}; with two paths between the same "
                f"squares {stats['same_ends']}; without moves {stats['terminal']}\n")
        f.write("# fen\tfull paths (from steps_move)\tpydraughts pdn_move (same order)"
                "\tclatsop count:digest of successor positions\n")
        for fen, texts, pdn, digest in rows:
            f.write(fen + "\t" + " ".join(texts) + "\t" + " ".join(pdn) + "\t" + digest + "\n")
    print(len(rows), stats)


if __name__ == "__main__":
    main()
