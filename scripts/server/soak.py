#!/usr/bin/env python3
"""Soak test of `qiyi serve`: many simulated players for N minutes, every answer checked.

    python3 scripts/server/soak.py --qiyi target/release/qiyi --minutes 60 --players 16
    python3 scripts/server/soak.py --url http://127.0.0.1:8080 --pid 1234 --minutes 10

With --qiyi the script starts the server itself (a fresh database in a temporary folder, a free
port, no limit on games created per minute) and stops it at the end; with --url it drives a server
already running (give --pid to sample its memory and open files).

    python3 scripts/server/soak.py --qiyi target/release/qiyi --minutes 30 --players 16 --kill-every 5

With --kill-every MINUTES (needs --qiyi) the server is SIGKILLed every so many minutes and started
again on the same database and port. The players see their connections refused or reset, wait for
the server to come back, re-read their game and carry on. A request cut by a kill (started before
the kill or while the server was down, failing with a refused or reset connection) is expected: it
is counted by kind under "kill_window_errors", not as an unexpected answer; a connection error
outside a kill window is unexpected. Every time a player reads a game it checks that every move
the server acknowledged in it is still in its history (a lost acknowledged move is counted once,
when first seen missing), so a move lost in a kill cannot be hidden by the moves played after it.

Each player thread loops over random actions on the games it holds (at most --games-per-player;
the oldest is deleted past that):
  - creates games of every kind (Xiangqi, checkers, Chinese checkers for 2-6, peg solitaire,
    aeroplane chess, tic-tac-toe, nim), hot-seat or played by links against the server's AI;
  - plays random legal moves (sent with the ply they were chosen at), asks the AI for hints and
    moves, takes moves back, resigns, offers draws, solves peg solitaire;
  - opens the live event stream, reads a little and drops the connection mid-stream;
  - starts game reviews and sometimes cancels them;
  - exports records and imports them again (the import must replay: 201);
  - mixes in bad requests (broken JSON, unknown game, illegal move, no token, wrong token, unknown
    endpoint, stale ply), each of which must get its own 4xx.

Every answer is checked: its status is one the action allows (no 5xx but the documented 503
refusals, counted apart), every error is JSON `{"error", "code"}`. Every move the server
acknowledged (200) must still be in the game's history at the end, unless it was taken back
("acknowledged moves lost", must be 0). The server's resident memory and open files are sampled
every 10 s.

Printed at the end: requests, p50/p99 latency (overall and per action), unexpected answers, 503s,
RSS and open files at start, after 5 minutes and at the end, acknowledged moves lost; with
--kill-every also the restarts done and RSS and open files at the start and end of each server
process (sampled per process: a restarted server starts from an empty cache). Exit code 0 when
there was no unexpected answer (no 5xx but the documented 503) and no lost move, 1 otherwise.
Only the standard library.
"""

import argparse
import http.client
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
from collections import defaultdict

KINDS = [
    ("xiangqi", {}),
    ("checkers", {}),
    ("chinese-checkers", {"players": 2}),
    ("chinese-checkers", {"players": 3}),
    ("chinese-checkers", {"players": 6}),
    ("peg-solitaire", {"board": "english"}),
    ("peg-solitaire", {"board": "triangle"}),
    ("aeroplane", {"players": 2}),
    ("aeroplane", {"players": 4}),
    ("tictactoe", {}),
    ("nim", {}),
]
RECORD_GAMES = {"xiangqi", "checkers", "chinese-checkers", "peg-solitaire", "aeroplane"}
REVIEW_DEPTH = {"xiangqi": 3, "checkers": 4}
SAMPLE_EVERY = 10.0
# The kind of game the calling player thread is acting on (named in unexpected answers).
CURRENT = threading.local()


class Stats:
    """Latencies, counts and unexpected answers, shared by every player."""

    def __init__(self):
        self.lock = threading.Lock()
        self.latency = defaultdict(list)  # action -> [ms]
        self.unexpected = []  # (action, method, path, status, body)
        self.refused = defaultdict(int)  # status 503/429 per action
        self.statuses = defaultdict(int)
        self.lost = []  # (game, ply, acknowledged move, what the history holds there)
        self.kill_window = defaultdict(int)  # kind of connection error -> count
        self.rereads = 0  # games read again after a dropped connection
        self.acked_total = 0  # moves the server acknowledged (200)

    def record(self, action, ms, status):
        with self.lock:
            self.latency[action].append(ms)
            self.statuses[status] += 1

    def bad(self, action, method, path, status, body):
        with self.lock:
            self.unexpected.append((action, method, path, status, str(body)[:300],
                                    getattr(CURRENT, "kind", None)))


class Server:
    """The qiyi server started by --qiyi: one database, and after the first start one port.

    `generation` counts the kills; `up` is clear from just before a kill until the restarted
    server answers. A request that saw the generation change, or started while the server was
    down, was in a kill window."""

    def __init__(self, qiyi, db, threads, log, memory=None):
        self.qiyi = qiyi
        self.memory = memory
        self.db = db
        self.threads = threads
        self.log = log
        self.port = 0
        self.proc = None
        self.base = None
        self.lock = threading.Lock()
        self.generation = 0
        self.up = threading.Event()
        self.processes = []  # per server process: pid, when started/ended, first/last sample

    def start(self, t0):
        for attempt in range(50):
            err = open(self.log, "a")
            cmd = [self.qiyi, "serve", "--db", self.db, "--port", str(self.port),
                   "--games-per-minute", "0", "--threads", str(self.threads), "--json"]
            if self.memory:
                cmd += ["--memory", str(self.memory)]
            proc = subprocess.Popen(
                cmd,
                stdout=subprocess.PIPE, stderr=err, text=True)
            err.close()
            line = proc.stdout.readline()
            if line:
                break
            proc.wait()  # the port may still be held a moment after a kill: try again
            time.sleep(0.2)
        else:
            raise SystemExit(f"the server did not start (see {self.log})")
        url = json.loads(line)["url"].rstrip("/")
        self.port = int(url.rsplit(":", 1)[1])
        self.base = url
        self.proc = proc
        self.processes.append({"pid": proc.pid, "started_s": round(time.monotonic() - t0, 1),
                               "start": None, "end": None, "samples": 0})
        self.up.set()

    def sample(self, t0):
        """Samples the running process (RSS, open files) into its record."""
        with self.lock:
            if not self.proc or not self.processes:
                return None
            rss, fds = sample(self.proc.pid)
            if rss is None:
                return None
            rec = self.processes[-1]
            s = (round(time.monotonic() - t0, 1), rss, fds)
            if rec["start"] is None:
                rec["start"] = s
            rec["end"] = s
            rec["samples"] += 1
            return s

    def kill_and_restart(self, t0):
        """SIGKILL, then start again on the same database and port; seconds the server was down."""
        self.sample(t0)  # the process's last figures
        with self.lock:
            self.up.clear()
            self.generation += 1
            down = time.monotonic()
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
            self.processes[-1]["ended_s"] = round(time.monotonic() - t0, 1)
            self.processes[-1]["end_reason"] = "SIGKILL"
            self.start(t0)
            took = time.monotonic() - down
        self.sample(t0)  # the new process's first figures
        return took

    def stop(self):
        with self.lock:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            return self.proc.returncode


def conn_kind(e):
    """A short name for a connection error: refused, reset, timeout, ..."""
    if isinstance(e, urllib.error.URLError) and not isinstance(e, urllib.error.HTTPError):
        e = e.reason if isinstance(e.reason, BaseException) else e
    if isinstance(e, ConnectionRefusedError):
        return "refused"
    if isinstance(e, http.client.RemoteDisconnected):
        return "closed without an answer"
    if isinstance(e, (ConnectionResetError, BrokenPipeError, ConnectionAbortedError)):
        return "reset"
    if isinstance(e, http.client.IncompleteRead):
        return "answer cut short"
    if isinstance(e, TimeoutError):
        return "timeout"
    return type(e).__name__


class Api:
    """One HTTP request at a time, checked."""

    def __init__(self, base, stats, stop, server=None):
        self._base = base.rstrip("/") if base else None
        self.stats = stats
        self.stop = stop
        self.server = server

    @property
    def base(self):
        return self.server.base if self.server else self._base

    def window(self):
        """The server's generation and whether it is up, when a request starts."""
        if not self.server:
            return 0, True
        return self.server.generation, self.server.up.is_set()

    def dropped(self, action, method, path, e, started):
        """A connection error: expected in a kill window (counted by kind; waits for the server
        to come back), unexpected otherwise."""
        gen, was_up = started
        if self.server and (not was_up or self.server.generation != gen or not self.server.up.is_set()):
            with self.stats.lock:
                self.stats.kill_window[conn_kind(e)] += 1
            self.server.up.wait(timeout=120)
            return
        if not self.stop.is_set():
            self.stats.bad(action, method, path, "connection", f"{conn_kind(e)}: {e}")

    def call(self, action, method, path, body=None, token=None, ok=(200,), raw=None, timeout=60):
        """Sends a request; returns (status, parsed JSON or text). An answer whose status is not in
        `ok` (503 and 429 are counted as refusals) or whose error is not `{error, code}` is
        recorded as unexpected."""
        data = None
        headers = {}
        if raw is not None:
            data = raw if isinstance(raw, bytes) else raw.encode()
            headers["Content-Type"] = "text/plain"
        elif body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = "Bearer " + token
        started = self.window()
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        start = time.monotonic()
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                status, text = resp.status, resp.read().decode("utf-8", "replace")
                ctype = resp.headers.get("Content-Type", "")
        except urllib.error.HTTPError as e:
            try:
                status, text = e.code, e.read().decode("utf-8", "replace")
            except (OSError, http.client.HTTPException) as e2:
                self.stats.record(action, (time.monotonic() - start) * 1000, "conn")
                self.dropped(action, method, path, e2, started)
                return None, None
            ctype = e.headers.get("Content-Type", "") if e.headers else ""
        except (urllib.error.URLError, OSError, http.client.HTTPException) as e:
            ms = (time.monotonic() - start) * 1000
            self.stats.record(action, ms, "conn")
            self.dropped(action, method, path, e, started)
            return None, None
        ms = (time.monotonic() - start) * 1000
        self.stats.record(action, ms, status)
        parsed = text
        if ctype.startswith("application/json"):
            try:
                parsed = json.loads(text)
            except ValueError:
                self.stats.bad(action, method, path, status, "answer is not JSON: " + text[:100])
        if status >= 400:
            shape = isinstance(parsed, dict) and isinstance(parsed.get("error"), str) \
                and isinstance(parsed.get("code"), str)
            if not shape:
                self.stats.bad(action, method, path, status, "error without {error, code}: " + text[:200])
        if status in ok:
            return status, parsed
        if status in (503, 429):
            with self.stats.lock:
                self.stats.refused[(action, status)] += 1
            return status, parsed
        self.stats.bad(action, method, path, status, parsed)
        return status, parsed

    def stream(self, path, seconds):
        """Opens the live event stream, reads for up to `seconds`, drops the connection."""
        started = self.window()
        start = time.monotonic()
        req = urllib.request.Request(self.base + path)
        try:
            resp = urllib.request.urlopen(req, timeout=seconds + 5)
        except urllib.error.HTTPError as e:
            self.stats.record("events", (time.monotonic() - start) * 1000, e.code)
            if e.code not in (503, 404):  # 404: the game was deleted by its owner meanwhile
                self.stats.bad("events", "GET", path, e.code, e.read()[:200])
            return 0
        except (urllib.error.URLError, OSError, http.client.HTTPException) as e:
            self.stats.record("events", (time.monotonic() - start) * 1000, "conn")
            self.dropped("events", "GET", path, e, started)
            return 0
        self.stats.record("events", (time.monotonic() - start) * 1000, resp.status)
        got = 0
        deadline = time.monotonic() + seconds
        try:
            resp.fp.raw._sock.settimeout(0.5)  # noqa: SLF001 - read in slices to stop on time
        except AttributeError:
            pass
        while time.monotonic() < deadline and not self.stop.is_set():
            try:
                chunk = resp.read1(4096)
            except TimeoutError:
                continue
            except (OSError, http.client.HTTPException):
                break  # the server went away mid-stream (a kill): the stream just ends
            if not chunk:
                break
            got += len(chunk)
        resp.close()  # dropped mid-stream
        return got


class Game:
    """A game a player holds: id, kind, token, seat(s), and the moves the server acknowledged."""

    def __init__(self, gid, kind, token, seats, hotseat):
        self.id = gid
        self.kind = kind
        self.token = token
        self.seats = seats  # the seats this token moves
        self.hotseat = hotseat
        self.acked = {}  # ply -> move text acknowledged by a 200
        # The last acknowledged ply when an undo's answer was lost in a kill: that undo may have
        # been applied, taking back the moves from that ply on (and nothing before it).
        self.undo_unknown_from = None


def verify(g, st, stats):
    """Every move acknowledged in `g` is in the history `st` holds: returns the ones that are not
    (and forgets them, so each is counted once)."""
    history = {h["ply"]: h["text"] for h in st["history"]}
    lost = []
    for ply, mv in sorted(g.acked.items()):
        if history.get(ply) == mv:
            continue
        if g.undo_unknown_from is not None and ply >= g.undo_unknown_from and ply > st["ply"]:
            continue  # taken back by the undo whose answer was lost
        lost.append((g.id, ply, mv, history.get(ply)))
    g.undo_unknown_from = None
    # What is in the history now is the truth from here on (a taken-back move is forgotten).
    g.acked = {p: m for p, m in g.acked.items() if history.get(p) == m}
    if lost:
        with stats.lock:
            stats.lost.extend(lost)
    return lost


def player(api, rng, stats, stop, max_games):
    games = []

    def create():
        kind, rules = rng.choice(KINDS)
        hotseat = rng.random() < 0.5
        body = {"game": kind, "rules": rules, "seed": rng.randrange(1 << 32), "level": 1}
        if not hotseat:
            body["seats"] = None  # default: player 0 human, the others the server's AI at `level`
        else:
            body["hotseat"] = True
        if kind in ("xiangqi", "checkers") and rng.random() < 0.2:
            body["clock"] = {"base_ms": 600000, "increment_ms": 1000}
        status, v = api.call("create", "POST", "/api/games", body, ok=(201,))
        if status != 201:
            return
        if hotseat:
            g = Game(v["id"], kind, v["hotseat_token"], None, True)
        else:
            g = Game(v["id"], kind, v["seat_tokens"][0], {0}, False)
        games.append(g)
        if len(games) > max_games:
            old = games.pop(0)
            api.call("delete", "DELETE", f"/api/games/{old.id}", token=old.token)

    def state_of(g):
        status, v = api.call("get", "GET", f"/api/games/{g.id}")
        if status != 200:
            return None
        verify(g, v, stats)
        return v

    def mine(g, st):
        turn = st["turn"]
        return turn["kind"] == "player" and (g.seats is None or turn["player"] in g.seats) \
            and st["thinking"] is None

    def move(g):
        st = state_of(g)
        if st is None or not st["legal"] or not mine(g, st):
            return
        mv = rng.choice(st["legal"])["text"]
        status, v = api.call("move", "POST", f"/api/games/{g.id}/moves",
                             {"move": mv, "ply": st["ply"]}, token=g.token, ok=(200, 409))
        if status == 200:
            g.acked[st["ply"] + 1] = mv
            with stats.lock:
                stats.acked_total += 1

    def ai(g):
        st = state_of(g)
        if st is None or not mine(g, st):
            return
        play = rng.random() < 0.5
        status, v = api.call("ai", "POST", f"/api/games/{g.id}/ai",
                             {"level": rng.randint(1, 2), "time_ms": rng.choice([20, 50, 100]), "play": play},
                             token=g.token, ok=(200, 409))
        if status == 200 and play and v["played"]:
            g.acked[st["ply"] + 1] = v["ai"]["move"]
            with stats.lock:
                stats.acked_total += 1

    def undo(g):
        status, v = api.call("undo", "POST", f"/api/games/{g.id}/undo", {"plies": 1},
                             token=g.token, ok=(200, 409))
        if status == 200:
            g.acked = {p: m for p, m in g.acked.items() if p <= v["ply"]}
        elif status is None and g.acked:
            g.undo_unknown_from = max(g.acked)

    def resign(g):
        api.call("resign", "POST", f"/api/games/{g.id}/resign", {}, token=g.token, ok=(200, 409, 400))

    def draw(g):
        api.call("draw", "POST", f"/api/games/{g.id}/draw", {"action": "offer"}, token=g.token,
                 ok=(200, 409, 400))

    def events(g):
        api.stream(f"/api/games/{g.id}/events?after=0", rng.uniform(0.2, 2.0))

    def review(g):
        depth = REVIEW_DEPTH.get(g.kind)
        body = {"depth": depth} if depth else {}
        # 400: a game without a judge (Chinese checkers, the toys); 409: no move yet.
        status, v = api.call("review", "POST", f"/api/games/{g.id}/review", body,
                             ok=(200, 202, 400, 409))
        if status == 202 and rng.random() < 0.4:
            api.call("review-cancel", "DELETE", f"/api/games/{g.id}/review", ok=(200, 409))
        else:
            api.call("review-get", "GET", f"/api/games/{g.id}/review")

    def export_import(g):
        status, text = api.call("export", "GET", f"/api/games/{g.id}/export")
        if status != 200 or g.kind not in RECORD_GAMES:
            return
        raw = text if isinstance(text, str) else json.dumps(text)
        status, v = api.call("import", "POST", "/api/games/import", raw=raw, ok=(201,))
        if status == 201:
            api.call("delete", "DELETE", f"/api/games/{v['id']}", token=v["hotseat_token"])

    def solve(g):
        if g.kind == "peg-solitaire":
            api.call("solve", "POST", f"/api/games/{g.id}/solve", {"time_ms": 200}, token=g.token,
                     ok=(200, 409))

    def bad(g):
        gid = g.id
        case = rng.randrange(8)
        if case == 0:
            api.call("bad", "POST", "/api/games", raw='{"game": "xiangqi",', ok=(400,))
        elif case == 1:
            api.call("bad", "POST", "/api/games", {"game": "go"}, ok=(400,))
        elif case == 2:
            api.call("bad", "POST", f"/api/games/{gid}/moves", {"move": "zz99"}, token=g.token,
                     ok=(403, 409, 422))
        elif case == 3:
            # No token at all: 401 `unauthorized` (a token that is not the game's is case 4's 403).
            status, v = api.call("bad", "POST", f"/api/games/{gid}/moves", {"move": "a0a1"},
                                 ok=(401,))
            if status == 401 and not (isinstance(v, dict) and v.get("code") == "unauthorized"):
                api.stats.bad("bad", "POST", f"/api/games/{gid}/moves", status,
                              "a request without a token is not `unauthorized`: " + str(v)[:200])
        elif case == 4:
            api.call("bad", "POST", f"/api/games/{gid}/undo", {}, token="0" * 32, ok=(403,))
        elif case == 5:
            api.call("bad", "GET", "/api/nothing-here", ok=(404,))
        elif case == 6:
            api.call("bad", "POST", f"/api/games/{gid}/moves", {"move": "a0a1", "ply": 1 << 40},
                     token=g.token, ok=(403, 409))
        else:
            api.call("bad", "GET", f"/api/games/{'f' * 32}", ok=(404,))

    actions = [(move, 40), (ai, 8), (undo, 4), (resign, 2), (draw, 2), (events, 6), (review, 3),
               (export_import, 4), (solve, 2), (bad, 8)]
    funcs = [a for a, _ in actions]
    weights = [w for _, w in actions]
    while not stop.is_set():
        if not games or rng.random() < 0.05:
            CURRENT.kind = None
            create()
            continue
        g = rng.choice(games)
        CURRENT.kind = g.kind
        gen = api.server.generation if api.server else 0
        rng.choices(funcs, weights)[0](g)
        if api.server and api.server.generation != gen and not stop.is_set():
            # The server was killed under this action: read the game again (checking what it
            # acknowledged) before going on.
            api.server.up.wait(timeout=120)
            if state_of(g) is not None:
                with stats.lock:
                    stats.rereads += 1
    return games


def sample(pid):
    """(RSS in KiB, open files) of the process, or (None, None)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        fds = len(os.listdir(f"/proc/{pid}/fd"))
        return rss, fds
    except (OSError, StopIteration, ValueError):
        return None, None


def pct(xs, p):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


def check_lost(api, all_games, stats):
    """Every acknowledged move still in its game's history (games deleted by their owner aside);
    adds the lost ones to stats.lost."""
    checked = 0
    for g in all_games:
        checked += len(g.acked)
        status, st = api.call("final", "GET", f"/api/games/{g.id}", ok=(200, 404))
        if status != 200:
            continue
        verify(g, st, stats)
    return checked


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--qiyi", help="start this qiyi binary (fresh database, free port)")
    ap.add_argument("--url", help="drive a server already running at this URL")
    ap.add_argument("--pid", type=int, help="the running server's process id (for RSS and open files)")
    ap.add_argument("--minutes", type=float, default=60.0)
    ap.add_argument("--players", type=int, default=16)
    ap.add_argument("--games-per-player", type=int, default=6)
    ap.add_argument("--threads", type=int, default=2, help="--threads of the server started by --qiyi")
    ap.add_argument("--kill-every", type=float, default=0.0, metavar="MINUTES",
                    help="SIGKILL the server every so many minutes and restart it on the same "
                         "database and port (with --qiyi; 0: never)")
    ap.add_argument("--memory", type=int, metavar="MIB",
                    help="start the server with this memory budget (qiyi serve --memory; with --qiyi)")
    ap.add_argument("--max-rss-mib", type=int, metavar="MIB",
                    help="fail when any RSS sample passes this many MiB (give the server's budget)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="also write the figures to this JSON file")
    args = ap.parse_args()
    if bool(args.qiyi) == bool(args.url):
        ap.error("give exactly one of --qiyi and --url")
    if args.kill_every < 0:
        ap.error("--kill-every must be 0 (never) or a positive number of minutes")
    if args.kill_every and not args.qiyi:
        ap.error("--kill-every needs --qiyi (the script must be able to restart the server)")

    server = None
    tmp = None
    t0 = time.monotonic()
    if args.qiyi:
        tmp = tempfile.TemporaryDirectory()
        server = Server(args.qiyi, os.path.join(tmp.name, "games.sqlite"), args.threads,
                        os.path.join(tmp.name, "server.log"), args.memory)
        server.start(t0)
        server.sample(t0)
        base = None
    else:
        base = args.url

    stats = Stats()
    stop = threading.Event()
    api = Api(base, stats, stop, server)
    samples = []  # (seconds since start, rss KiB, fds)
    restarts = []  # (seconds since start, seconds the server was down)

    def sampler():
        while True:
            if server:
                s = server.sample(t0)
                if s:
                    samples.append(s)
            elif args.pid:
                rss, fds = sample(args.pid)
                if rss is not None:
                    samples.append((round(time.monotonic() - t0, 1), rss, fds))
            if stop.wait(SAMPLE_EVERY):
                break

    held = []
    lock = threading.Lock()

    def run(i):
        games = player(api, random.Random(args.seed * 1000 + i), stats, stop, args.games_per_player)
        with lock:
            held.extend(games)

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(args.players)]
    st = threading.Thread(target=sampler, daemon=True)
    st.start()
    for t in threads:
        t.start()
    deadline = t0 + args.minutes * 60
    next_kill = t0 + args.kill_every * 60 if args.kill_every else None
    try:
        while time.monotonic() < deadline:
            wake = deadline if next_kill is None else min(deadline, next_kill)
            time.sleep(min(5.0, max(0.0, wake - time.monotonic())))
            if server and server.proc.poll() is not None:
                stats.bad("server", "-", "-", "exit", f"the server exited with {server.proc.returncode}")
                break
            if next_kill is not None and time.monotonic() >= next_kill and time.monotonic() < deadline:
                down = server.kill_and_restart(t0)
                restarts.append((round(time.monotonic() - t0, 1), round(down, 2)))
                print(f"  {restarts[-1][0]:.0f} s: killed (SIGKILL) and restarted, down {down:.2f} s",
                      flush=True)
                next_kill += args.kill_every * 60
    except KeyboardInterrupt:
        pass
    stop.set()
    for t in threads:
        t.join(timeout=120)
    st.join(timeout=20)
    if server:
        s = server.sample(t0)
        if s:
            samples.append(s)
    elif args.pid:
        rss, fds = sample(args.pid)
        if rss is not None:
            samples.append((round(time.monotonic() - t0, 1), rss, fds))
    stop.clear()  # the final reads are checked like any other
    checked_at_end = check_lost(api, held, stats)
    lost = stats.lost
    elapsed = time.monotonic() - t0

    all_ms = [ms for xs in stats.latency.values() for ms in xs]
    served = sum(n for k, n in stats.statuses.items() if k != "conn")
    server_errors = {str(k): n for k, n in stats.statuses.items()
                     if isinstance(k, int) and k >= 500 and k != 503}
    report = {
        "minutes": round(elapsed / 60, 2),
        "players": args.players,
        "kill_every_minutes": args.kill_every,
        "restarts": len(restarts),
        "restart_times_s": [r[0] for r in restarts],
        "seconds_down_per_restart": [r[1] for r in restarts],
        "requests": len(all_ms),
        "requests_served": served,
        "requests_per_second": round(len(all_ms) / elapsed, 1),
        "p50_ms": round(pct(all_ms, 50), 1),
        "p99_ms": round(pct(all_ms, 99), 1),
        "per_action": {a: {"n": len(xs), "p50_ms": round(pct(xs, 50), 1), "p99_ms": round(pct(xs, 99), 1)}
                       for a, xs in sorted(stats.latency.items())},
        "statuses": {str(k): v for k, v in sorted(stats.statuses.items(), key=lambda kv: str(kv[0]))},
        "server_errors_5xx_not_503": server_errors,
        "unexpected": len(stats.unexpected),
        "unexpected_by_kind": {},
        "refused_503_429": {f"{a} {s}": n for (a, s), n in sorted(stats.refused.items())},
        "kill_window_errors": dict(sorted(stats.kill_window.items())),
        "games_reread_after_a_kill": stats.rereads,
        "acknowledged_moves": stats.acked_total,
        "acknowledged_moves_checked_at_end": checked_at_end,
        "acknowledged_moves_lost": len(lost),
    }
    for u in stats.unexpected:
        k = f"{u[0]} {u[3]}"
        report["unexpected_by_kind"][k] = report["unexpected_by_kind"].get(k, 0) + 1
    report["unexpected_examples"] = [
        {"action": u[0], "request": f"{u[1]} {u[2]}", "status": u[3], "answer": u[4], "game": u[5]}
        for u in stats.unexpected[:20]]
    if samples:
        first = samples[0]
        after5 = next((s for s in samples if s[0] >= 300), None)
        last = samples[-1]
        report["rss_kib"] = {"start": first[1], "after_5_min": after5[1] if after5 else None,
                             "end": last[1], "max": max(s[1] for s in samples)}
        report["open_files"] = {"start": first[2], "after_5_min": after5[2] if after5 else None,
                                "end": last[2], "max": max(s[2] for s in samples)}
        report["samples"] = len(samples)
        # The whole series (every 10 s), and growth judged on medians, not two single samples:
        # RSS swings by hundreds of MB within a minute as searches start and end.
        report["rss_series_kib"] = [[s[0], s[1]] for s in samples]
        later = [s for s in samples if s[0] >= 300]
        if len(later) >= 12:
            def med(xs):
                xs = sorted(xs)
                return xs[len(xs) // 2]
            span = 60.0
            head = [s[1] for s in later if s[0] < later[0][0] + span]
            tail = [s[1] for s in later if s[0] > later[-1][0] - span]
            n = len(later)
            mt = sum(s[0] for s in later) / n
            mr = sum(s[1] for s in later) / n
            var = sum((s[0] - mt) ** 2 for s in later) or 1.0
            slope = sum((s[0] - mt) * (s[1] - mr) for s in later) / var  # KiB per second
            report["rss_after_5_min"] = {
                "median_first_minute_kib": med(head), "median_last_minute_kib": med(tail),
                "growth_pct": round(100.0 * (med(tail) - med(head)) / max(1, med(head)), 1),
                "trend_mib_per_10_min": round(slope * 600 / 1024, 1)}
    if server:
        report["server_processes"] = [
            {"pid": p["pid"], "started_s": p["started_s"], "ended_s": p.get("ended_s"),
             "end_reason": p.get("end_reason", "SIGTERM at the end"), "samples": p["samples"],
             "rss_kib_start": p["start"][1] if p["start"] else None,
             "rss_kib_end": p["end"][1] if p["end"] else None,
             "open_files_start": p["start"][2] if p["start"] else None,
             "open_files_end": p["end"][2] if p["end"] else None}
            for p in server.processes]

    print(f"soak: {report['minutes']} min, {args.players} players, {report['requests']} requests "
          f"({report['requests_per_second']}/s, {served} answered), p50 {report['p50_ms']} ms, "
          f"p99 {report['p99_ms']} ms")
    if args.kill_every:
        print(f"  restarts (SIGKILL every {args.kill_every} min): {len(restarts)}; "
              f"requests cut by a kill: {report['kill_window_errors']}; "
              f"games re-read after a kill: {stats.rereads}")
    print(f"  unexpected answers: {report['unexpected']} {report['unexpected_by_kind']}; "
          f"5xx other than 503: {server_errors}; refused (503/429): {report['refused_503_429']}")
    print(f"  acknowledged moves: {stats.acked_total} (each checked on every later read of its game; "
          f"{checked_at_end} held at the end), {len(lost)} lost")
    if samples:
        print(f"  RSS KiB: {report['rss_kib']}; open files: {report['open_files']}")
        if "rss_after_5_min" in report:
            g = report["rss_after_5_min"]
            print(f"  RSS after 5 min, median of the first minute -> of the last: "
                  f"{g['median_first_minute_kib']} -> {g['median_last_minute_kib']} KiB "
                  f"({g['growth_pct']:+}%), least-squares trend {g['trend_mib_per_10_min']:+} MiB "
                  f"per 10 min")
    if server and len(server.processes) > 1:
        for p in report["server_processes"]:
            print(f"  server pid {p['pid']} ({p['started_s']}-{p['ended_s'] or 'end'} s, {p['end_reason']}): "
                  f"RSS KiB {p['rss_kib_start']} -> {p['rss_kib_end']}, "
                  f"open files {p['open_files_start']} -> {p['open_files_end']}")
    print("  per action: " + ", ".join(f"{a} n={v['n']} p50={v['p50_ms']} p99={v['p99_ms']}"
                                       for a, v in report["per_action"].items()))
    print(f"  statuses: {report['statuses']}")
    for u in stats.unexpected[:20]:
        print("  UNEXPECTED:", u)
    for x in lost[:20]:
        print("  LOST:", x)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)

    if server:
        code = server.stop()
        if code not in (0, -15):
            print(f"  the server stopped with {code}")
        if stats.unexpected or lost:
            try:
                with open(server.log) as f:
                    tail = f.read()[-3000:]
                if tail.strip():
                    print("  server log (end):\n" + tail)
            except OSError:
                pass
    if tmp:
        tmp.cleanup()
    over = []
    if args.max_rss_mib and samples:
        over = [(t, rss) for t, rss, _ in samples if rss > args.max_rss_mib * 1024]
        if over:
            print(f"  RSS PASSED THE BUDGET of {args.max_rss_mib} MiB in {len(over)} of {len(samples)} "
                  f"samples (first at {over[0][0]:.0f} s: {over[0][1] // 1024} MiB; "
                  f"max {max(r for _, r in over) // 1024} MiB)")
        else:
            print(f"  RSS stayed under the budget of {args.max_rss_mib} MiB in all {len(samples)} samples "
                  f"(max {max(s[1] for s in samples) // 1024} MiB)")
    return 0 if not stats.unexpected and not lost and not server_errors and not over else 1


if __name__ == "__main__":
    sys.exit(main())
