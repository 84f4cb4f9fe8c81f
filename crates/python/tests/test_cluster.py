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


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


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
