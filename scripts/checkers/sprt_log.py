#!/usr/bin/env python3
"""The SPRT of a match log, recomputed outside qiyi: pentanomial counts of ballot pairs (games
2k-1 and 2k of a `qiyi match --log`, `ck_match.py --log` or `xq_match.py --log` file, the first
engine's results),
and the generalised log-likelihood ratio fishtest uses (Van den Bergh; empty counts as 1e-3 of a
pair), game by game, so it also says where a sequential test would have stopped.

Several logs (one match split over processes running side by side, each with its own seed)
are read as one stream: their ballot pairs taken in turn, one from each log, so the sequential
test sees them in about the order they were played.

usage: sprt_log.py LOG [LOG ...] ELO0 ELO1 [--alpha 0.05] [--beta 0.05]
"""
import argparse, math


def result(f):
    """The first engine's score in one log line's fields, or None for a line that is no game.

    Two formats: `qiyi match --log` / `ck_match.py` (`game N<TAB>...<TAB>...<TAB>win|draw|loss`)
    and `xq_match.py` (`game N<TAB>A red|A black<TAB>+1|0|-1 (red's view)<TAB>reason<TAB>moves`).
    """
    if len(f) < 4 or not f[0].startswith("game "):
        return None
    if f[3] in ("win", "draw", "loss"):
        return {"win": 1.0, "draw": 0.5, "loss": 0.0}[f[3]]
    red = {"A red": 1, "A black": -1}.get(f[1])
    view = f[2].split(" ")[0]
    if red is None or view not in ("+1", "0", "+0", "-0", "-1"):
        raise SystemExit(f"unreadable game line: {chr(9).join(f[:3])!r}")
    return (1 + red * int(view)) / 2


def results(path):
    out = []
    for line in open(path):
        r = result(line.rstrip("\n").split("\t"))
        if r is not None:
            out.append(r)
    return out


def mle_log_probs(freq, s):
    x = [0.0, 0.25, 0.5, 0.75, 1.0]
    s = min(max(s, 1e-6), 1 - 1e-6)
    f = lambda l: sum(freq[i] * (x[i] - s) / (1 + l * (x[i] - s)) for i in range(5))
    lo, hi = -1 / (1 - s) + 1e-12, 1 / s - 1e-12
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    l = (lo + hi) / 2
    return [math.log(freq[i] / (1 + l * (x[i] - s))) for i in range(5)]


def llr(counts, elo0, elo1):
    n = sum(counts)
    if n == 0:
        return 0.0
    freq = [c if c else 1e-3 for c in counts]
    t = sum(freq)
    freq = [c / t for c in freq]
    score = lambda e: 1 / (1 + 10 ** (-e / 400))
    p0, p1 = mle_log_probs(freq, score(elo0)), mle_log_probs(freq, score(elo1))
    return n * sum(freq[i] * (p1[i] - p0[i]) for i in range(5))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("args", nargs="+", metavar="LOG... ELO0 ELO1")
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    a = ap.parse_args()
    if len(a.args) < 3:
        ap.error("give at least one LOG, then ELO0 and ELO1")
    try:
        a.elo0, a.elo1 = float(a.args[-2]), float(a.args[-1])
    except ValueError:
        ap.error(f"ELO0 and ELO1 must be numbers, not {a.args[-2]!r} {a.args[-1]!r}")
    logs = a.args[:-2]
    a.log = " + ".join(logs)
    lo, hi = math.log(a.beta / (1 - a.alpha)), math.log((1 - a.beta) / a.alpha)
    streams = [results(path) for path in logs]
    pairs = [[s[2 * k:2 * k + 2] for k in range(len(s) // 2)] for s in streams]
    r = [x for k in range(max(len(p) for p in pairs)) for p in pairs if k < len(p) for x in p[k]]
    counts = [0] * 5
    stop = None
    for k in range(len(r) // 2):
        counts[round((r[2 * k] + r[2 * k + 1]) * 2)] += 1
        v = llr(counts, a.elo0, a.elo1)
        if stop is None and (v >= hi or v <= lo):
            stop = (2 * k + 2, v, "H1" if v >= hi else "H0", list(counts))
    w, d, l = r.count(1.0), r.count(0.5), r.count(0.0)
    print(f"{a.log}: +{w} ={d} -{l} in {len(r)} games, pentanomial {counts}, "
          f"LLR {llr(counts, a.elo0, a.elo1):+.2f} for SPRT({a.elo0:g}, {a.elo1:g}) in [{lo:.2f}, {hi:.2f}]")
    if stop:
        print(f"a sequential test would have stopped after {stop[0]} games: {stop[2]} (LLR {stop[1]:+.2f}, pentanomial {stop[3]})")
    else:
        print("undecided: no bound reached")


if __name__ == "__main__":
    main()
