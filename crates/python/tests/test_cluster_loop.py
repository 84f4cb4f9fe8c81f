"""Self-play -> `qiyi train checkers` -> SPRT on a local Ray (issue 49, item 4):
`qiyi.cluster.train_loop` and its script, scripts/learn/cluster_loop.py."""

import json
import os
import subprocess
import sys

import pytest

ray = pytest.importorskip("ray", reason="ray is not installed")

import qiyi  # noqa: E402
import qiyi.cluster  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..")
SMALL = dict(games=4, seed=5, depth=2, shard=2, epochs=1, hidden=16, l2=8, sprt_games=4,
             sprt_depth=2, elo0=0, elo1=50, workers=2)


# A local Ray with 2 CPUs for the module (conftest.py).
pytestmark = pytest.mark.usefixtures("local_ray")


@pytest.fixture
def binary():
    b = os.environ.get("QIYI_BIN")
    if not b or not os.path.exists(b):
        pytest.skip("QIYI_BIN is not set: training needs the qiyi binary")
    return b


def test_a_small_loop_runs_every_stage_then_resumes_skipping_them(tmp_path, binary):
    out = str(tmp_path / "round")
    lines = []
    r = qiyi.cluster.train_loop(out, qiyi_bin=binary, log=lines.append, **SMALL)
    assert r["skipped"] == [] and r["seed"] == 5
    assert lines[0].endswith("seed 5")
    # Self-play wrote the run; training read all of it (what it trained on plus what it held
    # out is every position the shards hold), from the one folder it was given.
    sp, tr, st = r["selfplay"], r["train"], r["sprt"]
    assert sp["format"] == "QIYIPOS1" and sp["games"] == 4 and len(sp["written"]) == 2
    assert tr["positions"] + tr["holdout_positions"] == sp["positions"]
    assert tr["sources"] == [{"dir": os.path.join(out, "selfplay"), "shards": 2,
                              "positions": sp["positions"], "games": 4,
                              "run": tr["sources"][0]["run"]}]
    assert "seed 5" in tr["sources"][0]["run"] and tr["arch"] == [128, 16, 8]
    assert len(tr["epochs"]) == 1 and os.path.getsize(r["net"]) > 0
    # The SPRT played the new net (its file, through the engine spec) against the engine.
    assert st["engine_a"] == f"qiyi:eval={r['net']}" and st["engine_b"] == "qiyi"
    assert st["depth"] == 2 and st["seed"] == 5
    assert r["verdict"] == st["verdict"] in ("H0", "H1", "undecided")
    assert 1 <= st["pairs"] <= 2 and sum(st["pentanomial"]) == st["pairs"]
    assert st["wins"] + st["draws"] + st["losses"] == len(st["games_played"])
    assert any(line.startswith("selfplay: 4 games") for line in lines)
    assert any(line.startswith("train: ") and "held-out loss" in line for line in lines)
    assert any(line.startswith("sprt: ") and st["verdict"] in line for line in lines)
    net = open(r["net"], "rb").read()

    # A rerun skips every stage, says so, and gives the same figures.
    lines = []
    again = qiyi.cluster.train_loop(out, qiyi_bin=binary, log=lines.append, **SMALL)
    assert again["skipped"] == ["selfplay", "train", "sprt"]
    assert sum("skipped" in line for line in lines) == 3
    assert again["sprt"]["llr"] == st["llr"] and again["verdict"] == r["verdict"]
    assert open(r["net"], "rb").read() == net
    # Only the SPRT gone: it is played again, with the same verdict (fixed depth, same seed).
    os.remove(os.path.join(out, "sprt.json"))
    third = qiyi.cluster.train_loop(out, qiyi_bin=binary, log=lines.append, **SMALL)
    assert third["skipped"] == ["selfplay", "train"]
    assert (third["sprt"]["llr"], third["sprt"]["pentanomial"]) == (st["llr"], st["pentanomial"])

    # The same folder with other options is another loop's: refused, nothing run.
    with pytest.raises(qiyi.RuleError, match="another loop's run.*epochs"):
        qiyi.cluster.train_loop(out, qiyi_bin=binary, **dict(SMALL, epochs=2))


def test_the_script_runs_the_loop_and_prints_its_figures(tmp_path, binary):
    out = str(tmp_path / "round")
    args = [sys.executable, os.path.join(ROOT, "scripts", "learn", "cluster_loop.py"), out,
            "--games", "2", "--shard", "1", "--depth", "2", "--epochs", "1", "--hidden", "16",
            "--l2", "8", "--sprt-games", "2", "--sprt-depth", "2", "--elo1", "50",
            "--workers", "2", "--seed", "9", "--qiyi", binary, "--json"]
    p = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    text = p.stdout
    assert "seed 9" in text and "selfplay: 2 games" in text and "train: " in text
    v = json.loads(text.strip().splitlines()[-1])
    assert v["seed"] == 9 and v["skipped"] == []
    assert v["verdict"] in ("H0", "H1", "undecided") and v["sprt"]["pairs"] == 1
    p = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout.strip().splitlines()[-1])["skipped"] == [
        "selfplay", "train", "sprt"]


def test_bad_loops_fail_before_anything_is_written(tmp_path, binary):
    out = tmp_path / "bad"
    with pytest.raises(FileNotFoundError, match="qiyi_bin"):
        qiyi.cluster.train_loop(str(out), qiyi_bin=str(tmp_path / "no-such-qiyi"), **SMALL)
    for bad in (dict(games=0), dict(epochs=0), dict(sprt_depth=0), dict(seed=-1),
                dict(elo0=10, elo1=0),
                dict(base="qiyi:no-such-option")):
        with pytest.raises(qiyi.RuleError):
            qiyi.cluster.train_loop(str(out), qiyi_bin=binary, **dict(SMALL, **bad))
    assert not out.exists()
