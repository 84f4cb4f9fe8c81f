"""Per-call cost of a depth-1 search from Python, per game: an engine built anew for each call
(what `state.search` did before issue 36), `state.search` now (on a cached engine, cleared
before each call) and a `qiyi.Engine` kept loaded.

    python crates/python/benchmarks/engine_overhead.py [--calls 200] [--json]

Each cell is the median wall time of `--calls` calls from the same position (the first
position after the opening chance nodes). The checkers engine runs without its book so every
call is a real depth-1 search; `nodes` shows what that search visited.
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
    return s


def timed(fn, calls):
    fn()  # warm: the cached engine is built on the first call
    times = []
    for _ in range(calls):
        t = time.perf_counter()
        r = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rows = []
    for name in qiyi.registered_names():
        s = first_state(name)
        limits = {"nodes": 1} if name == "peg_solitaire" else {"depth": 1}
        engine = qiyi.Engine(name)
        t_fresh, _ = timed(lambda: qiyi.Engine(name, book=True).search(s, **limits), a.calls)
        t_state, r_state = timed(lambda: s.search(**limits), a.calls)
        t_engine, r_engine = timed(lambda: engine.search(s, **limits), a.calls)
        rows.append(
            {
                "game": name,
                "new_engine_per_call_ms": round(t_fresh * 1e3, 3),
                "state_search_ms": round(t_state * 1e3, 3),
                "engine_search_ms": round(t_engine * 1e3, 3),
                "engine_nodes": r_engine.nodes,
                "engine_depth": r_engine.depth,
            }
        )
    if a.json:
        print(json.dumps(rows, indent=1))
        return
    print(f"{'game':<18}{'new engine ms':>14}{'state.search ms':>16}{'Engine.search ms':>18}{'nodes':>8}{'depth':>7}")
    for r in rows:
        print(
            f"{r['game']:<18}{r['new_engine_per_call_ms']:>14.3f}{r['state_search_ms']:>16.3f}{r['engine_search_ms']:>18.3f}"
            f"{r['engine_nodes']:>8}{r['engine_depth']:>7}"
        )


if __name__ == "__main__":
    main()
