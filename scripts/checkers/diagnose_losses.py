#!/usr/bin/env python3
"""Where are the checkers games lost? Takes a match log (`qiyi match checkers --log FILE` or
`ck_match.py --log FILE`: one game a line, the first engine is "A"), and for every game A lost:

1. judges every position after each of A's moves with a deep search of the judge engine (GuiNN by
   default, `GO maxdepth D`), from A's point of view;
2. finds the deciding move: the first move of A after which the judge's score stays at or below
   -LOSS for the rest of the game (after having been above it before);
3. classifies it: the phase (ply after the ballot; opening = the first 10 moves of each side,
   ending = 8 pieces or fewer), the material at that moment, the horizon (plies from the deciding
   move until A is a man down on the board for good), shot (horizon <= SHOT plies) or drift;
4. asks second opinions at the deciding position: qiyi at --qiyi-ms (does it still play the game
   move?) and at 2 s (does deeper search reject it?), qiyi's own score against the judge's
   (optimism), and the depth at equal nodes: the opponent's node count at --ms given to qiyi.

Prints one line per lost game and a summary; --report FILE writes both as Markdown.

usage: diagnose_losses.py --log FILE --qiyi target/release/qiyi --guinn GUINN_DIR/guinn_engine
       [--depth 16] [--loss 80] [--shot 6] [--ms 100] [--qiyi-ms 100] [--long-ms 2000]
       [--games N] [--report FILE]
needs pydraughts 0.6.7 (pip install pydraughts==0.6.7)
"""
import argparse, json, statistics, subprocess, sys
from draughts import Board


def parse_log(path):
    games = []
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if len(f) < 7 or not f[0].startswith("game "):
            continue
        rec = {"game": int(f[0].split()[1]), "ballot": f[1].split(" ", 1)[1], "a_first": f[2] == "A first",
               "result": f[3], "reason": f[4], "fen": f[5].split(" ", 1)[1],
               "moves": f[6].split(" ", 1)[1].split() if " " in f[6] else []}
        games.append(rec)
    return games


def push(board, text):
    sq = [int(x) for x in text.replace("x", "-").split("-")]
    for m in board.legal_moves():
        st = m.steps_move
        if st == sq or (len(sq) == 2 and st[0] == sq[0] and st[-1] == sq[-1]):
            board.push(m)
            return
    raise ValueError(f"{text} is not legal in {board.fen}")


def material(fen, white_first):
    """(men, kings) of the side that moved first from the ballot and of the other, from a FEN."""
    side = {}
    for part in fen.split(":")[1:]:
        c, sq = part[0], [s for s in part[1:].split(",") if s]
        side[c] = (sum(1 for s in sq if not s.startswith("K")), sum(1 for s in sq if s.startswith("K")))
    return side.get("W", (0, 0)), side.get("B", (0, 0))


class Judge:
    """An engine speaking checkers-engine's line protocol with GuiNN's INFO line."""

    def __init__(self, cmd):
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.wait("READY")
        self.send("INIT")
        self.send("SETPARAMETER use_book false")

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("the judge closed its output")
            if line.startswith(prefix):
                return line.split()

    def go(self, fen, moves, limit):
        self.send("NEWGAME " + fen + ("" if not moves else " " + " ".join(moves)))
        self.send(f"GO {limit} dontplaymove")
        info = self.wait("INFO")
        best = self.wait("BESTMOVE")[1]
        kv = dict(zip(info[1::2], info[2::2]))
        return int(kv["eval"]), int(kv["nodes"]), int(kv["depth"]), best


def qiyi(binary, fen, ms=None, nodes=None):
    args = [binary, "--threads", "1", "--json", "analyze", "checkers", "--fen", fen]
    args += ["--movetime", str(ms)] if ms else ["--nodes", str(nodes)]
    r = subprocess.run(args, capture_output=True, text=True, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


def same_move(a, b):
    sa, sb = a.replace("x", "-").split("-"), b.replace("x", "-").split("-")
    return sa == sb or (sa[0] == sb[0] and sa[-1] == sb[-1])


def diagnose(g, judge, a):
    board = Board(variant="english", fen=g["fen"])
    a_to_move = g["a_first"]
    a_color = "W" if (board.fen[0] == "W") == a_to_move else "B"
    # Walk the game; after each of A's moves, judge the position (score from A's view).
    points = []   # (ply index of A's move, A's score after it, board fen before the move, move)
    balance = []  # A's material minus the opponent's (men 1, kings 1.5) after every ply
    for i, mv in enumerate(g["moves"]):
        before = board.fen
        mover_is_a = (i % 2 == 0) == a_to_move
        push(board, mv)
        w, b = material(board.fen, True)
        mine, theirs = (w, b) if a_color == "W" else (b, w)
        balance.append(mine[0] + 1.5 * mine[1] - theirs[0] - 1.5 * theirs[1])
        if mover_is_a:
            # The judge scores the position for its side to move (A's opponent).
            ev, _n, _d, _b = judge.go(g["fen"], g["moves"][:i + 1], f"maxdepth {a.depth}")
            points.append((i, -ev, before, mv))
    if not points:
        return None
    k = None
    for j in range(len(points)):
        if all(p[1] <= -a.loss for p in points[j:]):
            k = j
            break
    if k is None:
        k = len(points) - 1
    ply, after, fen_before, mv = points[k]
    before_score = points[k - 1][1] if k > 0 else None
    start_bal = balance[ply - 1] if ply > 0 else 0
    horizon = None
    for t in range(ply, len(balance)):
        if all(x <= start_bal - 1 for x in balance[t:]):
            horizon = t - ply
            break
    pieces = sum(sum(x) for x in material(fen_before, True))
    phase = "opening" if ply < 20 else ("ending" if pieces <= 8 else "middlegame")
    level = start_bal == 0
    quick = qiyi(a.qiyi, fen_before, ms=a.qiyi_ms)
    deep = qiyi(a.qiyi, fen_before, ms=a.long_ms)
    # The opponent's node count at --ms in the position after A's move, and qiyi's depth there.
    _ev, opp_nodes, opp_depth, _b = judge.go(g["fen"], g["moves"][:ply + 1], f"maxtime {a.ms / 1000:.3f}")
    board2 = Board(variant="english", fen=g["fen"])
    for m in g["moves"][:ply + 1]:
        push(board2, m)
    eq = qiyi(a.qiyi, board2.fen, nodes=max(1, opp_nodes))
    return {
        "game": g["game"], "ballot": g["ballot"], "ply": ply, "move": mv, "before": before_score,
        "after": after, "phase": phase, "pieces": pieces, "level": level, "horizon": horizon,
        "kind": "shot" if horizon is not None and horizon <= a.shot else "drift",
        "qiyi_ms_plays_it": same_move(quick["bestmove"], mv), "qiyi_2s_rejects": not same_move(deep["bestmove"], mv),
        "qiyi_score": quick["score"], "judge_before": before_score,
        "opp_nodes": opp_nodes, "opp_depth": opp_depth, "qiyi_depth": eq["depth"], "qiyi_seldepth": eq["seldepth"],
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True)
    ap.add_argument("--qiyi", required=True)
    ap.add_argument("--guinn", required=True, help="the judge (GuiNN's line-protocol driver)")
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--loss", type=int, default=80, help="a judged score at or below -LOSS is lost")
    ap.add_argument("--shot", type=int, default=6)
    ap.add_argument("--ms", type=int, default=100)
    ap.add_argument("--qiyi-ms", type=int, default=100)
    ap.add_argument("--long-ms", type=int, default=2000)
    ap.add_argument("--games", type=int, default=0, help="diagnose at most this many lost games")
    ap.add_argument("--report")
    a = ap.parse_args()
    lost = [g for g in parse_log(a.log) if g["result"] == "loss"]
    if a.games:
        lost = lost[:a.games]
    if not lost:
        raise SystemExit(f"{a.log}: no lost game")
    judge = Judge(a.guinn)
    rows = []
    head = ("| game | ballot | ply | move | judge before → after | phase | pieces | level | horizon | kind |"
            f" qiyi {a.qiyi_ms} ms plays it | qiyi {a.long_ms / 1000:g} s rejects | qiyi score | opponent nodes / depth | qiyi depth / sel at those nodes |")
    lines = [head, "|" + "---|" * 15]
    for g in lost:
        d = diagnose(g, judge, a)
        if d is None:
            continue
        rows.append(d)
        lines.append(f"| {d['game']} | {d['ballot']} | {d['ply']} | {d['move']} | {d['before']} → {d['after']} |"
                     f" {d['phase']} | {d['pieces']} | {'yes' if d['level'] else 'no'} | {d['horizon']} | {d['kind']} |"
                     f" {'yes' if d['qiyi_ms_plays_it'] else 'no'} | {'yes' if d['qiyi_2s_rejects'] else 'no'} |"
                     f" {d['qiyi_score']} | {d['opp_nodes']:,} / {d['opp_depth']} | {d['qiyi_depth']} / {d['qiyi_seldepth']} |")
        print(lines[-1], flush=True)
    judge.send("QUIT")
    judge.p.wait(timeout=10)
    n = len(rows)
    med = lambda xs: statistics.median(xs) if xs else None
    opt = [r["qiyi_score"] - r["judge_before"] for r in rows if r["judge_before"] is not None and r["kind"] == "drift"]
    summary = [
        f"{n} lost games diagnosed from {a.log} (judge depth {a.depth}, loss at -{a.loss}, shot <= {a.shot} plies)",
        f"- deciding move: median ply {med([r['ply'] for r in rows])} after the ballot; "
        f"{sum(r['ply'] < 20 for r in rows)} in the first ten moves of each side, "
        f"{sum(r['phase'] == 'middlegame' for r in rows)} in the middlegame, {sum(r['phase'] == 'ending' for r in rows)} in an ending",
        f"- material level at the deciding move: {sum(r['level'] for r in rows)} of {n}",
        f"- shots: {sum(r['kind'] == 'shot' for r in rows)} (median horizon {med([r['horizon'] for r in rows if r['kind'] == 'shot'])} plies); "
        f"drift: {sum(r['kind'] == 'drift' for r in rows)} (median horizon {med([r['horizon'] for r in rows if r['kind'] == 'drift' and r['horizon'] is not None])} plies)",
        f"- qiyi's optimism in the drift positions (its {a.qiyi_ms} ms score minus the judge's before the move): median {med(opt)}",
        f"- qiyi at {a.long_ms / 1000:g} s rejects the game move in {sum(r['qiyi_2s_rejects'] for r in rows)} of {n}",
        f"- depth at equal nodes (the opponent's at {a.ms} ms): opponent median {med([r['opp_depth'] for r in rows])}, "
        f"qiyi median {med([r['qiyi_depth'] for r in rows])} / seldepth {med([r['qiyi_seldepth'] for r in rows])}",
    ]
    print("\n".join(summary))
    if a.report:
        with open(a.report, "w") as f:
            f.write("# Loss diagnosis\n\n" + "\n".join(summary) + "\n\n" + "\n".join(lines) + "\n\n"
                    f"Command: `{' '.join(sys.argv)}`\n")


if __name__ == "__main__":
    main()
