#!/usr/bin/env python3
"""Where are the Xiangqi games lost? Takes an `xq_match.py --log FILE` log (one game a line: `game
N<TAB>A red|black<TAB>+r (red's view)<TAB>reason<TAB>ICCS moves`; the first engine is "A") and for
every game A lost:

1. judges the position after each of A's moves with a deep search of a judge engine (a UCI
   engine: NewGG at a fixed depth, or qiyi at ten times the match time), from A's point of view;
2. finds the deciding move: the first move of A after which the judge's score stays at or below
   -LOSS centipawns for the rest of the game (after having been above it before);
3. classifies the loss:
   - `rules` when the game ended by a rule (perpetual check or chase, judged by pyffish), or the
     deciding move was played with a repetition already in the game;
   - `tactic` when A is down material (by the usual piece values) within SHOT plies of the
     deciding move, compared with the material just before it;
   - `endgame` when the deciding move came with at most ENDGAME pieces besides the generals,
     advisors and elephants on the board;
   - `drift` otherwise: the position slid away without an immediate material loss;
4. asks qiyi itself at the deciding position (`--qiyi-ms`) whether it still plays the game move.

Prints one line per lost game and a summary; --report FILE writes both as Markdown.

usage: diagnose_losses.py --log FILE --qiyi target/release/qiyi --judge 'NEWGG_BINARY'
       [--judge-go 'go depth 12'] [--judge-opt 'setoption name Threads value 1'] [--loss 150]
       [--shot 6] [--endgame 6] [--qiyi-ms 300] [--qiyi-eval NET] [--games N] [--report FILE]
needs pyffish 0.0.90 (pip install pyffish==0.0.90)
"""
import argparse, queue, shlex, subprocess, threading, time
import pyffish as sf

V = "xiangqi"
START = sf.start_fen(V)
VALUES = {"r": 1000, "c": 450, "n": 450, "a": 200, "b": 200, "p": 100, "k": 0}


def to_ff(m):  # ICCS ranks 0-9 -> pyffish ranks 1-10
    return f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}"


def parse_log(path):
    games = []
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if len(f) < 4 or not f[0].startswith("game "):
            continue
        red_view = int(f[2].split()[0])
        a_red = f[1] == "A red"
        games.append({"game": int(f[0].split()[1]), "a_red": a_red,
                      "a_score": red_view if a_red else -red_view, "reason": f[3],
                      "moves": f[4].split() if len(f) > 4 else []})
    return games


def material(fen, red):
    """Material of red (True) or black from a pyffish FEN."""
    board = fen.split()[0]
    return sum(VALUES[c.lower()] for c in board if c.isalpha() and c.isupper() == red)


def attackers(fen):
    """Pieces other than generals, advisors and elephants on the board."""
    return sum(1 for c in fen.split()[0] if c.isalpha() and c.lower() in "rcnp")


class Uci:
    def __init__(self, cmd, opts):
        self.p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci"); self.wait("uciok", 30)
        for o in opts:
            self.send(o)
        self.send("isready"); self.wait("readyok", 30)

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line.strip())
        self.q.put(None)

    def send(self, s):
        self.p.stdin.write(s + "\n"); self.p.stdin.flush()

    def wait(self, prefix, timeout):
        end = time.time() + timeout
        while True:
            line = self.q.get(timeout=max(0.01, end - time.time()))
            if line is None:
                raise RuntimeError("engine exited")
            if line.startswith(prefix):
                return line

    def search(self, moves, go, timeout=600):
        """(score from the side to move's view, best move) of START + moves."""
        self.send("position fen " + START + (" moves " + " ".join(moves) if moves else ""))
        self.send(go)
        score = 0
        end = time.time() + timeout
        while True:
            line = self.q.get(timeout=max(0.01, end - time.time()))
            if line is None:
                raise RuntimeError("engine exited")
            t = line.split()
            # `info ... score cp N` / `score mate N` (UCI), or `info ... score N` and
            # `info ... mate N` (NewGG).
            if t and t[0] == "info":
                v = None
                if "mate" in t:
                    i = t.index("mate")
                    if i + 1 < len(t) and t[i + 1].lstrip("-").isdigit():
                        m = int(t[i + 1])
                        v = 30000 - abs(m) if m > 0 else -30000 + abs(m)
                elif "score" in t:
                    i = t.index("score")
                    rest = t[i + 1:i + 3]
                    if rest and rest[0] == "cp":
                        rest = rest[1:]
                    if rest and rest[0].lstrip("-").isdigit():
                        v = int(rest[0])
                if v is not None:
                    score = v
            if t and t[0] == "bestmove":
                return score, t[1]

    def quit(self):
        try:
            self.send("quit"); self.p.wait(timeout=3)
        except Exception:
            self.p.kill()


def diagnose(g, judge, args, qiyi):
    moves = g["moves"]
    a_parity = 0 if g["a_red"] else 1
    # Judge's score after each of A's moves, from A's view (the side to move is B: negate).
    after = []
    for i in range(a_parity, len(moves), 2):
        s, _ = judge.search(moves[: i + 1], args.judge_go)
        after.append((i, -s))
    decide = None
    for k, (i, s) in enumerate(after):
        if s <= -args.loss and all(x <= -args.loss for _, x in after[k:]) and k > 0:
            decide = (i, s, after[k - 1][1])
            break
    if decide is None and after and after[0][1] <= -args.loss:
        decide = (after[0][0], after[0][1], None)
    if decide is None:
        # A rules ending (perpetual check or chase) the judge's score need not foresee.
        rules = "perpetual" in g["reason"] or "repetition" in g["reason"]
        return {"game": g["game"], "class": "rules" if rules else "unclear", "ply": None,
                "reason": g["reason"], "plies": len(moves),
                "note": "no lasting -LOSS point before the end"}
    ply, score, before = decide
    fen_before = sf.get_fen(V, START, [to_ff(m) for m in moves[:ply]])
    a_is_red = g["a_red"]
    balance = lambda fen: material(fen, a_is_red) - material(fen, not a_is_red)
    m0 = balance(fen_before)
    later = [balance(sf.get_fen(V, START, [to_ff(m) for m in moves[: j + 1]]))
             for j in range(ply, min(len(moves), ply + 1 + args.shot))]
    swing = min(later) - m0 if later else 0
    if "perpetual" in g["reason"] or "repetition" in g["reason"]:
        cls = "rules"
    elif swing <= -150:
        cls = "tactic"
    elif attackers(fen_before) <= args.endgame:
        cls = "endgame"
    else:
        cls = "drift"
    still = None
    if qiyi is not None:
        _, mv = qiyi.search(moves[:ply], f"go movetime {args.qiyi_ms}")
        still = mv == moves[ply]
    return {"game": g["game"], "class": cls, "ply": ply + 1, "move": moves[ply],
            "score_before": before, "score_after": score, "material_swing": swing,
            "attackers": attackers(fen_before), "qiyi_still_plays_it": still,
            "reason": g["reason"], "plies": len(moves)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True)
    ap.add_argument("--judge", required=True, help="a UCI engine command (NewGG, or qiyi uci)")
    ap.add_argument("--judge-go", default="go depth 12")
    ap.add_argument("--judge-opt", action="append", default=[])
    ap.add_argument("--qiyi", help="qiyi binary: asks `qiyi uci` at the deciding position")
    ap.add_argument("--qiyi-eval", default="hand")
    ap.add_argument("--qiyi-ms", type=int, default=300)
    ap.add_argument("--loss", type=int, default=150)
    ap.add_argument("--shot", type=int, default=6)
    ap.add_argument("--endgame", type=int, default=6)
    ap.add_argument("--games", type=int, default=0, help="at most this many lost games (0: all)")
    ap.add_argument("--report")
    a = ap.parse_args()
    lost = [g for g in parse_log(a.log) if g["a_score"] < 0]
    if a.games:
        lost = lost[: a.games]
    judge = Uci(a.judge, a.judge_opt)
    qiyi = Uci(f"{a.qiyi} uci --eval {shlex.quote(a.qiyi_eval)}", []) if a.qiyi else None
    rows = []
    for g in lost:
        r = diagnose(g, judge, a, qiyi)
        rows.append(r)
        print(r, flush=True)
    judge.quit()
    if qiyi:
        qiyi.quit()
    counts = {}
    for r in rows:
        counts[r["class"]] = counts.get(r["class"], 0) + 1
    plies = sorted(r["ply"] for r in rows if r["ply"])
    summary = (f"{len(rows)} lost games: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
               + (f"; deciding move at ply {plies[len(plies) // 2]} (median)" if plies else ""))
    print(summary)
    if a.report:
        with open(a.report, "w") as f:
            f.write(f"# Lost games of {a.log}\n\nJudge: `{a.judge}` with `{a.judge_go}`; loss threshold "
                    f"{a.loss} cp, tactic = {a.shot}-ply material swing of at least 150, endgame = at "
                    f"most {a.endgame} attacking pieces.\n\n{summary}\n\n")
            f.write("| game | class | deciding ply | move | judge before | judge after | swing | "
                    "attackers | qiyi still plays it | end |\n|---|---|---|---|---|---|---|---|---|---|\n")
            for r in rows:
                f.write(f"| {r['game']} | {r['class']} | {r.get('ply')} | {r.get('move', '')} | "
                        f"{r.get('score_before')} | {r.get('score_after')} | {r.get('material_swing')} | "
                        f"{r.get('attackers')} | {r.get('qiyi_still_plays_it')} | {r.get('reason', '')} |\n")


if __name__ == "__main__":
    main()
