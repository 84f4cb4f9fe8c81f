"""The checkers opening book on 1 and 2 Ray workers against the CLI on one machine (issue 49,
item 5).

    QIYI_BIN=target/release/qiyi python crates/python/benchmarks/book_speed.py --depth 12 \\
        [--parts 16] [--nodes N]

Runs ``qiyi --threads 1 book checkers --depth D --out DIR/cli.tsv`` (timed as a whole
process), then ``qiyi.cluster.book("checkers", ..., parts=PARTS)`` on a local Ray with 2 CPUs
with ``workers=1`` and ``workers=2`` (each into a new folder, so every part is searched),
checks that the three files are byte for byte the same, and prints the wall times and the
machine's load average.
"""

import argparse
import os
import subprocess
import tempfile
import time

import ray

import qiyi.cluster


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--depth", type=int, default=None)
    ap.add_argument("--nodes", type=int, default=None)
    ap.add_argument("--parts", type=int, default=16)
    a = ap.parse_args()
    if (a.depth is None) == (a.nodes is None):
        ap.error("give --depth or --nodes")
    binary = os.environ.get("QIYI_BIN")
    if not binary:
        ap.error("set QIYI_BIN to the qiyi binary")
    budget = ["--depth", str(a.depth)] if a.depth else ["--nodes", str(a.nodes)]
    kw = {"depth": a.depth} if a.depth else {"nodes": a.nodes}
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    with tempfile.TemporaryDirectory() as tmp:
        # Warm both workers on a tiny book.
        qiyi.cluster.book("checkers", os.path.join(tmp, "warm.tsv"), depth=1, parts=4,
                          workers=2, qiyi_bin=binary)
        cli = os.path.join(tmp, "cli.tsv")
        print(f"load average before: {os.getloadavg()}")
        t0 = time.perf_counter()
        subprocess.run([binary, "--threads", "1", "book", "checkers", *budget, "--out", cli],
                       check=True, capture_output=True)
        cli_s = time.perf_counter() - t0
        with open(cli, "rb") as f:
            expected = f.read()
        positions = expected.count(b"\n") - 1
        print(f"CLI, one machine, 1 thread: {positions} positions in {cli_s:.1f} s")
        for w in (1, 2):
            out = os.path.join(tmp, f"ray{w}.tsv")
            r = qiyi.cluster.book("checkers", out, parts=a.parts, workers=w, qiyi_bin=binary,
                                  **kw)
            with open(out, "rb") as f:
                assert f.read() == expected, f"workers={w}: not the CLI's book"
            print(f"Ray, {w} worker(s), {a.parts} parts: {r['positions']} positions in "
                  f"{r['seconds']:.1f} s ({cli_s / r['seconds']:.2f}x the CLI), same bytes")
        print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
