"""schemathesis hooks for qiyi serve (loaded by scripts/server/schemathesis.sh).

Requests that act for a seat need that game's secret token, which only the answer that created the
game holds. These hooks remember the token of every game schemathesis creates (`POST /api/games`,
`POST /api/games/import`) and give it, as schemathesis's auth, to most later requests on that game,
so the fuzzer reaches past the 401/403 into moves, AI moves, undo, resign, draw, positions and
solving. One request in eight on a known game goes without it, so the 401 answers are fuzzed too.
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


@schemathesis.auth(refresh_interval=None)
class SeatToken:
    """The seat token of the game a request is on, as schemathesis's own (explicit) auth.

    Given through an auth provider rather than written into the headers by a hook, so that
    schemathesis knows the request carries real credentials: its `ignored_auth` check then sends
    the same request again without the token and with a made-up one, and expects them refused
    (401 without a token, 403 with one that is not the game's). A hook that wrote the header
    would also overwrite those probes' made-up tokens.
    """

    def get(self, case, ctx):
        gid = (case.path_parameters or {}).get("id")
        token = TOKENS.get(gid) if isinstance(gid, str) else None
        if token and _rng.random() < 0.875:
            return token
        return None

    def set(self, case, data, ctx):
        if case.headers is None:
            case.headers = {}
        case.headers["Authorization"] = "Bearer " + data
