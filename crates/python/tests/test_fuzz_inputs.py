"""Hypothesis property tests of bad input (issue #46, Python): random text, and valid texts with
random edits, fed to every call that reads text (positions, moves, review records, analyze
positions) and random numbers to the limits. Every call either succeeds with a valid result or
raises an exception of qiyi's own hierarchy (qiyi.Error): never a PanicException, a TypeError
or a crash of the interpreter."""

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import qiyi  # noqa: E402

GAMES = ["xiangqi", "checkers", "chinese_checkers", "peg_solitaire", "aeroplane"]

# One valid text of each kind per game, the seeds of the edited texts.
POSITIONS = {
    g: [qiyi.load_game(g).new_initial_state().to_text()] for g in GAMES
}
MOVES = {
    "xiangqi": ["h2e2", "炮二平五", "H2.5", "h9g7"],
    "checkers": ["11-15", "15x24x31", "9-14"],
    "chinese_checkers": ["n2-m6", "o1:m5", "pass"],
    "peg_solitaire": ["d2-d4", "f4-d4"],
    "aeroplane": ["a", "r6", "b"],
}
RECORDS = {
    "xiangqi": ["1. h2e2 h9g7 2. h0g2 *", "1. 炮二平五 马８进７ 2. H0-G2 *"],
    "checkers": ['[Event "x"]\n\n1. 10-15 22-17 2. 11-16 23-19 *\n'],
    "peg_solitaire": ['{"game":"peg-solitaire","rules":{"board":"english"},'
                      '"moves":[{"ply":0,"player":0,"text":"d2-d4"}]}'],
    "aeroplane": ['["r1", "r2", "r3", "r6", "a"]'],
    "chinese_checkers": ["1. n2-m6 *"],
}
# The cheapest budget for each game's engine, so a text that happens to parse is analysed fast.
ANALYZE_LIMITS = {
    "xiangqi": {"depth": 1},
    "checkers": {"depth": 1},
    "chinese_checkers": {"depth": 1},
    "peg_solitaire": {},
    "aeroplane": {"roll": 6},
}
REVIEW_LIMITS = {"xiangqi": {"depth": 1}, "checkers": {"depth": 1}}

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)

# Text as strangers write it: any unicode, the game's own alphabets, and control characters.
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzRNBAKCPrnbakcpoOWB:.,-x/ \n\t*[]{}\"'\\车马炮兵将帅进退平一二三四五六七八九"
any_text = st.one_of(
    st.text(max_size=80),
    st.text(alphabet=ALPHABET, max_size=120),
    st.binary(max_size=60).map(lambda b: b.decode("latin-1")),
)


@st.composite
def edited(draw, seeds):
    """A valid text with a few random edits: deletions, insertions, replacements, cuts."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        op = draw(st.sampled_from(["del", "ins", "rep", "cut", "dup"]))
        c = draw(st.sampled_from(ALPHABET))
        if op == "del":
            text = text[:i] + text[i + 1:]
        elif op == "ins":
            text = text[:i] + c + text[i:]
        elif op == "rep":
            text = text[:i] + c + text[i + 1:]
        elif op == "cut":
            text = text[:i]
        else:
            text = text[:i] + text[i:] + text[i:]
    return text


def texts(seeds):
    return st.one_of(any_text, edited(seeds))


def qiyi_error_or_result(call):
    """Runs `call`: a result, or a qiyi.Error; anything else fails the test."""
    try:
        return call()
    except qiyi.Error:
        return None


@pytest.mark.parametrize("game", GAMES)
def test_positions_from_text(game):
    g = qiyi.load_game(game)

    @FUZZ
    @given(texts(POSITIONS[game]))
    def check(text):
        s = qiyi_error_or_result(lambda: g.new_state_from_text(text))
        if s is not None:
            # What parses writes back and parses to the same position.
            again = g.new_state_from_text(s.to_text())
            assert again.to_text() == s.to_text()
            if not s.is_terminal():
                assert s.legal_actions() or s.is_chance_node()

    check()


@pytest.mark.parametrize("game", GAMES)
def test_move_strings(game):
    s = qiyi.load_game(game).new_initial_state()
    if s.is_chance_node():  # aeroplane: a 6 rolled, so plane moves are asked for too
        s.apply_action(s.string_to_action("r6"))

    @FUZZ
    @given(texts(MOVES[game]))
    def check(text):
        a = qiyi_error_or_result(lambda: s.string_to_action(text))
        if a is not None:
            assert a in s.legal_actions()
            c = s.clone()
            c.apply_action(a)

    check()


@pytest.mark.parametrize("game", GAMES)
def test_review_records(game):
    limits = REVIEW_LIMITS.get(game, {})

    @FUZZ
    @given(texts(RECORDS[game]))
    def check(text):
        r = qiyi_error_or_result(lambda: qiyi.review(game, text, **limits))
        if r is not None:
            assert r["format"] == 1 and len(r["plies"]) >= 0

    check()


@pytest.mark.parametrize("game", GAMES)
def test_analyze_positions(game):
    limits = ANALYZE_LIMITS[game]

    @FUZZ
    @given(texts(POSITIONS[game]))
    def check(text):
        r = qiyi_error_or_result(lambda: qiyi.analyze(game, text, **limits))
        if r is not None:
            assert r["game"] == game

    check()


numbers = st.one_of(
    st.none(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=5),
)


@FUZZ
@given(
    st.sampled_from(GAMES + ["go", "", "XIANGQI"]),
    numbers,
    numbers,
    numbers,
    numbers,
)
def test_analyze_limits_of_any_value(game, depth, movetime_ms, multipv, roll):
    # Budgets big enough to take long are refused or cut short by the small ones generated
    # alongside; a huge depth is refused with a SearchError.
    if isinstance(depth, int) and not isinstance(depth, bool) and 3 < depth <= 1000:
        depth = 3
    if isinstance(movetime_ms, int) and not isinstance(movetime_ms, bool) and movetime_ms > 20:
        movetime_ms = 20
    r = qiyi_error_or_result(
        lambda: qiyi.analyze(game, depth=depth, movetime_ms=movetime_ms, multipv=multipv, roll=roll)
    )
    if r is not None:
        assert r["game"] == game


@FUZZ
@given(st.sampled_from(["xiangqi", "checkers"]), numbers, numbers)
def test_review_limits_of_any_value(game, depth, movetime):
    if isinstance(depth, int) and not isinstance(depth, bool) and 2 < depth <= 1000:
        depth = 2
    if isinstance(movetime, (int, float)) and not isinstance(movetime, bool) and movetime > 0.01:
        movetime = 0.01
    record = RECORDS[game][0]
    r = qiyi_error_or_result(lambda: qiyi.review(game, record, depth=depth, movetime=movetime))
    if r is not None:
        assert r["game"] == game
