#!/usr/bin/env python3
"""What ``pytest --jaxlint`` costs: a test suite's wall time with and without the plugin.

    python benchmarks/runtime_overhead.py SUITE_ROOT [--repeat N] [-- PYTEST ARGS...]

Runs ``python -m pytest -q -p no:cacheprovider PYTEST ARGS`` in SUITE_ROOT (with SUITE_ROOT on
``PYTHONPATH``, so that a library's tests import its source from there), alternating the two
ways, and prints each run's time and the ratio of the medians.  The target is at most 1.3.
The plugin's report is written to a file of the temporary folder, so both runs print alike.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

TARGET = 1.3


def timed(cmd, cwd, env) -> float:
    start = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    elapsed = time.perf_counter() - start
    if p.returncode not in (0, 1):  # 1: some tests failed, and they still ran; anything else: they did not
        raise SystemExit(f"pytest exited {p.returncode}, so the suite did not run:\n{p.stdout[-2000:]}")
    return elapsed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", help="the folder pytest runs in")
    ap.add_argument("--repeat", type=int, default=3)
    argv = sys.argv[1:] if argv is None else list(argv)
    # pytest's own arguments follow "--" (argparse's remainder would take --repeat as one of them)
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    args = ap.parse_args(argv[: argv.index("--")] if "--" in argv else argv)
    root = os.path.abspath(args.root)
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""), JAX_PLATFORMS="cpu")
    base = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"] + extra
    with tempfile.TemporaryDirectory() as tmp:
        observed = base + ["--jaxlint", "--jaxlint-format", "json", "--jaxlint-output", os.path.join(tmp, "found.json")]
        plain_times, observed_times = [], []
        for i in range(args.repeat):
            plain_times.append(timed(base, root, env))
            observed_times.append(timed(observed, root, env))
            print(f"run {i + 1}: without {plain_times[-1]:.1f} s, with --jaxlint {observed_times[-1]:.1f} s", flush=True)
    ratio = statistics.median(observed_times) / statistics.median(plain_times)
    print(f"overhead: {ratio:.2f}x the plain run (target at most {TARGET}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
