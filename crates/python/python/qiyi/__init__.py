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

    return json.loads(review_record(game, record, depth=depth, movetime=movetime, egdb=egdb))


def search(state, algorithm="engine", **limits):
    """Searches ``state``; the same as ``state.search(algorithm, **limits)``."""
    return state.search(algorithm, **limits)
