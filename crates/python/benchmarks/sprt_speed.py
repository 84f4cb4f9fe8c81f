"""SPRT wall time on 1 and 2 Ray workers for the same decision (issue 49, item 3).

    python crates/python/benchmarks/sprt_speed.py --a qiyi --b qiyi:seed:2 --depth 6 \\
        --elo0 0 --elo1 50 [--seed 3] [--repeat 2]

Starts a local Ray with 2 CPUs, warms both worker processes, then runs
``qiyi.cluster.sprt("checkers", ...)`` with ``workers=1`` and ``workers=2`` (alternating,
``--repeat`` times each), checks that every run reaches the same verdict, LLR and pair counts,
and prints the wall times, the speed-up of the medians and the machine's load average.
"""

import argparse
import os
import statistics

import ray

import qiyi.cluster


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", default="qiyi")
    ap.add_argument("--b", default="qiyi:seed:2")
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--nodes", type=int, default=None)
    ap.add_argument("--elo0", type=float, default=0)
    ap.add_argument("--elo1", type=float, default=50)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    args = dict(elo0=a.elo0, elo1=a.elo1, games=a.games, seed=a.seed, depth=a.depth,
                nodes=a.nodes)
    # Warm both workers (imports, the engines' first tables) on a two-pair match.
    qiyi.cluster.match("checkers", a.a, a.b, games=4, seed=a.seed, depth=2, workers=2)
    times = {1: [], 2: []}
    first = None
    for _ in range(a.repeat):
        for w in (1, 2):
            r = qiyi.cluster.sprt("checkers", a.a, a.b, workers=w, **args)
            same = (r["verdict"], r["llr"], r["pairs"], r["pentanomial"])
            if first is None:
                first = same
            assert same == first, (same, first)
            times[w].append(r["seconds"])
            print(f"workers={w}: {r['verdict']} LLR {r['llr']:+.3f} in [{r['lower']:.3f}, "
                  f"{r['upper']:.3f}] after {r['pairs']} pairs {r['pentanomial']}, "
                  f"+{r['wins']}={r['draws']}-{r['losses']}, {r['cancelled']} tasks cancelled, "
                  f"{r['seconds']:.2f} s", flush=True)
    m1, m2 = statistics.median(times[1]), statistics.median(times[2])
    print(f"median 1 worker {m1:.2f} s, 2 workers {m2:.2f} s, speed-up {m1 / m2:.2f}x; "
          f"load average {os.getloadavg()}, {os.cpu_count()} CPUs")
    ray.shutdown()


if __name__ == "__main__":
    main()
