"""Self-play positions/s for checkers or Xiangqi: the CLI (`qiyi selfplay GAME --threads 1`, when
QIYI_BIN names the binary), the Rust driver in-process (one thread), and
`qiyi.cluster.selfplay_records` on 1 and 2 Ray workers. Every run writes the same shards (the
script checks their digests).

    QIYI_BIN=target/python/qiyi python crates/python/benchmarks/selfplay_speed.py \\
        --game xiangqi --games 20 --depth 4
"""

import argparse
import hashlib
import json
import os
import subprocess
import tempfile
import time

import ray

import qiyi.cluster
from qiyi import _qiyi


def digests(d):
    return {f: hashlib.sha256(open(os.path.join(d, f), "rb").read()).hexdigest()
            for f in sorted(os.listdir(d)) if f.endswith(".bin")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", choices=["checkers", "xiangqi"], default="checkers")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--per-shard", type=int, default=5)
    a = ap.parse_args()
    kw = dict(games=a.games, seed=1, games_per_shard=a.per_shard, depth=a.depth)
    print(f"{a.game} depth {a.depth}, {a.games} games in shards of {a.per_shard}; "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as d:
        binary = os.environ.get("QIYI_BIN")
        if binary:
            t = time.perf_counter()
            out = subprocess.run(
                [binary, "--seed", "1", "--threads", "1", "--json", "selfplay", a.game,
                 "--games", str(a.games), "--games-per-shard", str(a.per_shard), "--depth",
                 str(a.depth), "--out", d + "/cli"], check=True, capture_output=True, text=True)
            secs = time.perf_counter() - t
            r = json.loads(out.stdout.strip().splitlines()[-1])
            print(f"CLI --threads 1: {r['positions']} positions, {secs:.2f} s (process), "
                  f"{r['positions'] / secs:.0f} positions/s")
        t = time.perf_counter()
        r = getattr(_qiyi, f"{a.game}_selfplay")(d + "/local", threads=1, **kw)
        secs = time.perf_counter() - t
        print(f"in-process 1 thread: {r['positions']} positions, {secs:.2f} s, "
              f"{r['positions'] / secs:.0f} positions/s")
        want = digests(d + "/local")
        if binary:
            assert digests(d + "/cli") == want, "the CLI wrote other shards"
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        # Warm: start both worker processes and import qiyi in them (not counted).
        qiyi.cluster.selfplay_records(d + "/warm", game=a.game, workers=2, games=2, seed=9,
                                      games_per_shard=1, depth=1)
        for w in (1, 2):
            r = qiyi.cluster.selfplay_records(f"{d}/ray{w}", game=a.game, workers=w, **kw)
            assert digests(f"{d}/ray{w}") == want, "Ray wrote other shards"
            print(f"ray {w} worker(s): {r['positions']} positions, {r['seconds']:.2f} s, "
                  f"{r['positions'] / r['seconds']:.0f} positions/s "
                  f"({r['positions'] / r['seconds'] / w:.0f} per worker)")
        ray.shutdown()


if __name__ == "__main__":
    main()
