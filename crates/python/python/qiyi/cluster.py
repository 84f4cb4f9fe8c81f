"""Tournaments and self-play as Ray tasks, on one machine or a cluster.

Games are sharded by index: game ``g`` is seeded from the run's seed and ``g`` exactly as
``qiyi tournament`` seeds it, so a tournament's result does not depend on how many workers
played it, and equals the CLI's with the same seed and options (the decision times aside).

    import qiyi.cluster
    r = qiyi.cluster.tournament("aeroplane", "best,random,random,random", games=4000, seed=151)
    print(r["win_rate"])

``address``: ``None`` starts (or reuses) a local Ray; ``"auto"`` or ``"ray://host:10001"``
joins a cluster (see docs/cluster.md). ``workers`` bounds the games played at once (the tasks in
flight); ``None`` lets Ray use every CPU it has.
"""

import json
import os
import time

from . import _qiyi


def _require_ray():
    """Imports Ray, or raises a clear ImportError (before anything is checked or written)."""
    try:
        import ray
    except ImportError as e:
        raise ImportError("qiyi.cluster needs Ray: pip install ray") from e
    return ray


def _ray(address, workers):
    ray = _require_ray()
    if not ray.is_initialized():
        kwargs = {"address": address, "ignore_reinit_error": True, "log_to_driver": False}
        if address is None and workers is not None:
            kwargs["num_cpus"] = workers
        ray.init(**kwargs)
    return ray


def _run_bounded(ray, remote_fn, jobs, workers):
    """Submits ``jobs`` (argument tuples) keeping at most ``workers`` in flight; returns the
    results in job order."""
    pending = {}
    results = [None] * len(jobs)
    queue = list(enumerate(jobs))
    limit = workers if workers else max(1, int(ray.cluster_resources().get("CPU", 1)))
    while queue or pending:
        while queue and len(pending) < limit:
            i, args = queue.pop(0)
            pending[remote_fn.remote(*args)] = i
        done, _ = ray.wait(list(pending), num_returns=1)
        for ref in done:
            results[pending.pop(ref)] = ray.get(ref)
    return results


def _shards(games, shard):
    return [(s, min(s + shard, games)) for s in range(0, games, shard)]


def tournament(game, seats, games, seed=1, *, workers=None, address=None, level=6,
               shard=None, **rules):
    """Plays a tournament of ``game`` (``aeroplane`` or ``chinese_checkers``) as Ray tasks.

    ``seats`` is the CLI's comma-separated list of player types; ``rules`` are the game's rule
    options (``players=4``, ``rules="seed"``, ...). Returns the CLI's ``--json`` object as a
    dict, plus ``workers``, ``shards`` and ``seconds``.
    """
    if games <= 0:
        raise _qiyi.RuleError(f"games must be positive, not {games}")
    # Check the options here, in the caller, before any worker starts.
    _qiyi.play_games(game, seats, games, seed, 0, 0, level=level, **rules)
    ray = _ray(address, workers)
    shard = shard or max(1, min(250, games // (4 * (workers or 2)) or 1))

    @ray.remote
    def play(start, end):
        from qiyi import _qiyi as q

        return q.play_games(game, seats, games, seed, start, end, level=level, **rules)

    t0 = time.perf_counter()
    parts = _run_bounded(ray, play, _shards(games, shard), workers)
    records = [r for part in parts for r in part]
    result = json.loads(_qiyi.summarize(game, seats, games, seed, records, level=level, **rules))
    result["seconds"] = time.perf_counter() - t0
    result["workers"] = workers
    result["shards"] = len(parts)
    return result


# The games whose self-play runs on core's Rust driver (``qiyi selfplay GAME``): the in-process
# functions of the extension, the default depth, and the options besides the budget.
_DRIVERS = {
    "checkers": ("checkers_selfplay", "checkers_selfplay_claim", 6, ("random_plies", "eval")),
    "xiangqi": ("xiangqi_selfplay", "xiangqi_selfplay_claim", 4, ("random_plies", "eval")),
}


def selfplay_records(out_dir, games, seed=1, *, game="checkers", games_per_shard=200,
                     depth=None, nodes=0, random_plies=6, eval=None, workers=None,
                     address=None):
    """Self-play of ``game`` (``checkers`` or ``xiangqi``) as Ray tasks on the Rust driver behind
    ``qiyi selfplay GAME``.

    Writes ``QIYIPOS1`` shards (``out_dir/shard-KKKKK.bin``, what ``qiyi train checkers
    --data`` and ``qiyi calibrate`` read) and ``out_dir/run.txt`` naming the run. Shard ``k`` is
    one task; its bytes depend on the seed, the options and ``k`` alone, so 1 worker, N workers
    and the CLI (``qiyi --seed SEED selfplay GAME --games ... --games-per-shard ... --depth
    ...``) write identical files. A rerun skips complete shards (resumable); a directory holding
    another run's shards is refused before any task starts. ``depth`` defaults to the CLI's (6
    for checkers, 4 for Xiangqi); ``eval`` (``hand``, ``net`` or a net file of the game) is the
    evaluation the games are searched with. Returns ``written``, ``skipped``, ``games``, ``positions``, ``shards``, ``seconds``,
    ``results`` (first player's wins, draws, second player's wins of the games played now),
    ``paths`` (the shard files written now) and ``node_ids`` (the Ray node that ran each shard's
    task, in shard order: how the work spread over a cluster).
    """
    if game not in _DRIVERS:
        raise _qiyi.RuleError(
            f"self-play records are for {', '.join(_DRIVERS)}, not {game!r}")
    play_name, claim_name, default_depth, _ = _DRIVERS[game]
    if depth is None:
        depth = default_depth if not nodes else 0
    opts = dict(games=games, games_per_shard=games_per_shard, seed=seed, depth=depth,
                nodes=nodes, random_plies=random_plies)
    opts["eval"] = "hand" if eval is None else eval
    for key in ("games", "games_per_shard", "depth", "nodes", "random_plies", "seed"):
        if not isinstance(opts[key], int) or isinstance(opts[key], bool) or opts[key] < 0:
            raise _qiyi.RuleError(f"{key} must be a whole number >= 0, not {opts[key]!r}")
    if games <= 0 or games_per_shard <= 0:
        raise _qiyi.RuleError("games and games_per_shard must be positive")
    if depth <= 0 and nodes <= 0:
        raise _qiyi.RuleError("give depth >= 1 or nodes >= 1")
    _require_ray()
    # Checks the options and claims the directory here, in the caller, before any worker.
    n = getattr(_qiyi, claim_name)(out_dir, **opts)
    ray = _ray(address, workers)

    @ray.remote
    def play(k):
        from qiyi import _qiyi as q

        part = getattr(q, play_name)(out_dir, shards=[k], threads=1, **opts)
        part["node_id"] = ray.get_runtime_context().get_node_id()
        return part

    t0 = time.perf_counter()
    parts = _run_bounded(ray, play, [(k,) for k in range(n)], workers)
    return {
        "written": sum(p["written"] for p in parts),
        "skipped": sum(p["skipped"] for p in parts),
        "games": sum(p["games"] for p in parts),
        "positions": sum(p["positions"] for p in parts),
        "results": [sum(p["results"][i] for p in parts) for i in range(3)],
        "shards": n,
        "paths": [os.path.join(out_dir, f"shard-{k:05d}.bin")
                  for k, p in enumerate(parts) if p["written"]],
        "node_ids": [p["node_id"] for p in parts],
        "seconds": time.perf_counter() - t0,
    }


def export_parquet(out_dir):
    """Writes ``shard-KKKKK.parquet`` beside every ``QIYIPOS1`` shard ``shard-KKKKK.bin`` of
    ``out_dir`` that has none: the same records, one row each in file order, with columns
    position (the position's FEN), side (0 first player, 1 second), score, result (side to
    move's view) and ply, and the game and the run's manifest (``run.txt``) in the file's
    metadata. Each file is written under a temporary name and renamed; returns the paths
    written."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    manifest = ""
    if os.path.exists(os.path.join(out_dir, "run.txt")):
        with open(os.path.join(out_dir, "run.txt")) as f:
            manifest = f.read().strip()
    written = []
    for name in sorted(os.listdir(out_dir)):
        if not (name.startswith("shard-") and name.endswith(".bin")):
            continue
        path = os.path.join(out_dir, name[:-4] + ".parquet")
        if os.path.exists(path):
            continue
        cols = _qiyi.read_records(os.path.join(out_dir, name))
        meta = {"game": cols.pop("game"), "games": str(cols.pop("games")), "run": manifest,
                "format": "QIYIPOS1 export"}
        table = pa.table({
            "position": pa.array(cols["position"], pa.string()),
            "side": pa.array(cols["side"], pa.int8()),
            "score": pa.array(cols["score"], pa.int16()),
            "result": pa.array(cols["result"], pa.int8()),
            "ply": pa.array(cols["ply"], pa.uint8()),
        }).replace_schema_metadata(meta)
        tmp = path + ".tmp"
        pq.write_table(table, tmp)
        os.replace(tmp, path)
        written.append(path)
    return written


def selfplay(game, games, out_dir, seed=1, *, shard=50, workers=None, address=None,
             algorithm=None, depth=None, nodes=None, level=None, player=None, max_plies=None,
             parquet=False, **rules):
    """Self-play of ``games`` games of ``game`` as Ray tasks.

    Checkers and Xiangqi (``algorithm`` ``None`` or ``"engine"``) run core's Rust driver, as
    :func:`selfplay_records` does: the engine plays both sides at ``depth`` or ``nodes`` from the
    game's openings plus ``random_plies`` (a keyword, default 6) random plies, and each quiet
    position is written with its search score and the game result to ``QIYIPOS1`` shards of
    ``shard`` games (``out_dir/shard-KKKKK.bin``, byte for byte what ``qiyi selfplay GAME``
    writes, for any number of workers); ``parquet=True`` adds ``shard-KKKKK.parquet`` beside each,
    an export of the same records (:func:`export_parquet`). ``eval=`` picks the checkers
    evaluation. ``level``,
    ``player`` and ``max_plies`` are not options of the driver (it plays at full strength, caps
    games at 300 plies) and are refused. Returns ``written`` and ``skipped`` (shard paths),
    ``positions``, ``games``, ``results``, ``shards``, ``format`` (``"QIYIPOS1"``) and
    ``seconds``.

    The other games, or another ``algorithm``, are an export for analysis, written as Parquet:
    shard ``k`` holds games ``k*shard .. (k+1)*shard`` in ``out_dir/shard-KKKKK.parquet`` with
    one row per decision: game, ply, player, position (the game's text), action, move, score
    (the search's), result (the mover's final return). A rerun skips the shards already written
    (each is written to a temporary name and renamed when complete), so an interrupted run
    resumes. Searches use ``depth`` or ``nodes`` budgets (deterministic); ``algorithm``
    defaults to ``"mcts"``, ``level`` to 5, ``max_plies`` to 400; returns
    ``{"written": [...], "skipped": [...], "positions": N, "seconds": S, "format": "parquet"}``.
    """
    if game in _DRIVERS and algorithm in (None, "engine"):
        r = _selfplay_driver(game, games, out_dir, seed, shard=shard, workers=workers,
                             address=address, depth=depth, nodes=nodes, level=level,
                             player=player, max_plies=max_plies, rules=rules)
        if parquet:
            r["parquet"] = export_parquet(out_dir)
        return r
    algorithm = "mcts" if algorithm is None else algorithm
    level = 5 if level is None else level
    max_plies = 400 if max_plies is None else max_plies
    import pyarrow as pa
    import pyarrow.parquet as pq

    if depth is None and nodes is None:
        raise _qiyi.RuleError("self-play needs depth= or nodes= (deterministic budgets)")
    if games <= 0 or shard <= 0:
        raise _qiyi.RuleError("games and shard must be positive")
    _qiyi.selfplay_games(game, seed, 0, 0, algorithm=algorithm, level=level, depth=depth,
                         nodes=nodes, player=player, max_plies=max_plies, **rules)
    os.makedirs(out_dir, exist_ok=True)
    jobs, skipped = [], []
    for k, (start, end) in enumerate(_shards(games, shard)):
        path = os.path.join(out_dir, f"shard-{k:05d}.parquet")
        if os.path.exists(path):
            skipped.append(path)
        else:
            jobs.append((start, end, path))
    ray = _ray(address, workers)

    @ray.remote
    def play(start, end, path):
        import pyarrow as pa
        import pyarrow.parquet as pq

        from qiyi import _qiyi as q

        cols = q.selfplay_games(game, seed, start, end, algorithm=algorithm, level=level,
                                depth=depth, nodes=nodes, player=player,
                                max_plies=max_plies, **rules)
        table = pa.table(cols)
        meta = {"game": game, "seed": str(seed), "games": f"{start}..{end}",
                "algorithm": algorithm, "depth": str(depth), "nodes": str(nodes),
                "rules": json.dumps(rules)}
        table = table.replace_schema_metadata(meta)
        tmp = path + ".tmp"
        pq.write_table(table, tmp)
        os.replace(tmp, path)
        return path, table.num_rows

    t0 = time.perf_counter()
    done = _run_bounded(ray, play, jobs, workers)
    del pa, pq
    return {
        "written": [p for p, _ in done],
        "skipped": skipped,
        "positions": sum(n for _, n in done),
        "seconds": time.perf_counter() - t0,
        "format": "parquet",
    }


def _selfplay_driver(game, games, out_dir, seed, *, shard, workers, address, depth, nodes,
                     level, player, max_plies, rules):
    """:func:`selfplay` for the games with a Rust driver: :func:`selfplay_records`."""
    refused = [k for k, v in (("level", level), ("player", player), ("max_plies", max_plies))
               if v is not None]
    allowed = _DRIVERS[game][3]
    refused += [k for k in rules if k not in allowed]
    if refused:
        raise _qiyi.RuleError(
            f"{game} self-play runs the engine's driver: {', '.join(refused)} "
            f"{'is' if len(refused) == 1 else 'are'} not among its options "
            f"(depth, nodes, shard, {', '.join(allowed)})")
    if depth is None and nodes is None:
        raise _qiyi.RuleError("self-play needs depth= or nodes= (deterministic budgets)")
    r = selfplay_records(out_dir, games, seed, game=game, games_per_shard=shard,
                         depth=0 if depth is None else depth,
                         nodes=0 if nodes is None else nodes, workers=workers,
                         address=address, **rules)
    written = r.pop("paths")
    every = [os.path.join(out_dir, f"shard-{k:05d}.bin") for k in range(r["shards"])]
    r["written"] = written
    r["skipped"] = [p for p in every if p not in written]
    r["format"] = "QIYIPOS1"
    return r


# Matches on Ray (issue 49, item 3): the games whose `qiyi match GAME` can play a range of its
# games at a fixed budget in the extension, and that function's name.
_MATCHES = {"checkers": "checkers_match_games", "xiangqi": "xiangqi_match_games"}


def _match_setup(game, engine_a, engine_b, games, seed, depth, nodes, movetime, no_book):
    """Checks a match's options in the caller, before any worker starts; returns the extension's
    function that plays a range of the match's games."""
    if game not in _MATCHES:
        if game in _qiyi.registered_names():
            raise _qiyi.RuleError(
                f"matches on Ray are for {', '.join(_MATCHES)} so far, not {game!r}")
        raise _qiyi.UnknownGameError(
            f"unknown game {game!r}; matches on Ray are for {', '.join(_MATCHES)}")
    for key, value in (("games", games), ("seed", seed)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise _qiyi.RuleError(f"{key} must be a whole number >= 0, not {value!r}")
    if games <= 0:
        raise _qiyi.RuleError(f"games must be positive, not {games}")
    if depth is None and nodes is None and movetime is None:
        raise _qiyi.RuleError(
            "a match on Ray needs a budget: depth= or nodes= (the same games on any machine) "
            "or movetime= in ms (games that depend on the machine and its load)")
    if movetime is not None and (depth is not None or nodes is not None):
        raise _qiyi.RuleError("give depth=/nodes= or movetime=, not both")
    for key, value in (("depth", depth), ("nodes", nodes), ("movetime", movetime)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                  or value < 1):
            raise _qiyi.RuleError(f"{key} must be a whole number >= 1, not {value!r}")
    play = getattr(_qiyi, _MATCHES[game])
    # Zero games: builds both players (starting external programs) and gives them the budget (a
    # bad spec, a missing program, or one that cannot take the budget fails here).
    play(engine_a, engine_b, start=0, count=0, seed=seed, depth=depth, nodes=nodes,
         movetime=movetime, no_book=no_book)
    return _MATCHES[game]


def _pair_jobs(games, game="checkers"):
    """The match's ballot (or opening) pairs as (first game, games) ranges: in checkers the last
    one is a single game when ``games`` is odd, as in ``qiyi match checkers``; a Xiangqi match is
    whole colour-swapped pairs (``games`` rounded up), as in ``qiyi match xiangqi``."""
    if game == "xiangqi":
        games += games % 2
    return [(k, min(2, games - k)) for k in range(0, games, 2)]


def _match_task(ray, name, engine_a, engine_b, seed, depth, nodes, movetime, no_book):
    @ray.remote
    def play(start, count):
        from qiyi import _qiyi as q

        return getattr(q, name)(engine_a, engine_b, start=start, count=count, seed=seed,
                                depth=depth, nodes=nodes, movetime=movetime, no_book=no_book)

    return play


def _tally(records):
    wins = sum(1 for r in records if r["score"] == 1.0)
    draws = sum(1 for r in records if r["score"] == 0.5)
    return wins, draws, len(records) - wins - draws


def match(game, engine_a, engine_b, games=2, *, seed=1, depth=None, nodes=None, movetime=None,
          workers=None, address=None, no_book=False):
    """Plays a match, one Ray task per ballot pair (both colours).

    ``game`` is ``"checkers"`` or ``"xiangqi"``. ``engine_a`` and ``engine_b`` are ``qiyi match
    GAME --engine`` specs: qiyi's own engines (checkers: ``"qiyi"``, ``"qiyi:level=6"``,
    ``"qiyi:seed:4"``, ``"qiyi:eval=hand"``, ...; Xiangqi: ``"qiyi"``, ``"qiyi:level=3"``,
    ``"qiyi:seed"``, ``"qiyi:eval=untuned"``, ``"qiyi:eval=NET.qnet"``) or external programs started by each task
    (checkers: ``"hub:COMMAND"``, ``"cep:COMMAND"`` — checkers-engine's line protocol, which
    GuiNN's driver speaks; Xiangqi: ``"uci:COMMAND"``, ``"ucci:COMMAND"``; the command must run
    on every node). With ``depth`` and/or ``nodes`` every move is searched to that budget
    (programs get ``level depth=D``, ``GO maxdepth D``, ``go depth D``; checkers-engine's
    protocol has no node budget, UCCI takes one of the two), so game ``g`` is the one ``qiyi
    --seed SEED --threads 1 match GAME --engine A --engine B --games N --depth D`` plays,
    whatever the number of workers (for a program: as far as it is deterministic). With
    ``movetime`` (ms) instead every move is played on time: the games then depend on the
    machines and their load, as over-the-board games do. A Xiangqi match is whole
    colour-swapped pairs over the shipped openings, 300-ply cap: ``games`` is rounded up, as
    the CLI does. Returns the CLI's figures for A (``wins``,
    ``draws``, ``losses``, ``score``, ``elo`` and its 95% interval), the ``pentanomial`` pair
    counts, every game in match order (``games_played``: ``index``, ``score``, ``reason``,
    ``moves``, and ``ballot``, ``a_black`` in checkers, ``opening``, ``opening_fen``, ``a_red``
    in Xiangqi), ``seconds`` and ``workers``.
    """
    name = _match_setup(game, engine_a, engine_b, games, seed, depth, nodes, movetime, no_book)
    ray = _ray(address, workers)
    play = _match_task(ray, name, engine_a, engine_b, seed, depth, nodes, movetime, no_book)
    t0 = time.perf_counter()
    parts = _run_bounded(ray, play, _pair_jobs(games, game), workers)
    records = [r for part in parts for r in part]
    wins, draws, losses = _tally(records)
    penta = [0] * 5
    for part in parts:
        if len(part) == 2:
            penta[int(round(2 * (part[0]["score"] + part[1]["score"])))] += 1
    result = {"game": game, "engine_a": engine_a, "engine_b": engine_b, "seed": seed,
              "depth": depth, "nodes": nodes, "movetime": movetime, "wins": wins,
              "draws": draws, "losses": losses,
              "pentanomial": penta, "games_played": records}
    result.update(_qiyi.match_summary(wins, draws, losses))
    result["seconds"] = time.perf_counter() - t0
    result["workers"] = workers
    return result


def sprt(game, engine_a, engine_b, *, elo0, elo1, alpha=0.05, beta=0.05, games=1000, seed=1,
         depth=None, nodes=None, movetime=None, workers=None, address=None, no_book=False):
    """A sequential probability ratio test of ``engine_a`` against ``engine_b`` (H0: A is
    ``elo0`` Elo better, H1: ``elo1``), ballot pairs played as Ray tasks.

    The pentanomial log-likelihood ratio (core's, as ``qiyi match checkers --sprt``) is updated
    as pairs finish, in pair order (a pair that finishes early waits for the ones before it), so
    the verdict, the LLR and the pairs counted are the same for any number of workers and equal
    the CLI's with the same seed and budget. Once a bound is crossed the tasks still running or
    queued are cancelled. ``games`` is the most the test plays (``--games``). Returns
    ``verdict`` (``"H1"``, ``"H0"`` or ``"undecided"``), ``llr``, ``lower``, ``upper``,
    ``pairs``, ``pentanomial``, the W/D/L and games of the pairs counted, ``cancelled`` (tasks
    stopped), ``seconds`` and ``workers``. Engines and budgets as :func:`match`: against an
    external program (``cep:`` GuiNN, ``ucci:`` ElephantEye, ...) with ``movetime`` this is the
    test of a change against a reference engine, spread over the cluster; only a fixed budget
    makes the verdict the same for any number of workers.
    """
    name = _match_setup(game, engine_a, engine_b, games, seed, depth, nodes, movetime, no_book)
    _qiyi.sprt_llr([0] * 5, elo0, elo1, alpha, beta)  # checks elo0 < elo1, alpha, beta
    ray = _ray(address, workers)
    play = _match_task(ray, name, engine_a, engine_b, seed, depth, nodes, movetime, no_book)
    jobs = _pair_jobs(games, game)
    limit = workers if workers else max(1, int(ray.cluster_resources().get("CPU", 1)))
    t0 = time.perf_counter()
    pending, finished, records = {}, {}, []
    penta = [0] * 5
    queued, counted = 0, 0
    llr, lower, upper, status = _qiyi.sprt_llr(penta, elo0, elo1, alpha, beta)
    try:
        while status == "continue" and counted < len(jobs):
            while queued < len(jobs) and len(pending) < limit:
                pending[play.remote(*jobs[queued])] = queued
                queued += 1
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                finished[pending.pop(ref)] = ray.get(ref)
            # Count the pairs in order, and stop at the first decision.
            while status == "continue" and counted in finished:
                part = finished.pop(counted)
                counted += 1
                records.extend(part)
                if len(part) == 2:
                    penta[int(round(2 * (part[0]["score"] + part[1]["score"])))] += 1
                    llr, lower, upper, status = _qiyi.sprt_llr(penta, elo0, elo1, alpha, beta)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
    wins, draws, losses = _tally(records)
    result = {"game": game, "engine_a": engine_a, "engine_b": engine_b, "seed": seed,
              "depth": depth, "nodes": nodes, "movetime": movetime, "elo0": elo0, "elo1": elo1,
              "alpha": alpha,
              "beta": beta,
              "verdict": "undecided" if status == "continue" else status, "llr": llr,
              "lower": lower, "upper": upper, "pairs": sum(penta), "pentanomial": penta,
              "wins": wins, "draws": draws, "losses": losses, "games_played": records,
              "cancelled": len(pending)}
    result.update(_qiyi.match_summary(wins, draws, losses))
    result["seconds"] = time.perf_counter() - t0
    result["workers"] = workers
    return result


# Self-play -> train -> SPRT (issue 49, item 4).
_LOOP = "loop.json"


def _qiyi_bin(qiyi_bin, purpose="training", command="qiyi train checkers"):
    """The ``qiyi`` command-line binary: ``qiyi_bin``, else ``$QIYI_BIN``, else ``qiyi`` on the
    PATH; a clear FileNotFoundError when none is found."""
    import shutil

    found = qiyi_bin or os.environ.get("QIYI_BIN") or shutil.which("qiyi")
    if not found or not os.path.isfile(found) or not os.access(found, os.X_OK):
        raise FileNotFoundError(
            f"{purpose} needs the qiyi command-line binary (`{command}`): pass "
            f"qiyi_bin=, set QIYI_BIN or put qiyi on the PATH (looked for {found or 'qiyi'!r})")
    return os.path.abspath(found)


def _write_json(path, value):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def train_loop(out_dir, *, games, seed=1, depth=4, shard=10, random_plies=6, eval=None,
               epochs=3, hidden=32, l2=16, train_threads=1, base="qiyi", sprt_games=200,
               sprt_depth=4, elo0=0, elo1=10, alpha=0.05, beta=0.05, workers=None,
               address=None, qiyi_bin=None, log=print):
    """One round of learning for checkers, end to end: self-play, training, then an SPRT of the
    new network against the current engine.

    1. ``games`` self-play games at ``depth`` (:func:`selfplay`, ``shard`` games a task, the
       evaluation ``eval`` — ``None`` for the engine's default) into ``out_dir/selfplay``;
    2. ``qiyi --seed SEED --threads TRAIN_THREADS train checkers --data out_dir/selfplay --out
       out_dir/net.qnet --epochs EPOCHS --hidden HIDDEN --l2 L2`` (with a checkpoint in
       ``out_dir/train.ckpt``, so an interrupted training resumes at its last epoch);
    3. :func:`sprt` of ``qiyi:eval=out_dir/net.qnet`` against ``base`` (an engine spec of
       ``qiyi match checkers``; ``"qiyi"`` is the engine as shipped) at ``sprt_depth``, at most
       ``sprt_games`` games, written to ``out_dir/sprt.json``.

    Resumable: a stage whose output exists is skipped, and said so (self-play skips the shards
    already complete). ``out_dir/loop.json`` records the options; a folder holding another
    loop's run is refused before anything runs. The network file must be readable where the
    SPRT's tasks run (shared storage on a cluster). ``log`` receives one line per stage (the
    seed, each stage's figures, the verdict). Returns ``{"seed", "selfplay", "train", "sprt",
    "net", "skipped"}`` with each stage's figures and the stages skipped.
    """
    binary = _qiyi_bin(qiyi_bin)
    for key, value in (("games", games), ("depth", depth), ("shard", shard),
                       ("epochs", epochs), ("hidden", hidden), ("l2", l2),
                       ("train_threads", train_threads), ("sprt_games", sprt_games),
                       ("sprt_depth", sprt_depth)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise _qiyi.RuleError(f"{key} must be a whole number >= 1, not {value!r}")
    for key, value in (("seed", seed), ("random_plies", random_plies)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise _qiyi.RuleError(f"{key} must be a whole number >= 0, not {value!r}")
    _require_ray()
    options = {"games": games, "seed": seed, "depth": depth, "shard": shard,
               "random_plies": random_plies, "eval": eval, "epochs": epochs, "hidden": hidden,
               "l2": l2, "train_threads": train_threads, "base": base,
               "sprt_games": sprt_games, "sprt_depth": sprt_depth, "elo0": elo0, "elo1": elo1,
               "alpha": alpha, "beta": beta}
    # Checks the SPRT's options and the base engine in the caller, before any stage runs.
    _match_setup("checkers", base, base, sprt_games, seed, sprt_depth, None, None, False)
    _qiyi.sprt_llr([0] * 5, elo0, elo1, alpha, beta)
    os.makedirs(out_dir, exist_ok=True)
    manifest = os.path.join(out_dir, _LOOP)
    if os.path.exists(manifest):
        with open(manifest, encoding="utf-8") as f:
            theirs = json.load(f)
        if theirs != options:
            diff = sorted(k for k in set(options) | set(theirs)
                          if options.get(k) != theirs.get(k))
            raise _qiyi.RuleError(
                f"{out_dir} holds another loop's run (it differs in {', '.join(diff)}): "
                "use another folder")
    else:
        _write_json(manifest, options)
    log(f"train loop (checkers) in {out_dir}, seed {seed}")
    skipped = []

    # 1. Self-play.
    data = os.path.join(out_dir, "selfplay")
    kw = {} if eval is None else {"eval": eval}
    sp = selfplay("checkers", games, data, seed, shard=shard, depth=depth,
                  random_plies=random_plies, workers=workers, address=address, **kw)
    if not sp["written"]:
        skipped.append("selfplay")
        log(f"selfplay: skipped, its {sp['shards']} shards are already in {data}")
    else:
        log(f"selfplay: {sp['games']} games at depth {depth}, {sp['positions']} positions in "
            f"{len(sp['written'])} shards ({len(sp['skipped'])} already there), "
            f"{sp['seconds']:.1f} s; results {sp['results']}")

    # 2. Training.
    net = os.path.join(out_dir, "net.qnet")
    train_json = os.path.join(out_dir, "train.json")
    if os.path.exists(net) and os.path.exists(train_json):
        skipped.append("train")
        with open(train_json, encoding="utf-8") as f:
            tr = json.load(f)
        log(f"train: skipped, {net} exists")
    else:
        args = [binary, "--json", "--seed", str(seed), "--threads", str(train_threads),
                "train", "checkers", "--data", data, "--out", net, "--epochs", str(epochs),
                "--hidden", str(hidden), "--l2", str(l2),
                "--checkpoint", os.path.join(out_dir, "train.ckpt")]
        import subprocess

        out = subprocess.run(args, capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(f"qiyi train checkers failed ({out.returncode}): "
                               f"{out.stderr.strip()}")
        tr = json.loads(out.stdout.strip().splitlines()[-1])
        _write_json(train_json, tr)
        last = tr["epochs"][-1] if tr["epochs"] else None
        log(f"train: {tr['positions']} positions ({tr['holdout_positions']} held out) from "
            f"{tr['games']} games, {tr['arch'][0]}-{tr['arch'][1]}-{tr['arch'][2]} network, "
            f"{len(tr['epochs'])} epochs"
            + (f", held-out loss {last['holdout_loss']:.5f} (entropy "
               f"{tr['holdout_entropy']:.5f})" if last else "")
            + f", {tr['seconds']:.1f} s -> {net}")

    # 3. SPRT of the new net against the current engine.
    sprt_json = os.path.join(out_dir, "sprt.json")
    if os.path.exists(sprt_json):
        skipped.append("sprt")
        with open(sprt_json, encoding="utf-8") as f:
            st = json.load(f)
        log(f"sprt: skipped, {sprt_json} exists")
    else:
        st = sprt("checkers", f"qiyi:eval={net}", base, elo0=elo0, elo1=elo1, alpha=alpha,
                  beta=beta, games=sprt_games, seed=seed, depth=sprt_depth, workers=workers,
                  address=address)
        _write_json(sprt_json, st)
    log(f"sprt: qiyi:eval={net} vs {base} at depth {sprt_depth}: {st['verdict']}, LLR "
        f"{st['llr']:+.3f} in [{st['lower']:.3f}, {st['upper']:.3f}] after {st['pairs']} pairs "
        f"(+{st['wins']} ={st['draws']} -{st['losses']}, pentanomial {st['pentanomial']}), "
        f"{st['seconds']:.1f} s")
    return {"seed": seed, "selfplay": sp, "train": tr, "sprt": st, "net": net,
            "skipped": skipped, "verdict": st["verdict"]}


# The checkers opening book on Ray (issue 49, item 5).
_BOOK_MANIFEST = "book.json"


def _book_part_name(k, parts):
    return f"part-{k:04d}-of-{parts:04d}.tsv"


def _book_lines(path):
    """A part file's header and its book lines (``FEN<TAB>move<TAB>score<TAB>depth``)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = text.splitlines(keepends=True)
    if not lines or not lines[0].startswith("#"):
        raise _qiyi.RuleError(f"{path} is not a book part written by `qiyi book checkers`")
    body = lines[1:]
    for line in body:
        if not line.endswith("\n") or len(line.rstrip("\n").split("\t")) != 4:
            raise _qiyi.RuleError(f"{path} holds a line that is not a book line: {line!r}")
    return lines[0], body


def book(game, out_path, *, depth=None, nodes=None, movetime=None, parts=16, workers=None,
         address=None, qiyi_bin=None):
    """Builds the opening book of ``qiyi book checkers`` with one Ray task per part.

    Task ``K`` runs ``qiyi --threads 1 book checkers --depth D (or --nodes N) --part K/PARTS``
    (the CLI binary: ``qiyi_bin``, ``$QIYI_BIN`` or ``qiyi`` on the PATH, at the same path on
    every machine) into ``OUT_PATH.parts/part-KKKK-of-PPPP.tsv``; the parts are then
    interleaved back into the one-machine order (part ``K`` holds positions ``K-1``,
    ``K-1+PARTS``, ... of the book's list) and written to ``out_path``, which is byte for byte
    the file ``qiyi --threads 1 book checkers --depth D --out OUT_PATH`` writes on one machine.
    The budget must be fixed (``depth`` or ``nodes``): a ``movetime`` book depends on the
    machine and its load, and is refused.

    Resumable: a finished part (its ``.tsv`` renamed from ``.tsv.partial`` when its task ended)
    is not run again, a part interrupted half-way is resumed by the CLI from the positions its
    ``.partial`` file holds, and the join is rewritten from the parts. ``OUT_PATH.parts/book.json``
    records the game, budget and number of parts; a parts folder of another build, or an
    ``out_path`` that exists but was not written by this build, is refused before any task
    starts. Returns ``out``, ``positions``, ``parts``, ``parts_run`` and ``parts_skipped`` (the
    part numbers), ``searched`` (positions searched in this call), ``budget``, ``seconds`` and
    ``workers``.
    """
    if game != "checkers":
        if game in _qiyi.registered_names() or game == "xiangqi":
            raise _qiyi.RuleError(f"only the checkers opening book is built on Ray, not {game!r}")
        raise _qiyi.UnknownGameError(f"unknown game {game!r}; the book is built for checkers")
    if movetime is not None:
        raise _qiyi.RuleError(
            "a book on Ray needs a fixed budget (depth= or nodes=): a movetime book depends on "
            "the machine and its load, so its parts would not be one machine's book")
    if depth is None and nodes is None:
        raise _qiyi.RuleError("give the book's budget: depth= or nodes=")
    if depth is not None and nodes is not None:
        raise _qiyi.RuleError("give depth= or nodes=, not both (as `qiyi book checkers`)")
    for key, value, top in (("depth", depth, 64), ("nodes", nodes, 100_000_000_000),
                            ("parts", parts, 100_000)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                  or not 1 <= value <= top):
            raise _qiyi.RuleError(f"{key} must be a whole number from 1 to {top}, not {value!r}")
    if workers is not None and (not isinstance(workers, int) or isinstance(workers, bool)
                                or workers < 1):
        raise _qiyi.RuleError(f"workers must be a whole number >= 1, not {workers!r}")
    binary = _qiyi_bin(qiyi_bin, "building the book", "qiyi book checkers")
    _require_ray()
    budget = ["--depth", str(depth)] if depth is not None else ["--nodes", str(nodes)]
    out_path = os.path.abspath(os.fspath(out_path))
    folder = out_path + ".parts"
    manifest = os.path.join(folder, _BOOK_MANIFEST)
    options = {"game": game, "budget": " ".join(budget), "parts": parts}
    if os.path.exists(manifest):
        with open(manifest, encoding="utf-8") as f:
            theirs = json.load(f)
        if theirs != options:
            raise _qiyi.RuleError(
                f"{folder} holds the parts of another build ({theirs}), not {options}: pass "
                "the same options to resume it, or another out_path")
    else:
        if os.path.exists(out_path):
            raise _qiyi.RuleError(
                f"{out_path} exists and was not written by this build (no {manifest}): choose "
                "another out_path (`qiyi book checkers --out` resumes a book on one machine)")
        if os.path.isdir(folder) and os.listdir(folder):
            raise _qiyi.RuleError(f"{folder} holds files but no {_BOOK_MANIFEST}: remove it")
    header = None
    for k in range(1, parts + 1):
        for name in (_book_part_name(k, parts), _book_part_name(k, parts) + ".partial"):
            path = os.path.join(folder, name)
            if os.path.exists(path):
                with open(path, encoding="utf-8") as f:
                    first = f.readline()
                if not first:
                    continue  # created, not yet written: the CLI starts it afresh
                if header is None:
                    header = first
                if first != header or f"(qiyi book checkers {options['budget']})" not in first:
                    raise _qiyi.RuleError(f"{path} was built with another budget: {first!r}")
    os.makedirs(folder, exist_ok=True)
    if not os.path.exists(manifest):
        _write_json(manifest, options)

    todo = [k for k in range(1, parts + 1)
            if not os.path.exists(os.path.join(folder, _book_part_name(k, parts)))]
    ray = _ray(address, workers)

    @ray.remote
    def run_part(k):
        import subprocess

        final = os.path.join(folder, _book_part_name(k, parts))
        partial = final + ".partial"
        args = [binary, "--threads", "1", "--json", "book", "checkers", *budget,
                "--part", f"{k}/{parts}", "--out", partial]
        out = subprocess.run(args, capture_output=True, text=True)
        if out.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed ({out.returncode}): "
                               f"{out.stderr.strip()}")
        report = json.loads(out.stdout.strip().splitlines()[-1])
        os.replace(partial, final)
        report["part"] = k
        report["node"] = ray.get_runtime_context().get_node_id()
        return report

    t0 = time.perf_counter()
    reports = _run_bounded(ray, run_part, [(k,) for k in todo], workers)

    # Join: part K's i-th line is position K-1 + i*PARTS of the whole book.
    bodies = []
    header = None
    for k in range(1, parts + 1):
        head, body = _book_lines(os.path.join(folder, _book_part_name(k, parts)))
        if header is None:
            header = head
        elif head != header:
            raise _qiyi.RuleError(f"part {k} of {folder} was built with another budget")
        bodies.append(body)
    total = sum(len(b) for b in bodies)
    for k, body in enumerate(bodies, start=1):
        expected = len(range(k - 1, total, parts))
        if len(body) != expected:
            raise _qiyi.RuleError(
                f"part {k} of {folder} holds {len(body)} lines where a book of {total} "
                f"positions in {parts} parts has {expected}: remove that part and rerun")
    for report in reports:
        if report["positions"] != len(bodies[report["part"] - 1]):
            raise _qiyi.RuleError(
                f"part {report['part']} holds {len(bodies[report['part'] - 1])} lines for "
                f"{report['positions']} positions")
    tmp = out_path + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write(header)
        for i in range(total):
            f.write(bodies[i % parts][i // parts])
    os.replace(tmp, out_path)
    return {"out": out_path, "positions": total, "parts": parts, "parts_run": todo,
            "parts_skipped": [k for k in range(1, parts + 1) if k not in todo],
            "searched": sum(r["searched"] for r in reports),
            "node_ids": [r["node"] for r in reports], "budget": options["budget"],
            "seconds": time.perf_counter() - t0, "workers": workers}
