#!/usr/bin/env python3
"""Accuracy by level: does the review score a stronger player higher? (issue 48, Measures)

For each level L of --levels, plays --games Xiangqi self-play games of qiyi level L against
level L (`qiyi match xiangqi`, the shipped openings, colours swapped in pairs, --movetime ms a
move, seeded), reviews every game with `qiyi review xiangqi --depth D --json` (the same judge for
every level), and reports each level's distribution of per-player accuracy (mean with a bootstrap
95% interval, median, 10th/90th percentiles) and its blunders and mistakes per 100 moves.
A stronger level should score higher: the script says whether the means rise with the level and
whether neighbouring levels' intervals overlap.

Resumable: one JSON line per level is appended to --out as the level finishes; a level already in
--out with the same settings is read back, not played again. Run in parts with --levels.

    python3 scripts/review/accuracy_by_level.py --qiyi target/release/qiyi \
        --levels 1,3,5,8,10 --games 8 --movetime 100 --depth 10 --seed 1 \
        --out docs/data/xiangqi-accuracy-by-level.jsonl
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
    return p.stdout


def last_json(out):
    return json.loads(out.strip().splitlines()[-1])


def pgn_of(game):
    """The match's JSON game as an XQ PGN with ICCS moves, from its opening FEN."""
    moves = " ".join(m[0].upper() + m[1] + "-" + m[2].upper() + m[3] for m in game["moves"])
    return f'[Game "Chinese Chess"]\n[FEN "{game["opening"]}"]\n[Format "ICCS"]\n\n{moves}\n'


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def bootstrap_mean(xs, rng, n=2000):
    means = sorted(statistics.fmean(rng.choices(xs, k=len(xs))) for _ in range(n))
    return means[int(0.025 * n)], means[int(0.975 * n) - 1]


def play_level(args, level):
    work = tempfile.mkdtemp(prefix=f"qiyi-acc-{level}-")
    games_out = os.path.join(work, "games.jsonl")
    engine = f"qiyi:level={level}"
    out = run([args.qiyi, "--threads", str(args.threads), "match", "xiangqi", "--engine", engine,
               "--engine", engine, "--games", str(args.games), "--movetime", str(args.movetime),
               "--seed", str(args.seed + level), "--games-out", games_out, "--json"])
    summary = last_json(out)
    accuracies, moves, blunders, mistakes, plies = [], 0, 0, 0, []
    with open(games_out, encoding="utf-8") as f:
        games = [json.loads(line) for line in f if line.strip()]
    for i, game in enumerate(games):
        if len(game["moves"]) < 2:
            continue
        path = os.path.join(work, f"game{i}.pgn")
        with open(path, "w", encoding="utf-8") as f:
            f.write(pgn_of(game))
        review = last_json(run([args.qiyi, "--threads", "1", "review", "xiangqi", path,
                                "--depth", str(args.depth), "--json"]))
        plies.append(len(game["moves"]))
        for p in review["summary"]:
            if p["moves"] == 0:
                continue
            accuracies.append(p["accuracy"])
            moves += p["moves"]
            # counts: best, good, inaccuracy, mistake, blunder (core's MoveClass order)
            mistakes += p["counts"][3]
            blunders += p["counts"][4]
        print(f"  level {level} game {i + 1}/{len(games)}: {len(game['moves'])} plies, accuracy "
              + " / ".join(f"{p['accuracy']:.1f}" for p in review["summary"]), flush=True)
    rng = random.Random(args.seed)
    lo, hi = bootstrap_mean(accuracies, rng)
    return {
        "level": level, "games": len(games), "movetime_ms": args.movetime, "judge_depth": args.depth,
        "seed": args.seed + level, "match": {k: summary.get(k) for k in ("wins", "draws", "losses")},
        "mean_plies": statistics.fmean(plies) if plies else 0,
        "accuracy": {"n": len(accuracies), "mean": statistics.fmean(accuracies), "ci95": [lo, hi],
                     "median": statistics.median(accuracies), "p10": pct(accuracies, 10),
                     "p90": pct(accuracies, 90)},
        "per_100_moves": {"mistakes": 100 * mistakes / max(1, moves),
                          "blunders": 100 * blunders / max(1, moves)},
        "accuracies": [round(a, 2) for a in accuracies],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--qiyi", default="target/release/qiyi")
    ap.add_argument("--levels", default="1,3,5,8,10")
    ap.add_argument("--games", type=int, default=8, help="self-play games per level")
    ap.add_argument("--movetime", type=int, default=100, help="ms a move")
    ap.add_argument("--depth", type=int, default=10, help="the review's search depth")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2, help="games played at once")
    ap.add_argument("--out", default="docs/data/xiangqi-accuracy-by-level.jsonl")
    args = ap.parse_args()
    try:
        levels = [int(x) for x in args.levels.split(",")]
    except ValueError:
        ap.error("--levels: comma-separated numbers 1..10")
    if any(not 1 <= l <= 10 for l in levels) or args.games < 1 or args.movetime < 1 or args.depth < 1:
        ap.error("levels 1..10, --games, --movetime and --depth at least 1")
    print(f"accuracy by level: xiangqi self-play, levels {levels}, {args.games} games each, "
          f"{args.movetime} ms a move, review depth {args.depth}, seed {args.seed}", flush=True)
    done = {}
    if os.path.exists(args.out):
        with open(args.out, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                if (r["games"], r["movetime_ms"], r["judge_depth"], r["seed"]) == \
                        (args.games, args.movetime, args.depth, args.seed + r["level"]):
                    done[r["level"]] = r
    for level in levels:
        if level in done:
            print(f"level {level}: read back from {args.out}")
            continue
        r = play_level(args, level)
        done[level] = r
        with open(args.out, "a", encoding="utf-8") as f:
            f.write(json.dumps(r) + "\n")
    print("\n| level | players x games | accuracy mean [95% CI] | median | p10 / p90 | mistakes / blunders per 100 moves | mean plies |")
    print("|---|---|---|---|---|---|---|")
    rows = [done[l] for l in sorted(done)]
    for r in rows:
        a = r["accuracy"]
        print(f"| {r['level']} | {a['n']} | {a['mean']:.1f} [{a['ci95'][0]:.1f}, {a['ci95'][1]:.1f}] | "
              f"{a['median']:.1f} | {a['p10']:.1f} / {a['p90']:.1f} | "
              f"{r['per_100_moves']['mistakes']:.1f} / {r['per_100_moves']['blunders']:.1f} | {r['mean_plies']:.0f} |")
    rising = all(b["accuracy"]["mean"] > a["accuracy"]["mean"] for a, b in zip(rows, rows[1:]))
    separated = [f"{a['level']}<{b['level']}" for a, b in zip(rows, rows[1:])
                 if a["accuracy"]["ci95"][1] < b["accuracy"]["ci95"][0]]
    print(f"\nmeans rise with the level: {'yes' if rising else 'NO'}; neighbouring levels whose "
          f"intervals do not overlap: {', '.join(separated) or 'none'}")


if __name__ == "__main__":
    main()
