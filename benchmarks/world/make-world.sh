#!/usr/bin/env bash
# Download the pinned releases in libraries.txt (beside this script) from the package
# index and unpack their Python sources: the "world" corpus, real JAX libraries that no
# tuning corpus holds, for measuring precision on code the rules were not tuned on.
#
#   make-world.sh DEST [NAME ...]     default: every library in libraries.txt
#
# DEST/<name>/... holds the .py files of each wheel; DEST/.wheels caches the wheels,
# so a second run downloads nothing. Wheels only: no sdist is ever built or run.
# A library whose download or unpack fails is reported and skipped; the script goes
# on and exits 1 at the end if any failed. Needs python3 with pip, and unzip.
set -uo pipefail
DEST=${1:?usage: make-world.sh DEST [NAME ...]}
shift || true
PY=${PYTHON:-python3}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LIST=${WORLD_LIBRARIES:-$HERE/libraries.txt}
want=("$@")
mkdir -p "$DEST/.wheels"

# The cached wheel of NAME==VER: wheel file names spell the distribution in any case and
# with '_', '-' or '.', so compare normalized names.
find_wheel() {
  local norm=$1 ver=$2 f base dist rest
  for f in "$DEST/.wheels/"*.whl; do
    [[ -e $f ]] || continue
    base=${f##*/}
    dist=${base%%-*}
    dist=${dist,,}
    dist=${dist//[.-]/_}
    rest=${base#*-}
    if [[ $dist == "$norm" && ${rest%%-*} == "$ver" ]]; then
      printf '%s\n' "$f"
      return 0
    fi
  done
  return 1
}

failed=() n=0 files=0
while read -r pin; do
  pin=${pin%%#*}
  pin=${pin//[[:space:]]/}
  [[ -z $pin ]] && continue
  name=${pin%%==*} ver=${pin##*==}
  if ((${#want[@]})) && [[ ! " ${want[*]} " == *" $name "* ]]; then continue; fi
  norm=${name,,}
  norm=${norm//[.-]/_}
  whl=$(find_wheel "$norm" "$ver" || true)
  if [[ -z $whl ]]; then
    if ! "$PY" -m pip download -q --no-deps --only-binary=:all: -d "$DEST/.wheels" "$pin"; then
      echo "$name: download failed ($pin)" >&2
      failed+=("$name")
      continue
    fi
    whl=$(find_wheel "$norm" "$ver" || true)
    if [[ -z $whl ]]; then
      echo "$name: no wheel for $pin in $DEST/.wheels after download" >&2
      failed+=("$name")
      continue
    fi
  fi
  rm -rf "${DEST:?}/$name"
  if ! unzip -q -o "$whl" '*.py' -d "$DEST/$name"; then
    echo "$name: unzip failed ($whl)" >&2
    failed+=("$name")
    continue
  fi
  count=$(find "$DEST/$name" -name '*.py' | wc -l)
  printf '%-32s %5d files\n' "$name" "$count"
  n=$((n + 1)) files=$((files + count))
done <"$LIST"

printf '%d libraries, %d .py files in %s\n' "$n" "$files" "$DEST"
if ((${#failed[@]})); then
  printf 'failed (%d): %s\n' "${#failed[@]}" "${failed[*]}" >&2
  exit 1
fi
