"""The pyspiel-style game API on all five games."""

import copy
import math
import pickle

import numpy as np
import pytest

import qiyi
from conftest import GAMES, random_playout


def test_registered_names():
    assert qiyi.registered_names() == GAMES
    assert qiyi.rule_options("chinese_checkers") == [
        "players", "pieces", "anti_spoil", "goal_lock", "max_moves"]
    assert qiyi.rule_options("aeroplane") == ["players", "rules", "takeoff", "three_sixes", "end"]
    assert qiyi.rule_options("peg_solitaire") == ["board", "start", "finish"]
    assert qiyi.rule_options("xiangqi") == []


@pytest.mark.parametrize(
    "name, legal",
    [("xiangqi", 44), ("checkers", 7), ("peg_solitaire", 4)],
)
def test_first_position_counts(name, legal):
    s = qiyi.load_game(name).new_initial_state()
    assert s.current_player() == 0
    assert len(s.legal_actions()) == legal


def test_known_actions():
    s = qiyi.load_game("xiangqi").new_initial_state()
    # h2 = rank 2 file 7 = 25, e2 = 22: id 25 * 90 + 22.
    assert s.string_to_action("h2e2") == 25 * 90 + 22
    assert s.action_to_string(25 * 90 + 22) == "h2e2"
    c = qiyi.load_game("checkers").new_initial_state()
    assert c.string_to_action("11-15") == 10 * 32 + 14
    p = qiyi.load_game("peg_solitaire").new_initial_state()
    texts = sorted(p.action_to_string(a) for a in p.legal_actions())
    assert texts == ["b4-d4", "d2-d4", "d6-d4", "f4-d4"]


def test_aeroplane_chance_and_ids():
    s = qiyi.load_game("aeroplane").new_initial_state()
    assert s.current_player() == qiyi.CHANCE_PLAYER == -1
    assert s.is_chance_node()
    outcomes = s.chance_outcomes()
    assert [a for a, _ in outcomes] == [4, 5, 6, 7, 8, 9]
    assert math.isclose(sum(p for _, p in outcomes), 1.0)
    s.apply_action(9)  # the die shows 6: red may take off
    assert s.current_player() == 0
    assert s.legal_actions() == [0]
    assert s.action_to_string(0) == "a"
    s.apply_action(0)
    assert s.history() == [9, 0]


def test_random_playouts_keep_every_invariant(game, rng):
    shape = tuple(game.observation_tensor_shape())
    n_actions = game.num_distinct_actions()

    def check(state):
        legal = state.legal_actions()
        assert legal, "a live state has actions"
        assert len(set(legal)) == len(legal)
        assert all(0 <= a < n_actions for a in legal)
        mask = state.legal_actions_mask()
        assert mask.shape == (n_actions,) and mask.sum() == len(legal)
        if not state.is_chance_node():
            a = legal[len(legal) // 2]
            assert state.string_to_action(state.action_to_string(a)) == a
        obs = state.observation_tensor()
        assert obs.dtype == np.float32 and obs.shape == shape
        assert state.returns() == [0.0] * game.num_players()

    for _ in range(3):
        s = game.new_initial_state()
        random_playout(s, rng, check=check)
        if s.is_terminal():
            assert s.current_player() == qiyi.TERMINAL_PLAYER == -4
            assert s.legal_actions() == []
            r = s.returns()
            assert len(r) == game.num_players()
            assert all(-1.0 <= x <= 1.0 for x in r)
            if game.name in ("xiangqi", "checkers"):
                assert sum(r) == 0.0


def test_clone_is_independent(game, rng):
    s = game.new_initial_state()
    random_playout(s, rng, max_steps=10)
    c = s.clone()
    before = s.to_text()
    random_playout(c, rng, max_steps=20)
    assert s.to_text() == before
    assert copy.deepcopy(s).to_text() == before


def test_text_round_trip(game, rng):
    s = game.new_initial_state()
    random_playout(s, rng, max_steps=15)
    t = game.new_state_from_text(s.to_text())
    assert t.to_text() == s.to_text()
    assert t.current_player() == s.current_player()
    assert sorted(t.legal_actions()) == sorted(s.legal_actions())
    u = game.new_initial_state()
    u.from_text(s.to_text())
    assert u.to_text() == s.to_text()


def test_game_pickles(game):
    g2 = pickle.loads(pickle.dumps(game))
    assert g2.name == game.name
    assert g2.get_parameters() == game.get_parameters()


def test_rule_options_take_effect():
    g = qiyi.load_game("chinese_checkers", players=3, anti_spoil=False, max_moves=50)
    assert g.num_players() == 3
    assert g.get_parameters()["anti_spoil"] == "false"
    assert g.observation_tensor_shape() == [3, 121]
    g = qiyi.load_game("chinese_checkers", players=2, pieces=15, goal_lock=True)
    assert g.get_parameters()["pieces"] == "15"
    a = qiyi.load_game("aeroplane", players=2, rules="seed", takeoff="5-6",
                       three_sixes="none", end="play-on")
    p = a.get_parameters()
    assert (p["players"], p["rules"], p["takeoff"], p["three_sixes"], p["end"]) == (
        "2", "seed", "5-6", "none", "play-on")
    assert a.num_players() == 2
    peg = qiyi.load_game("peg_solitaire", board="french", start="d1", finish="any")
    s = peg.new_initial_state()
    assert peg.observation_tensor_shape() == [37]
    assert s.observation_tensor().sum() == 36
    tri = qiyi.load_game("peg_solitaire", board="triangle:6")
    assert tri.observation_tensor_shape() == [21]


def test_peg_solitaire_returns():
    s = qiyi.load_game("peg_solitaire").new_initial_state()
    # Play until stuck: the return is +1 only for one peg left.
    import random as r
    random_playout(s, r.Random(1))
    pegs = s.observation_tensor().sum()
    assert s.returns()[0] == (1.0 if pegs == 1 else -(pegs - 1) / 32)
