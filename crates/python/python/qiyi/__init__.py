"""qiyi (棋艺): five classic games and their search core, from Python.

The API follows OpenSpiel's pyspiel (see the package README for the call-by-call table)::

    import qiyi
    game = qiyi.load_game("checkers")
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    print(state.returns())

Games: ``xiangqi``, ``checkers``, ``chinese_checkers``, ``peg_solitaire``, ``aeroplane``.
Also here: :class:`VectorGames` (n games stepped in Rust), ``State.search`` (engines, MCTS,
expectimax, the peg solver), ``qiyi.envs`` (PettingZoo / Gymnasium) and ``qiyi.cluster`` (Ray).
"""

from ._qiyi import (  # noqa: F401
    analyze_position,
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    Engine,
    Error,
    Game,
    GameOverError,
    IllegalActionError,
    ParseError,
    RuleError,
    SearchError,
    SearchResult,
    ShapeError,
    State,
    UnknownGameError,
    VectorGames,
    load_game,
    registered_names,
    review_record,
    rule_options,
)

__all__ = [
    "CHANCE_PLAYER",
    "TERMINAL_PLAYER",
    "Engine",
    "Error",
    "Game",
    "GameOverError",
    "IllegalActionError",
    "ParseError",
    "RuleError",
    "SearchError",
    "SearchResult",
    "ShapeError",
    "State",
    "UnknownGameError",
    "VectorGames",
    "analyze",
    "load_game",
    "registered_names",
    "review",
    "rule_options",
    "search",
]


def _load_game_kw(name, rules):
    """Unpickles a Game: ``load_game(name, **rules)``."""
    return load_game(name, **rules)


def review(game, record, *, depth=None, movetime=None, egdb=None):
    """Reviews a game from its record and returns the review as a dict (the JSON of
    ``qiyi review GAME FILE --json``, format 1): every ply's values, class and best line, and per
    player accuracy and counts.

    ``record`` is the text of an XQ PGN game (ICCS, WXF or Chinese moves) or JSON record
    (xiangqi), a PDN game or JSON record (checkers) or the JSON record (peg solitaire, aeroplane),
    e.g. what ``qiyi games export`` writes. Checkers takes ``depth`` (default 16) or ``movetime``
    (seconds) per position and an endgame database directory ``egdb``; xiangqi takes ``depth``
    (default 12, at most 30) or ``movetime``.
    Bad records raise :class:`ParseError`, bad limits :class:`SearchError`.
    """
    import json
    import os

    _need_text("game", game, UnknownGameError)
    _need_text("record", record, ParseError)
    depth = _whole("depth", depth)
    if movetime is not None and (
        isinstance(movetime, bool) or not isinstance(movetime, (int, float))
    ):
        raise SearchError(f"movetime must be a number of seconds, not {movetime!r}")
    if egdb is not None and not isinstance(egdb, (str, os.PathLike)):
        raise SearchError(f"egdb must be a directory path, not {egdb!r}")
    return json.loads(review_record(game, record, depth=depth, movetime=movetime, egdb=egdb))


def _need_text(what, value, error):
    """Raises ``error`` unless ``value`` is a str."""
    if not isinstance(value, str):
        raise error(f"{what} must be text (str), not {type(value).__name__}")


def _whole(what, value, low=1, high=1 << 31):
    """``value`` if it is None or a whole number in [low, high); else a SearchError."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise SearchError(f"{what} must be a whole number, not {value!r}")
    if not low <= value < high:
        raise SearchError(f"{what} {value} is out of range")
    return value


def analyze(game, position=None, *, depth=None, movetime_ms=None, multipv=1, roll=None):
    """Analyses one position and returns a dict (the same facts as ``qiyi analyze GAME --json``).

    ``position`` is the game's position text (what ``State.to_text()`` writes: a Xiangqi FEN, a
    checkers PDN FEN, the peg picture, the aeroplane or Chinese-checkers position line), a
    :class:`State`, or ``None`` for the start position. What comes back, by game:

    - ``xiangqi``, ``checkers``: ``lines`` (``multipv`` of them, 1-10, best first), each with
      ``move``, ``depth``, ``score`` (``{"cp": n}`` or ``{"mate": n}``, from the side to move),
      ``win_chance`` (the review's calibrated logistic; a mate is 1 or 0), ``nodes``, ``pv`` and
      ``capped``; ``depths`` holds every completed depth's lines; ``bestmove``, ``nodes``.
      ``depth`` (default the review's: 12 for Xiangqi, 16 for checkers) or ``movetime_ms``.
    - ``peg_solitaire``: ``solvable``, ``fewest_pegs``, ``bestmove`` and ``moves`` (every jump
      with its ``fewest_pegs`` and ``solvable``), all exact.
    - ``aeroplane``: for the face ``roll`` (needed when a roll is next; a position that rolled
      already uses its roll), ``choices``: every plane's ``win`` chance for the mover, every
      player's ``wins`` and the mover's expected ``turns``; ``bestmove``.
    - ``chinese_checkers``: ``race``: each player's race distance (the moves to bring its
      pieces home alone: exact where ``race_exact`` says so, else a proven lower bound;
      ``race_bound`` is True when any is a bound), and the engine's move (``bestmove``, ``search``: alpha-beta for 2 players, the
      racer for more).

    With ``depth`` (or no limit) the result depends only on the arguments; ``movetime_ms``
    depends on the machine. The search runs with the interpreter released. Bad input raises
    :class:`ParseError` (position), :class:`SearchError` (limits, options that do not apply),
    :class:`IllegalActionError` (a roll that cannot happen), :class:`GameOverError`,
    :class:`UnknownGameError`.
    """
    import json

    _need_text("game", game, UnknownGameError)
    if isinstance(position, State):
        position = position.to_text()
    if position is not None:
        _need_text("position", position, ParseError)
    depth = _whole("depth", depth)
    movetime_ms = _whole("movetime_ms", movetime_ms, high=1 << 63)
    multipv = 1 if multipv is None else _whole("multipv", multipv, high=1 << 31)
    roll = _whole("roll", roll, high=256)
    return json.loads(
        analyze_position(
            game, position, depth=depth, movetime_ms=movetime_ms, multipv=multipv, roll=roll
        )
    )


def search(state, algorithm="engine", **limits):
    """Searches ``state``; the same as ``state.search(algorithm, **limits)``."""
    return state.search(algorithm, **limits)
