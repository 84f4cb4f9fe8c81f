"""Checkers self-play positions/s: the Rust driver in-process (what `qiyi selfplay checkers`
runs, one thread) against `qiyi.cluster.selfplay_records` on 1 and 2 Ray workers.

    python crates/python/benchmarks/selfplay_speed.py --games 20 --depth 4
"""

import argparse
import tempfile
import time

import ray

import qiyi.cluster
from qiyi import _qiyi


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--per-shard", type=int, default=5)
    a = ap.parse_args()
    kw = dict(games=a.games, seed=1, games_per_shard=a.per_shard, depth=a.depth)
    with tempfile.TemporaryDirectory() as d:
        t = time.perf_counter()
        r = _qiyi.checkers_selfplay(d + "/local", threads=1, **kw)
        secs = time.perf_counter() - t
        print(f"in-process 1 thread: {r['positions']} positions, {secs:.2f} s, "
              f"{r['positions'] / secs:.0f} positions/s")
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        # Warm: start both worker processes and import qiyi in them (not counted).
        qiyi.cluster.selfplay_records(d + "/warm", workers=2, games=2, seed=9,
                                      games_per_shard=1, depth=1)
        for w in (1, 2):
            r = qiyi.cluster.selfplay_records(f"{d}/ray{w}", workers=w, **kw)
            print(f"ray {w} worker(s): {r['positions']} positions, {r['seconds']:.2f} s, "
                  f"{r['positions'] / r['seconds']:.0f} positions/s "
                  f"({r['positions'] / r['seconds'] / w:.0f} per worker)")
        ray.shutdown()


if __name__ == "__main__":
    main()
