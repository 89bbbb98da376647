#!/usr/bin/env python3
"""Profile the per-module analysis (cProfile) over a corpus, one process, no cache.

    python benchmarks/profile_analysis.py CORPUS [--every K] [--top N] [--facts] [--out FILE]

Lints every K-th file of CORPUS (default: every file) with ``lint_source`` as the command line
does (``--facts``: also derive the dynamic mode's facts, as ``--dynamic`` does) and prints the
N functions with the most own time and the N with the most cumulative time.  ``--out`` keeps
the raw profile for ``python -m pstats``.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from jaxlint.config import Resolver  # noqa: E402
from jaxlint.engine.discovery import discover  # noqa: E402
from jaxlint.engine.pipeline import lint_source  # noqa: E402
from jaxlint.rules import RULES_BY_CODE  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("--every", type=int, default=1, help="profile every K-th file (default: all)")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--facts", action="store_true", help="derive the dynamic mode's facts too")
    ap.add_argument("--out", help="write the raw profile here")
    args = ap.parse_args(argv)
    resolver = Resolver(rules=RULES_BY_CODE)
    files = discover([args.corpus], resolver.for_path).files[:: max(1, args.every)]
    # Timed in CPU time: on a shared machine the wall clock also counts the other jobs.
    prof = cProfile.Profile(time.process_time)
    t0 = time.process_time()
    lines = 0
    for f in files:
        with open(f, "rb") as fh:
            data = fh.read()
        lines += data.count(b"\n")
        prof.enable()
        lint_source(data, f, resolver.for_path(f), facts=args.facts)
        prof.disable()
    cpu = time.process_time() - t0
    print(f"{len(files)} files, {lines} lines, {cpu:.1f} s CPU (profiled)")
    if args.out:
        prof.dump_stats(args.out)
    st = pstats.Stats(prof)
    st.sort_stats("tottime").print_stats(args.top)
    st.sort_stats("cumulative").print_stats(args.top * 3)
    return 0


if __name__ == "__main__":
    sys.exit(main())
