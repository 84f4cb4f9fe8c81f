"""Random playouts from a Python loop: qiyi per step, qiyi VectorGames, and OpenSpiel.

    python crates/python/benchmarks/speed.py [--steps 200000] [--vector 1024] [--repeat 5] [--json]

Times are CPU seconds of this process (time.process_time), which is what compares on a
shared machine; every cell is run ``--repeat`` times, the cells of one game taking turns, and
the fastest run is kept (as ``timeit`` does: on a machine shared with other work the slower runs
measure the other work). For each game both libraries have, the same loop (new game, then while not terminal: pick a
uniformly random legal action, or sample a chance outcome, and apply it) runs for about
``--steps`` steps; it prints microseconds per step. ``floor`` is that loop over a Python object
that does no game work at all (the cost of the Python loop itself). ``vector`` is
``VectorGames(n).step(sample_actions(), observe=False)`` (NumPy in and out: actions, rewards,
done flags; one Python call per n steps; observations are not computed) and
``vector-rust`` is ``VectorGames.step_random`` (the whole loop in Rust). OpenSpiel's games
differ in rules from qiyi's (see the README), so its steps are not the same positions.
"""

import argparse
import json
import random
import sys
import time

import qiyi

PAIRS = [
    # (qiyi name, qiyi rules, OpenSpiel name)
    ("checkers", {}, "checkers"),
    ("chinese_checkers", {}, "chinese_checkers"),
    ("xiangqi", {}, "xiangqi"),
    ("aeroplane", {}, "maedn"),
    ("peg_solitaire", {}, None),
]


def playout_loop(new_state, steps, rng):
    """The common loop; returns seconds per step."""
    done = 0
    t0 = time.process_time()
    while done < steps:
        s = new_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
            done += 1
    return (time.process_time() - t0) / done


class Floor:
    """A 'game' of 100 steps whose methods do nothing: the loop's own cost."""

    LEGAL = [1, 2, 3, 4, 5, 6, 7]

    def __init__(self):
        self.n = 0

    def is_terminal(self):
        return self.n >= 100

    def is_chance_node(self):
        return False

    def legal_actions(self):
        return self.LEGAL

    def apply_action(self, a):
        self.n += 1


def vector_step(name, rules, n, steps):
    v = qiyi.VectorGames(name, n, seed=1, **rules)
    v.reset()
    rounds = max(1, steps // n)
    t0 = time.process_time()
    for _ in range(rounds):
        v.step(v.sample_actions(), observe=False)
    return (time.process_time() - t0) / (rounds * n)


def vector_rust(name, rules, n, steps):
    v = qiyi.VectorGames(name, n, seed=1, **rules)
    per_game = max(1, steps // n)
    t0 = time.process_time()
    moves = v.step_random(per_game)
    return (time.process_time() - t0) / moves


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200_000)
    ap.add_argument("--vector", type=int, default=1024, help="games in VectorGames")
    ap.add_argument("--games", default="", help="comma-separated qiyi names (default all)")
    ap.add_argument("--repeat", type=int, default=5, help="runs per cell; the fastest is kept")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
        print("open_spiel is not installed: OpenSpiel columns skipped", file=sys.stderr)
    rng = random.Random(1)
    if a.steps < 1 or a.vector < 1 or a.repeat < 1:
        ap.error("--steps, --vector and --repeat must be at least 1")
    rows = []
    wanted = set(filter(None, a.games.split(",")))
    for name, rules, os_name in PAIRS:
        if wanted and name not in wanted:
            continue
        game = qiyi.load_game(name, **rules)
        cells = {
            "floor_us": lambda: playout_loop(Floor, a.steps, rng),
            "qiyi_us": lambda: playout_loop(game.new_initial_state, a.steps, rng),
            "vector_us": lambda: vector_step(name, rules, a.vector, a.steps),
            "vector_rust_us": lambda: vector_rust(name, rules, a.vector, a.steps * 5),
        }
        row = {"game": name}
        if pyspiel is not None and os_name is not None:
            os_game = pyspiel.load_game(os_name)
            row["openspiel_game"] = os_name
            cells["openspiel_us"] = lambda: playout_loop(os_game.new_initial_state, a.steps, rng)
        best = {k: float("inf") for k in cells}
        for _ in range(a.repeat):
            for k, run in cells.items():
                best[k] = min(best[k], run())
        row.update({k: v * 1e6 for k, v in best.items()})
        if "openspiel_us" in row:
            row["speedup_step"] = row["openspiel_us"] / row["qiyi_us"]
            row["speedup_vector"] = row["openspiel_us"] / row["vector_us"]
            row["speedup_vector_rust"] = row["openspiel_us"] / row["vector_rust_us"]
        rows.append(row)
        if not a.json:
            text = [f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in row.items()]
            print("  ".join(text), flush=True)
    if a.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
