#!/usr/bin/env python3
"""Check the piecewise parse on a corpus: every module cut before every top-level statement
where a cut may be made, its pieces parsed alone and joined, against LibCST's parse of the whole.

    python benchmarks/piecewise_check.py CORPUS [--piece N]

The engine cuts only modules over ``2 * PIECE`` characters, into pieces of at least ``PIECE``;
this check cuts every module as finely as it can (``--piece 1``, the default), so that each
place a cut may fall is checked.  It prints each module whose joined tree differs from the
whole's (``deep_equals``) and a count of modules joined, parsed whole because their pieces
disagree (indentation, newlines), and not cut at all; the exit status is 1 if any differs.
"""

from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import libcst as cst  # noqa: E402

from jaxlint.engine.discovery import discover  # noqa: E402
from jaxlint.config import Config  # noqa: E402
from jaxlint.engine.piecewise_parse import find_cuts, parse_pieces  # noqa: E402
from jaxlint.source_text import decode_source  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("--piece", type=int, default=1, help="the least piece, in characters (default: 1, a cut wherever one may be made)")
    args = ap.parse_args(argv)
    config = Config()
    files = discover([args.corpus], lambda _p: config, False, False).files
    joined = disagree = uncut = unparsed = differ = 0
    for path in files:
        try:
            with open(path, "rb") as fh:
                text = decode_source(fh.read())
            whole = cst.parse_module(text)
        except Exception:  # noqa: BLE001 - not a module LibCST parses: nothing to compare
            unparsed += 1
            continue
        cuts = find_cuts(text, args.piece)
        if not cuts:
            uncut += 1
            continue
        tree = parse_pieces(text, cuts)
        if tree is None:
            disagree += 1
            continue
        joined += 1
        if not tree.deep_equals(whole):
            differ += 1
            print(f"differs: {path}", flush=True)
    print(
        f"{len(files)} files: {joined} joined ({differ} differ from the whole), {disagree} parsed whole "
        f"(pieces disagree), {uncut} not cut, {unparsed} not parsed by LibCST"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
