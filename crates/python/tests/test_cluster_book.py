"""qiyi.cluster.book: the checkers opening book built as Ray tasks, one per part, byte for byte
the book `qiyi --threads 1 book checkers --depth D` writes on one machine (issue 49, item 5)."""

import json
import os
import subprocess

import pytest

ray = pytest.importorskip("ray", reason="ray is not installed")

import qiyi  # noqa: E402
import qiyi.cluster  # noqa: E402


# A local Ray with 2 CPUs for the module (conftest.py).
pytestmark = pytest.mark.usefixtures("local_ray")


@pytest.fixture
def binary():
    b = os.environ.get("QIYI_BIN")
    if not b or not os.path.exists(b):
        pytest.skip("QIYI_BIN is not set: the book is built by the qiyi binary")
    return b


def cli_book(binary, path, *budget):
    """The whole book on one machine, as the CLI writes it; its JSON report."""
    out = subprocess.run([binary, "--threads", "1", "--json", "book", "checkers", *budget,
                          "--out", str(path)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_book_is_the_cli_s_byte_for_byte_on_one_and_two_workers(tmp_path, binary):
    whole = tmp_path / "cli.tsv"
    report = cli_book(binary, whole, "--depth", "2")
    expected = whole.read_bytes()
    lines = expected.decode().splitlines()
    assert lines[0].endswith("(qiyi book checkers --depth 2)")
    assert len(lines) - 1 == report["positions"] > 100

    one = qiyi.cluster.book("checkers", tmp_path / "one.tsv", depth=2, parts=4, workers=1,
                            qiyi_bin=binary)
    two = qiyi.cluster.book("checkers", tmp_path / "two.tsv", depth=2, parts=7, workers=2,
                            qiyi_bin=binary)
    assert (tmp_path / "one.tsv").read_bytes() == expected
    assert (tmp_path / "two.tsv").read_bytes() == expected
    assert one["positions"] == two["positions"] == report["positions"]
    assert one["searched"] == two["searched"] == report["positions"]
    assert one["parts_run"] == [1, 2, 3, 4] and two["parts_run"] == list(range(1, 8))
    assert one["parts_skipped"] == [] and one["budget"] == "--depth 2"
    assert len(two["node_ids"]) == 7

    # A node budget too.
    cli_book(binary, tmp_path / "cli-nodes.tsv", "--nodes", "300")
    qiyi.cluster.book("checkers", tmp_path / "nodes.tsv", nodes=300, parts=3, workers=2,
                      qiyi_bin=binary)
    assert (tmp_path / "nodes.tsv").read_bytes() == (tmp_path / "cli-nodes.tsv").read_bytes()


def test_a_rerun_skips_finished_parts_and_resumes_an_interrupted_one(tmp_path, binary):
    cli_book(binary, tmp_path / "cli.tsv", "--depth", "2")
    out = tmp_path / "book.tsv"
    first = qiyi.cluster.book("checkers", out, depth=2, parts=4, workers=2, qiyi_bin=binary)
    assert first["parts_run"] == [1, 2, 3, 4]

    # Nothing left to do: no part runs, the join is the same file.
    again = qiyi.cluster.book("checkers", out, depth=2, parts=4, workers=2, qiyi_bin=binary)
    assert again["parts_run"] == [] and again["parts_skipped"] == [1, 2, 3, 4]
    assert again["searched"] == 0
    assert out.read_bytes() == (tmp_path / "cli.tsv").read_bytes()

    # Part 3 interrupted after 5 positions: only it runs, and only its missing positions.
    part = tmp_path / "book.tsv.parts" / "part-0003-of-0004.tsv"
    kept = part.read_text().splitlines(keepends=True)
    os.remove(part)
    (tmp_path / "book.tsv.parts" / "part-0003-of-0004.tsv.partial").write_text(
        "".join(kept[:6]))
    out.unlink()
    resumed = qiyi.cluster.book("checkers", out, depth=2, parts=4, workers=2, qiyi_bin=binary)
    assert resumed["parts_run"] == [3] and resumed["parts_skipped"] == [1, 2, 4]
    assert resumed["searched"] == len(kept) - 6
    assert out.read_bytes() == (tmp_path / "cli.tsv").read_bytes()
    assert part.read_text().splitlines(keepends=True) == kept

    # Other options on the same parts folder: refused, nothing changed.
    with pytest.raises(qiyi.RuleError, match="another build"):
        qiyi.cluster.book("checkers", out, depth=3, parts=4, qiyi_bin=binary)
    with pytest.raises(qiyi.RuleError, match="another build"):
        qiyi.cluster.book("checkers", out, depth=2, parts=5, qiyi_bin=binary)
    assert out.read_bytes() == (tmp_path / "cli.tsv").read_bytes()


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(), qiyi.RuleError, "depth= or nodes="),
    (dict(movetime=100), qiyi.RuleError, "fixed budget"),
    (dict(depth=2, nodes=100), qiyi.RuleError, "not both"),
    (dict(depth=0), qiyi.RuleError, "depth must be"),
    (dict(depth=2, parts=0), qiyi.RuleError, "parts must be"),
    (dict(depth=2, workers=0), qiyi.RuleError, "workers must be"),
    (dict(depth=2, game="go"), qiyi.UnknownGameError, "unknown game"),
    (dict(depth=2, game="xiangqi"), qiyi.RuleError, "only the checkers"),
    (dict(depth=2, qiyi_bin="/nonexistent/qiyi"), FileNotFoundError, "qiyi book checkers"),
])
def test_bad_input_is_refused_before_anything_is_written(tmp_path, binary, kwargs, error,
                                                         match):
    kwargs = dict(kwargs)
    game = kwargs.pop("game", "checkers")
    kwargs.setdefault("qiyi_bin", binary)
    with pytest.raises(error, match=match):
        qiyi.cluster.book(game, tmp_path / "book.tsv", **kwargs)
    assert os.listdir(tmp_path) == []


def test_an_existing_file_not_of_this_build_is_refused(tmp_path, binary):
    out = tmp_path / "book.tsv"
    out.write_text("my notes\n")
    with pytest.raises(qiyi.RuleError, match="not written by this build"):
        qiyi.cluster.book("checkers", out, depth=2, qiyi_bin=binary)
    assert out.read_text() == "my notes\n"
    assert not (tmp_path / "book.tsv.parts").exists()


def test_without_ray_the_book_raises_import_error_and_writes_nothing(tmp_path, binary,
                                                                      monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ImportError, match="pip install ray"):
        qiyi.cluster.book("checkers", tmp_path / "book.tsv", depth=2, qiyi_bin=binary)
    assert os.listdir(tmp_path) == []
