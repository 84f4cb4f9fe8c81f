"""qiyi.review: the same review as `qiyi review --json`, from a record; bad input raises
qiyi's own exceptions."""

import pytest

import qiyi

CHECKERS = ('[Event "review test"]\n\n1. 10-15 22-17 2. 11-16 23-19 3. 16x23 26x19x10\n'
            '4. 6x15 24-19 5. 15x24 28x19 6. 8-11 27-23 *\n')
# Four players, standard rules (take off on a 6): three rolls that cannot be played, then the
# fourth player rolls a 6, takes plane a off and rolls again.
AERO = '["r1", "r2", "r3", "r6", "a"]'
PEG = ('{"game":"peg-solitaire","rules":{"board":"english"},'
       '"moves":[{"ply":0,"player":0,"text":"d2-d4"}]}')


def test_a_checkers_game_reviews_from_its_pdn():
    r = qiyi.review("checkers", CHECKERS, depth=4)
    assert r["format"] == 1 and r["game"] == "checkers" and r["unit"] == "cp"
    assert len(r["plies"]) == 12
    assert r["plies"][2]["played"] == "11-16"
    assert r["plies"][4]["forced"] is True  # 16x23 is the only capture
    assert {p["class"] for p in r["plies"]} <= {"best", "good", "inaccuracy", "mistake", "blunder"}
    for s in r["summary"]:
        assert abs(s["identity_error"]) < 1e-9


def test_a_peg_record_reviews_exactly():
    r = qiyi.review("peg_solitaire", PEG)
    assert r["unit"] == "pegs"
    assert r["plies"][0]["class"] == "best" and r["plies"][0]["exact"] is True


def test_an_aeroplane_record_reviews_rolls_and_decisions():
    r = qiyi.review("aeroplane", AERO)
    assert r["game"] == "aeroplane" and len(r["plies"]) == 5
    assert [p["played"] for p in r["plies"]] == ["r1", "r2", "r3", "r6", "a"]
    for s in r["summary"]:
        assert abs(s["identity_error"]) < 1e-9
    for p in r["plies"]:
        assert abs(sum(p["wins_after"]) - 1.0) < 1e-9


def test_a_chinese_checkers_game_reviews_for_two_and_three_players():
    import json

    def play(players, plies):
        s = qiyi.load_game("chinese_checkers", players=players).new_initial_state()
        moves = []
        for _ in range(plies):
            a = s.legal_actions()[0]
            moves.append(s.action_to_string(a))
            s.apply_action(a)
        return moves

    two = play(2, 6)
    r = qiyi.review("chinese_checkers", json.dumps(two), depth=2)
    assert r["game"] == "chinese-checkers" and len(r["plies"]) == 6
    assert [p["played"] for p in r["plies"]] == two
    for s in r["summary"]:
        assert abs(s["identity_error"]) < 1e-9
    three = play(3, 6)
    record = json.dumps({"game": "chinese-checkers", "rules": {"players": 3}, "moves": three})
    r3 = qiyi.review("chinese_checkers", record)
    assert r3["players"] == 3 and r3["unit"] == "moves" and len(r3["plies"]) == 6
    with pytest.raises(qiyi.SearchError, match="two-player"):
        qiyi.review("chinese_checkers", record, depth=2)


def test_bad_input_raises_qiyi_errors():
    with pytest.raises(qiyi.ParseError, match="does not read"):
        qiyi.review("checkers", "1. 10-15 10-15 *")
    with pytest.raises(qiyi.ParseError, match="not checkers"):
        qiyi.review("checkers", PEG)
    with pytest.raises(qiyi.SearchError, match="out of range"):
        qiyi.review("checkers", CHECKERS, depth=10000)
    with pytest.raises(qiyi.SearchError, match="do not apply"):
        qiyi.review("peg_solitaire", PEG, depth=3)
    with pytest.raises(qiyi.SearchError, match="do not apply"):
        qiyi.review("aeroplane", AERO, depth=3)
    with pytest.raises(qiyi.ParseError, match="move 2"):
        qiyi.review("aeroplane", '["r1", "zz"]')
    with pytest.raises(qiyi.UnknownGameError):
        qiyi.review("go", PEG)
    with pytest.raises(qiyi.ParseError):
        qiyi.review("chinese_checkers", "")
    with pytest.raises(qiyi.ParseError, match="move 1"):
        qiyi.review("chinese_checkers", '["not a move"]')
    with pytest.raises(qiyi.ParseError, match="move 3"):
        qiyi.review("xiangqi", "1. h2e2 h9g7 2. h2e2 *")
    with pytest.raises(qiyi.SearchError, match="out of range"):
        qiyi.review("xiangqi", "1. h2e2 *", depth=10000)


def test_a_xiangqi_game_reviews_from_pgn_and_chinese_moves():
    r = qiyi.review("xiangqi", "1. 炮二平五 马８进７ 2. H0-G2 *", depth=3)
    assert r["game"] == "xiangqi"
    assert r["unit"] == "cp"
    assert [p["played"] for p in r["plies"]] == ["h2e2", "h9g7", "h0g2"]
    for p in r["plies"]:
        assert abs(sum(p["wins_after"]) - 1.0) < 1e-9
