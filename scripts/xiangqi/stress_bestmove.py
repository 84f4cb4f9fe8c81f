#!/usr/bin/env python3
"""Stress test: `qiyi uci` and `qiyi ucci` answer a legal `bestmove` in time on every position.

The positions come from real games: `qiyi match xiangqi` plays seeded self-play games of qiyi
against itself (openings, middlegames, endings, and the last plies of games that qiyi's own rules
ended by repetition, perpetual check or chase, or the 60-move rule), every ply sent with its whole
move history (`position fen OPENING moves ...`); those games are played at a few milliseconds a
move, so they vary with the machine's timing, while `--seed` fixes the engines' noise, the sampling
and the hand-made cases (failures print the exact lines to replay). To those the script adds
hand-made cases:
back-and-forth shuffles appended to game positions (repetitions, some of them perpetual checks or
chases), the same boards with a halfmove clock near and past 120 plies (the 60-move rule), long
repetition cycles from the start, positions with no attacking piece left, and a mated side.

Each position is sent to both engines with `go movetime T` or a clock (`go wtime/btime` for UCI,
`go time T` for UCCI), alternately. The check: the answer arrives within the time plus the margin
(50 ms by default; a late answer is asked for once more, so that a stall of a loaded machine is
not taken for an engine that overruns, and the count of such retries is printed), and it is
`bestmove` with a legal move whenever the position has one (legality
from the independent move generator of protocol_game.py, which knows nothing of qiyi's draw
rules), `nobestmove` / `bestmove (none)` only when it has none.

    python3 scripts/xiangqi/stress_bestmove.py --qiyi target/release/qiyi \
        [--games 10] [--positions 2000] [--movetime 20] [--margin-ms 50] [--seed 1]

Prints the seed, the counts by kind, the slowest answers over their budget, and every failure
with the exact lines that reproduce it; exit status 0 when every answer was legal and in time.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol_game import (  # noqa: E402  (the independent rules and engine driver)
    START, Engine, apply, iccs, legal_moves, parse_fen)


def to_fen(board, red, halfmove=0, fullmove=1):
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            p = board.get((f, rank))
            if p is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += p
        rows.append(row + (str(empty) if empty else ""))
    return "%s %s - - %d %d" % ("/".join(rows), "w" if red else "b", halfmove, fullmove)


def parse_iccs(text):
    files = "abcdefghi"
    return (files.index(text[0]), int(text[1])), (files.index(text[2]), int(text[3]))


class Case:
    """A position as a `position` command, with the board and side it reaches."""

    def __init__(self, kind, fen, moves):
        self.kind, self.fen, self.moves = kind, fen, list(moves)
        board, side = parse_fen(fen)
        red = side == "w"
        for m in self.moves:
            board = apply(board, parse_iccs(m))
            red = not red
        self.board, self.red = board, red

    def command(self):
        tail = " moves " + " ".join(self.moves) if self.moves else ""
        return "position fen " + self.fen + tail


def self_play_games(qiyi, games, seed, movetime):
    """Seeded games of qiyi against itself, as (opening FEN, [ICCS moves])."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "games.jsonl")
        cmd = [qiyi, "--seed", str(seed), "match", "xiangqi",
               "--engine", "qiyi:level=2,hash=8", "--engine", "qiyi:level=3,hash=8",
               "--games", str(games), "--movetime", str(movetime), "--max-plies", "400",
               "--games-out", out, "--failures", os.path.join(tmp, "failures.txt")]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(out) as f:
            return [(g["opening"], g["moves"], g["end"]) for g in map(json.loads, f)]


def shuffle(case, rng, cycles):
    """`case` followed by `cycles` back-and-forth cycles of one piece per side (a repetition)."""
    board, red = case.board, case.red
    moves = []
    for _ in range(2):
        quiet = [m for m in legal_moves(board, red) if m[1] not in board]
        rng.shuffle(quiet)
        back = next((m for m in quiet[:8]
                     if (m[1], m[0]) in legal_moves(apply(board, m), red)), None)
        if back is None:
            return None
        moves.append(back)
        board, red = apply(board, back), not red
    cycle = [moves[0], moves[1], (moves[0][1], moves[0][0]), (moves[1][1], moves[1][0])]
    board, red = case.board, case.red
    played = []
    for m in cycle * cycles:
        if m not in legal_moves(board, red):
            break
        board, red = apply(board, m), not red
        played.append(iccs(m))
    return Case("repetition", case.fen, case.moves + played)


def hand_made(rng, game_cases):
    cases = []
    # Long repetition cycles from the start, 1 to 6 times round.
    for k in range(1, 7):
        cases.append(Case("repetition", START, ["h2e2", "h9g7", "e2h2", "g7h9"] * k))
    # No attacking piece left (only generals and defenders): qiyi's rules call it a draw.
    for fen in ("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
                "3akab2/9/4b4/9/9/9/9/4B4/4A4/3AK1B2 b - - 0 1",
                "4ka3/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 30 60"):
        cases.append(Case("no attackers", fen, []))
    # Checkmated and stalemated sides: no legal move, so no move may be answered.
    cases.append(Case("mate", "3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1", ["b0b9"]))
    # Boards from the games with a halfmove clock near and past the 60-move rule.
    for case in rng.sample(game_cases, min(30, len(game_cases))):
        for clock in (110, 119, 120, 121, 150):
            fen = to_fen(case.board, case.red, clock, 80)
            cases.append(Case("60-move rule", fen, []))
    # Game positions followed by repetition shuffles (some are perpetual checks or chases).
    for case in rng.sample(game_cases, min(80, len(game_cases))):
        s = shuffle(case, rng, rng.choice((1, 2, 3)))
        if s is not None:
            cases.append(s)
    return cases


def answer(engine, case, dialect, mode, movetime):
    """Sends the case; returns (line, elapsed ms, budget ms, go command)."""
    engine.send(case.command())
    if mode == "movetime":
        go, budget = "go movetime %d" % movetime, movetime
    else:
        left = movetime * 20
        go = ("go wtime %d btime %d winc 0 binc 0" % (left, left)
              if dialect == "uci" else "go time %d increment 0" % left)
        budget = left
    engine.send("isready")
    engine.expect(lambda l: l == "readyok", 10)
    start = time.monotonic()
    engine.send(go)
    line, _ = engine.expect(lambda l: l.startswith("bestmove") or l == "nobestmove",
                            10 + budget / 1000)
    return line, (time.monotonic() - start) * 1000, budget, go


def check(case, line):
    legal = {iccs(m) for m in legal_moves(case.board, case.red)}
    parts = line.split()
    if not legal:
        return None if line in ("nobestmove", "bestmove (none)") else "answered %r with no legal move" % line
    if parts[0] != "bestmove" or len(parts) < 2 or parts[1] == "(none)":
        return "no move (%r) in a position with %d legal moves" % (line, len(legal))
    if parts[1] not in legal:
        return "illegal move %r" % line
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qiyi", default="target/release/qiyi")
    ap.add_argument("--games", type=int, default=10, help="self-play games to take positions from")
    ap.add_argument("--game-movetime", type=int, default=5, help="ms per move in those games")
    ap.add_argument("--positions", type=int, default=2000,
                    help="positions sent to each engine (sampled; all hand-made cases are kept)")
    ap.add_argument("--movetime", type=int, default=20, help="ms for `go movetime`")
    ap.add_argument("--margin-ms", type=float, default=50)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    print("stress_bestmove: seed %d, Xiangqi rules of the GUI: any legal move goes on" % args.seed)

    games = self_play_games(args.qiyi, args.games, args.seed, args.game_movetime)
    game_cases = []
    for opening, moves, end in games:
        for k in range(len(moves) + 1):
            kind = "game end (%s)" % end if k == len(moves) else (
                "opening" if k < 12 else "middlegame" if k < 80 else "long history")
            game_cases.append(Case(kind, opening, moves[:k]))
    extra = hand_made(rng, game_cases)
    ends = [c for c in game_cases if c.kind.startswith("game end")]
    budget = max(0, args.positions - len(extra) - len(ends))
    rest = [c for c in game_cases if not c.kind.startswith("game end")]
    cases = extra + ends + rng.sample(rest, min(budget, len(rest)))
    print("%d self-play games (%d plies), %d positions per engine" % (
        len(games), sum(len(m) for _, m, _ in games), len(cases)))

    failures, slow, kinds, retried = [], [], {}, 0
    for dialect in ("uci", "ucci"):
        log = []
        engine = Engine("%s %s --hash 16" % (args.qiyi, dialect), dialect, log)
        engine.handshake()
        for i, case in enumerate(cases):
            mode = "movetime" if i % 2 == 0 else "clock"
            kinds[case.kind.split(" (")[0]] = kinds.get(case.kind.split(" (")[0], 0) + 1
            try:
                line, ms, budget_ms, go = answer(engine, case, dialect, mode, args.movetime)
            except RuntimeError as e:
                failures.append((dialect, case, "no answer: %s" % e, "go"))
                engine.quit()
                engine = Engine("%s %s --hash 16" % (args.qiyi, dialect), dialect, log)
                engine.handshake()
                continue
            why = check(case, line)
            if ms > budget_ms:
                slow.append((ms - budget_ms, dialect, go))
            if why is None and ms > budget_ms + args.margin_ms:
                # A late answer is asked once more: a stall of the machine passes the second
                # time, an engine that overruns does not.
                first = ms
                line, ms, budget_ms, go = answer(engine, case, dialect, mode, args.movetime)
                why = check(case, line)
                if why is None and ms > budget_ms + args.margin_ms:
                    why = "answered after %.0f ms, then %.0f ms, budget %d + %.0f ms" % (
                        first, ms, budget_ms, args.margin_ms)
                else:
                    retried += 1
            if why:
                failures.append((dialect, case, why, go))
        engine.quit()

    print("kinds (both engines): " + ", ".join("%s %d" % kv for kv in sorted(kinds.items())))
    slow.sort(reverse=True)
    print("answers over their budget: %d; worst %s; late beyond the margin once but in time when"
          " asked again: %d" % (len(slow), ", ".join("+%.0f ms (%s %s)" % s for s in slow[:3])
                                or "none", retried))
    for dialect, case, why, go in failures:
        print("FAIL %s [%s]: %s\n  %s\n  %s" % (dialect, case.kind, why, case.command(), go))
    total = 2 * len(cases)
    print("%d of %d answers legal and in time" % (total - len(failures), total))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
