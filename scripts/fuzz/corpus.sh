#!/usr/bin/env bash
# The fuzz corpora are committed packed, one minimised set per target in
# fuzz/corpus/<target>.tar.gz (a clone is mostly code; see docs/reliability.md, "The corpora").
# This unpacks them into a scratch folder to fuzz from, and packs a folder back.
#
#   scripts/fuzz/corpus.sh unpack DIR [TARGET...]  # fuzz/corpus/T.tar.gz -> DIR/T/ (emptied first)
#   scripts/fuzz/corpus.sh pack DIR [TARGET...]    # DIR/T/ -> fuzz/corpus/T.tar.gz
#
# Without TARGETs: every packed target (unpack), every folder in DIR (pack). Packing is
# reproducible (names sorted, times, owners and modes fixed, gzip without a name or time), so
# packing an unchanged set gives the same bytes and git sees no change.
set -euo pipefail
corpus=$(cd "$(dirname "$0")/../../fuzz/corpus" && pwd)
[ $# -ge 2 ] || { sed -n '6,7p' "$0" >&2; exit 2; }
cmd=$1 dir=$2
shift 2
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  case $cmd in
    unpack) for f in "$corpus"/*.tar.gz; do targets+=("$(basename "$f" .tar.gz)"); done ;;
    pack) for d in "$dir"/*/; do targets+=("$(basename "$d")"); done ;;
  esac
fi
case $cmd in
  unpack)
    mkdir -p "$dir"
    for t in "${targets[@]}"; do
      rm -rf "${dir:?}/$t"
      tar -xzf "$corpus/$t.tar.gz" -C "$dir"
    done ;;
  pack)
    for t in "${targets[@]}"; do
      [ -d "$dir/$t" ] || { echo "no folder $dir/$t" >&2; exit 1; }
      tar --format=gnu --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner \
        --mode=u=rwX,go=rX -C "$dir" -cf - "$t" | gzip -n -9 >"$corpus/$t.tar.gz.tmp"
      mv "$corpus/$t.tar.gz.tmp" "$corpus/$t.tar.gz"
    done ;;
  *) sed -n '6,7p' "$0" >&2; exit 2 ;;
esac
