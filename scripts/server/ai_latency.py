#!/usr/bin/env python3
"""What one AI move costs a player beyond its search: `POST /api/games/{id}/ai` round trips.

Starts `qiyi serve --port 0 --db :memory:`, creates one hot-seat game per kind asked (checkers and
Xiangqi by default), plays SKIP random legal moves into it (seeded), then asks for an AI move
(`play: false`, so the position stays) CALLS times, one after another, with a short budget. For
each kind it prints the round trip's median, p90 and max, the search time the server reports
(`time_ms`), and the server's resident memory (VmRSS) before and after. The round trip minus the
search time is what building the engine, the request and the answer cost.

    python3 scripts/server/ai_latency.py --qiyi target/release/qiyi --calls 200 --time-ms 20

Only the Python standard library.
"""

import argparse
import json
import random
import statistics
import subprocess
import time
import urllib.request


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def call(base, method, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read() or b"null")


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--qiyi", default="target/release/qiyi")
    ap.add_argument("--games", nargs="+", default=["checkers", "xiangqi"])
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--time-ms", type=int, default=20)
    ap.add_argument("--level", type=int, default=1)
    ap.add_argument("--skip", type=int, default=10, help="random moves played before asking")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.calls < 1 or a.time_ms < 1:
        ap.error("--calls and --time-ms must be at least 1")
    rng = random.Random(a.seed)
    server = subprocess.Popen([a.qiyi, "serve", "--port", "0", "--db", ":memory:"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()
        base = line.split("open ", 1)[1].split()[0].rstrip("/")
        print(f"server {base}, seed {a.seed}, {a.calls} calls of {a.time_ms} ms at level {a.level}")
        for game in a.games:
            g = call(base, "POST", "/api/games", {"game": game, "hotseat": True, "seed": a.seed})
            token = g["hotseat_token"]
            for _ in range(a.skip):
                st = call(base, "GET", f"/api/games/{g['id']}")
                if not st["legal"]:
                    break
                mv = rng.choice(st["legal"])["text"]
                call(base, "POST", f"/api/games/{g['id']}/moves", {"move": mv, "ply": st["ply"]},
                     token)
            before = rss_mib(server.pid)
            trips, searched = [], []
            for _ in range(a.calls):
                t0 = time.perf_counter()
                v = call(base, "POST", f"/api/games/{g['id']}/ai",
                         {"level": a.level, "time_ms": a.time_ms, "play": False}, token)
                trips.append((time.perf_counter() - t0) * 1000)
                searched.append(v["ai"].get("time_ms", 0))
            after = rss_mib(server.pid)
            print(f"{game}: round trip median {statistics.median(trips):.1f} ms, "
                  f"p90 {quantile(trips, 0.9):.1f}, max {max(trips):.1f}; search time_ms median "
                  f"{statistics.median(searched):.1f}; RSS {before:.1f} -> {after:.1f} MiB")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
