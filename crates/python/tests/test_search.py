"""Search from Python: engines, MCTS, expectimax, the peg solver; Ctrl-C stops a search."""

import _thread
import signal
import threading
import time

import pytest

import qiyi


def assert_sound(state, r):
    assert r.action in state.legal_actions()
    assert r.move_text == state.action_to_string(r.action)
    assert r.pv[0] == r.action and r.pv_text[0] == r.move_text
    # The principal variation replays.
    s = state.clone()
    for a, text in zip(r.pv, r.pv_text):
        assert s.action_to_string(a) == text
        s.apply_action(a)


def test_xiangqi_engine_by_depth_and_time():
    s = qiyi.load_game("xiangqi").new_initial_state()
    r = s.search(depth=4)
    assert_sound(s, r)
    assert r.depth == 4 and r.nodes > 100 and len(r.pv) >= 2
    r = s.search(movetime=0.2, level=3)
    assert_sound(s, r)
    r = s.search(player="seed", depth=2)
    assert_sound(s, r)


def test_xiangqi_engine_finds_mate_in_one():
    # Ra0-a9 mates: the chariot on i8 holds the general's second rank.
    s = qiyi.load_game("xiangqi").new_state_from_text("3k5/8R/9/9/9/9/9/9/9/R3K4 w")
    r = s.search(depth=3)
    s.apply_action(r.action)
    assert s.is_terminal() and s.returns() == [1.0, -1.0]


def test_checkers_engine_and_seed_player():
    s = qiyi.load_game("checkers").new_initial_state()
    assert_sound(s, s.search(depth=6))
    assert_sound(s, s.search(player="seed", depth=4))


def test_mcts_on_every_decision_game():
    for name in ("xiangqi", "checkers", "chinese_checkers", "peg_solitaire", "aeroplane"):
        s = qiyi.load_game(name).new_initial_state()
        while s.is_chance_node():
            s.apply_action(9)
        r = s.search("mcts", nodes=300, seed=1)
        assert r.action in s.legal_actions(), name
        assert r.nodes == 300, name
        assert -1.0 <= r.score <= 1.0
        again = s.search("mcts", nodes=300, seed=1)
        assert again.action == r.action and again.score == r.score, "seeded: repeatable"


def test_aeroplane_players_and_expectimax():
    s = qiyi.load_game("aeroplane", players=2).new_initial_state()
    s.apply_action(9)  # a six
    s.apply_action(0)  # take off
    while s.is_chance_node():
        s.apply_action(7)  # a three
    r = s.search("expectimax", depth=3)
    assert r.action in s.legal_actions() and r.depth == 3 and r.nodes > 0
    for player in ("best", "heuristic", "random"):
        assert s.search(player=player, seed=2).action in s.legal_actions()
    with pytest.raises(qiyi.SearchError):
        s.search(player="grandmaster")


def test_chinese_checkers_players():
    s = qiyi.load_game("chinese_checkers", players=3).new_initial_state()
    for player in ("best", "seed", "race", "brs", "paranoid"):
        r = s.search(player=player, level=1, seed=3)
        assert r.action in s.legal_actions(), player


def test_peg_solver_solves_the_english_board():
    s = qiyi.load_game("peg_solitaire").new_initial_state()
    r = s.search("solve")
    assert r.exact and r.score == 1.0 and len(r.pv) == 31
    for a in r.pv:
        s.apply_action(a)
    assert s.is_terminal() and s.returns() == [1.0]


def test_ctrl_c_interrupts_a_long_search():
    s = qiyi.load_game("xiangqi").new_initial_state()
    # Ctrl-C must mean KeyboardInterrupt here, whatever handler an earlier test (Ray) left behind.
    old_handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    t0 = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            r = s.search(movetime=60)
            # Say what happened if the search ends by itself (seen once in CI on a loaded machine).
            pytest.fail(
                f"the search returned after {time.monotonic() - t0:.2f} s without being interrupted: "
                f"depth {r.depth}, nodes {r.nodes}, {r.algorithm}"
            )
        assert time.monotonic() - t0 < 5
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, old_handler)
    # The state is untouched and can search again.
    assert s.search(depth=2).action in s.legal_actions()
