#!/usr/bin/env python3
"""Load benchmark of `qiyi serve`: many games, two live watchers each, random human moves.

Creates GAMES Xiangqi games played by links (two human seats, or one human and one AI seat with
--ai), opens WATCHERS event streams per game (Server-Sent Events, as the page does), and sends
random legal moves through the API from CLIENTS concurrent clients. For every move it measures the
time from sending the POST to each watcher receiving that move's event, and reports p50/p90/p99/
max of those latencies, the move POST round trips, and the server's resident memory (VmRSS) before
and after.

    python3 scripts/server/load_bench.py --qiyi target/release/qiyi --games 200 --watchers 2 --moves 4000

With --reviews N, N game reviews are kept running in the background the whole time (the server is
started with --review-slots N): Xiangqi records (--review-record) are imported and reviewed one
after another at --review-depth, so the move figures show what a player feels while others'
games are being reviewed; the reviews finished during the run are counted.

Only the Python standard library (asyncio streams; the client's own time is in the figures).
"""

import argparse
import asyncio
import json
import os
import random
import subprocess
import tempfile
import time


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


async def http(host, port, method, path, body=None, token=None, raw_body=None):
    reader, writer = await asyncio.open_connection(host, port)
    if raw_body is not None:
        data = raw_body.encode()
    else:
        data = b"" if body is None else json.dumps(body).encode()
    head = f"{method} {path} HTTP/1.1\r\nhost: {host}\r\ncontent-length: {len(data)}\r\n" \
           f"content-type: application/json\r\nconnection: close\r\n"
    if token:
        head += f"authorization: Bearer {token}\r\n"
    writer.write(head.encode() + b"\r\n" + data)
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, payload = raw.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    if b"transfer-encoding: chunked" in head.lower():
        out = b""
        rest = payload
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line, 16)
            if size == 0:
                break
            out += rest[:size]
            rest = rest[size + 2:]
        payload = out
    return status, json.loads(payload) if payload else None


class Watcher:
    """One live page: reads a game's event stream and stamps each move event's arrival."""

    def __init__(self, game_id, sent, latencies):
        self.game_id = game_id
        self.sent = sent          # (game id, ply) -> send time
        self.latencies = latencies
        self.ready = asyncio.Event()

    async def run(self, host, port):
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(f"GET /api/games/{self.game_id}/events HTTP/1.1\r\nhost: {host}\r\n"
                     f"accept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        event = None
        while True:
            line = await reader.readline()
            if not line:
                return
            line = line.decode(errors="replace").strip()
            if line.startswith("event:"):
                event = line[6:].strip()
                if event == "state":
                    self.ready.set()
            elif line.startswith("id:") and event == "move":
                ply = int(line[3:].strip())
                t = self.sent.get((self.game_id, ply))
                if t is not None:
                    self.latencies.append(time.perf_counter() - t)


def pct(xs, p):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


async def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--qiyi", default="target/release/qiyi")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--watchers", type=int, default=2, help="live connections per game")
    ap.add_argument("--moves", type=int, default=4000)
    ap.add_argument("--clients", type=int, default=20, help="concurrent move senders")
    ap.add_argument("--ai", action="store_true", help="second seat an AI (level 1) moved by the server")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reviews", type=int, default=0, help="game reviews kept running meanwhile")
    ap.add_argument("--review-depth", type=int, default=12, help="the reviews' search depth")
    ap.add_argument("--review-record", default="crates/xiangqi/tests/data/review-game.pgn",
                    help="the Xiangqi record imported and reviewed again and again")
    args = ap.parse_args()
    if args.reviews < 0 or args.review_depth < 1:
        ap.error("--reviews must be >= 0 and --review-depth >= 1")
    record = open(args.review_record, encoding="utf-8").read() if args.reviews else None
    rng = random.Random(args.seed)
    db = os.path.join(tempfile.mkdtemp(prefix="qiyi-load-"), "games.sqlite")
    proc = subprocess.Popen([args.qiyi, "serve", "--db", db, "--port", "0", "--json",
                             "--games-per-minute", "0", "--max-live", "100000",
                             "--review-slots", str(max(1, args.reviews))],
                            stdout=subprocess.PIPE, text=True)
    url = json.loads(proc.stdout.readline())["url"]
    host, port = url.split("//")[1].rstrip("/").split(":")
    port = int(port)
    print(f"load benchmark: {args.games} games, {args.games * args.watchers} live connections, "
          f"{args.moves} moves from {args.clients} clients, AI seats: {args.ai}, seed {args.seed}, "
          f"reviews running meanwhile: {args.reviews} (depth {args.review_depth})")
    rss0 = rss_kib(proc.pid)
    games = []
    second = {"kind": "ai", "level": 1} if args.ai else {"kind": "human"}
    for i in range(args.games):
        status, v = await http(host, port, "POST", "/api/games", {
            "game": "xiangqi", "seed": i, "seats": [{"kind": "human"}, second]})
        assert status == 201, v
        games.append({"id": v["id"], "tokens": v["seat_tokens"], "busy": False})
    sent = {}
    latencies = []
    watchers = [Watcher(g["id"], sent, latencies) for g in games for _ in range(args.watchers)]
    tasks = [asyncio.create_task(w.run(host, port)) for w in watchers]
    await asyncio.wait_for(asyncio.gather(*(w.ready.wait() for w in watchers)), 60)
    rss_open = rss_kib(proc.pid)
    posts = []
    done = [0]
    errors = [0]
    finished = set()

    async def client(k):
        crng = random.Random(args.seed * 100 + k)
        # With AI seats the games end (random moves lose quickly): stop when none is left.
        while done[0] < args.moves and len(finished) < len(games):
            g = crng.choice(games)
            if g["busy"] or g["id"] in finished:
                await asyncio.sleep(0)
                continue
            g["busy"] = True
            try:
                status, st = await http(host, port, "GET", f"/api/games/{g['id']}")
                if status == 200 and st.get("result") is not None:
                    finished.add(g["id"])
                    continue
                if status != 200 or not st["legal"] or st["turn"]["kind"] != "player":
                    continue
                p = st["turn"]["player"]
                token = g["tokens"][p]
                if token is None:
                    continue  # the AI's turn: the server moves it
                mv = crng.choice(st["legal"])["text"]
                ply = st["ply"]
                t0 = time.perf_counter()
                sent[(g["id"], ply + 1)] = t0
                status, _ = await http(host, port, "POST", f"/api/games/{g['id']}/moves",
                                       {"move": mv, "ply": ply}, token)
                posts.append(time.perf_counter() - t0)
                if status == 200:
                    done[0] += 1
                else:
                    errors[0] += 1
            finally:
                g["busy"] = False

    reviews_done = [0]
    reviews_seen_running = [0]
    stop_reviews = asyncio.Event()

    async def reviewer(k):
        """Keeps one review running: import the record, start its review, wait for it, again."""
        while not stop_reviews.is_set():
            status, v = await http(host, port, "POST", "/api/games/import", raw_body=record)
            assert status == 201, (status, v)
            gid = v["id"]
            status, v = await http(host, port, "POST", f"/api/games/{gid}/review",
                                   {"depth": args.review_depth})
            assert status in (200, 202), (status, v)
            while not stop_reviews.is_set():
                status, v = await http(host, port, "GET", f"/api/games/{gid}/review")
                assert status == 200, (status, v)
                if v["status"] == "running":
                    reviews_seen_running[0] += 1
                if v["status"] == "done":
                    reviews_done[0] += 1
                    break
                if v["status"] not in ("queued", "running"):
                    raise RuntimeError(f"review of {gid}: {v}")
                try:
                    await asyncio.wait_for(stop_reviews.wait(), 0.5)
                except asyncio.TimeoutError:
                    pass
            if stop_reviews.is_set():
                await http(host, port, "DELETE", f"/api/games/{gid}/review")

    review_tasks = [asyncio.create_task(reviewer(k)) for k in range(args.reviews)]
    if args.reviews:
        await asyncio.sleep(2.0)  # the reviews are under way before the first move
    t_start = time.perf_counter()
    await asyncio.gather(*(client(k) for k in range(args.clients)))
    elapsed = time.perf_counter() - t_start
    stop_reviews.set()
    for r in review_tasks:
        await r
    await asyncio.sleep(1.0)
    rss_end = rss_kib(proc.pid)
    for t in tasks:
        t.cancel()
    proc.terminate()
    proc.wait(timeout=30)
    ms = lambda x: f"{x * 1000:.1f}"
    expected = done[0] * args.watchers
    print(f"moves: {done[0]} in {elapsed:.1f} s ({done[0] / elapsed:.0f}/s), refused: {errors[0]}, "
          f"games finished: {len(finished)} of {len(games)}")
    print(f"POST round trip ms: p50 {ms(pct(posts, 50))} p99 {ms(pct(posts, 99))}")
    print(f"POST to watcher ms ({len(latencies)} deliveries of {expected} expected): "
          f"p50 {ms(pct(latencies, 50))} p90 {ms(pct(latencies, 90))} p99 {ms(pct(latencies, 99))} "
          f"max {ms(max(latencies) if latencies else float('nan'))}")
    if args.reviews:
        print(f"reviews: {args.reviews} kept running at depth {args.review_depth}; "
              f"{reviews_done[0]} finished during the run, seen running in {reviews_seen_running[0]} polls")
    print(f"server RSS: {rss0 / 1024:.1f} MiB at start, {rss_open / 1024:.1f} MiB with the games and "
          f"streams open, {rss_end / 1024:.1f} MiB at the end")


if __name__ == "__main__":
    asyncio.run(main())
