"""qiyi.cluster on a local two-worker Ray: sharded results equal one worker and the CLI."""

import json
import os
import subprocess

import pytest

ray = pytest.importorskip("ray", reason="ray is not installed")
pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed")

import pyarrow.parquet as pq  # noqa: E402

import qiyi  # noqa: E402
import qiyi.cluster  # noqa: E402
from qiyi import _qiyi  # noqa: E402

SAME = ("win_rate", "mean_turns", "captures_per_game", "games", "seed", "rules", "seats")


# A local Ray with 2 CPUs for the module (conftest.py).
pytestmark = pytest.mark.usefixtures("local_ray")


def cli(args):
    """`qiyi ... --json` from the binary named by QIYI_BIN (CI builds it), else skip."""
    binary = os.environ.get("QIYI_BIN")
    if not binary or not os.path.exists(binary):
        pytest.skip("QIYI_BIN is not set: the comparison with the CLI needs the qiyi binary")
    out = subprocess.run([binary, *args, "--json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_aeroplane_tournament_is_the_same_on_one_and_two_workers_and_without_ray():
    args = dict(game="aeroplane", seats="heuristic,random,random,random", games=300, seed=151)
    one = qiyi.cluster.tournament(**args, workers=1, shard=37)
    two = qiyi.cluster.tournament(**args, workers=2, shard=50)
    records = _qiyi.play_games(args["game"], args["seats"], 300, 151, 0, 300)
    direct = json.loads(_qiyi.summarize(args["game"], args["seats"], 300, 151, records))
    for key in SAME:
        assert one[key] == two[key] == direct[key], key
    assert one["by_type"]["heuristic"]["wins"] == two["by_type"]["heuristic"]["wins"]
    assert two["shards"] == 6 and one["shards"] == 9
    assert one["win_rate"]["heuristic"] > 0.5


def test_aeroplane_tournament_equals_the_cli():
    r = qiyi.cluster.tournament("aeroplane", "heuristic,random", games=200, seed=7,
                                workers=2, players=2, rules="seed")
    c = cli(["--seed", "7", "--threads", "1", "tournament", "aeroplane", "--players", "2",
             "--rules", "seed", "--seats", "heuristic,random", "--games", "200"])
    for key in SAME:
        assert r[key] == c[key], key


def test_chinese_checkers_tournament_one_two_workers_and_the_cli():
    args = dict(game="chinese_checkers", seats="seed,random,random", games=6, seed=3,
                level=1, players=3, max_moves=60)
    one = qiyi.cluster.tournament(**args, workers=1, shard=1)
    two = qiyi.cluster.tournament(**args, workers=2, shard=2)
    for key in ("by_type", "mean_plies", "capped", "records"):
        assert one[key] == two[key], key
    c = cli(["--seed", "3", "--threads", "1", "tournament", "chinese-checkers", "--players", "3",
             "--seats", "seed,random,random", "--games", "6", "--level", "1",
             "--max-moves", "60"])
    # The CLI prints win rates by type and the mean length as mean_moves.
    assert {k: t["win_rate"] for k, t in one["by_type"].items()} == c["win_rate"]
    assert (one["mean_plies"], one["capped"]) == (c["mean_moves"], c["capped"])


def test_bad_tournaments_fail_before_any_work():
    with pytest.raises(qiyi.RuleError, match="wizard"):
        qiyi.cluster.tournament("aeroplane", "wizard,random,random,random", games=10)
    with pytest.raises(qiyi.RuleError, match="tournaments are for"):
        qiyi.cluster.tournament("xiangqi", "best,best", games=10)
    with pytest.raises(qiyi.RuleError):
        qiyi.cluster.tournament("aeroplane", "random,random", games=0, players=2)


def test_selfplay_writes_parquet_shards_and_resumes(tmp_path):
    out = str(tmp_path / "sp")
    kw = dict(game="aeroplane", games=6, out_dir=out, seed=5, shard=2, workers=2,
              algorithm="mcts", nodes=20, players=2)
    first = qiyi.cluster.selfplay(**kw)
    assert len(first["written"]) == 3 and first["skipped"] == []
    table = pq.read_table(first["written"][0])
    assert table.column_names == ["game", "ply", "player", "position", "action", "move",
                                  "score", "result"]
    assert set(table.column("game").to_pylist()) == {0, 1}
    assert table.schema.metadata[b"game"] == b"aeroplane"
    # Every game ended: one player has +1 on all of its rows.
    rows = table.to_pylist()
    for g in (0, 1):
        assert any(r["result"] == 1.0 for r in rows if r["game"] == g)
    again = qiyi.cluster.selfplay(**kw)
    assert again["written"] == [] and len(again["skipped"]) == 3
    removed = first["written"][1]
    before = pq.read_table(removed).to_pylist()
    os.remove(removed)
    third = qiyi.cluster.selfplay(**kw)
    assert third["written"] == [removed] and len(third["skipped"]) == 2
    # The rewritten shard holds the same games as before (each game seeded by its index).
    assert pq.read_table(removed).to_pylist() == before


def _digests(d):
    import hashlib

    return {f: hashlib.sha256(open(os.path.join(d, f), "rb").read()).hexdigest()
            for f in sorted(os.listdir(d)) if f.endswith(".bin") or f == "run.txt"}


def test_selfplay_records_identical_for_1_and_2_workers_and_the_cli(tmp_path):
    kw = dict(games=6, seed=7, games_per_shard=2, depth=2, random_plies=4)
    one = qiyi.cluster.selfplay_records(str(tmp_path / "one"), workers=1, **kw)
    two = qiyi.cluster.selfplay_records(str(tmp_path / "two"), workers=2, **kw)
    assert one["shards"] == 3 and one["written"] == 3 and one["positions"] > 0
    assert two["positions"] == one["positions"]
    a, b = _digests(tmp_path / "one"), _digests(tmp_path / "two")
    assert len(a) == 4 and a == b
    # In-process, all shards at once on 2 threads: the same bytes again.
    _qiyi.checkers_selfplay(str(tmp_path / "local"), threads=2, **kw)
    assert _digests(tmp_path / "local") == a
    # Resumable: a rerun skips everything; a removed shard comes back identical.
    again = qiyi.cluster.selfplay_records(str(tmp_path / "two"), workers=2, **kw)
    assert again["written"] == 0 and again["skipped"] == 3
    os.remove(tmp_path / "two" / "shard-00001.bin")
    third = qiyi.cluster.selfplay_records(str(tmp_path / "two"), workers=2, **kw)
    assert third["written"] == 1 and _digests(tmp_path / "two") == a
    binary = os.environ.get("QIYI_BIN")
    if binary:
        subprocess.run([binary, "--seed", "7", "selfplay", "checkers", "--games", "6",
                        "--games-per-shard", "2", "--depth", "2", "--random-plies", "4",
                        "--out", str(tmp_path / "cli")], check=True, capture_output=True)
        cli_bins = {f: h for f, h in _digests(tmp_path / "cli").items() if f.endswith(".bin")}
        assert cli_bins == {f: h for f, h in a.items() if f.endswith(".bin")}


def test_selfplay_records_refuses_another_run(tmp_path):
    out = str(tmp_path / "sp")
    qiyi.cluster.selfplay_records(out, games=2, seed=1, games_per_shard=2, depth=1, workers=1)
    before = _digests(out)
    with pytest.raises(qiyi.RuleError, match="another run"):
        qiyi.cluster.selfplay_records(out, games=2, seed=2, games_per_shard=2, depth=1,
                                      workers=1)
    assert _digests(out) == before, "nothing written"
    with pytest.raises(qiyi.RuleError):
        qiyi.cluster.selfplay_records(str(tmp_path / "x"), games=0, depth=1)
    with pytest.raises(qiyi.RuleError):
        qiyi.cluster.selfplay_records(str(tmp_path / "y"), games=2, depth=0, nodes=0)
    with pytest.raises(qiyi.RuleError):
        qiyi.cluster.selfplay_records(str(tmp_path / "z"), games=2, depth=1,
                                      eval="/nonexistent.net")
    assert not os.path.exists(tmp_path / "z" / "run.txt")


def test_xiangqi_selfplay_records_identical_for_1_and_2_workers_and_the_cli(tmp_path):
    kw = dict(game="xiangqi", games=4, seed=5, games_per_shard=2, depth=2, random_plies=4)
    one = qiyi.cluster.selfplay_records(str(tmp_path / "one"), workers=1, **kw)
    two = qiyi.cluster.selfplay_records(str(tmp_path / "two"), workers=2, **kw)
    assert one["shards"] == 2 and one["written"] == 2 and one["positions"] > 20
    assert sum(one["results"]) == 4 and one["results"] == two["results"]
    a, b = _digests(tmp_path / "one"), _digests(tmp_path / "two")
    assert len(a) == 3 and a == b
    with open(tmp_path / "one" / "shard-00000.bin", "rb") as f:
        assert f.read(16) == b"QIYIPOS1xiangqi\0"
    local = {k: v for k, v in kw.items() if k != "game"}
    _qiyi.xiangqi_selfplay(str(tmp_path / "local"), threads=2, **local)
    assert _digests(tmp_path / "local") == a
    os.remove(tmp_path / "two" / "shard-00000.bin")
    again = qiyi.cluster.selfplay_records(str(tmp_path / "two"), workers=2, **kw)
    assert (again["written"], again["skipped"]) == (1, 1) and _digests(tmp_path / "two") == a
    binary = os.environ.get("QIYI_BIN")
    if binary:
        subprocess.run([binary, "--seed", "5", "selfplay", "xiangqi", "--games", "4",
                        "--games-per-shard", "2", "--depth", "2", "--random-plies", "4",
                        "--out", str(tmp_path / "cli")], check=True, capture_output=True)
        assert _digests(tmp_path / "cli") == a


def test_cluster_selfplay_runs_the_driver_for_checkers_and_xiangqi(tmp_path):
    for game in ("checkers", "xiangqi"):
        out = tmp_path / game
        r = qiyi.cluster.selfplay(game, 4, str(out), seed=3, shard=2, workers=2, depth=2,
                                  random_plies=2)
        assert r["format"] == "QIYIPOS1" and r["shards"] == 2 and r["positions"] > 0
        assert r["written"] == [str(out / "shard-00000.bin"), str(out / "shard-00001.bin")]
        assert r["skipped"] == []
        # The same bytes as the driver called in-process on one thread.
        play = getattr(_qiyi, f"{game}_selfplay")
        play(str(tmp_path / f"{game}-local"), games=4, games_per_shard=2, seed=3, depth=2,
             random_plies=2, threads=1)
        assert _digests(out) == _digests(tmp_path / f"{game}-local")
        again = qiyi.cluster.selfplay(game, 4, str(out), seed=3, shard=2, workers=1, depth=2,
                                      random_plies=2)
        assert again["written"] == [] and len(again["skipped"]) == 2


def test_cluster_selfplay_bad_driver_options_write_nothing(tmp_path, monkeypatch):
    out = tmp_path / "bad"
    for kwargs, match in [
        (dict(level=3), "level"),
        (dict(max_plies=100), "max_plies"),
        (dict(players=2), "players"),
        (dict(eval="/nonexistent/x.qnet"), "nonexistent"),  # no such net file
    ]:
        with pytest.raises(qiyi.RuleError, match=match):
            qiyi.cluster.selfplay("xiangqi", 2, str(out), depth=1, **kwargs)
        assert not out.exists()
    with pytest.raises(qiyi.RuleError, match="depth= or nodes="):
        qiyi.cluster.selfplay("checkers", 2, str(out))
    with pytest.raises(qiyi.RuleError):
        qiyi.cluster.selfplay("xiangqi", 2, str(out), depth=0)
    with pytest.raises(qiyi.RuleError, match="self-play records are for"):
        qiyi.cluster.selfplay_records(str(out), 2, game="go", depth=1)
    with pytest.raises(qiyi.RuleError, match="whole number"):
        qiyi.cluster.selfplay_records(str(out), 2, game="xiangqi", depth=-1)
    assert not out.exists()
    # Ray missing: a clear ImportError before anything is claimed.
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match="pip install ray"):
        qiyi.cluster.selfplay("xiangqi", 2, str(out), depth=1)
    assert not out.exists()


def test_parquet_export_holds_the_same_records(tmp_path):
    out = tmp_path / "xq"
    r = qiyi.cluster.selfplay("xiangqi", 4, str(out), seed=2, shard=2, workers=2, depth=2,
                              parquet=True)
    assert len(r["parquet"]) == 2
    rows = 0
    for k in range(2):
        cols = _qiyi.read_records(str(out / f"shard-{k:05d}.bin"))
        table = pq.read_table(out / f"shard-{k:05d}.parquet")
        assert table.column_names == ["position", "side", "score", "result", "ply"]
        assert table.schema.metadata[b"game"] == b"xiangqi"
        assert b"seed 2" in table.schema.metadata[b"run"]
        for name in table.column_names:
            assert table.column(name).to_pylist() == cols[name], name
        # The FEN's side to move is the record's; both generals are on the board.
        for fen, side in zip(cols["position"], cols["side"]):
            assert fen.split()[1] == ("w" if side == 0 else "b")
            assert "K" in fen.split()[0] and "k" in fen.split()[0]
        rows += table.num_rows
    assert rows == r["positions"]
    # A rerun exports nothing new; a bad file is a clear error.
    assert qiyi.cluster.export_parquet(str(out)) == []
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "shard-00000.bin").write_bytes(b"not a shard" * 4)
    with pytest.raises(qiyi.RuleError, match="QIYIPOS1"):
        qiyi.cluster.export_parquet(str(tmp_path / "bad"))
    assert not (tmp_path / "bad" / "shard-00000.parquet").exists()
