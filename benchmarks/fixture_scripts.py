#!/usr/bin/env python3
"""The fixtures run as scripts under the runtime mode: what ``jaxlint run`` observes of the bugs
their ``# error:`` markers name.

    python benchmarks/fixture_scripts.py [--jobs N] [--json OUT] [FIXTURE ...]

Each fixture's ``__main__`` block calls its marked code the way the fixture means it to be
used.  Each file runs as ``jaxlint run --no-static --check-stale`` (JAX on the CPU), and its
findings are compared with its markers: a marker is *observed* when a finding of its family
(JAX1xx, JAX2xx, ...) is on its line.  A finding on a line without a marker is listed.  Many
markers cannot show at run time (wrong results, API migrations, code JAX accepts silently), so
the share observed is a description of the runtime mode on the fixtures, not a target.
"""

from __future__ import annotations

import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import Dict, List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MARKER = re.compile(r"#\s*error:\s*(JAX\d{3}(?:@\d+)?(?:\s*,\s*JAX\d{3}(?:@\d+)?)*)")


def markers(path: str) -> Dict[int, List[str]]:
    found = {}
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            m = MARKER.search(line)
            if m:
                found[n] = [c.strip().partition("@")[0] for c in m.group(1).split(",")]
    return found


def observe(path: str) -> List[dict]:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""), JAX_PLATFORMS="cpu")
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "found.json")
        cmd = [sys.executable, "-m", "jaxlint", "run", "--no-static", "--check-stale", "--format", "json", "-o", out, os.path.basename(path)]
        try:
            subprocess.run(cmd, cwd=os.path.dirname(path), env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
            with open(out, encoding="utf-8") as fh:
                return json.load(fh)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            return []


def score(path: str) -> Tuple[Dict[int, List[str]], List[dict]]:
    return markers(path), observe(path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("fixtures", nargs="*", help="fixture files (default: every fixtures/*.py)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", help="write the figures as JSON")
    args = ap.parse_args(argv)
    paths = [os.path.abspath(p) for p in args.fixtures] or sorted(glob.glob(os.path.join(ROOT, "fixtures", "*.py")))
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = dict(zip(paths, pool.map(score, paths)))
    total, seen = collections.Counter(), collections.Counter()
    observed_codes = collections.Counter()
    off: List[str] = []
    for path, (marks, found) in results.items():
        at = collections.defaultdict(set)
        for f in found:
            at[f["line"]].add(f["code"][:4])
            observed_codes[f["code"]] += 1
            if f["line"] not in marks:
                off.append(f"{os.path.relpath(path, ROOT)}:{f['line']}: {f['code']} {f['message'][:100]}")
        for line, codes in marks.items():
            for code in codes:
                total[code[:4]] += 1
                seen[code[:4]] += code[:4] in at.get(line, ())
    print(f"Fixtures run as scripts: {len(paths)} files, {sum(total.values())} markers, {sum(seen.values())} observed")
    for family in sorted(total):
        print(f"  {family}xx: {seen[family]}/{total[family]} markers observed")
    print("  findings by code:", ", ".join(f"{c} {n}" for c, n in sorted(observed_codes.items())))
    print(f"  findings on lines without a marker: {len(off)}")
    for line in off:
        print("    " + line)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"files": len(paths), "markers": dict(total), "observed": dict(seen), "by_code": dict(observed_codes), "off_marker": off}, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
