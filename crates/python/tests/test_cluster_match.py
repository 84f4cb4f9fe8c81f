"""qiyi.cluster.match and qiyi.cluster.sprt on a local two-worker Ray: the same games and the
same verdict for 1 and 2 workers, and the CLI's (`qiyi match checkers --depth`)."""

import json
import os
import subprocess

import pytest

ray = pytest.importorskip("ray", reason="ray is not installed")

import qiyi  # noqa: E402
import qiyi.cluster  # noqa: E402
from qiyi import _qiyi  # noqa: E402

STRONG, WEAK = "qiyi", "qiyi:seed:2"


# A local Ray with 2 CPUs for the module (conftest.py).
pytestmark = pytest.mark.usefixtures("local_ray")


def games_of(result):
    return [(g["index"], g["ballot"], g["a_black"], g["score"], g["reason"], g["moves"])
            for g in result["games_played"]]


def cli_match(tmp_path, *args):
    """`qiyi match checkers ... --json --log FILE` from QIYI_BIN: the report and the logged
    games as (ballot, result, moves)."""
    binary = os.environ.get("QIYI_BIN")
    if not binary or not os.path.exists(binary):
        pytest.skip("QIYI_BIN is not set: the comparison with the CLI needs the qiyi binary")
    log = tmp_path / "games.log"
    out = subprocess.run([binary, *args, "--log", str(log), "--json"], check=True,
                         capture_output=True, text=True)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    games = []
    for line in log.read_text().splitlines():
        fields = line.split("\t")
        moves = fields[-1].removeprefix("moves").split()
        games.append((int(fields[1].split()[1]), fields[3], moves))
    return report, games


def test_match_is_the_same_on_one_and_two_workers_and_the_cli(tmp_path):
    args = dict(games=7, seed=5, depth=4)
    one = qiyi.cluster.match("checkers", "qiyi:level=6", "qiyi:seed:4", workers=1, **args)
    two = qiyi.cluster.match("checkers", "qiyi:level=6", "qiyi:seed:4", workers=2, **args)
    assert len(one["games_played"]) == 7
    assert [g["index"] for g in one["games_played"]] == list(range(7))
    assert games_of(one) == games_of(two)
    for key in ("wins", "draws", "losses", "score", "elo", "pentanomial"):
        assert one[key] == two[key], key
    assert one["wins"] + one["draws"] + one["losses"] == 7
    assert sum(one["pentanomial"]) == 3  # the seventh game has no partner
    assert all(g["moves"] for g in one["games_played"])
    report, games = cli_match(tmp_path, "--seed", "5", "--threads", "1", "match", "checkers",
                              "--engine", "qiyi:level=6", "--engine", "qiyi:seed:4",
                              "--games", "7", "--depth", "4")
    assert (report["wins"], report["draws"], report["losses"]) == (
        one["wins"], one["draws"], one["losses"])
    result = {1.0: "win", 0.5: "draw", 0.0: "loss"}
    assert games == [(g["ballot"], result[g["score"]], g["moves"]) for g in one["games_played"]]


def test_sprt_accepts_h1_early_for_a_clearly_stronger_engine_on_one_and_two_workers(tmp_path):
    args = dict(elo0=0, elo1=50, games=400, seed=3, depth=6)
    one = qiyi.cluster.sprt("checkers", STRONG, WEAK, workers=1, **args)
    two = qiyi.cluster.sprt("checkers", STRONG, WEAK, workers=2, **args)
    assert one["verdict"] == "H1", one
    assert one["llr"] >= one["upper"]
    assert one["pairs"] < 200  # decided early, far from the cap
    for key in ("verdict", "llr", "pairs", "pentanomial", "wins", "draws", "losses"):
        assert one[key] == two[key], key
    assert games_of(one) == games_of(two)
    report, _ = cli_match(tmp_path, "--seed", "3", "--threads", "1", "match", "checkers",
                          "--engine", STRONG, "--engine", WEAK, "--games", "400",
                          "--depth", "6", "--sprt", "0,50")
    assert report["sprt"]["result"] == "H1 accepted"
    assert report["sprt"]["pentanomial"] == one["pentanomial"]
    assert report["sprt"]["llr"] == pytest.approx(one["llr"], abs=1e-12)
    assert report["games"] == len(one["games_played"])


def test_sprt_llr_is_core_s_and_checks_its_bounds():
    llr, lower, upper, status = _qiyi.sprt_llr([0, 0, 0, 0, 0], 0, 10)
    assert (llr, status) == (0.0, "continue")
    assert lower == pytest.approx(-2.944, abs=1e-3) and upper == pytest.approx(2.944, abs=1e-3)
    # core's own test counts (stats.rs, sprt_bounds_and_signs).
    assert _qiyi.sprt_llr([50, 200, 400, 250, 100], 0, 10)[3] == "H1"
    assert _qiyi.sprt_llr([100, 250, 400, 200, 50], 0, 10)[3] == "H0"
    assert 0 < _qiyi.sprt_llr([5, 20, 40, 25, 10], 0, 10)[0] < upper
    with pytest.raises(qiyi.RuleError):
        _qiyi.sprt_llr([0] * 5, 10, 0)
    with pytest.raises(qiyi.RuleError):
        _qiyi.sprt_llr([0] * 5, 0, 10, alpha=0.7)


@pytest.mark.parametrize("call", [
    lambda: qiyi.cluster.match("no-such-game", STRONG, WEAK, depth=2),
])
def test_an_unknown_game_is_an_unknown_game_error(call):
    with pytest.raises(qiyi.UnknownGameError):
        call()


@pytest.mark.parametrize("game", ["checkers", "xiangqi"])
@pytest.mark.parametrize("kwargs", [
    dict(games=0, depth=2),
    dict(games=-2, depth=2),
    dict(games=2),                      # no budget
    dict(games=2, depth=0),
    dict(games=2, nodes=0),
    dict(games=2, depth=2.5),
    dict(games=2, movetime=0),
    dict(games=2, movetime=2.5),
    dict(games=2, movetime=50, depth=2),   # a budget or a clock, not both
])
def test_bad_options_are_rule_errors(game, kwargs):
    weak = WEAK if game == "checkers" else "qiyi:seed"
    with pytest.raises(qiyi.RuleError):
        qiyi.cluster.match(game, STRONG, weak, **kwargs)
    with pytest.raises(qiyi.RuleError):
        qiyi.cluster.sprt(game, STRONG, weak, elo0=0, elo1=10, **kwargs)


def test_bad_engines_and_games_without_ray_matches_are_rule_errors():
    with pytest.raises(qiyi.RuleError):
        qiyi.cluster.match("checkers", "qiyi:level=99", WEAK, depth=2)
    with pytest.raises(qiyi.RuleError):
        qiyi.cluster.match("checkers", "hub:/no/such/engine", WEAK, depth=2)
    with pytest.raises(qiyi.RuleError, match="matches on Ray are for checkers, xiangqi"):
        qiyi.cluster.match("aeroplane", "qiyi", "qiyi", depth=2)
    # A missing program, or a budget its protocol cannot take, fails before any task.
    with pytest.raises(qiyi.RuleError):
        qiyi.cluster.match("xiangqi", "ucci:/no/such/eleeye", "qiyi", depth=2)
    with pytest.raises(qiyi.RuleError, match="not both"):
        qiyi.cluster.match("xiangqi", "ucci:/no/such/eleeye", "qiyi", depth=2, nodes=100)
    with pytest.raises(qiyi.RuleError, match="level"):
        qiyi.cluster.match("xiangqi", "qiyi:level=12", "qiyi", depth=2)
    with pytest.raises(qiyi.RuleError, match="opening book"):
        qiyi.cluster.match("xiangqi", "qiyi", "qiyi:seed", depth=2, no_book=True)
    with pytest.raises(qiyi.RuleError):
        qiyi.cluster.sprt("checkers", STRONG, WEAK, elo0=10, elo1=0, depth=2)


def test_without_ray_match_and_sprt_raise_import_error(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match="pip install ray"):
        qiyi.cluster.match("checkers", STRONG, WEAK, games=2, depth=2)
    with pytest.raises(ImportError, match="pip install ray"):
        qiyi.cluster.sprt("checkers", STRONG, WEAK, elo0=0, elo1=10, depth=2)


def cli_xiangqi(tmp_path, *args):
    """`qiyi match xiangqi ... --json --games-out FILE` from QIYI_BIN: the report and the games
    as (opening FEN, A red, score, end, moves)."""
    binary = os.environ.get("QIYI_BIN")
    if not binary or not os.path.exists(binary):
        pytest.skip("QIYI_BIN is not set: the comparison with the CLI needs the qiyi binary")
    games_out = tmp_path / "games.jsonl"
    out = subprocess.run([binary, *args, "--games-out", str(games_out), "--json"], check=True,
                         capture_output=True, text=True)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    games = [json.loads(line) for line in games_out.read_text().splitlines()]
    return report, [(g["opening"], g["a_is_red"], g["a_score"], g["end"], g["moves"])
                    for g in games]


def xiangqi_games(result):
    return [(g["opening_fen"], g["a_red"], g["score"], g["reason"], g["moves"])
            for g in result["games_played"]]


def test_xiangqi_match_is_the_same_on_one_and_two_workers_and_the_cli(tmp_path):
    args = dict(games=7, seed=5, depth=2)  # 7 is rounded up to 4 pairs, as the CLI does
    one = qiyi.cluster.match("xiangqi", "qiyi:level=3", "qiyi:level=8", workers=1, **args)
    two = qiyi.cluster.match("xiangqi", "qiyi:level=3", "qiyi:level=8", workers=2, **args)
    assert [g["index"] for g in one["games_played"]] == list(range(8))
    assert [g["opening"] for g in one["games_played"]] == [0, 0, 1, 1, 2, 2, 3, 3]
    assert [g["a_red"] for g in one["games_played"]] == [True, False] * 4
    assert xiangqi_games(one) == xiangqi_games(two)
    for key in ("wins", "draws", "losses", "score", "elo", "pentanomial"):
        assert one[key] == two[key], key
    assert sum(one["pentanomial"]) == 4
    assert all(g["moves"] for g in one["games_played"])
    report, games = cli_xiangqi(tmp_path, "--seed", "5", "--threads", "1", "match", "xiangqi",
                                "--engine", "qiyi:level=3", "--engine", "qiyi:level=8",
                                "--games", "7", "--depth", "2")
    assert (report["wins"], report["draws"], report["losses"]) == (
        one["wins"], one["draws"], one["losses"])
    assert report["time_control"] == "depth 2" and report["games"] == 8
    assert games == xiangqi_games(one)


def test_xiangqi_sprt_is_the_same_on_one_and_two_workers_and_the_cli_s_games(tmp_path):
    args = dict(elo0=0, elo1=100, games=200, seed=2, depth=2)
    one = qiyi.cluster.sprt("xiangqi", "qiyi", "qiyi:seed", workers=1, **args)
    two = qiyi.cluster.sprt("xiangqi", "qiyi", "qiyi:seed", workers=2, **args)
    assert one["verdict"] == "H1", one
    assert one["pairs"] < 100
    for key in ("verdict", "llr", "pairs", "pentanomial", "wins", "draws", "losses"):
        assert one[key] == two[key], key
    assert xiangqi_games(one) == xiangqi_games(two)
    # `qiyi match xiangqi` has no --sprt: the pairs counted are the first games of its match.
    _, games = cli_xiangqi(tmp_path, "--seed", "2", "--threads", "1", "match", "xiangqi",
                           "--engine", "qiyi", "--engine", "qiyi:seed",
                           "--games", str(2 * one["pairs"]), "--depth", "2")
    assert games == xiangqi_games(one)


def qiyi_program():
    binary = os.environ.get("QIYI_BIN")
    if not binary or not os.path.exists(binary):
        pytest.skip("QIYI_BIN is not set: the external engine is the qiyi binary")
    return os.path.abspath(binary)


def test_an_external_hub_engine_at_a_fixed_depth_plays_the_cli_s_games_on_any_worker_count(
        tmp_path):
    # The qiyi binary as a program speaking Hub, started by each task: `level depth=4`.
    hub = f"hub:{qiyi_program()} --threads 1 hub"
    args = dict(games=4, seed=3, depth=4)
    one = qiyi.cluster.match("checkers", hub, WEAK, workers=1, **args)
    two = qiyi.cluster.match("checkers", hub, WEAK, workers=2, **args)
    assert len(one["games_played"]) == 4
    assert games_of(one) == games_of(two)
    assert all(len(g["moves"]) > 4 for g in one["games_played"])
    report, games = cli_match(tmp_path, "--seed", "3", "--threads", "1", "match", "checkers",
                              "--engine", hub, "--engine", WEAK, "--games", "4",
                              "--depth", "4")
    assert report["depth"] == 4
    result = {1.0: "win", 0.5: "draw", 0.0: "loss"}
    assert games == [(g["ballot"], result[g["score"]], g["moves"])
                     for g in one["games_played"]]


def test_an_external_uci_engine_at_a_fixed_depth_plays_the_cli_s_xiangqi_games(tmp_path):
    uci = f"uci:{qiyi_program()} --threads 1 uci"
    args = dict(games=4, seed=5, depth=2)
    one = qiyi.cluster.match("xiangqi", uci, "qiyi:seed", workers=1, **args)
    two = qiyi.cluster.match("xiangqi", uci, "qiyi:seed", workers=2, **args)
    assert xiangqi_games(one) == xiangqi_games(two)
    report, games = cli_xiangqi(tmp_path, "--seed", "5", "--threads", "1", "match", "xiangqi",
                                "--engine", uci, "--engine", "qiyi:seed", "--games", "4",
                                "--depth", "2")
    assert report["time_control"] == "depth 2"
    assert games == xiangqi_games(one)


def test_on_time_matches_and_sprts_play_every_game_and_say_so():
    # On time the games depend on the machine: what is checked is that they are played whole.
    r = qiyi.cluster.match("checkers", STRONG, WEAK, games=4, movetime=20, workers=2)
    assert r["movetime"] == 20 and r["depth"] is None
    assert r["wins"] + r["draws"] + r["losses"] == 4
    assert all(g["moves"] for g in r["games_played"])
    assert sum(r["pentanomial"]) == 2
    t = qiyi.cluster.sprt("xiangqi", "qiyi", "qiyi:seed", elo0=0, elo1=100, games=4,
                          movetime=20, workers=2)
    assert t["movetime"] == 20 and t["verdict"] in ("H0", "H1", "undecided")
    assert t["pairs"] == sum(t["pentanomial"]) <= 2
