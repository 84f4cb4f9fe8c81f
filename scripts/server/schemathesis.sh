#!/usr/bin/env bash
# The API as a contract: schemathesis (PyPI) fuzzes a live `qiyi serve` from the OpenAPI document
# the server serves at /api/openapi.json (crates/web/openapi.json).
#
#   scripts/server/schemathesis.sh [--qiyi target/release/qiyi] [--max-examples 50] [--max-time S]
#
# The server runs on a fresh database in a temporary folder, on a free port, with no limit on games
# created per minute (the fuzzer creates many). Every operation is tested in every phase
# (examples, coverage, fuzzing, stateful: games created by POST /api/games are followed through
# the document's links) with every check schemathesis has (`--checks all`): no server error, the
# answers as documented, invalid data refused, schema-valid data accepted (positive data
# acceptance), tokens enforced (ignored_auth: a request sent again without its token must get
# 401, with a made-up one 401/403), a request without `Authorization` answered 401
# (missing_required_header), ... scripts/server/schemathesis.toml lists the only refusals of
# schema-valid requests it allows, each a text in a game's own grammar (a move, a position, a
# record) or an option that depends on the game, which JSON Schema cannot say.
# The live event stream (GET /api/games/{id}/events) is left out: it never ends by design, so a
# fuzzer would wait on it; scripts/server/soak.py opens and drops streams instead.
# Exit code: schemathesis's (0 when every check passed). Reports go to target/schemathesis/.
set -euo pipefail
cd "$(dirname "$0")/../.."

qiyi=target/release/qiyi
max_examples=50
max_time=""
while [ $# -gt 0 ]; do
  case "$1" in
    --qiyi) qiyi="$2"; shift 2 ;;
    --max-examples) max_examples="$2"; shift 2 ;;
    --max-time) max_time="$2"; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

venv=target/venv-schema
if [ ! -x "$venv/bin/schemathesis" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q schemathesis==4.32.5 hypothesis==6.170.27
fi

data="$(mktemp -d)"
out=target/schemathesis
mkdir -p "$out"
"$qiyi" serve --db "$data/games.sqlite" --port 0 --games-per-minute 0 --threads 2 --json \
  >"$data/serve.json" 2>"$out/serve.log" &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$data"; }
trap cleanup EXIT
for _ in $(seq 100); do
  [ -s "$data/serve.json" ] && break
  sleep 0.1
done
url="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["url"].rstrip("/"))' "$data/serve.json")"
echo "qiyi serve at $url (pid $pid)"

time_args=()
if [ -n "$max_time" ]; then time_args=(--max-time "$max_time"); fi
# Every check runs (`[checks] enabled = true` in schemathesis.toml, not `--checks all`: a check
# named on the command line would override the one per-operation exception the file makes).
# The hooks send each game's seat token with requests on that game (schemathesis_hooks.py). Run
# from target/schemathesis so schemathesis's own cache folder (.schemathesis/) lands there too.
root="$PWD"
cd "$out"
PYTHONPATH="$root/scripts/server${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=schemathesis_hooks \
  "$root/$venv/bin/schemathesis" --config-file "$root/scripts/server/schemathesis.toml" \
  run "$url/api/openapi.json" \
  --exclude-operation-id events \
  --max-examples "$max_examples" "${time_args[@]}" \
  --request-timeout 90 --seed 1 --workers 1 \
  --suppress-health-check too_slow \
  --report junit,har --report-dir . \
  --warnings off
