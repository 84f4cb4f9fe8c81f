"""Bad input raises a Python exception naming the fault, never crashes the interpreter."""

import numpy as np
import pytest

import qiyi


def test_hierarchy():
    for cls in (qiyi.UnknownGameError, qiyi.RuleError, qiyi.IllegalActionError,
                qiyi.GameOverError, qiyi.ParseError, qiyi.ShapeError, qiyi.SearchError):
        assert issubclass(cls, qiyi.Error)
    assert issubclass(qiyi.Error, ValueError)


def test_unknown_game():
    with pytest.raises(qiyi.UnknownGameError, match="tic_tac_chess"):
        qiyi.load_game("tic_tac_chess")


@pytest.mark.parametrize(
    "name, rules, words",
    [
        ("chinese_checkers", {"players": 5}, "5 players"),
        ("chinese_checkers", {"players": "many"}, "whole number"),
        ("chinese_checkers", {"anti_spoil": "maybe"}, "true or false"),
        ("chinese_checkers", {"pieces": 15, "players": 3}, "15 pieces"),
        ("chinese_checkers", {"colour": "red"}, "no rule option"),
        ("xiangqi", {"variant": "manchu"}, "takes none"),
        ("aeroplane", {"players": 7}, "7"),
        ("aeroplane", {"takeoff": "7"}, "7"),
        ("aeroplane", {"rules": "chaos"}, "chaos"),
        ("peg_solitaire", {"board": "hexagon"}, "hexagon"),
        ("peg_solitaire", {"start": "z9"}, "z9"),
        ("peg_solitaire", {"board": 3.5}, "bool, an int or a str"),
    ],
)
def test_bad_rules(name, rules, words):
    with pytest.raises(qiyi.RuleError, match=words):
        qiyi.load_game(name, **rules)


def test_illegal_actions():
    s = qiyi.load_game("checkers").new_initial_state()
    for bad in (-1, 8191, 2**70, 3.5, "11-15", None, True):
        with pytest.raises(qiyi.IllegalActionError):
            s.apply_action(bad)
    assert len(s.legal_actions()) == 7  # nothing was played
    with pytest.raises(qiyi.IllegalActionError, match="11-17"):
        s.string_to_action("11-17")
    with pytest.raises(qiyi.IllegalActionError):
        s.string_to_action("")
    with pytest.raises(qiyi.ParseError):
        s.string_to_action(1115)
    with pytest.raises(qiyi.IllegalActionError):
        s.action_to_string(0)


def test_numpy_integer_actions_work():
    s = qiyi.load_game("checkers").new_initial_state()
    s.apply_action(np.int64(s.legal_actions()[0]))
    assert s.current_player() == 1


def test_finished_game():
    s = qiyi.load_game("checkers").new_state_from_text("W:W:BK1")  # white has no piece: over
    assert s.is_terminal()
    assert s.returns() == [1.0, -1.0]
    with pytest.raises(qiyi.GameOverError):
        s.apply_action(0)
    with pytest.raises(qiyi.GameOverError):
        s.string_to_action("1-5")
    with pytest.raises(qiyi.GameOverError):
        s.search()


def test_bad_positions():
    for name, text in [("xiangqi", "not a fen"), ("checkers", "X:W99"),
                       ("chinese_checkers", "???"), ("aeroplane", "{"),
                       ("peg_solitaire", "")]:
        g = qiyi.load_game(name)
        with pytest.raises(qiyi.ParseError):
            g.new_state_from_text(text)
        s = g.new_initial_state()
        before = s.to_text()
        with pytest.raises(qiyi.ParseError):
            s.from_text(text)
        assert s.to_text() == before


def test_vector_bad_shapes():
    v = qiyi.VectorGames("checkers", 4, seed=1)
    for bad in (np.zeros(3, dtype=np.int64), np.zeros((4, 1), dtype=np.int64),
                np.zeros(4, dtype=np.float64), [0, 0, 0, 0], "x"):
        with pytest.raises(qiyi.ShapeError):
            v.step(bad)
    with pytest.raises(qiyi.IllegalActionError, match="game 0"):
        v.step(np.full(4, 5000, dtype=np.int64))
    with pytest.raises(qiyi.ShapeError):
        qiyi.VectorGames("checkers", 0)
    with pytest.raises(qiyi.ShapeError):
        v.state(4)
    with pytest.raises(qiyi.UnknownGameError):
        qiyi.VectorGames("go", 2)


def test_bad_search_requests():
    s = qiyi.load_game("checkers").new_initial_state()
    with pytest.raises(qiyi.SearchError, match="algorithm"):
        s.search("minimax-with-magic")
    with pytest.raises(qiyi.SearchError, match="level"):
        s.search(level=11)
    with pytest.raises(qiyi.SearchError, match="movetime"):
        s.search(movetime=-1)
    with pytest.raises(qiyi.SearchError):
        s.search("expectimax", depth=2)
    a = qiyi.load_game("aeroplane").new_initial_state()
    with pytest.raises(qiyi.SearchError, match="chance"):
        a.search("mcts", nodes=10)
