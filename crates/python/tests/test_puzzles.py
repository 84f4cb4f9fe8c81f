"""qiyi.puzzles: the shipped puzzle sets (counts equal the files' lines), a known puzzle's
first move accepted and a wrong one refused, positions as game states, and check_file
re-proving a file (and refusing a tampered one)."""

import json
import pathlib

import pytest

import qiyi
import qiyi.puzzles

ROOT = pathlib.Path(__file__).resolve().parents[2]
FILES = {
    "xiangqi": ROOT / "xiangqi/puzzles/xiangqi.jsonl",
    "checkers": ROOT / "checkers/puzzles/checkers.jsonl",
    "chinese_checkers": ROOT / "chinese-checkers/puzzles/chinese-checkers.jsonl",
    "peg_solitaire": ROOT / "peg-solitaire/puzzles/peg-solitaire.jsonl",
    "aeroplane": ROOT / "aeroplane/puzzles/aeroplane.jsonl",
}


def lines(path):
    return [json.loads(l) for l in path.read_text().splitlines() if l.strip()]


@pytest.mark.parametrize("game", sorted(FILES))
def test_every_shipped_set_loads_whole(game):
    ps = qiyi.puzzles.load(game)
    want = lines(FILES[game])
    assert len(ps) == len(want)
    assert [p.id for p in ps] == [r["id"] for r in want]
    assert sum(ps.themes().values()) == sum(len(r["themes"]) for r in want)


def test_a_known_xiangqi_puzzle_takes_its_move_and_refuses_another():
    ps = qiyi.puzzles.load("xiangqi")
    first = lines(FILES["xiangqi"])[0]
    p = ps[first["id"]]
    assert p.solution == first["solution"]
    assert p.check(first["solution"][0])
    state = p.state()
    assert state.to_text().split()[:2] == first["position"].split()[:2]
    wrong = next(
        state.action_to_string(a)
        for a in state.legal_actions()
        if state.action_to_string(a) != first["solution"][0]
    )
    assert not p.check(wrong)
    assert not p.check("not a move")
    assert p.reply(0) == first["solution"][1]
    if len(p.asked) > 1:
        assert p.check(first["solution"][2], step=1)


def test_a_known_checkers_puzzle():
    first = lines(FILES["checkers"])[0]
    p = qiyi.puzzles.load("checkers")[0]
    assert p.id == first["id"]
    assert p.check(first["solution"][0])
    state = p.state()
    other = [state.action_to_string(a) for a in state.legal_actions()]
    other = [m for m in other if m != first["solution"][0]]
    if other:
        assert not p.check(other[0])


def test_filter_by_theme_and_rating():
    ps = qiyi.puzzles.load("xiangqi")
    mates = list(ps.filter(theme="mate-in-1"))
    assert mates and all("mate-in-1" in p.themes for p in mates)
    assert len(mates) == ps.themes()["mate-in-1"]
    easy = list(ps.filter(max_rating=1000))
    assert all(p.rating <= 1000 for p in easy)
    hard = list(ps.filter(min_rating=1000.01))
    assert len(easy) + len(hard) == len(ps)


def test_unknown_games_and_bad_steps_raise_value_errors():
    with pytest.raises(ValueError):
        qiyi.puzzles.load("chess")
    with pytest.raises(qiyi.UnknownGameError):
        qiyi.puzzles.load("go")
    p = qiyi.puzzles.load("peg_solitaire")[0]
    with pytest.raises(ValueError):
        p.check(p.solution[0], step=len(p.asked))
    with pytest.raises(ValueError):
        p.check(3)


def test_check_file_proves_a_file_and_names_a_broken_line(tmp_path):
    good = lines(FILES["peg_solitaire"])[:3]
    f = tmp_path / "peg.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in good))
    assert qiyi.puzzles.check_file(str(f)) == 3
    bad = [dict(r) for r in good]
    p = qiyi.puzzles.PuzzleSet("peg", [qiyi.puzzles.Puzzle(r) for r in good])[2]
    state = p.state()
    wrong = next(
        state.action_to_string(a)
        for a in state.legal_actions()
        if state.action_to_string(a) != p.solution[0]
    )
    bad[2]["solution"] = [wrong] + bad[2]["solution"][1:]
    f.write_text("".join(json.dumps(r) + "\n" for r in bad))
    with pytest.raises(ValueError, match="line 3"):
        qiyi.puzzles.check_file(str(f))
    with pytest.raises(ValueError, match="opening"):
        qiyi.puzzles.check_file(str(tmp_path / "missing.jsonl"))
