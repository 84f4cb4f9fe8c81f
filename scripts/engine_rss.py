#!/usr/bin/env python3
"""Resident memory of the long-running engine protocols at a given Hash (issue #59).

Starts `qiyi uci`, `qiyi ucci` (Xiangqi) or `qiyi hub` (checkers), sets the table size with the
protocol's own option (`setoption name Hash value N`, `setoption hash N`, `set-param name=hash
value=N`), runs a few searches from the start position and prints the process's VmRSS
(/proc/PID/status) after start, after the option and after each search, in MiB.

    python3 scripts/engine_rss.py --qiyi target/release/qiyi --protocol uci --hash 16 128
"""

import argparse
import subprocess
import sys
import time


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix, timeout=120):
        end = time.time() + timeout
        while time.time() < end:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"engine ended before {prefix!r}")
            if line.startswith(prefix):
                return line.strip()
        raise RuntimeError(f"no {prefix!r} within {timeout} s")

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=10)
        except Exception:
            self.p.kill()


def run(qiyi, protocol, hash_mib, searches, movetime_ms):
    e = Engine([qiyi, protocol])
    series = []
    try:
        if protocol == "uci":
            e.send("uci")
            e.until("uciok")
            series.append(("start", rss_mib(e.p.pid)))
            e.send(f"setoption name Hash value {hash_mib}")
            e.send("isready")
            e.until("readyok")
        elif protocol == "ucci":
            e.send("ucci")
            e.until("ucciok")
            series.append(("start", rss_mib(e.p.pid)))
            e.send(f"setoption hash {hash_mib}")
            e.send("isready")
            e.until("readyok")
        else:
            e.send("hub")
            e.until("wait")
            series.append(("start", rss_mib(e.p.pid)))
            e.send(f"set-param name=hash value={hash_mib}")
            e.send("init")
            e.until("ready")
        series.append(("hash set", rss_mib(e.p.pid)))
        for i in range(searches):
            if protocol == "hub":
                e.send("new-game")
                e.send(f"level move-time={movetime_ms / 1000.0}")
                e.send("go think")
                e.until("done")
            else:
                e.send("position startpos")
                e.send(f"go movetime {movetime_ms}")
                e.until("bestmove")
            series.append((f"search {i + 1}", rss_mib(e.p.pid)))
    finally:
        e.close()
    return series


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--qiyi", required=True)
    ap.add_argument("--protocol", choices=["uci", "ucci", "hub"], required=True)
    ap.add_argument("--hash", type=int, nargs="+", default=[16, 128])
    ap.add_argument("--searches", type=int, default=4)
    ap.add_argument("--movetime", type=int, default=1000, help="ms per search")
    a = ap.parse_args()
    for h in a.hash:
        s = run(a.qiyi, a.protocol, h, a.searches, a.movetime)
        print(f"{a.protocol} Hash {h}: " + ", ".join(f"{k} {v:.1f}" for k, v in s) + " MiB")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
