#!/usr/bin/env bash
# The wide corpus: pinned releases of 25 more JAX-using libraries, none of them in
# make-corpus.sh (ML frameworks, scientific computing, probabilistic modelling, RL
# environments), for precision on code the rules were not written against.
#
#   benchmarks/make-wide-corpus.sh DEST [NAME ...]     default: every library below
#
# DEST/<name>/ holds the .py files of each release (about 2,040 files, 513k lines in all);
# DEST/.wheels keeps the downloads, so a second run downloads nothing.  A library without a
# wheel (jaxline) is taken from its sdist, of which only the import package's folder
# (<name with '-' as '_'>/) is kept, as a wheel would hold it (pip reads an sdist's metadata
# by running its build backend; nothing else of a library is run).
# Versions: the newest that pip on Python 3.11 downloaded on 2026-12-01, except where a newer
# one needs another Python (brainpy 2.9, navix >= 0.7.5 and jax-fem 0.0.12 need >= 3.12;
# lagrangebench > 0.0.1 needs <= 3.11.0) and fedjax 0.0.16 (the 0.0.17 wheel ships a second
# copy of its tree under build/lib/).
# Needs python3 with pip (PYTHON=... to choose another), unzip and tar.
set -euo pipefail
DEST=${1:?usage: make-wide-corpus.sh DEST [NAME ...]}
shift || true
PY=${PYTHON:-python3}
PINS=(
  praxis==1.4.0 paxml==1.4.0 levanter==1.1 fedjax==0.0.16 clu==0.0.12
  jaxline==0.0.8 jaxonnxruntime==0.3.0 brainpy==2.8.2 exojax==2.6.0 jax-galsim==2026.7.0
  s2fft==1.5.0 jax-fdm==0.14.1 vbjax==0.0.19 jaxoplanet==0.2.0 lagrangebench==0.0.1
  jax-fem==0.0.11 gpjax==1.0.0 probjax==0.1.0 bijx==1.3.2 pgmax==0.6.1
  jaxmarl==0.2.0 craftax==1.6.1 navix==0.7.4 xminigrid==0.9.3 rejax==0.1.3
)
want=("$@")
mkdir -p "$DEST/.wheels"
for pin in "${PINS[@]}"; do
  name=${pin%%==*} ver=${pin##*==}
  if ((${#want[@]})) && [[ ! " ${want[*]} " == *" $name "* ]]; then continue; fi
  dist=${name//-/_}  # wheel file names spell the distribution with '_'
  whl=$(ls "$DEST/.wheels/${dist}-${ver}-"*.whl 2>/dev/null | head -n1 || true)
  sdist=$(ls "$DEST/.wheels/${name}-${ver}.tar.gz" "$DEST/.wheels/${dist}-${ver}.tar.gz" 2>/dev/null | head -n1 || true)
  if [[ -z $whl && -z $sdist ]]; then
    if "$PY" -m pip download -q --no-deps --only-binary=:all: -d "$DEST/.wheels" "$pin" 2>/dev/null; then
      whl=$(ls "$DEST/.wheels/${dist}-${ver}-"*.whl | head -n1)
    else
      echo "$name: no wheel, taking the sdist" >&2
      "$PY" -m pip download -q --no-deps --no-binary=:all: -d "$DEST/.wheels" "$pin"
      sdist=$(ls "$DEST/.wheels/${name}-${ver}.tar.gz" "$DEST/.wheels/${dist}-${ver}.tar.gz" 2>/dev/null | head -n1 || true)
    fi
  fi
  rm -rf "${DEST:?}/$name"
  if [[ -n $whl ]]; then
    unzip -q -o "$whl" '*.py' -d "$DEST/$name"
  else
    mkdir -p "$DEST/$name"
    tar -xzf "$sdist" -C "$DEST/$name" --strip-components=1 --wildcards "*/${dist}/*.py"
  fi
  printf '%-18s %5d files\n' "$name" "$(find "$DEST/$name" -name '*.py' | wc -l)"
done
