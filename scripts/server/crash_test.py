#!/usr/bin/env python3
"""Crash test of `qiyi serve`: SIGKILL the server at random moments while scripted clients play.

Clients play random legal moves in N games (Xiangqi, checkers, Chinese checkers and aeroplane
chess with dice) through the HTTP API, each move sent with the ply it was chosen at. A killer
thread SIGKILLs the server at random moments; the clients restart it on the same database and go
on. After every restart, and at the end, every game is checked:

  - every move the server acknowledged (answered 200) is in the stored record, in order;
  - the game replays to the same position: the record exported and imported into a fresh game
    gives the same position and history as the stored game.

A move whose answer was lost in the kill may or may not be stored (it is then acknowledged by
the record itself); nothing acknowledged may be missing.

    python3 scripts/server/crash_test.py --qiyi target/release/qiyi --games 50 --moves 1000

Only the Python standard library. Exit code 0 when nothing was lost, 1 otherwise.
"""

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

GAMES = [
    ("xiangqi", {}),
    ("checkers", {}),
    ("chinese-checkers", {"players": 2}),
    ("aeroplane", {"players": 2}),
]


class Server:
    """The qiyi server process on a fixed database (and, after the first start, a fixed port)."""

    def __init__(self, qiyi, db):
        self.qiyi = qiyi
        self.db = db
        self.port = 0
        self.proc = None
        self.lock = threading.Lock()
        self.starts = 0

    def start(self):
        with self.lock:
            args = [self.qiyi, "serve", "--db", self.db, "--port", str(self.port),
                    "--games-per-minute", "0", "--json", "--threads", "1"]
            self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit("the server did not start: " + self.proc.stderr.read())
            url = json.loads(line)["url"]
            self.port = int(url.rstrip("/").rsplit(":", 1)[1])
            self.url = url.rstrip("/")
            self.starts += 1

    def kill(self):
        with self.lock:
            if self.proc and self.proc.poll() is None:
                self.proc.send_signal(signal.SIGKILL)
                self.proc.wait()

    def stop(self):
        with self.lock:
            if self.proc and self.proc.poll() is None:
                self.proc.send_signal(signal.SIGTERM)
                self.proc.wait(timeout=20)


class Down(Exception):
    """The server is not answering (killed)."""


def request(server, method, path, body=None, token=None, raw=False):
    data = None
    headers = {}
    if body is not None:
        data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        headers["content-type"] = "application/json"
    if token:
        headers["authorization"] = "Bearer " + token
    req = urllib.request.Request(server.url + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            text = resp.read().decode()
            return resp.status, (text if raw else json.loads(text))
    except urllib.error.HTTPError as e:
        text = e.read().decode()
        try:
            return e.code, json.loads(text)
        except ValueError:
            return e.code, {"error": text}
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError) as e:
        raise Down(str(e)) from e


def check_game(server, game, failures):
    """Acknowledged moves stored in order, and the record replays to the same position."""
    status, state = request(server, "GET", f"/api/games/{game['id']}")
    if status != 200:
        failures.append(f"{game['id']}: GET answered {status}: {state}")
        return None
    stored = [h["text"] for h in state["history"]]
    acked = game["acked"]
    if stored[: len(acked)] != acked:
        failures.append(f"{game['id']} ({game['game']}): acknowledged {len(acked)} plies, stored record differs")
        return None
    status, record = request(server, "GET", f"/api/games/{game['id']}/export", raw=True)
    if status != 200:
        failures.append(f"{game['id']}: export answered {status}")
        return None
    status, imported = request(server, "POST", "/api/games/import", body=record)
    if status != 201:
        failures.append(f"{game['id']}: the export does not import: {imported}")
        return None
    # The imported copy was only for the check.
    request(server, "DELETE", f"/api/games/{imported['id']}", token=imported["hotseat_token"])
    if imported["state"]["position"] != state["position"] or \
            [h["text"] for h in imported["state"]["history"]] != stored:
        failures.append(f"{game['id']} ({game['game']}): the record does not replay to the stored position")
        return None
    # The stored record is the truth from here on (a move whose answer was lost may be in it).
    game["acked"] = stored
    game["state"] = state
    return state


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--qiyi", default="target/release/qiyi")
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--moves", type=int, default=1000, help="acknowledged moves to play in all")
    ap.add_argument("--kill-every", type=float, default=1.5, help="mean seconds between kills")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", help="database file (default: a new temporary one)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    db = args.db or os.path.join(tempfile.mkdtemp(prefix="qiyi-crash-"), "games.sqlite")
    print(f"crash test: {args.games} games, {args.moves} moves, a kill every ~{args.kill_every} s, "
          f"seed {args.seed}, db {db}", flush=True)
    server = Server(args.qiyi, db)
    server.start()
    games = []
    for i in range(args.games):
        name, rules = GAMES[i % len(GAMES)]
        status, v = request(server, "POST", "/api/games", body={
            "game": name, "rules": rules, "seed": args.seed * 1000 + i, "hotseat": True,
            "seats": [{"kind": "human"}, {"kind": "human"}]})
        if status != 201:
            raise SystemExit(f"cannot create {name}: {v}")
        games.append({"id": v["id"], "game": name, "token": v["hotseat_token"],
                      "state": v["state"], "acked": [h["text"] for h in v["state"]["history"]]})

    stop = threading.Event()
    kills = [0]

    def killer():
        krng = random.Random(args.seed + 7)
        while not stop.wait(krng.expovariate(1.0 / args.kill_every)):
            server.kill()
            kills[0] += 1

    checks = [0]

    def verify_all():
        # Restart on the same database and check every game against what was acknowledged (a
        # kill during the check restarts it).
        while True:
            try:
                for game in games:
                    check_game(server, game, failures)
                    checks[0] += 1
                return
            except Down:
                server.kill()
                server.start()

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    failures = []
    acked_moves = 0
    lost_answers = 0
    started = time.time()
    while acked_moves < args.moves:
        live = [g for g in games if g["state"]["legal"]]
        if not live:
            print("every game is over", flush=True)
            break
        g = rng.choice(live)
        move = rng.choice(g["state"]["legal"])["text"]
        try:
            status, v = request(server, "POST", f"/api/games/{g['id']}/moves",
                                body={"move": move, "ply": g["state"]["ply"]}, token=g["token"])
        except Down:
            lost_answers += 1
            # Restart on the same database and check every game against what was acknowledged.
            server.kill()
            server.start()
            verify_all()
            continue
        if status == 200:
            g["acked"] = [h["text"] for h in v["history"]]
            g["state"] = v
            acked_moves += 1
        elif status == 409:
            # The game moved on (a move whose answer was lost in a kill): resynchronise.
            try:
                _, g["state"] = request(server, "GET", f"/api/games/{g['id']}")
            except Down:
                server.kill()
                server.start()
                verify_all()
        else:
            failures.append(f"{g['id']}: move {move} answered {status}: {v}")
            break
    stop.set()
    thread.join()
    server.kill()
    server.start()
    verify_all()
    server.stop()
    elapsed = time.time() - started
    print(f"acknowledged moves: {acked_moves}; kills: {kills[0]}; server starts: {server.starts}; "
          f"requests cut by a kill: {lost_answers}; game checks: {checks[0]}; {elapsed:.1f} s", flush=True)
    if failures:
        for f in failures[:20]:
            print("LOST: " + f)
        print(f"FAILED: {len(failures)} problem(s)")
        sys.exit(1)
    print("ok: every acknowledged move survived every kill and every game replays to its position")


if __name__ == "__main__":
    main()
