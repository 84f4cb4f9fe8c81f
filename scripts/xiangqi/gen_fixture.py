#!/usr/bin/env python3
"""Regenerate the Xiangqi oracle fixtures of crates/xiangqi/tests/data/ with pyffish
(Fairy-Stockfish's Python binding), an implementation we did not write.

    python3 -m venv /work/venv-xiangqi && /work/venv-xiangqi/bin/pip install pyffish
    /work/venv-xiangqi/bin/python scripts/xiangqi/gen_fixture.py

Writes two files:

xiangqi-oracle.tsv: positions from seeded random playouts (uniform and capture-biased, so the
    set spans openings, middlegames, sparse endgames, checks, near-mates and finished games).
    Columns: FEN, in_check (0/1), status (ongoing|checkmate|stalemate), the legal moves in ICCS
    sorted and space-separated, one random legal move in ICCS and its WXF text by pyffish.

xiangqi-repetition.tsv: repetition sequences. From a playout position P (in 60% of the tries
    first advanced by a checking move, so the side to move is in check) the script picks a
    reversible move A of the side to move and B of the other side such that A, B, undo A, undo B
    returns to P, and plays that cycle twice so P occurs a third time. A and B are often chosen
    among checking moves and moves of chariots, horses and cannons, so perpetual checks and
    chases occur. Columns: FEN of P, the 8 moves in ICCS, whether pyffish's
    is_optional_game_end ends the game (0/1), and its result for the side to move then
    (1 win, -1 loss, 0 draw). Lines are written as they are made; the committed file holds the
    first sequences of the seeded stream (`gen_fixture.py SEED repetition` regenerates them;
    the run was stopped once enough were written, as the machine was shared).

Usage: gen_fixture.py [SEED [all|oracle|repetition]]

pyffish writes ranks 1..10; ICCS ranks are 0..9.
"""

import os
import random
import sys

import pyffish as sf

V = "xiangqi"
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "crates", "xiangqi", "tests", "data")


def _conv(m):
    # "h3e3" -> "h2e2", "a10a9" -> "a9a8"
    i = 1
    while m[i].isdigit():
        i += 1
    return m[0] + str(int(m[1:i]) - 1) + m[i] + str(int(m[i + 1:]) - 1)


def from_iccs(m):
    return m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1)


def board_of(fen):
    """dict ICCS square -> piece letter."""
    rows = fen.split()[0].split("/")
    out = {}
    for r, row in enumerate(rows):
        rank = 9 - r
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                out["abcdefghi"[f] + str(rank)] = ch
                f += 1
    return out


def status(fen, moves):
    legal = sf.legal_moves(V, fen, moves)
    check = sf.gives_check(V, fen, moves)
    if legal:
        return legal, check, "ongoing"
    res = sf.game_result(V, fen, moves)
    assert res < 0, (fen, moves, res)  # the side to move loses when it has no move
    return legal, check, "checkmate" if check else "stalemate"


def playout(rng, capture_bias, max_plies):
    cur = sf.start_fen(V)
    seen = []
    for _ in range(max_plies):
        legal = sf.legal_moves(V, cur, [])
        seen.append(cur)
        if not legal:
            break
        board = board_of(cur)
        caps = [m for m in legal if _conv(m)[2:] in board]
        if caps and rng.random() < capture_bias:
            m = rng.choice(caps)
        else:
            m = rng.choice(legal)
        cur = sf.get_fen(V, cur, [m])
    return seen


def oracle(rng, target):
    rows = {}
    game = 0
    while len(rows) < target:
        bias = [0.0, 0.3, 0.7][game % 3]
        game += 1
        for ply, fen in enumerate(playout(rng, bias, 400)):
            if fen in rows:
                continue
            legal, check, st = status(fen, [])
            near_mate = len(legal) <= 6
            keep = st != "ongoing" or check or near_mate or ply < 12 or rng.random() < 0.04
            if not keep:
                continue
            if legal:
                pick = rng.choice(legal)
                wxf = sf.get_san(V, fen, pick, False, sf.NOTATION_XIANGQI_WXF)
                pick = _conv(pick)
            else:
                pick, wxf = "-", "-"
            rows[fen] = (int(check), st, " ".join(sorted(_conv(m) for m in legal)), pick, wxf)
    return rows


def repetition(rng, target):
    """Yields (fen, moves, ended, result) for `target` repetition sequences."""
    made = 0
    attempts = 0
    while made < target and attempts < target * 50:
        attempts += 1
        seen = playout(rng, rng.choice([0.0, 0.4]), rng.randint(6, 100))
        fen = seen[-1]
        if int(fen.split()[4]) > 80:
            continue
        legal = sf.legal_moves(V, fen, [])
        if legal and rng.random() < 0.6:
            # Start the cycle from a position in check, so that the checking side can repeat
            # its checks (perpetual check) while the other side shuffles.
            checks = [m for m in legal if sf.gives_check(V, fen, [m])]
            if checks:
                fen = sf.get_fen(V, fen, [rng.choice(checks)])
                legal = sf.legal_moves(V, fen, [])
        if not legal:
            continue
        board = board_of(fen)

        def reversible(pos_fen, prefix, cands):
            res = []
            b = board_of(sf.get_fen(V, pos_fen, prefix))
            for m in cands:
                c = _conv(m)
                if c[2:] in b:
                    continue  # capture: not reversible
                if b[c[:2]].lower() == "p" and c[1] != c[3]:
                    continue  # soldier forward: not reversible
                res.append(m)
            return res

        def prefer(cands, prefix):
            if not cands:
                return None
            r = rng.random()
            if r < 0.4:
                checks = [m for m in cands if sf.gives_check(V, fen, prefix + [m])]
                if checks:
                    return rng.choice(checks)
            if r < 0.8:
                here = board_of(sf.get_fen(V, fen, prefix))
                strong = [m for m in cands if here[_conv(m)[:2]].lower() in "rnc"]
                if strong:
                    return rng.choice(strong)
            return rng.choice(cands)

        a = prefer(reversible(fen, [], legal), [])
        if a is None:
            continue
        legal_b = sf.legal_moves(V, fen, [a])
        b = prefer(reversible(fen, [a], legal_b), [a])
        if b is None:
            continue
        ra = _rev(a)
        rb = _rev(b)
        if ra not in sf.legal_moves(V, fen, [a, b]):
            continue
        if rb not in sf.legal_moves(V, fen, [a, b, ra]):
            continue
        cycle = [a, b, ra, rb]
        seq = cycle + cycle
        ok = True
        for i in range(1, len(seq) + 1):
            if not sf.legal_moves(V, fen, seq[:i]) and i < len(seq):
                ok = False
        if not ok:
            continue
        ended, value = sf.is_optional_game_end(V, fen, seq)
        result = 0 if value == 0 else (1 if value > 0 else -1)
        made += 1
        if made % 50 == 0:
            print("repetition sequences:", made, "attempts:", attempts, flush=True)
        yield (fen, " ".join(_conv(m) for m in seq), int(ended), result)


def _rev(m):
    i = 1
    while m[i].isdigit():
        i += 1
    return m[i:] + m[:i]


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 20261129
    only = sys.argv[2] if len(sys.argv) > 2 else "all"
    rng = random.Random(seed)
    if only in ("all", "oracle"):
        rows = oracle(rng, 2400)
        path = os.path.join(OUT, "xiangqi-oracle.tsv")
        with open(path, "w") as f:
            f.write(f"# pyffish {sf.version()} xiangqi oracle, seed {seed}; regenerate with scripts/xiangqi/gen_fixture.py\n")
            f.write("# fen\tin_check\tstatus\tlegal_moves_iccs\tsample_move_iccs\tsample_move_wxf\n")
            for fen, (check, st, legal, pick, wxf) in rows.items():
                f.write(f"{fen}\t{check}\t{st}\t{legal}\t{pick}\t{wxf}\n")
        counts = {}
        for _, (check, st, legal, _, _) in rows.items():
            counts[st] = counts.get(st, 0) + 1
            counts["check"] = counts.get("check", 0) + check
        print(path, len(rows), counts, flush=True)
    if only in ("all", "repetition"):
        rng = random.Random(seed + 1)
        path = os.path.join(OUT, "xiangqi-repetition.tsv")
        tally = {}
        with open(path, "w") as f:
            f.write(f"# pyffish {sf.version()} xiangqi repetition verdicts, seed {seed + 1}; regenerate with scripts/xiangqi/gen_fixture.py\n")
            f.write("# fen\tmoves_iccs\toptional_game_end\tresult_for_side_to_move\n")
            for fen, seq, ended, result in repetition(rng, 209):
                f.write(f"{fen}\t{seq}\t{ended}\t{result}\n")
                f.flush()
                tally[(ended, result)] = tally.get((ended, result), 0) + 1
        print(path, sum(tally.values()), tally, flush=True)


if __name__ == "__main__":
    main()
