"""Legal-move agreement between qiyi's and OpenSpiel's English checkers on random games.

    python crates/python/benchmarks/openspiel_agreement.py [--games 200] [--seed 1]

Both games are played in lockstep from the start: at every position the legal moves of both are
compared as whole move paths (OpenSpiel plays a multi-jump as one action per jump, the same
player moving again; those are followed to the end of the sequence), then one of them is played
at random in both. PDN square ``n`` (Black on 1-12, moving first) is OpenSpiel's board turned
half round (OpenSpiel's player 0, ``o``, starts on rows 1-3). A game stops when either library
ends it: their draw rules differ (qiyi: threefold repetition and 40 moves each without a capture
or man move; OpenSpiel: its own move cap), so end-of-game positions are not compared.
"""

import argparse
import json
import random

import pyspiel

import qiyi


def square_name(n):
    """OpenSpiel's coordinate of PDN square ``n`` (1-32)."""
    r, i = divmod(n - 1, 4)
    col = 2 * i + 1 if r % 2 == 0 else 2 * i
    return "abcdefgh"[7 - col] + str(r + 1)


def qiyi_paths(state):
    out = {}
    for a in state.legal_actions():
        text = state.action_to_string(a)
        squares = [int(x) for x in text.replace("x", "-").split("-")]
        out[tuple(square_name(s) for s in squares)] = a
    return out


def openspiel_paths(state):
    """Every whole move (a jump sequence followed to its end) as a path of squares, with the
    OpenSpiel actions that play it."""
    out = {}
    player = state.current_player()

    def walk(s, path, actions):
        for a in s.legal_actions():
            text = s.action_to_string(player, a)
            src, dst = text[:2], text[2:4]
            t = s.clone()
            t.apply_action(a)
            p = (path or (src,)) + (dst,)
            if not t.is_terminal() and t.current_player() == player:
                walk(t, p, actions + [a])
            else:
                out[p] = actions + [a]

    walk(state, (), [])
    return out


def compare(games, seed):
    rng = random.Random(seed)
    qg = qiyi.load_game("checkers")
    og = pyspiel.load_game("checkers")
    positions = mismatches = 0
    examples = []
    for _ in range(games):
        q = qg.new_initial_state()
        o = og.new_initial_state()
        while not q.is_terminal() and not o.is_terminal():
            qp = qiyi_paths(q)
            op = openspiel_paths(o)
            positions += 1
            if set(qp) != set(op):
                mismatches += 1
                if len(examples) < 5:
                    examples.append({"position": q.to_text(),
                                     "only_qiyi": sorted(set(qp) - set(op)),
                                     "only_openspiel": sorted(set(op) - set(qp))})
            common = sorted(set(qp) & set(op))
            if not common:
                break
            path = rng.choice(common)
            q.apply_action(qp[path])
            for a in op[path]:
                o.apply_action(a)
    return {"games": games, "seed": seed, "positions": positions, "mismatches": mismatches,
            "examples": examples}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    print(json.dumps(compare(a.games, a.seed)))


if __name__ == "__main__":
    main()
