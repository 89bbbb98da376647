#!/usr/bin/env python3
"""Write ``docs/rules.md``: every rule's ``jaxlint --explain`` text, one section per rule, each
under a heading whose anchor is the rule's code in lower case (``#jax101``), where the machine
formats and the language server link a finding.

    python scripts/rules_doc.py          # rewrite docs/rules.md from the rules
    python scripts/rules_doc.py --check  # exit 1 when docs/rules.md differs from them

The text is what ``--explain`` prints, so a change to a rule (its docs, examples, status or
measured precision) is one run of this script away from the document.
"""

from __future__ import annotations

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(argv=None) -> int:
    sys.path.insert(0, ROOT)  # the rules of this checkout, not of an installed jaxlint
    from jaxlint.formats._common import RULES_DOC
    from jaxlint.formats.rule_docs import rules_document

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when the file differs; write nothing")
    ap.add_argument("--output", default=os.path.join(ROOT, RULES_DOC), help=f"default: {RULES_DOC}")
    args = ap.parse_args(argv)
    text = rules_document()
    try:
        with open(args.output, encoding="utf-8", newline="") as fh:
            current = fh.read()
    except FileNotFoundError:
        current = None
    if args.check:
        if current != text:
            print(f"{args.output} is not current: run python scripts/rules_doc.py", file=sys.stderr)
            return 1
        return 0
    if current != text:
        with open(args.output, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        print(f"wrote {os.path.relpath(args.output)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
