"""One worker against two on a local Ray: same result, wall time and speed-up.

    python crates/python/benchmarks/ray_scaling.py [--games 4000] [--seats win,random,random,random]
    python crates/python/benchmarks/ray_scaling.py --game chinese_checkers --games 200 \\
        --seats best,seed --level 3 --players 2

Starts Ray with 2 CPUs, plays the tournament with ``workers=1`` and then ``workers=2`` (the
tasks in flight), checks that the results are identical and prints both wall times, the
speed-up, the machine's load average and the CPU count.
"""

import argparse
import json
import os
import time

import ray

import qiyi.cluster

SAME = ("win_rate", "mean_turns", "captures_per_game", "by_type_wins", "mean_plies", "capped")


def key(r):
    out = {k: r.get(k) for k in SAME}
    out["by_type_wins"] = {k: v["wins"] for k, v in r["by_type"].items()}
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="aeroplane")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seats", default="win,random,random,random")
    ap.add_argument("--seed", type=int, default=151)
    ap.add_argument("--level", type=int, default=6)
    ap.add_argument("--players", type=int, default=None)
    a = ap.parse_args()
    rules = {} if a.players is None else {"players": a.players}
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    # Warm the worker processes (Ray starts them lazily) so start-up is not timed.
    qiyi.cluster.tournament(a.game, a.seats, min(a.games, 8), a.seed, workers=2, level=a.level,
                            **rules)
    runs = {}
    for workers in (1, 2):
        t0 = time.perf_counter()
        r = qiyi.cluster.tournament(a.game, a.seats, a.games, a.seed, workers=workers,
                                    level=a.level, **rules)
        runs[workers] = (time.perf_counter() - t0, r)
    same = key(runs[1][1]) == key(runs[2][1])
    print(json.dumps({
        "game": a.game, "games": a.games, "seats": a.seats, "seed": a.seed,
        "result": key(runs[2][1]),
        "identical": same,
        "seconds_1_worker": runs[1][0], "seconds_2_workers": runs[2][0],
        "speedup": runs[1][0] / runs[2][0],
        "load_average": os.getloadavg(), "cpus": os.cpu_count(),
    }))
    ray.shutdown()


if __name__ == "__main__":
    main()
