"""Agreement with OpenSpiel's checkers (same WCDF rules): legal-move sets in lockstep games."""

import os
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "benchmarks"))
import openspiel_agreement as agree  # noqa: E402

import qiyi  # noqa: E402


def test_square_mapping_and_first_moves():
    assert agree.square_name(12) == "a3" and agree.square_name(16) == "b4"
    assert agree.square_name(1) == "g1" and agree.square_name(32) == "b8"
    q = agree.qiyi_paths(qiyi.load_game("checkers").new_initial_state())
    o = agree.openspiel_paths(pyspiel.load_game("checkers").new_initial_state())
    assert set(q) == set(o) and len(q) == 7


def test_legal_moves_agree_on_random_games():
    r = agree.compare(games=40, seed=27)
    assert r["positions"] > 1500
    assert r["mismatches"] == 0, r["examples"]
