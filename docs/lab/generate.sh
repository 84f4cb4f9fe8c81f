#!/usr/bin/env bash
# Regenerates the measured tables and charts of docs/algorithms.md and of the web Lab page:
#   docs/lab/<game>.md                  the Markdown tables (pasted into docs/algorithms.md)
#   docs/lab/*.svg                      the charts (also copied to crates/web/assets/lab/)
#   crates/web/assets/lab/<game>.json   the report the Lab page shows
# Usage: docs/lab/generate.sh [path/to/qiyi] [game...]   (default: target/release/qiyi, all games)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
qiyi="${1:-$root/target/release/qiyi}"
shift || true
games=("$@")
[ ${#games[@]} -eq 0 ] && games=(xiangqi checkers chinese-checkers peg-solitaire aeroplane)
web="$root/crates/web/assets/lab"
mkdir -p "$web" "$root/docs/lab"
uptime >&2
for game in "${games[@]}"; do
  echo "== $game" >&2
  # Tournament games run on 2 threads; the searches and solvers are single-threaded.
  /usr/bin/time -f "$game: %U s user, %S s sys, %e s wall" \
    "$qiyi" --threads 2 lab "$game" --plot "$root/docs/lab" --save-json "$web/$game.json" \
    > "$root/docs/lab/$game.md"
done
cp "$root"/docs/lab/*.svg "$web/"
# Paste each game's tables into docs/algorithms.md between <!-- lab:GAME --> and <!-- /lab:GAME -->.
python3 - "$root" "${games[@]}" <<'PY'
import re, sys
root, games = sys.argv[1], sys.argv[2:]
path = f"{root}/docs/algorithms.md"
doc = open(path, encoding="utf-8").read()
for g in games:
    md = open(f"{root}/docs/lab/{g}.md", encoding="utf-8").read()
    md = md.split("\n", 2)[2]            # drop the "# qiyi lab ..." title line
    md = md.replace("\n## ", "\n#### ")  # tables nest under the game's section
    block = f"<!-- lab:{g} -->\n{md.strip()}\n<!-- /lab:{g} -->"
    doc = re.sub(rf"<!-- lab:{re.escape(g)} -->.*?<!-- /lab:{re.escape(g)} -->", lambda m: block, doc, flags=re.S)
open(path, "w", encoding="utf-8").write(doc)
PY
