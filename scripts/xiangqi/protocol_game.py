#!/usr/bin/env python3
"""Plays full Xiangqi games through `qiyi uci` and `qiyi ucci` (Python standard library only).

For each protocol the script starts the engine, does the handshake (uci/uciok or ucci/ucciok,
isready/readyok), then plays engine against itself from the start position: before every move it
sends `position fen START moves ...` and `go movetime MS` (UCI) or `go time T` (UCCI), reads the
`info` lines and checks that `bestmove` names a legal move of the position. Legality is checked by
the small, independent move generator below (all seven pieces, the flying-general rule, no move
may leave the own general attacked), not by asking the engine. A game ends by checkmate or
stalemate (the side to move loses), threefold repetition, 120 plies without a capture (60-move
rule) or the ply cap. With `--opponent 'CMD'` a second, UCCI engine (e.g. ElephantEye) takes
Black in one more game through UCCI.

    python3 scripts/xiangqi/protocol_game.py --qiyi target/release/qiyi [--movetime 50]
        [--max-plies 300] [--opponent 'cd /work/ext/eleeye && /work/ext/eleeye-bin']

Exit status 0 when every game ran to its end with only legal moves, 1 otherwise.
"""

import argparse
import queue
import subprocess
import sys
import threading
import time

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

# ---------------------------------------------------------------- rules (independent of qiyi)

def parse_fen(fen):
    rows = fen.split()[0].split("/")
    board = {}
    for i, row in enumerate(rows):
        rank = 9 - i
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, rank)] = ch
                f += 1
    side = "w" if fen.split()[1] in ("w", "r") else "b"
    return board, side


def is_red(p):
    return p.isupper()


def in_palace(f, r, red):
    return 3 <= f <= 5 and (0 <= r <= 2 if red else 7 <= r <= 9)


def on_board(f, r):
    return 0 <= f <= 8 and 0 <= r <= 9


def pseudo_moves(board, red):
    out = []
    for (f, r), p in list(board.items()):
        if is_red(p) != red:
            continue
        k = p.lower()

        def add(t):
            q = board.get(t)
            if q is None or is_red(q) != red:
                out.append(((f, r), t))

        if k == "k":
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if in_palace(f + df, r + dr, red):
                    add((f + df, r + dr))
        elif k == "a":
            for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                if in_palace(f + df, r + dr, red):
                    add((f + df, r + dr))
        elif k == "b":
            for df, dr in ((2, 2), (2, -2), (-2, 2), (-2, -2)):
                t = (f + df, r + dr)
                own_half = t[1] <= 4 if red else t[1] >= 5
                if on_board(*t) and own_half and (f + df // 2, r + dr // 2) not in board:
                    add(t)
        elif k == "n":
            for (df, dr), leg in (((1, 2), (0, 1)), ((-1, 2), (0, 1)), ((1, -2), (0, -1)),
                                  ((-1, -2), (0, -1)), ((2, 1), (1, 0)), ((2, -1), (1, 0)),
                                  ((-2, 1), (-1, 0)), ((-2, -1), (-1, 0))):
                t = (f + df, r + dr)
                if on_board(*t) and (f + leg[0], r + leg[1]) not in board:
                    add(t)
        elif k in "rc":
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                t = (f + df, r + dr)
                while on_board(*t) and t not in board:
                    out.append(((f, r), t))
                    t = (t[0] + df, t[1] + dr)
                if not on_board(*t):
                    continue
                if k == "r":
                    add(t)
                    continue
                t = (t[0] + df, t[1] + dr)
                while on_board(*t) and t not in board:
                    t = (t[0] + df, t[1] + dr)
                if on_board(*t) and is_red(board[t]) != red:
                    out.append(((f, r), t))
        elif k == "p":
            fwd = 1 if red else -1
            steps = [(0, fwd)]
            crossed = r >= 5 if red else r <= 4
            if crossed:
                steps += [(1, 0), (-1, 0)]
            for df, dr in steps:
                t = (f + df, r + dr)
                if on_board(*t):
                    add(t)
    return out


def attacked_king(board, red):
    """Whether `red`'s general is attacked (the flying-general rule included)."""
    king = next((s for s, p in board.items() if p == ("K" if red else "k")), None)
    if king is None:
        return True
    for frm, to in pseudo_moves(board, not red):
        if to == king:
            return True
    other = next((s for s, p in board.items() if p == ("k" if red else "K")), None)
    if other and other[0] == king[0]:
        lo, hi = sorted((king[1], other[1]))
        if all((king[0], r) not in board for r in range(lo + 1, hi)):
            return True
    return False


def apply(board, mv):
    b = dict(board)
    frm, to = mv
    b[to] = b.pop(frm)
    return b


def legal_moves(board, red):
    return [m for m in pseudo_moves(board, red) if not attacked_king(apply(board, m), red)]


def iccs(mv):
    (f1, r1), (f2, r2) = mv
    return "%s%d%s%d" % ("abcdefghi"[f1], r1, "abcdefghi"[f2], r2)


def key(board, red):
    return (tuple(sorted(board.items())), red)

# ---------------------------------------------------------------- engines


class Engine:
    def __init__(self, cmd, dialect, log):
        self.dialect = dialect
        self.log = log
        self.proc = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.log.append("> " + line)
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def expect(self, pred, timeout):
        end = time.time() + timeout
        seen = []
        while True:
            left = end - time.time()
            if left <= 0:
                raise RuntimeError("timeout waiting; got %r" % seen[-5:])
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise RuntimeError("engine exited; last lines %r" % seen[-5:])
            self.log.append("< " + line)
            seen.append(line)
            if pred(line):
                return line, seen

    def handshake(self):
        hello = "uci" if self.dialect == "uci" else "ucci"
        self.send(hello)
        self.expect(lambda l: l == hello + "ok", 10)
        self.send("isready")
        self.expect(lambda l: l == "readyok", 10)

    def bestmove(self, moves, movetime):
        pos = "position fen " + START + (" moves " + " ".join(moves) if moves else "")
        self.send(pos)
        if self.dialect == "uci":
            self.send("go movetime %d" % movetime)
        else:
            self.send("go time %d" % (movetime * 5 // 3))
        line, seen = self.expect(lambda l: l.startswith("bestmove") or l == "nobestmove",
                                 10 + movetime / 100)
        infos = [l for l in seen if l.startswith("info")]
        errors = [l for l in seen if "error" in l]
        return line, infos, errors

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def play(red_engine, black_engine, movetime, max_plies, label):
    board, side = parse_fen(START)
    red = side == "w"
    moves = []
    seen = {key(board, red): 1}
    quiet = 0
    result = None
    while result is None:
        legal = legal_moves(board, red)
        if not legal:
            result = ("0-1" if red else "1-0", "no legal move (mate or stalemate)")
            break
        eng = red_engine if red else black_engine
        line, infos, errors = eng.bestmove(moves, movetime)
        if errors:
            return False, "%s: engine reported %r" % (label, errors)
        parts = line.split()
        if len(parts) < 2 or parts[0] != "bestmove":
            return False, "%s: no move in a position with %d legal moves: %r" % (
                label, len(legal), line)
        if parts[1] not in {iccs(m) for m in legal}:
            return False, "%s: illegal bestmove %r after %s" % (label, line, " ".join(moves))
        mv = next(m for m in legal if iccs(m) == parts[1])
        capture = mv[1] in board
        board = apply(board, mv)
        moves.append(parts[1])
        red = not red
        quiet = 0 if capture else quiet + 1
        k = key(board, red)
        seen[k] = seen.get(k, 0) + 1
        if seen[k] >= 3:
            result = ("*", "threefold repetition (perpetual rules not judged here)")
        elif quiet >= 120:
            result = ("1/2-1/2", "60-move rule")
        elif len(moves) >= max_plies:
            result = ("1/2-1/2", "ply cap")
    return True, "%s: %d plies, %s (%s), every bestmove legal" % (
        label, len(moves), result[0], result[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qiyi", default="target/release/qiyi", help="path of the qiyi binary")
    ap.add_argument("--movetime", type=int, default=50, help="milliseconds per move")
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--opponent", help="a UCCI engine command to play Black in one more game")
    args = ap.parse_args()
    ok = True
    games = [("uci", None), ("ucci", None)]
    if args.opponent:
        games.append(("ucci", args.opponent))
    for dialect, opponent in games:
        log = []
        engines = []
        try:
            a = Engine("%s %s --hash 16" % (args.qiyi, dialect), dialect, log)
            engines.append(a)
            a.handshake()
            b = a
            if opponent:
                b = Engine(opponent, "ucci", log)
                engines.append(b)
                b.handshake()
            label = "qiyi %s self-play" % dialect if not opponent else "qiyi (red) vs %s" % opponent
            good, msg = play(a, b, args.movetime, args.max_plies, label)
        except Exception as e:  # a dead or silent engine is a failure, reported with the log
            good, msg = False, "%s: %s" % (dialect, e)
        for e in engines:
            e.quit()
        print(("OK   " if good else "FAIL ") + msg)
        if not good:
            print("\n".join(log[-20:]), file=sys.stderr)
            ok = False
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
