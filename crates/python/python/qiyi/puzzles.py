"""Puzzles: the shipped, proven puzzle sets of the five games, and a check of puzzle files.

::

    import qiyi.puzzles
    ps = qiyi.puzzles.load("xiangqi")              # every shipped Xiangqi puzzle
    p = next(ps.filter(theme="mate-in-1", max_rating=1200))
    state = p.state()                              # a qiyi.State at the puzzle's position
    p.check(p.solution[0])                         # True: the first solution move
    p.reply(0)                                     # the forced reply to it (None at the end)
    qiyi.puzzles.check_file("mine.jsonl")          # re-proves a file like `qiyi puzzles check`

The sets are embedded in the extension module and read by the Rust puzzle reader (the same
files the web server serves, ``crates/<game>/puzzles/<game>.jsonl``). Moves are compared as
actions: a move text is read by the game's own move parser in the position it is played in,
so every notation the game reads is accepted. Errors are ValueErrors: an unknown game raises
:class:`qiyi.UnknownGameError`, a move that does not read :class:`qiyi.ParseError`.
"""

import json

from . import ParseError, load_game
from ._qiyi import check_puzzle_file, shipped_puzzles

__all__ = ["Puzzle", "PuzzleSet", "check_file", "load"]

# The Python game names (``qiyi.load_game``) of the puzzle files' game names.
_PY_NAMES = {
    "xiangqi": "xiangqi",
    "checkers": "checkers",
    "chinese-checkers": "chinese_checkers",
    "peg-solitaire": "peg_solitaire",
    "aeroplane": "aeroplane",
}


class Puzzle:
    """One proven puzzle: ``id``, ``game``, ``position`` (the game's position text), ``goal``,
    ``side``, ``solution`` (move texts, the player's and the forced replies in turn), ``asked``
    (the indices of ``solution`` the player is asked for), ``themes``, ``rating`` (a number),
    ``source`` and ``proof`` (dicts, as in the file)."""

    __slots__ = ("record",)

    def __init__(self, record):
        self.record = record

    id = property(lambda self: self.record["id"])
    game = property(lambda self: self.record["game"])
    variant = property(lambda self: self.record.get("variant"))
    position = property(lambda self: self.record["position"])
    goal = property(lambda self: self.record.get("goal"))
    side = property(lambda self: self.record["side"])
    solution = property(lambda self: list(self.record["solution"]))
    asked = property(lambda self: list(self.record["asked"]))
    themes = property(lambda self: list(self.record["themes"]))
    rating = property(lambda self: float(self.record["rating"]["rating"]))
    source = property(lambda self: self.record["source"])
    proof = property(lambda self: self.record["proof"])

    def __repr__(self):
        return f"Puzzle({self.id!r}, {self.game!r}, rating {self.rating:.0f})"

    def state(self, ply=0):
        """The game's :class:`qiyi.State` at the puzzle's position, after the first ``ply``
        moves of the solution."""
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= len(
            self.record["solution"]
        ):
            raise ValueError(f"ply must be a whole number in 0..={len(self.record['solution'])}")
        rules = {}
        if self.game == "peg-solitaire" and self.variant:
            rules["board"] = self.variant
        state = load_game(_PY_NAMES[self.game], **rules).new_state_from_text(self.position)
        for text in self.record["solution"][:ply]:
            state.apply_action(state.string_to_action(text))
        return state

    def check(self, move, step=0):
        """Whether ``move`` (a move text in any notation the game reads) is the solution's
        move at the player's ``step``-th turn (0: the first move asked). A move that does not
        read, or is not legal there, is not the solution: False."""
        asked = self.record["asked"]
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step < len(asked):
            raise ValueError(f"step must be a whole number in 0..{len(asked)}")
        if not isinstance(move, str):
            raise ParseError(f"move must be text (str), not {type(move).__name__}")
        ply = asked[step]
        state = self.state(ply)
        want = state.string_to_action(self.record["solution"][ply])
        try:
            got = state.string_to_action(move)
        except ValueError:
            return False
        return got == want

    def reply(self, step=0):
        """The forced reply to the player's ``step``-th move (a move text), or None when that
        move ends the puzzle."""
        asked = self.record["asked"]
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step < len(asked):
            raise ValueError(f"step must be a whole number in 0..{len(asked)}")
        ply = asked[step] + 1
        solution = self.record["solution"]
        if ply >= len(solution) or ply in asked:
            return None
        return solution[ply]


class PuzzleSet:
    """A game's puzzles, in the file's order: iterate, index, ``len``, ``themes()`` and
    ``filter(theme=, min_rating=, max_rating=)``."""

    def __init__(self, game, puzzles):
        self.game = game
        self._puzzles = puzzles

    def __len__(self):
        return len(self._puzzles)

    def __iter__(self):
        return iter(self._puzzles)

    def __getitem__(self, key):
        if isinstance(key, str):
            for p in self._puzzles:
                if p.id == key:
                    return p
            raise KeyError(key)
        return self._puzzles[key]

    def themes(self):
        """Every theme with the number of puzzles that have it."""
        counts = {}
        for p in self._puzzles:
            for t in p.record["themes"]:
                counts[t] = counts.get(t, 0) + 1
        return dict(sorted(counts.items()))

    def filter(self, theme=None, min_rating=None, max_rating=None):
        """The puzzles with the theme ``theme`` (when given) and a rating within
        ``[min_rating, max_rating]`` (each when given), in order (an iterator)."""
        for p in self._puzzles:
            if theme is not None and theme not in p.record["themes"]:
                continue
            r = p.rating
            if min_rating is not None and r < min_rating:
                continue
            if max_rating is not None and r > max_rating:
                continue
            yield p

    def __repr__(self):
        return f"PuzzleSet({self.game!r}, {len(self)} puzzles)"


def load(game):
    """The shipped puzzle set of ``game`` (``xiangqi``, ``checkers``, ``chinese_checkers``,
    ``peg_solitaire``, ``aeroplane``; the command line's names work too). An unknown game
    raises :class:`qiyi.UnknownGameError` (a ValueError)."""
    if not isinstance(game, str):
        raise ValueError(f"game must be text (str), not {type(game).__name__}")
    records = json.loads(shipped_puzzles(game))
    name = records[0]["game"] if records else game
    return PuzzleSet(name, [Puzzle(r) for r in records])


def check_file(path, *, budget=50_000_000, egdb=None):
    """Replays and proves again every puzzle of a JSON Lines puzzle file, as
    ``qiyi puzzles check`` does, and returns how many were proven. The first puzzle that fails
    raises :class:`qiyi.ParseError` naming the file, the line and the puzzle."""
    return check_puzzle_file(path, budget=budget, egdb=egdb)
