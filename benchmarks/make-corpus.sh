#!/usr/bin/env bash
# The tuning corpus: pinned releases of 24 JAX libraries, downloaded from the package index
# and unpacked to their Python sources, for the speed benchmark (bench.py), the crash and
# precision checks (corpus_findings.py) and the piecewise-parse check.
#
#   benchmarks/make-corpus.sh DEST [NAME ...]     default: every library below
#
# DEST/<name>/ holds the .py files of each wheel (about 2,730 files, 868k lines in all);
# DEST/.wheels keeps the wheels, so a second run downloads nothing.  Wheels only: nothing is
# built or run.  Subsets the benchmarks name: mid = flax optax equinox; users = all but jax.
# Needs python3 with pip (PYTHON=... to choose another), and unzip.
set -euo pipefail
DEST=${1:?usage: make-corpus.sh DEST [NAME ...]}
shift || true
PY=${PYTHON:-python3}
PINS=(
  jax==0.10.2 flax==0.12.8 optax==0.2.8 equinox==0.13.8 chex==0.1.92 dm-haiku==0.0.17
  diffrax==0.7.2 numpyro==0.22.0 blackjax==1.7.1 distrax==0.1.9 rlax==0.1.9 jaxopt==0.8.5
  optimistix==0.1.0 lineax==0.1.1 jax-md==0.2.29 brax==0.14.2 mctx==0.0.71 jumanji==1.1.2
  gymnax==1.0.1 evosax==0.3.2 dm-pix==0.4.5 jraph==0.0.6.dev0 kfac-jax==0.0.8
  orbax-checkpoint==0.12.8
)
want=("$@")
mkdir -p "$DEST/.wheels"
for pin in "${PINS[@]}"; do
  name=${pin%%==*} ver=${pin##*==}
  if ((${#want[@]})) && [[ ! " ${want[*]} " == *" $name "* ]]; then continue; fi
  dist=${name//-/_}  # wheel file names spell the distribution with '_'
  whl=$(ls "$DEST/.wheels/${dist}-${ver}-"*.whl 2>/dev/null | head -n1 || true)
  if [[ -z $whl ]]; then
    "$PY" -m pip download -q --no-deps --only-binary=:all: -d "$DEST/.wheels" "$pin"
    whl=$(ls "$DEST/.wheels/${dist}-${ver}-"*.whl | head -n1)
  fi
  rm -rf "${DEST:?}/$name"
  unzip -q -o "$whl" '*.py' -d "$DEST/$name"
  printf '%-18s %5d files\n' "$name" "$(find "$DEST/$name" -name '*.py' | wc -l)"
done
