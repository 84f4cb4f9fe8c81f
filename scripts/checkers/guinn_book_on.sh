#!/bin/sh
# GuiNN with its opening book on, whatever the match runner asks: `../shared/tools/ck_match.py`
# turns the book off (`SETPARAMETER use_book false`); this rewrites that one line, for the
# books-on measure of issue 57 (both engines with their books, as a player would use them).
#
# usage: ck_match.py ... --b "scripts/checkers/guinn_book_on.sh GUINN_COMMAND" --b-proto simple
[ $# -ge 1 ] || { echo "usage: $0 GUINN_COMMAND [ARGS...]" >&2; exit 2; }
sed -u 's/^SETPARAMETER use_book false$/SETPARAMETER use_book true/' | "$@"
