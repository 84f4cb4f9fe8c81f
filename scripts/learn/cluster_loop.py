#!/usr/bin/env python3
"""One round of checkers learning on Ray: self-play -> `qiyi train checkers` -> SPRT.

A thin front end over `qiyi.cluster.train_loop` (see docs/cluster.md). Example, on a local Ray
with 2 workers:

    QIYI_BIN=target/release/qiyi python scripts/learn/cluster_loop.py runs/round1 \
        --games 200 --depth 6 --epochs 5 --sprt-games 400 --sprt-depth 6 --workers 2

Rerun the same command to resume: a stage whose output is in the folder is skipped (said so).
`--address auto` joins a running Ray cluster instead of starting a local one.
"""

import argparse
import json
import sys

import qiyi
import qiyi.cluster


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out_dir", help="the round's folder (self-play shards, net, reports)")
    p.add_argument("--games", type=int, default=100, help="self-play games")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--depth", type=int, default=4, help="self-play search depth")
    p.add_argument("--shard", type=int, default=10, help="games per shard (one Ray task)")
    p.add_argument("--random-plies", type=int, default=6)
    p.add_argument("--eval", default=None,
                   help="self-play evaluation (hand, net or a net file; default the engine's)")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--l2", type=int, default=16)
    p.add_argument("--train-threads", type=int, default=1)
    p.add_argument("--base", default="qiyi",
                   help="the engine the new net must beat (a `qiyi match checkers` spec)")
    p.add_argument("--sprt-games", type=int, default=200, help="most games the SPRT plays")
    p.add_argument("--sprt-depth", type=int, default=4)
    p.add_argument("--elo0", type=float, default=0)
    p.add_argument("--elo1", type=float, default=10)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--address", default=None, help="a Ray cluster to join (e.g. auto)")
    p.add_argument("--qiyi", default=None, help="the qiyi binary (default $QIYI_BIN or PATH)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON at the end")
    a = p.parse_args(argv)
    try:
        r = qiyi.cluster.train_loop(
            a.out_dir, games=a.games, seed=a.seed, depth=a.depth, shard=a.shard,
            random_plies=a.random_plies, eval=a.eval, epochs=a.epochs, hidden=a.hidden,
            l2=a.l2, train_threads=a.train_threads, base=a.base, sprt_games=a.sprt_games,
            sprt_depth=a.sprt_depth, elo0=a.elo0, elo1=a.elo1, workers=a.workers,
            address=a.address, qiyi_bin=a.qiyi)
    except (qiyi.RuleError, FileNotFoundError, ImportError, RuntimeError) as e:
        print(f"cluster_loop: {e}", file=sys.stderr)
        return 2
    if a.json:
        slim = {k: v for k, v in r["sprt"].items() if k != "games_played"}
        print(json.dumps({"seed": r["seed"], "net": r["net"], "skipped": r["skipped"],
                          "verdict": r["verdict"], "sprt": slim}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
