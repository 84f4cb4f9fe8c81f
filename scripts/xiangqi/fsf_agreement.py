#!/usr/bin/env python3
"""Checks the Xiangqi review against Fairy-Stockfish's classical evaluation (issue 48, item 1).

Every game of GAMES (one XQ PGN file holding several games, ICCS moves, a `FEN` tag each) is
reviewed with `qiyi --json review xiangqi` at its default depth (or `--review-depth`). Each ply the
review classes best or blunder (and, as extra rows, mistake and inaccuracy) is then searched by
Fairy-Stockfish (UCI, `UCI_Variant xiangqi`, `Use NNUE false`, `Threads 1`, `Hash 64`) to a fixed
depth from the game's history (`position fen START moves ...`): `go depth D` for its own best move
and value, and `go depth D searchmoves PLAYED` for the value of the move played (skipped when FSF's
best move is the move played). Both centipawn values are turned into a win chance with qiyi's
logistic, 1 / (1 + exp(-0.0027 cp)), and a mate score into 1 or 0. ASSUMPTION: Fairy-Stockfish's
centipawn scale is not qiyi's (FSF normalises by its own pawn value); the same slope is used for
both, so the thresholds are only approximately the same on FSF's side.

    FSF loss = max(0, win(FSF best) - win(played))
    a blunder is confirmed when FSF loss >= 0.15 (the blunder threshold),
    a best move is confirmed when FSF loss < 0.05 (the inaccuracy threshold).

Plies with a single legal move (`forced` in the review) are left out: they are best trivially.

    python3 scripts/xiangqi/fsf_agreement.py --qiyi target/release/qiyi --fsf FSF_BINARY \
        --games docs/data/xiangqi-vs-eleeye-100ms.pgn --depth 12 \
        --out docs/data/xiangqi-fsf-agreement.json

`--from-fixture FILE...` recomputes the report from fixtures written earlier (no engine needed;
several make one combined report).
Needs Python 3 only (no pyffish). Prints the figures and a table of disagreements (markdown).
"""
import argparse
import json
import math
import os
import queue
import re
import shlex
import subprocess
import sys
import tempfile
import threading
import time

WIN_SLOPE = 0.0027
INACCURACY, MISTAKE, BLUNDER = 0.05, 0.10, 0.15
CLASSES = ("best", "inaccuracy", "mistake", "blunder")


def win(cp):
    return 1.0 / (1.0 + math.exp(-WIN_SLOPE * cp))


def to_uci(iccs):
    """ICCS (`H2-E2`, ranks 0-9) to Fairy-Stockfish's UCI squares (`h3e3`, ranks 1-10)."""
    t = iccs.replace("-", "").lower()
    if not re.fullmatch(r"[a-i][0-9][a-i][0-9]", t):
        sys.exit(f"error: {iccs!r} is not an ICCS move")
    return f"{t[0]}{int(t[1]) + 1}{t[2]}{int(t[3]) + 1}"


def fsf_fen(fen):
    """qiyi's FEN with Fairy-Stockfish's letters (horse n, elephant b)."""
    board, *rest = fen.split()
    board = board.translate(str.maketrans("hHeE", "nNbB"))
    side = "b" if (rest[0] if rest else "w").lower() == "b" else "w"
    return f"{board} {side} - - 0 1"


def split_pgn(text):
    """The games of a PGN file, each as its own text (a new game starts at a tag after moves)."""
    games, cur, in_moves = [], [], False
    for line in text.splitlines():
        if line.startswith("[") and in_moves:
            games.append("\n".join(cur) + "\n")
            cur, in_moves = [], False
        if line.strip() and not line.startswith("["):
            in_moves = True
        cur.append(line)
    if in_moves:
        games.append("\n".join(cur) + "\n")
    return games


class Fsf:
    """A Fairy-Stockfish process over UCI."""

    def __init__(self, cmd, hash_mib=64):
        self.p = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.wait("uciok")
        for name, value in (("UCI_Variant", "xiangqi"), ("Use NNUE", "false"), ("Threads", "1"),
                            ("Hash", str(hash_mib))):
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")
        self.send("position startpos")
        self.send("d")
        self.send("isready")
        lines = self.wait("readyok", keep=True)
        if not any("xiangqi" in l.lower() or "rnbakabnr" in l for l in lines):
            sys.exit("error: Fairy-Stockfish did not take UCI_Variant xiangqi")

    def _read(self):
        for line in self.p.stdout:
            self.q.put(line.strip())
        self.q.put(None)

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def wait(self, prefix, timeout=600, keep=False):
        lines = []
        end = time.time() + timeout
        while True:
            line = self.q.get(timeout=max(0.01, end - time.time()))
            if line is None:
                sys.exit("error: Fairy-Stockfish exited")
            lines.append(line)
            if line.startswith(prefix):
                return lines if keep else line

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait("readyok")

    def search(self, fen, moves, depth, only=None):
        """(best move, score kind 'cp'/'mate', score value) from the side to move's view."""
        pos = f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")
        self.send(pos)
        self.send(f"go depth {depth}" + (f" searchmoves {only}" if only else ""))
        lines = self.wait("bestmove", keep=True)
        score = None
        for line in lines:
            m = re.search(r"\bscore (cp|mate) (-?\d+)( lowerbound| upperbound)?", line)
            if line.startswith("info") and m and not m.group(3):
                score = (m.group(1), int(m.group(2)))
        if score is None:
            for line in lines:
                m = re.search(r"\bscore (cp|mate) (-?\d+)", line)
                if m:
                    score = (m.group(1), int(m.group(2)))
        best = lines[-1].split()[1]
        if score is None:
            sys.exit(f"error: no score from Fairy-Stockfish for {pos}")
        return best, score[0], score[1]

    def fen(self, fen, moves):
        """The FEN (FSF's letters) after `moves` from `fen`, by FSF's `d` command."""
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send("d")
        return self.wait("Fen:")[4:].strip()

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(timeout=3)
        except Exception:
            self.p.kill()


def score_win(kind, value):
    if kind == "mate":
        return 1.0 if value > 0 else 0.0
    return win(value)


def review_game(qiyi, text, review_depth):
    with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        cmd = [qiyi, "--threads", "1", "--json", "review", "xiangqi", path]
        if review_depth:
            cmd += ["--depth", str(review_depth)]
        run = subprocess.run(cmd, capture_output=True, text=True)
    finally:
        os.unlink(path)
    if run.returncode != 0:
        sys.exit(f"error: qiyi review exited {run.returncode}: {run.stderr.strip()}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def qiyi_values(p):
    """qiyi's own centipawns (mover's view) before the move, after the move played, after its best."""
    return {"qiyi_cp_before": (p.get("before") or {}).get("unit"),
            "qiyi_cp_played": (p.get("after_played") or {}).get("unit"),
            "qiyi_cp_best": (p.get("after_best") or {}).get("unit")}


def add_qiyi_values(fx, args):
    """Reviews the games again (the review at a fixed depth on one thread is deterministic) and
    stores qiyi's centipawns in each row of a fixture written before they were kept."""
    with open(args.games, encoding="utf8") as f:
        games = split_pgn(f.read())
    for gi, text in enumerate(games):
        review = review_game(args.qiyi, text, args.review_depth)
        by_ply = {p["ply"]: p for p in review["plies"]}
        for r in fx["rows"]:
            if r["game"] == gi + 1:
                p = by_ply[r["ply"]]
                if to_uci(p["played"]) != r["played"] or p.get("class") != r["class"]:
                    sys.exit(f"error: game {gi + 1} ply {r['ply']} reviews differently now")
                r.update(qiyi_values(p))


def fsf_cp(score):
    kind, value = score.split()
    return int(value) if kind == "cp" else None


def scale_fit(rows):
    """FSF's centipawns against qiyi's on the same positions: the least-squares slope through the
    origin of FSF's best value on qiyi's value before the move (both non-mate, |qiyi| < 1000)."""
    pairs = [(r["qiyi_cp_before"], fsf_cp(r["fsf_best_score"])) for r in rows
             if r.get("qiyi_cp_before") is not None and fsf_cp(r["fsf_best_score"]) is not None
             and abs(r["qiyi_cp_before"]) < 1000]
    if len(pairs) < 10:
        return None, len(pairs)
    return sum(q * f for q, f in pairs) / sum(q * q for q, _ in pairs), len(pairs)


def collect(args):
    with open(args.games, encoding="utf8") as f:
        games = split_pgn(f.read())
    fsf = Fsf(args.fsf)
    rows = []
    t_review = t_fsf = 0.0
    for gi, text in enumerate(games):
        tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]\s*$', text, re.M))
        start = fsf_fen(tags["FEN"]) if "FEN" in tags else fsf_fen(
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w")
        t0 = time.time()
        review = review_game(args.qiyi, text, args.review_depth)
        t_review += time.time() - t0
        plies = [p for p in review["plies"] if p.get("kind", "decision") == "decision"]
        played = [to_uci(p["played"]) for p in plies]
        fsf.new_game()
        t0 = time.time()
        for i, p in enumerate(plies):
            cls = p.get("class")
            if cls not in CLASSES or p.get("forced"):
                continue
            history = played[:i]
            best, kind, val = fsf.search(start, history, args.depth)
            if best == played[i]:
                pkind, pval = kind, val
            else:
                _, pkind, pval = fsf.search(start, history, args.depth, only=played[i])
            w_best, w_played = score_win(kind, val), score_win(pkind, pval)
            rows.append({
                "game": gi + 1,
                "ply": p["ply"],
                "fen": fsf.fen(start, history),
                "played": played[i],
                "class": cls,
                "qiyi_loss": round(p["loss"], 4),
                "qiyi_best": to_uci(p["best"]) if p.get("best") else None,
                "qiyi_exact": p.get("exact", False),
                **qiyi_values(p),
                "fsf_best": best,
                "fsf_best_score": f"{kind} {val}",
                "fsf_played_score": f"{pkind} {pval}",
                "fsf_loss": round(max(0.0, w_best - w_played), 4),
            })
        t_fsf += time.time() - t0
        print(f"# game {gi + 1}: {len(plies)} plies reviewed, {len(rows)} rows so far",
              file=sys.stderr, flush=True)
    fsf.quit()
    return {
        "what": "qiyi's Xiangqi review checked against Fairy-Stockfish (classical evaluation)",
        "games": os.path.basename(args.games),
        "qiyi_review_depth": args.review_depth or "default (12)",
        "fsf_depth": args.depth,
        "fsf_options": "UCI_Variant xiangqi, Use NNUE false, Threads 1, Hash 64",
        "win_slope": WIN_SLOPE,
        "seconds_review": round(t_review, 1),
        "seconds_fsf": round(t_fsf, 1),
        "rows": rows,
    }


def disagrees(r):
    return (r["class"] == "blunder" and r["fsf_loss"] < BLUNDER) or (
        r["class"] == "best" and r["fsf_loss"] >= INACCURACY)


def recheck(fx, cmd, depth):
    """Searches every disagreeing row again at `depth` (from its FEN, without the game's history)
    and stores the FSF loss found there as `fsf_loss_recheck`."""
    fsf = Fsf(cmd)
    for r in fx["rows"]:
        if not disagrees(r):
            continue
        fsf.new_game()
        best, kind, val = fsf.search(r["fen"], [], depth)
        if best == r["played"]:
            pkind, pval = kind, val
        else:
            _, pkind, pval = fsf.search(r["fen"], [], depth, only=r["played"])
        r["fsf_loss_recheck"] = round(max(0.0, score_win(kind, val) - score_win(pkind, pval)), 4)
        r["fsf_best_recheck"] = best
    fsf.quit()
    fx["recheck_depth"] = depth


def report(fx):
    rows = fx["rows"]
    by = {c: [r for r in rows if r["class"] == c] for c in CLASSES}
    bl_ok = [r for r in by["blunder"] if r["fsf_loss"] >= BLUNDER]
    be_ok = [r for r in by["best"] if r["fsf_loss"] < INACCURACY]
    n = len(by["blunder"]) + len(by["best"])
    pct = lambda a, b: f"{100.0 * a / b:.1f}%" if b else "n/a"
    print(f"games {fx['games']}; qiyi review depth {fx['qiyi_review_depth']}; "
          f"Fairy-Stockfish depth {fx['fsf_depth']} ({fx['fsf_options']}); "
          f"review {fx['seconds_review']} s, FSF {fx['seconds_fsf']} s (wall)")
    print(f"blunders confirmed (FSF loss >= {BLUNDER}): {len(bl_ok)}/{len(by['blunder'])} "
          f"{pct(len(bl_ok), len(by['blunder']))}")
    print(f"bests confirmed (FSF loss < {INACCURACY}): {len(be_ok)}/{len(by['best'])} "
          f"{pct(len(be_ok), len(by['best']))}")
    print(f"overall agreement: {len(bl_ok) + len(be_ok)}/{n} {pct(len(bl_ok) + len(be_ok), n)}")
    for c in ("inaccuracy", "mistake"):
        rs = by[c]
        ge = [r for r in rs if r["fsf_loss"] >= INACCURACY]
        print(f"{c} (extra rows): {len(rs)}, FSF loss >= {INACCURACY} for {len(ge)} "
              f"{pct(len(ge), len(rs))}")
    print()
    fit, npairs = scale_fit(rows)
    if fit:
        def w_of(score):
            kind, value = score.split()
            return score_win(kind, int(value)) if kind == "mate" else win(int(value) / fit)

        def rescaled_loss(r):
            return max(0.0, w_of(r["fsf_best_score"]) - w_of(r["fsf_played_score"]))

        rb = [r for r in by["blunder"] if rescaled_loss(r) >= BLUNDER]
        rbe = [r for r in by["best"] if rescaled_loss(r) < INACCURACY]
        print(f"scale: FSF cp = {fit:.2f} x qiyi cp (least squares through 0 on {npairs} "
              f"positions, |qiyi| < 1000); with FSF's cp divided by {fit:.2f}: blunders "
              f"confirmed {len(rb)}/{len(by['blunder'])} {pct(len(rb), len(by['blunder']))}, "
              f"bests {len(rbe)}/{len(by['best'])} {pct(len(rbe), len(by['best']))}, overall "
              f"{len(rb) + len(rbe)}/{n} {pct(len(rb) + len(rbe), n)}")
    rd = fx.get("recheck_depth")
    bad = [r for r in rows if disagrees(r)]
    if rd:
        held = [r for r in bad if disagrees(dict(r, fsf_loss=r.get("fsf_loss_recheck", 0.0)))]
        print(f"disagreements still there at FSF depth {rd}: {len(held)}/{len(bad)}")
    print()
    extra = f" FSF loss at depth {rd} (its best) |" if rd else ""
    print("| game | ply | played | qiyi class (loss) | qiyi best | FSF best | FSF best score "
          f"| FSF played score | FSF loss |{extra}")
    print("|---:|---:|---|---|---|---|---|---|---:|" + ("---:|" if rd else ""))
    for r in bad:
        tail = ""
        if rd:
            tail = f" {r.get('fsf_loss_recheck', 0.0):.3f} ({r.get('fsf_best_recheck', '')}) |"
        print(f"| {r['game']} | {r['ply']} | {r['played']} | {r['class']} ({r['qiyi_loss']:.3f})"
              f" | {r['qiyi_best'] or ''} | {r['fsf_best']} | {r['fsf_best_score']} "
              f"| {r['fsf_played_score']} | {r['fsf_loss']:.3f} |{tail}")


def write_fixture(path, fx):
    """The fixture as JSON, one row a line (small diffs, small file)."""
    head = {k: v for k, v in fx.items() if k != "rows"}
    with open(path, "w", encoding="utf8") as f:
        f.write(json.dumps(head)[:-1] + ', "rows": [\n')
        f.write(",\n".join(json.dumps(r, separators=(",", ":")) for r in fx["rows"]))
        f.write("\n]}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qiyi", help="the qiyi binary (a release build)")
    ap.add_argument("--fsf", help="command running Fairy-Stockfish (largeboards build)")
    ap.add_argument("--games", help="XQ PGN file with the games")
    ap.add_argument("--depth", type=int, default=12, help="Fairy-Stockfish's fixed depth")
    ap.add_argument("--review-depth", type=int, help="qiyi's review depth (default: its own)")
    ap.add_argument("--out", help="write the fixture (JSON) here")
    ap.add_argument("--recheck", type=int, metavar="DEPTH",
                    help="search every disagreement again at this FSF depth (needs --fsf)")
    ap.add_argument("--add-qiyi-values", action="store_true",
                    help="review --games again and add qiyi's centipawns to the fixture's rows")
    ap.add_argument("--from-fixture", nargs="+", metavar="FIXTURE",
                    help="report on fixtures written earlier (several: one combined report)")
    args = ap.parse_args()
    if args.from_fixture:
        fxs = []
        for path in args.from_fixture:
            with open(path, encoding="utf8") as f:
                fxs.append(json.load(f))
        fx = dict(fxs[0])
        if len(fxs) > 1:
            for key in ("games", "qiyi_review_depth", "fsf_depth"):
                fx[key] = " + ".join(str(x[key]) for x in fxs)
            for key in ("seconds_review", "seconds_fsf"):
                fx[key] = round(sum(x[key] for x in fxs), 1)
            fx["rows"] = [dict(r, game=f"{x['games']}:{r['game']}") for x in fxs
                          for r in x["rows"]]
    else:
        if not (args.qiyi and args.fsf and args.games):
            ap.error("give --qiyi, --fsf and --games (or --from-fixture)")
        fx = collect(args)
    if args.add_qiyi_values:
        if not (args.qiyi and args.games and len(args.from_fixture or []) == 1):
            ap.error("--add-qiyi-values needs --qiyi, --games and one --from-fixture")
        add_qiyi_values(fx, args)
    if args.recheck:
        if not args.fsf:
            ap.error("--recheck needs --fsf")
        recheck(fx, args.fsf, args.recheck)
    if args.out:
        write_fixture(args.out, fx)
    report(fx)


if __name__ == "__main__":
    main()
