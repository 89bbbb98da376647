#!/usr/bin/env python3
"""Label the reduced bug reports by running them under JAX, and write ``manifest.json``.

    python benchmarks/reports/label.py                  # every case; writes manifest.json
    python benchmarks/reports/label.py --check FILE...  # print what JAX shows for these files

Each file runs in the differential test's worker (``benchmarks/difftest/worker.py``): as
``__main__``, then under ``jax.disable_jit()`` for reference, then under
``jax.checking_leaks()``.  The outcome is what the runs show (README.md, "The label comes from
running"); the header's ``expect`` only decides whether the file is kept.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import re
import sys
from typing import Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
sys.path.insert(0, BENCH)

from difftest import truth  # noqa: E402
from split import report_half, unit_of_source  # noqa: E402

CASES = os.path.join(HERE, "cases")
MANIFEST = os.path.join(HERE, "manifest.json")
CACHE = os.path.join(HERE, ".label-cache.json")  # not committed: labels of files already run
MARKER = re.compile(r"#\s*<--\s*bug\b")
HEADER = re.compile(r"^#\s*(source|category|expect|via|sink):\s*(.*?)\s*$")
CATEGORIES = ("A", "B", "C", "R")
EXPECTED = {"raises", "recompiles", "stale", "leaks"}
VERSIONED = ("jax", "jaxlib", "flax", "equinox", "optax", "dm-haiku", "numpyro", "numpy")
# An error is JAX's answer to tracing when its class is one of JAX's own errors or its message
# speaks of tracers, concreteness or static arguments (``jnp.zeros(n)`` with a traced ``n`` is a
# TypeError naming the tracer; an unhashable static argument is a ValueError; an argument jit
# cannot trace "is not a valid JAX type"; Flax NNX refuses a graph node "from different trace
# level").  Flax NNX's TraceContextError is its UnexpectedTracerError: an object outside a trace
# changed from inside.
JAX_ERRORS = truth.TRACED_ERRORS | {"UnexpectedTracerError", "KeyReuseError", "JaxRuntimeError", "TraceContextError"}
TRACING_WORDS = re.compile(r"tracer|traced<|concret|static|hashable|abstract|jit|valid JAX type|trace level", re.IGNORECASE)


def header(path: str) -> dict:
    """The case's header fields and its marked lines."""
    fields: Dict[str, str] = {}
    marked: List[int] = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            m = HEADER.match(line)
            if m and m.group(1) not in fields:
                fields[m.group(1)] = m.group(2)
            if MARKER.search(line):
                marked.append(number)
    fields["marked"] = marked
    return fields


def outcome(res: dict) -> dict:
    """What the runs of one file showed."""
    err = res.get("error")
    if err is not None:
        if err in ("Timeout", "WorkerError", "SystemExit"):
            return {"outcome": "failed", "reason": err.lower()}
        message = res.get("message") or ""
        if err in JAX_ERRORS or TRACING_WORDS.search(message):
            return {"outcome": "raises", "error": err, "lines": sorted(set(res.get("lines") or []))}
        return {"outcome": "failed", "reason": f"{err}: {message[:120]}"}
    if res.get("eager_error") is not None:
        return {"outcome": "failed", "reason": f"the run under disable_jit raised {res['eager_error']}"}
    if res.get("leak_error") in ("Timeout", "WorkerError", "SystemExit"):
        # the run under checking_leaks did not finish: it shows nothing, a leak least of all
        return {"outcome": "failed", "reason": f"the run under checking_leaks: {res['leak_error'].lower()}"}
    if res.get("leak_error") is not None:
        return {"outcome": "leaks", "error": res["leak_error"], "lines": sorted(set(res.get("leak_lines") or []))}
    if not truth.same_output(res.get("output") or "", res.get("eager_output") or ""):
        if truth.trace_time_logging(res):
            return {"outcome": "ok", "logging": True}
        return {"outcome": "stale", "lines": []}
    rec = truth.recompilation(res)
    if rec is not None:
        return {"outcome": "recompiles", "lines": rec[0]}
    return {"outcome": "ok"}


def verdict(kind: str, fields: dict, seen: dict) -> Optional[str]:
    """None when the file shows what its header expects at a marked line, else the reason."""
    if fields.get("category") not in CATEGORIES:
        return f"category {fields.get('category')!r} is not one of {', '.join(CATEGORIES)}"
    if not fields.get("source"):
        return "no source"
    detail = seen.get("error") or seen.get("reason") or ""
    shown = seen["outcome"] + (f" ({detail})" if detail else "")
    if kind == "fix":
        return None if seen["outcome"] == "ok" else f"the fix shows {shown}"
    expect = fields.get("expect")
    if expect not in EXPECTED:
        return f"expect {expect!r} is not one of {', '.join(sorted(EXPECTED))}"
    if not fields["marked"]:
        return "no marked line"
    if seen["outcome"] != expect:
        return f"expected {expect}, JAX shows {shown}"
    if seen["outcome"] in ("raises", "recompiles") and not set(fields["marked"]) & set(seen["lines"]):
        return f"no marked line is where JAX shows it (lines {seen['lines']})"
    return None


def case_files(root: str = CASES) -> List[str]:
    found = []
    for dirpath, dirs, names in os.walk(root):
        dirs.sort()
        found.extend(os.path.join(dirpath, n) for n in sorted(names) if n.endswith(("_bug.py", "_fix.py")))
    return found


def labeller_digest() -> str:
    """A digest of the code that runs and judges a file (this script and the differential
    test's worker and truth): a label made by other code is not reused."""
    h = hashlib.sha256()
    for path in (__file__, os.path.join(BENCH, "difftest", "worker.py"), os.path.join(BENCH, "difftest", "truth.py")):
        with open(path, "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()


def run(paths: List[str], jobs: int, progress: bool, cache: Optional[str] = None) -> Dict[str, dict]:
    """What JAX shows for each file.  With ``cache`` (a JSON file), a file whose text, the
    versions it runs on and the code that labels it were seen before is not run again."""
    known: Dict[str, dict] = {}
    if cache and os.path.exists(cache):
        with open(cache) as fh:
            known = json.load(fh)
    stamp = json.dumps([versions(), labeller_digest()], sort_keys=True)
    keys = {}
    for p in paths:
        with open(p, "rb") as fh:
            keys[p] = hashlib.sha256(fh.read() + stamp.encode()).hexdigest()
    todo = [p for p in paths if keys[p] not in known]
    fresh = _run(todo, jobs, progress) if todo else {}
    if cache:
        known.update({keys[p]: seen for p, seen in fresh.items()})
        with open(cache, "w") as fh:
            json.dump(known, fh)
    return {p: fresh[p] if p in fresh else known[keys[p]] for p in paths}


def _run(paths: List[str], jobs: int, progress: bool) -> Dict[str, dict]:
    ids = dict(enumerate(paths))
    report = None
    if progress:
        def report(done, total):
            sys.stderr.write(f"\r{done}/{total}")
    results = truth.run_all(ids, jobs, limit=60, progress=report, eager=set(ids), leaks=set(ids))
    if progress:
        sys.stderr.write("\n")
    return {ids[i]: outcome(res) for i, res in results.items()}


def versions() -> Dict[str, str]:
    out = {}
    for name in VERSIONED:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    return out


def manifest(paths: List[str], seen: Dict[str, dict]) -> dict:
    cases, dropped = [], []
    by_stem: Dict[str, Dict[str, str]] = {}
    for p in paths:
        stem, kind = p[: -len("_bug.py")], p[-6:-3]
        by_stem.setdefault(stem, {})[kind] = p
    for stem, pair in sorted(by_stem.items()):
        rel = os.path.relpath(stem, HERE)
        if set(pair) != {"bug", "fix"}:
            dropped.append({"case": rel, "reason": "no " + ({"bug", "fix"} - set(pair)).pop() + " file"})
            continue
        bug, fix = header(pair["bug"]), header(pair["fix"])
        why = verdict("bug", bug, seen[pair["bug"]]) or verdict("fix", fix, seen[pair["fix"]])
        if why:
            dropped.append({"case": rel, "reason": why})
            continue
        unit = unit_of_source(bug["source"])
        cases.append({
            "case": rel,
            "bug": os.path.relpath(pair["bug"], HERE),
            "fix": os.path.relpath(pair["fix"], HERE),
            "source": bug["source"],
            "unit": unit,
            "split": report_half(unit),
            "category": bug["category"],
            "via": [v.strip() for v in bug.get("via", "").split(",") if v.strip()],
            "sink": bug.get("sink", ""),
            "marked": bug["marked"],
            "label": seen[pair["bug"]],
        })
    return {"versions": versions(), "cases": cases, "dropped": dropped}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", nargs="+", metavar="FILE", help="print what JAX shows for these files")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-cache", action="store_true", help="run every file again")
    args = ap.parse_args(argv)
    if args.check:
        paths = [os.path.abspath(p) for p in args.check]
        seen = run(paths, min(args.jobs, len(paths)), progress=False)
        for p in paths:
            kind = "fix" if p.endswith("_fix.py") else "bug"
            fields = header(p)
            why = verdict(kind, fields, seen[p])
            shown = seen[p]
            detail = shown.get("error") or shown.get("reason") or ""
            print(f"{os.path.relpath(p)}: {shown['outcome']}" + (f" {detail}" if detail else "")
                  + (f" lines {shown['lines']}" if shown.get("lines") else "")
                  + (f" | marked {fields['marked']}" if kind == "bug" else "")
                  + ("  KEEP" if why is None else f"  DROP: {why}"))
        return 0
    paths = case_files()
    seen = run(paths, args.jobs, progress=True, cache=None if args.no_cache else CACHE)
    data = manifest(paths, seen)
    with open(MANIFEST, "w") as fh:
        json.dump(data, fh, indent=1, sort_keys=True)
        fh.write("\n")
    counts = {c: sum(1 for k in data["cases"] if k["category"] == c) for c in CATEGORIES}
    print(f"{len(data['cases'])} cases kept {counts}, {len(data['dropped'])} dropped; wrote {os.path.relpath(MANIFEST)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
