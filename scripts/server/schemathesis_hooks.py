"""schemathesis hooks for qiyi serve (loaded by scripts/server/schemathesis.sh).

Requests that act for a seat need that game's secret token, which only the answer that created the
game holds. These hooks remember the token of every game schemathesis creates (`POST /api/games`,
`POST /api/games/import`) and send it with most later requests on that game, so the fuzzer reaches
past the 403 into moves, AI moves, undo, resign, draw, positions and solving. One request in
eight on a known game goes without it, so the 403 answers are fuzzed too.
"""

import random

import schemathesis

TOKENS = {}
_rng = random.Random(1)


@schemathesis.hook
def after_call(context, case, response):
    if response.status_code != 201:
        return
    try:
        v = response.json()
    except ValueError:
        return
    if not isinstance(v, dict) or not isinstance(v.get("id"), str):
        return
    token = v.get("hotseat_token")
    if not token:
        token = next((t for t in v.get("seat_tokens") or [] if isinstance(t, str)), None)
    if token:
        TOKENS[v["id"]] = token


@schemathesis.hook
def before_call(context, case, kwargs):
    gid = (case.path_parameters or {}).get("id")
    token = TOKENS.get(gid) if isinstance(gid, str) else None
    if token and _rng.random() < 0.875:
        if case.headers is None:
            case.headers = {}
        case.headers["Authorization"] = "Bearer " + token
