#!/usr/bin/env python3
"""Checks `qiyi review xiangqi --annotate` with a Xiangqi move generator we did not write
(Fairy-Stockfish's, through pyffish).

Reviews GAME (an XQ PGN file) with the qiyi binary, then reads the annotated PGN back: its start
position (the `FEN` tag) and every main-line move are replayed with pyffish (variant "xiangqi"),
each move checked to be in pyffish's legal moves; the main line must be the game the review saw.
Every variation (the better line after a poor move) is replayed by pyffish from the position
before the move it replaces: each of its moves must be legal there, and its first move must be
the review's best move for that ply. The file must carry one `[%eval ...]` comment per move, and
its NAGs (`$6` ?!, `$2` ?, `$4` ??) and variations must agree with the review's JSON.

    python3 scripts/xiangqi/check_annotated_pgn.py --qiyi target/release/qiyi \
        --game crates/xiangqi/tests/data/review-game.pgn --depth 6

Needs `pip install pyffish`. Exit status 0 when every check passes; any failure exits non-zero
with a line starting `FAIL:`.
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile

import pyffish as sf

VARIANT = "xiangqi"
NAGS = {"?!": "$6", "?": "$2", "??": "$4"}


def fail(msg):
    sys.exit(f"FAIL: {msg}")


def to_uci(iccs):
    """ICCS (`H2-E2`, ranks 0-9) to Fairy-Stockfish's coordinates (`h3e3`, ranks 1-10)."""
    t = iccs.replace("-", "").lower()
    if not re.fullmatch(r"[a-i][0-9][a-i][0-9]", t):
        fail(f"{iccs!r} is not an ICCS move")
    return f"{t[0]}{int(t[1]) + 1}{t[2]}{int(t[3]) + 1}"


def fsf_fen(fen):
    """qiyi's FEN with Fairy-Stockfish's letters (horse n, elephant b)."""
    board, *rest = fen.split()
    board = board.translate(str.maketrans("hHeE", "nNbB"))
    side = rest[0] if rest else "w"
    side = "b" if side.lower() == "b" else "w"
    return f"{board} {side} - - 0 1"


def parse(text):
    """(tags, tokens): tokens are ('move', ICCS), ('nag', $n), ('comment', text), '(' and ')'."""
    tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]\s*$', text, re.M))
    body = "\n".join(l for l in text.splitlines() if not l.startswith("["))
    tokens = []
    for m in re.finditer(
            r"\{([^{}]*)\}|(\()|(\))|(\$\d+)|([A-Ia-i][0-9]-?[A-Ia-i][0-9])|(\d+\.(?:\.\.)?)"
            r"|(1-0|0-1|1/2-1/2|\*)|(\S+)", body):
        comment, op, cl, nag, mv, _num, _res, junk = m.groups()
        if comment is not None:
            tokens.append(("comment", comment))
        elif op:
            tokens.append("(")
        elif cl:
            tokens.append(")")
        elif nag:
            tokens.append(("nag", nag))
        elif mv:
            tokens.append(("move", mv))
        elif junk:
            fail(f"unexpected token {junk!r} in the move text")
    return tags, tokens


def legal_or_fail(fen, moves, uci, where):
    legal = sf.legal_moves(VARIANT, fen, moves)
    if uci not in legal:
        fail(f"{where}: {uci} is illegal for pyffish after {' '.join(moves) or 'the start'} "
             f"(legal: {' '.join(sorted(legal))})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qiyi", required=True)
    ap.add_argument("--game", required=True)
    ap.add_argument("--depth", type=int, default=6)
    args = ap.parse_args()

    with tempfile.NamedTemporaryFile(suffix=".pgn") as out:
        run = subprocess.run(
            [args.qiyi, "--json", "review", "xiangqi", args.game, "--depth", str(args.depth),
             "--annotate", out.name],
            capture_output=True, text=True)
        if run.returncode != 0:
            fail(f"qiyi review exited {run.returncode}: {run.stderr}")
        review = json.loads(run.stdout.strip().splitlines()[-1])
        with open(out.name, encoding="utf8") as f:
            annotated = f.read()

    tags, tokens = parse(annotated)
    if "FEN" not in tags:
        fail("the annotated PGN has no FEN tag")
    fen = fsf_fen(tags["FEN"])
    plies = review["plies"]

    # Walk the tokens: the main line, and each variation from the position before the move it
    # replaces.
    main = []          # UCI moves of the main line
    evals = 0
    nags = {}          # main-line ply -> NAG
    variations = {}    # main-line ply -> first move (ICCS, lower case, no dash)
    stack = []         # open variations: their move lists (UCI)
    for tok in tokens:
        if tok == "(":
            if not main:
                fail("a variation before the first move")
            if stack:
                # A variation inside a variation replaces that variation's last move.
                base, ply, var = stack[-1]
                if not var:
                    fail(f"a nested variation before any move of its parent at ply {ply + 1}")
                stack.append((base + var[:-1], ply, []))
            else:
                stack.append((main[:-1], len(main) - 1, []))
            continue
        if tok == ")":
            if not stack:
                fail("a ) without its (")
            stack.pop()
            continue
        kind, value = tok
        if kind == "move":
            uci = to_uci(value)
            if stack:
                base, ply, var = stack[-1]
                legal_or_fail(fen, base + var, uci, f"variation at ply {ply + 1}")
                if not var:
                    variations.setdefault(ply, value.replace("-", "").lower())
                var.append(uci)
            else:
                legal_or_fail(fen, main, uci, f"main-line ply {len(main) + 1}")
                main.append(uci)
        elif kind == "nag" and not stack:
            nags[len(main) - 1] = value
        elif kind == "comment" and not stack:
            if "[%eval " in value:
                evals += 1
    if stack:
        fail("a variation is never closed")

    # The main line is the reviewed game.
    if len(main) != len(plies):
        fail(f"the main line has {len(main)} moves, the review {len(plies)} plies")
    for i, (uci, p) in enumerate(zip(main, plies)):
        if uci != to_uci(p["played"]):
            fail(f"ply {i + 1}: the PGN has {uci}, the review {p['played']}")
    if evals != len(plies):
        fail(f"{evals} [%eval] comments for {len(plies)} moves")

    # Marks and variations agree with the review.
    for i, p in enumerate(plies):
        symbol = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}.get(p.get("class"))
        want_nag = NAGS[symbol] if symbol and not p.get("forced") else None
        if nags.get(i) != want_nag:
            fail(f"ply {i + 1} ({p['played']}): NAG {nags.get(i)}, review class {p.get('class')}")
        want_var = (want_nag is not None and p.get("loss", 0) > 0 and p.get("best")
                    and p["best"] != p["played"] and p.get("line"))
        if bool(want_var) != (i in variations):
            fail(f"ply {i + 1}: variation present {i in variations}, expected {bool(want_var)}")
        if want_var and variations[i] != p["best"]:
            fail(f"ply {i + 1}: the variation starts {variations[i]}, the review's best is {p['best']}")

    end = sf.get_fen(VARIANT, fen, main)
    print(f"ok: {len(main)} main-line moves and {len(variations)} variations legal for pyffish "
          f"({sum(1 for v in nags.values())} NAGs, {evals} evals); final position {end}")


if __name__ == "__main__":
    main()
