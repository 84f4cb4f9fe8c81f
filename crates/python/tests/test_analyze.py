"""qiyi.analyze: the engine's lines (Xiangqi, checkers), the exact peg verdict, aeroplane's
choices for a roll and Chinese checkers' race distances, checked against the games' own rules
and against independent computations where one is cheap."""

import math
import random

import pytest

import qiyi

XQ_SLOPE = 0.0027  # qiyi_xiangqi::review::WIN_SLOPE
CK_SLOPE = 0.0016  # qiyi_checkers::review::WIN_SLOPE


def without_times(r):
    """The report without the fields that measure time."""
    r = dict(r)
    r.pop("time_ms")
    for d in r["depths"]:
        d.pop("time_ms")
    return r


def replay(game, position, pv):
    """Plays `pv` (move texts) from `position` through the State API; every move must be legal."""
    s = qiyi.load_game(game).new_state_from_text(position)
    for m in pv:
        s.apply_action(s.string_to_action(m))
    return s


@pytest.mark.parametrize("game,slope,depth", [("xiangqi", XQ_SLOPE, 5), ("checkers", CK_SLOPE, 8)])
def test_multipv_lines_are_legal_sorted_distinct_and_reproducible(game, slope, depth):
    r = qiyi.analyze(game, depth=depth, multipv=3)
    assert r["game"] == game and r["depth"] == depth and r["exact"] is False
    lines = r["lines"]
    assert len(lines) == 3
    assert [l["multipv"] for l in lines] == [1, 2, 3]
    assert len({l["move"] for l in lines}) == 3
    assert r["bestmove"] == lines[0]["move"]
    cps = [l["score"]["cp"] for l in lines]
    assert cps == sorted(cps, reverse=True)
    for l in lines:
        assert l["pv"][0] == l["move"] and l["depth"] == depth
        assert math.isclose(l["win_chance"], 1 / (1 + math.exp(-slope * l["score"]["cp"])))
        replay(game, r["position"], l["pv"])
    # Every completed depth is reported, 1 to `depth`.
    assert [d["depth"] for d in r["depths"]] == list(range(1, depth + 1))
    # A depth-limited search is reproducible, and its first line is the single-PV search's.
    assert without_times(qiyi.analyze(game, depth=depth, multipv=3)) == without_times(r)
    one = qiyi.analyze(game, depth=depth)
    assert len(one["lines"]) == 1
    assert one["lines"][0]["move"] == lines[0]["move"]
    assert one["lines"][0]["score"] == lines[0]["score"]


def test_multipv_never_reports_more_lines_than_legal_moves():
    # Black man 14 must take 18 (the only legal move), and the game is won by it.
    r = qiyi.analyze("checkers", "B:W18:B14", depth=4, multipv=5)
    assert [l["move"] for l in r["lines"]] == ["14x23"]
    assert r["lines"][0]["score"] == {"mate": 1} and r["lines"][0]["win_chance"] == 1.0


def test_xiangqi_analyze_takes_a_state_and_a_movetime():
    s = qiyi.load_game("xiangqi").new_initial_state()
    s.apply_action(s.string_to_action("h2e2"))
    r = qiyi.analyze("xiangqi", s, movetime_ms=50)
    assert r["position"] == s.to_text()
    assert r["lines"] and r["depth"] >= 1
    replay("xiangqi", r["position"], r["lines"][0]["pv"])


def test_a_finished_game_has_no_lines():
    r = qiyi.analyze("checkers", "W:W:B14", depth=3)
    assert r["lines"] == [] and r["bestmove"] is None


def fewest_pegs_by_brute_force(state, memo):
    """The fewest pegs reachable, by a plain search over the State API (no solver involved)."""
    key = state.to_text()
    if key not in memo:
        best = state.to_text().count("o")
        for a in state.legal_actions():
            c = state.clone()
            c.apply_action(a)
            best = min(best, fewest_pegs_by_brute_force(c, memo))
        memo[key] = best
    return memo[key]


def test_peg_verdicts_match_a_brute_force_search():
    game = qiyi.load_game("peg_solitaire")
    rng = random.Random(5)
    checked = 0
    for _ in range(6):
        s = game.new_initial_state()
        while s.to_text().count("o") > 9 and not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
        if s.is_terminal():
            continue
        r = qiyi.analyze("peg_solitaire", s)
        memo = {}
        assert r["exact"] is True and r["pegs"] == s.to_text().count("o")
        assert r["fewest_pegs"] == fewest_pegs_by_brute_force(s, memo)
        assert r["solvable"] == (r["fewest_pegs"] == 1)
        for m in r["moves"]:
            c = s.clone()
            c.apply_action(c.string_to_action(m["move"]))
            assert m["fewest_pegs"] == fewest_pegs_by_brute_force(c, memo)
            assert m["solvable"] == (m["fewest_pegs"] == 1)
        assert r["bestmove"] == r["moves"][0]["move"]
        assert r["moves"][0]["fewest_pegs"] == r["fewest_pegs"]
        checked += 1
    assert checked >= 3


def test_peg_start_and_a_dead_position():
    r = qiyi.analyze("peg_solitaire")
    assert r["pegs"] == 32 and r["solvable"] is True and len(r["moves"]) == 4
    r = qiyi.analyze("peg_solitaire", "o...o")
    assert r["solvable"] is False and r["fewest_pegs"] == 2 and r["bestmove"] is None


def test_aeroplane_choices_for_a_roll():
    r = qiyi.analyze("aeroplane", roll=6)
    assert r["roll"] == 6 and r["player"] == 0 and r["exact"] is False
    assert r["choices"] and r["bestmove"] in [c["plane"] for c in r["choices"]]
    for c in r["choices"]:
        assert math.isclose(sum(c["wins"]), 1.0) and c["win"] == c["wins"][0]
    best = max(r["choices"], key=lambda c: c["win"])
    assert best["win"] == next(c["win"] for c in r["choices"] if c["plane"] == r["bestmove"])
    # A 3 cannot take a plane off under the standard rules: no choice.
    r = qiyi.analyze("aeroplane", roll=3)
    assert r["choices"] == [] and r["bestmove"] is None


def test_aeroplane_a_rolled_position_is_the_same_as_giving_the_roll():
    game = qiyi.load_game("aeroplane")
    rng = random.Random(11)
    seen = 0
    s = game.new_initial_state()
    while not s.is_terminal() and seen < 5:
        if s.is_chance_node():
            before = s.to_text()
            actions, probs = zip(*s.chance_outcomes())
            a = rng.choices(actions, probs)[0]
            face = int(s.action_to_string(a)[1:])
            s.apply_action(a)
            if not s.is_chance_node() and not s.is_terminal():
                given = qiyi.analyze("aeroplane", before, roll=face)
                rolled = qiyi.analyze("aeroplane", s)
                assert given["choices"] == rolled["choices"]
                assert given["bestmove"] == rolled["bestmove"]
                with pytest.raises(qiyi.IllegalActionError):
                    qiyi.analyze("aeroplane", s, roll=face % 6 + 1)
                seen += 1
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    assert seen == 5


def test_chinese_checkers_race_distances():
    r = qiyi.analyze("chinese_checkers", depth=2)
    # At least 19, the row bound of the 10-piece crossing from the start (the solitaire module's
    # docs): the race solver's search raises the proven bound within its budget, alike for both.
    assert r["race"][0] >= 19 and r["race"][0] == r["race"][1]
    assert r["race_bound"] is True and r["race_exact"] == [False, False]
    assert "lower bound" in r["race_method"]
    assert r["search"]["player"] == "alphabeta" and r["search"]["depth"] == 2
    s = qiyi.load_game("chinese_checkers").new_initial_state()
    assert s.action_to_string(s.string_to_action(r["bestmove"])) == r["bestmove"]
    # The start with the sides swapped: every piece is home.
    t = r["position"].split(" ")
    home = " ".join(t[:-1] + [t[-1].replace("1", "x").replace("2", "1").replace("x", "2")])
    at_home = qiyi.analyze("chinese_checkers", home, depth=1)
    assert at_home["race"] == [0, 0] and at_home["race_exact"] == [True, True]
    assert at_home["race_bound"] is False
    six = qiyi.load_game("chinese_checkers", players=6).new_initial_state()
    r6 = qiyi.analyze("chinese_checkers", six)
    assert r6["race"] == [r["race"][0]] * 6 and r6["search"]["player"] == "race"
    fifteen = qiyi.load_game("chinese_checkers", pieces=15).new_initial_state()
    # 15-piece camps: a proven bound (not exact within the budget), alike for both players.
    r15 = qiyi.analyze("chinese_checkers", fifteen, depth=1)
    assert len(r15["race"]) == 2 and r15["race"][0] == r15["race"][1] >= 1
    assert r15["race_bound"] is True and r15["race_exact"] == [False, False]


def test_chinese_checkers_a_move_changes_only_the_movers_race():
    game = qiyi.load_game("chinese_checkers", players=3)
    rng = random.Random(3)
    s = game.new_initial_state()
    before = qiyi.analyze("chinese_checkers", s)["race"]
    for _ in range(12):
        mover = s.current_player()
        s.apply_action(rng.choice(s.legal_actions()))
        after = qiyi.analyze("chinese_checkers", s)["race"]
        assert [a for p, a in enumerate(after) if p != mover] == [
            b for p, b in enumerate(before) if p != mover
        ]
        assert all(a >= 0 for a in after)
        before = after


@pytest.mark.parametrize(
    "call,error,text",
    [
        (lambda: qiyi.analyze("go"), qiyi.UnknownGameError, "go"),
        (lambda: qiyi.analyze("xiangqi", "not a fen"), qiyi.ParseError, "FEN"),
        (lambda: qiyi.analyze("checkers", "B:W18:B14", depth=10000), qiyi.SearchError, "out of range"),
        (lambda: qiyi.analyze("xiangqi", depth=10000), qiyi.SearchError, "out of range"),
        (lambda: qiyi.analyze("xiangqi", depth=3, movetime_ms=10), qiyi.SearchError, "not both"),
        (lambda: qiyi.analyze("xiangqi", depth=0), qiyi.SearchError, "range"),
        (lambda: qiyi.analyze("xiangqi", depth=-1), qiyi.SearchError, "range"),
        (lambda: qiyi.analyze("xiangqi", depth="deep"), qiyi.SearchError, "whole number"),
        (lambda: qiyi.analyze("xiangqi", depth=2, multipv=11), qiyi.SearchError, "multipv"),
        (lambda: qiyi.analyze("xiangqi", depth=2, multipv=0), qiyi.SearchError, "multipv"),
        (lambda: qiyi.analyze("xiangqi", depth=2, roll=6), qiyi.SearchError, "aeroplane only"),
        (lambda: qiyi.analyze("peg_solitaire", depth=3), qiyi.SearchError, "do not apply"),
        (lambda: qiyi.analyze("peg_solitaire", multipv=2), qiyi.SearchError, "multipv"),
        (lambda: qiyi.analyze("aeroplane"), qiyi.SearchError, "roll="),
        (lambda: qiyi.analyze("aeroplane", roll=7), qiyi.SearchError, "die face"),
        (lambda: qiyi.analyze("aeroplane", roll=6, depth=2), qiyi.SearchError, "do not apply"),
        (lambda: qiyi.analyze("aeroplane", "standard players=9"), qiyi.ParseError, "aeroplane"),
        (lambda: qiyi.analyze("chinese_checkers", "2 10 s"), qiyi.ParseError, "chinese checkers"),
        (lambda: qiyi.analyze("chinese_checkers", depth=99), qiyi.SearchError, "out of range"),
        (lambda: qiyi.analyze("xiangqi", 42), qiyi.ParseError, "text"),
        (lambda: qiyi.analyze(None), qiyi.UnknownGameError, "text"),
    ],
)
def test_bad_input_raises_qiyi_errors(call, error, text):
    with pytest.raises(error, match=text):
        call()
