"""Engines that stay loaded: built once, reused across searches, truthful about their work."""

import os

import pytest

import qiyi


def first_state(name):
    s = qiyi.load_game(name).new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[-1][0])
    return s


@pytest.mark.parametrize("name", ["xiangqi", "checkers"])
def test_engine_reports_its_search(name):
    engine = qiyi.Engine(name, hash_mib=4)
    s = first_state(name)
    r = engine.search(s, depth=3)
    assert r.action in s.legal_actions()
    assert r.depth == 3, "the depth it completed"
    assert r.nodes > 10, "nodes counted, not 0"
    assert r.pv[0] == r.action and len(r.pv) >= 2
    # Reused: the same engine searches again, and after clear() finds the same move.
    engine.clear()
    again = engine.search(s, depth=3)
    assert again.action == r.action and again.score == r.score and again.nodes == r.nodes


@pytest.mark.parametrize("name", ["xiangqi", "checkers"])
def test_engine_agrees_with_state_search(name):
    s = first_state(name)
    for _ in range(4):
        s.apply_action(s.legal_actions()[0])
    # state.search plays as before: the book on (checkers), the default table.
    engine = qiyi.Engine(name, book=True)
    r = engine.search(s, depth=4)
    cached = s.search(depth=4)
    assert (cached.action, cached.score, cached.nodes) == (r.action, r.score, r.nodes)
    # state.search is repeatable on its cached engine (cleared before each call).
    again = s.search(depth=4)
    assert (again.action, again.score, again.nodes) == (r.action, r.score, r.nodes)


def test_engine_for_every_game():
    for name in qiyi.registered_names():
        s = first_state(name)
        r = qiyi.Engine(name, level=2).search(s, depth=2, nodes=20_000)
        if name == "peg_solitaire":
            assert r.nodes > 0  # the solver's budget may end before a solution
        else:
            assert r.action in s.legal_actions(), name


def test_checkers_book_is_said():
    s = first_state("checkers")
    r = qiyi.Engine("checkers", book=True).search(s, depth=1)
    assert r.nodes == 0 and "book" in r.algorithm
    r = qiyi.Engine("checkers").search(s, depth=1)
    assert r.nodes > 0 and r.depth == 1


def test_bad_engine_input():
    with pytest.raises(qiyi.UnknownGameError):
        qiyi.Engine("go")
    with pytest.raises(qiyi.SearchError, match="level"):
        qiyi.Engine("checkers", level=0)
    with pytest.raises(qiyi.SearchError, match="hash_mib"):
        qiyi.Engine("checkers", hash_mib=0)
    with pytest.raises(qiyi.SearchError, match="endgame"):
        qiyi.Engine("checkers", endgame="/nonexistent/egdb")
    with pytest.raises(qiyi.SearchError, match="endgame"):
        qiyi.Engine("xiangqi", endgame="/tmp")
    with pytest.raises(qiyi.SearchError):
        qiyi.Engine("checkers", evaluation="/nonexistent.net")
    with pytest.raises(qiyi.SearchError, match="player"):
        qiyi.Engine("checkers", player="nobody")
    engine = qiyi.Engine("checkers")
    s = first_state("checkers")
    for bad in ({"depth": 0}, {"nodes": 0}, {"movetime": 0.0}, {}):
        with pytest.raises(qiyi.SearchError):
            engine.search(s, **bad)
    with pytest.raises(qiyi.SearchError, match="xiangqi"):
        engine.search(first_state("xiangqi"), depth=1)


XIANGQI_NETS = os.path.join(os.path.dirname(__file__), "..", "..", "xiangqi", "src", "nets")
CHECKERS_NET = os.path.join(
    os.path.dirname(__file__), "..", "..", "checkers", "src", "engine", "nets", "checkers.qnet"
)


def test_xiangqi_evaluations():
    s = first_state("xiangqi")
    for _ in range(4):
        s.apply_action(s.legal_actions()[0])
    hand = qiyi.Engine("xiangqi", evaluation="hand", hash_mib=4).search(s, depth=4)
    tuned = qiyi.Engine("xiangqi", evaluation="tuned", hash_mib=4).search(s, depth=4)
    assert (hand.action, hand.score, hand.nodes) == (tuned.action, tuned.score, tuned.nodes)
    net = qiyi.Engine("xiangqi", evaluation="net", hash_mib=4).search(s, depth=4)
    assert net.action in s.legal_actions() and net.depth == 4
    # The default is the shipped net, as in the CLI.
    default = qiyi.Engine("xiangqi", hash_mib=4).search(s, depth=4)
    assert (default.action, default.score, default.nodes) == (net.action, net.score, net.nodes)
    # Another evaluation: the same depth searches another tree or scores it otherwise.
    assert (net.score, net.nodes) != (hand.score, hand.nodes)
    # The embedded net read from its file is the same evaluation.
    path = os.path.join(XIANGQI_NETS, "xiangqi.qnet")
    from_file = qiyi.Engine("xiangqi", evaluation=path, hash_mib=4).search(s, depth=4)
    assert (from_file.action, from_file.score, from_file.nodes) == (net.action, net.score, net.nodes)


def test_xiangqi_refuses_other_nets():
    with pytest.raises(qiyi.SearchError, match="checkers"):
        qiyi.Engine("xiangqi", evaluation=CHECKERS_NET)
    with pytest.raises(qiyi.SearchError, match="xiangqi evaluation"):
        qiyi.Engine("xiangqi", evaluation="/nonexistent.qnet")
