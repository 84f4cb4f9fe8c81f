"""Issue 49, item 1: engines kept loaded stay reproducible and say truthfully what they searched.

`state.search(algorithm="engine")` runs on a cached engine that is not rebuilt per call; a
search must not depend on what that engine searched before. `qiyi.Engine("chinese_checkers")`
honours depth/nodes/movetime and reports the nodes and depth its player really searched.
"""

import pytest

import qiyi


def first_state(name):
    s = qiyi.load_game(name).new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[-1][0])
    return s

# A depth at which the table matters (a stale entry would change the node count).
DEPTH = {"xiangqi": 4, "checkers": 6, "chinese_checkers": 3}


def key(r):
    return (r.action, r.score, r.nodes, r.depth, list(r.pv))


def walk(name, pick, plies):
    s = first_state(name)
    for _ in range(plies):
        legal = s.legal_actions()
        s.apply_action(legal[pick % len(legal)])
    return s


def two_positions(name):
    # Off the checkers book (unusual moves), so state.search really searches.
    return walk(name, -1, 6), walk(name, 0, 4)


@pytest.mark.parametrize("name", sorted(DEPTH))
def test_state_search_does_not_depend_on_earlier_searches(name):
    a, b = two_positions(name)
    d = DEPTH[name]
    # What a fresh engine with state.search's settings (book on, default table) finds.
    fresh = qiyi.Engine(name, book=True, seed=5).search(a, depth=d)
    assert fresh.nodes > 0
    first = a.search(depth=d, seed=5)
    other = b.search(depth=d, seed=5)
    assert other.nodes > 0
    again = a.search(depth=d, seed=5)
    assert key(first) == key(fresh)
    assert key(again) == key(fresh), "search A, search B, search A again"


@pytest.mark.parametrize("name", sorted(DEPTH))
def test_cleared_engine_repeats_a_fresh_engine(name):
    a, b = two_positions(name)
    d = DEPTH[name]
    fresh = qiyi.Engine(name, seed=3).search(a, depth=d)
    engine = qiyi.Engine(name, seed=3)
    engine.search(b, depth=d)
    engine.search(a, depth=d + 1)
    engine.clear()
    assert key(engine.search(a, depth=d)) == key(fresh)


def test_chinese_checkers_engine_honours_the_limits():
    s = first_state("chinese_checkers")
    engine = qiyi.Engine("chinese_checkers")  # best for two players: alpha-beta, level 10
    one = engine.search(s, depth=1)
    assert one.depth == 1
    assert 0 < one.nodes < 1_000, "depth 1 searches the root's moves, not the level's budget"
    assert one.action in s.legal_actions() and one.pv[0] == one.action
    two = engine.search(s, depth=2)
    assert two.depth == 2 and two.nodes > one.nodes
    # Nodes are checked every 1,024: a budget of 3,000 stops before 4,100.
    capped = engine.search(s, nodes=3_000)
    assert 0 < capped.nodes <= 4_100 and capped.depth >= 1
    timed = engine.search(s, movetime=0.05)
    assert timed.nodes > 0 and timed.depth >= 1


@pytest.mark.parametrize("player", ["paranoid", "brs"])
def test_chinese_checkers_multiplayer_searches_report_nodes(player):
    s = qiyi.load_game("chinese_checkers", players=3).new_initial_state()
    r = qiyi.Engine("chinese_checkers", player=player, players=3).search(s, depth=1)
    assert r.depth == 1 and r.nodes > 0
    assert r.action in s.legal_actions()


def test_chinese_checkers_players_that_do_not_search_say_so():
    s = first_state("chinese_checkers")
    for player in ["random", "seed", "race"]:
        r = qiyi.Engine("chinese_checkers", player=player, seed=1).search(s, depth=1)
        assert r.action in s.legal_actions()
        assert (r.nodes, r.depth) == (0, 0) and "no search" in r.algorithm, player
    r = qiyi.Engine("chinese_checkers", player="mcts").search(s, nodes=50)
    assert r.nodes > 0 and r.action in s.legal_actions()


def test_chinese_checkers_state_search_repeats_for_a_seed():
    s = first_state("chinese_checkers")
    for player in ["random", "mcts"]:
        # A node budget: without one state.search thinks for a second, not reproducibly.
        kw = {"player": player, "seed": 11, "level": 1, "nodes": 50}
        first = s.search(**kw)
        s.search(player=player, seed=11, level=1, nodes=80)
        assert key(s.search(**kw)) == key(first), player
