"""Depth-1 overhead per call from Python, per game and path (issue 49, item 1).

    python crates/python/benchmarks/overhead.py [--calls 200] [--json]

Two paths, each timed over `--calls` calls from the same position (the first position after
the opening chance nodes), after one warm-up call:

- `Engine`: `qiyi.Engine(game).search(state, depth=1)` on an engine kept loaded;
- `state.search`: `state.search(algorithm="engine", depth=1)`, on the package's cached engine,
  which is reset to a new engine's state before every call (so its result does not depend on
  earlier calls).

Checkers is searched off its opening book (a few unusual moves in), so every call is a real
search; `nodes` and `depth` are what the last call reported.
"""

import argparse
import json
import statistics
import time

import qiyi


def first_state(name):
    s = qiyi.load_game(name).new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[-1][0])
    if name == "checkers":
        for _ in range(6):
            s.apply_action(s.legal_actions()[-1])
    return s


def timed(fn, calls):
    r = fn()  # warm: the cached engine is built on the first call
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        r = fn()
        times.append(time.perf_counter() - t)
    return times, r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rows = []
    for name in qiyi.registered_names():
        s = first_state(name)
        engine = qiyi.Engine(name)
        paths = [
            ("Engine", lambda: engine.search(s, depth=1)),
            ("state.search", lambda: s.search(algorithm="engine", depth=1)),
        ]
        for path, fn in paths:
            times, r = timed(fn, a.calls)
            rows.append(
                {
                    "game": name,
                    "path": path,
                    "calls": a.calls,
                    "mean_ms": round(statistics.fmean(times) * 1e3, 3),
                    "median_ms": round(statistics.median(times) * 1e3, 3),
                    "nodes": r.nodes,
                    "depth": r.depth,
                }
            )
    if a.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'game':<18}{'path':<14}{'calls':>7}{'mean ms':>10}{'median ms':>11}{'nodes':>8}{'depth':>7}")
    for r in rows:
        print(
            f"{r['game']:<18}{r['path']:<14}{r['calls']:>7}{r['mean_ms']:>10.3f}{r['median_ms']:>11.3f}"
            f"{r['nodes']:>8}{r['depth']:>7}"
        )


if __name__ == "__main__":
    main()
