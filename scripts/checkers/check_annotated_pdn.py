#!/usr/bin/env python3
"""Checks `qiyi review checkers --annotate` with a PDN reader we did not write (pydraughts).

Reviews GAME (a PDN file) with the qiyi binary, then reads both the original and the annotated
file with pydraughts' PDNReader: the main lines and results must be equal and every move legal on
pydraughts' own English board. Every variation (the better line after a poor move) is replayed on
pydraughts' board from the position before the move it replaces: each of its moves must be legal
there. The annotated file must carry one evaluation comment per move, and the marks and
variations must agree with the review's JSON (one variation per inaccuracy, mistake or blunder
whose best move differs).

    python3 scripts/checkers/check_annotated_pdn.py --qiyi target/release/qiyi \
        --game crates/checkers/tests/data/review-game.pdn --depth 8

Needs `pip install pydraughts`. Exit status 0 when every check passes.
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile

from draughts import Board
from draughts.PDN import PDNReader


def squares(text):
    return [int(x) for x in re.split(r"[-x]", text)]


def find(board, text):
    """The legal pydraughts move whose squares are those of `text` (None when illegal)."""
    sq = squares(text)
    for m in board.legal_moves():
        st = m.steps_move
        if st == sq or (len(sq) == 2 and st[0] == sq[0] and st[-1] == sq[-1]):
            return m
    return None


def replay(moves):
    board = Board(variant="english")
    for i, t in enumerate(moves):
        m = find(board, t)
        if m is None:
            sys.exit(f"FAIL: main-line move {i + 1} ({t}) is illegal on pydraughts' board")
        board.push(m)
    return board


def movetext(text):
    """The annotated file's tokens after the tags, comments removed."""
    body = "\n".join(l for l in text.splitlines() if not l.startswith("["))
    comments = re.findall(r"\{[^{}]*\}", body)
    body = re.sub(r"\{[^{}]*\}", " ", body)
    tokens = re.findall(r"\(|\)|\d+\.(?:\.\.)?|[0-9]+(?:[-x][0-9]+)+[?!]*|1-0|0-1|1/2-1/2|\*", body)
    return tokens, comments


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qiyi", required=True)
    ap.add_argument("--game", required=True)
    ap.add_argument("--depth", type=int, default=8)
    args = ap.parse_args()

    with tempfile.NamedTemporaryFile(suffix=".pdn") as out:
        run = subprocess.run(
            [args.qiyi, "--json", "review", "checkers", args.game, "--depth", str(args.depth),
             "--annotate", out.name],
            capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"FAIL: qiyi review exited {run.returncode}: {run.stderr}")
        review = json.loads(run.stdout)
        with open(out.name, encoding="utf8") as f:
            annotated = f.read()

    original = PDNReader(filename=args.game).games[0]
    read_back = PDNReader(pdn_text=annotated).games[0]
    if read_back.moves != original.moves:
        sys.exit(f"FAIL: pydraughts reads {len(read_back.moves)} moves from the annotated file, "
                 f"{len(original.moves)} from the original (first difference at "
                 f"{next((i for i, (a, b) in enumerate(zip(read_back.moves, original.moves)) if a != b), None)})")
    if read_back.game_ending != original.game_ending:
        sys.exit(f"FAIL: result {read_back.game_ending!r} read back, {original.game_ending!r} given")
    replay(read_back.moves)
    plies = review["plies"]
    if len(plies) != len(original.moves):
        sys.exit(f"FAIL: the review has {len(plies)} plies for {len(original.moves)} moves")

    tokens, comments = movetext(annotated)
    evals = [c for c in comments if "[%eval" in c or "database:" in c]
    if len(evals) != len(plies):
        sys.exit(f"FAIL: {len(evals)} evaluation comments for {len(plies)} moves")

    # Walk the main line; replay each variation from the position before the move it follows.
    main_line, variations, depth, current = [], 0, 0, None
    marks = []
    for tok in tokens:
        if tok == "(":
            depth += 1
            before = replay(main_line[:-1])
            current = before
            continue
        if tok == ")":
            depth -= 1
            variations += 1
            continue
        if re.fullmatch(r"\d+\.(\.\.)?|1-0|0-1|1/2-1/2|\*", tok):
            continue
        move = tok.rstrip("?!")
        if depth == 0:
            main_line.append(move)
            marks.append(tok[len(move):])
        else:
            m = find(current, move)
            if m is None:
                sys.exit(f"FAIL: variation move {move} after main-line move {len(main_line)} is illegal")
            current.push(m)
    if main_line != original.moves:
        sys.exit("FAIL: the main line read by this script differs from pydraughts'")
    want_marks = ["" if p["forced"] else {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}.get(p["class"], "")
                  for p in plies]
    if marks != want_marks:
        bad = next(i for i, (a, b) in enumerate(zip(marks, want_marks)) if a != b)
        sys.exit(f"FAIL: move {bad + 1} is marked {marks[bad]!r}, the review says {want_marks[bad]!r}")
    want_vars = sum(1 for p, m in zip(plies, want_marks) if m and p["loss"] > 0 and p["best"] != p["played"] and p["line"])
    if variations != want_vars:
        sys.exit(f"FAIL: {variations} variations, the review has {want_vars} poor moves with a better line")
    print(f"ok: {len(plies)} moves read back by pydraughts and legal on its board, "
          f"{len(evals)} evaluations, {sum(1 for m in marks if m)} marks, {variations} variations "
          f"replayed legally (depth {args.depth})")


if __name__ == "__main__":
    main()
