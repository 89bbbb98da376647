"""The differential test: generated JAX programs, judged by JAX, linted by jaxlint.

    python benchmarks/differential.py --programs N --seed S --jobs J --json OUT

Generates N programs from composable parts (``difftest/parts.py``: sources of a value,
carriers, transforms, sinks and guards), seeded and deterministic; runs each under JAX on the CPU
in worker processes (``difftest/worker.py``) to learn what it does (``difftest/truth.py``:
``raises``, ``recompiles``, ``stale`` or ``ok``; a run that proves nothing is dropped and
counted); lints each with jaxlint's default rules (``--preview``: the rules in preview too) and
compares (``difftest/compare.py``).
Prints recall per category (A traced values, B static arguments, C frozen state and effects,
R recompilation), the rate of clean programs flagged, the dropped count and a per-part table,
worst first.  ``--fix-check`` also applies the safe fixes to every flagged program, runs the
result and counts the programs whose behaviour changed other than as intended.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))  # this checkout's jaxlint

from difftest.compare import fix_outcome, lint, safe_fix, summarise, table  # noqa: E402
from difftest.parts import Composer  # noqa: E402
from difftest.truth import label, run_all  # noqa: E402

CATEGORIES = "ABCR"


def generate(n: int, seed: int):
    """The n programs of a seed: categories in turn, parts drawn from one seeded generator."""
    composer = Composer(random.Random(seed))
    return [composer.pick(CATEGORIES[i % len(CATEGORIES)]) for i in range(n)]


def evaluate(n: int, seed: int, jobs: int, limit: int = 20, fix_check: bool = False, workdir=None, progress=None, preview=False):
    """Generate, run, lint and compare; the JSON document of the run."""
    programs = generate(n, seed)
    own = workdir is None
    tmp = tempfile.mkdtemp(prefix="jaxlint-diff-") if own else workdir
    paths = {}
    for i, p in enumerate(programs):
        path = os.path.join(tmp, f"program_{i:05d}.py")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(p.source)
        paths[i] = path
    t0 = time.monotonic()
    raw = run_all(paths, jobs, limit, progress, eager={i for i, p in enumerate(programs) if p.category == "C"})
    run_seconds = time.monotonic() - t0
    records = []
    dropped = 0
    reasons = {}
    for i, p in enumerate(programs):
        jax = label(p.category, raw[i], p.effect_lines)
        rec = {"id": i, "category": p.category, "parts": p.parts, "source": p.source, "jax": jax}
        if jax["outcome"] == "dropped":
            dropped += 1
            reasons[jax["reason"]] = reasons.get(jax["reason"], 0) + 1
            rec["jaxlint"] = []
            rec["dropped"] = True
            records.append(rec)
            continue
        rec["_output"] = raw[i].get("output")
        rec["jaxlint"] = lint(p.source, paths[i], preview)
        records.append(rec)
    kept = [r for r in records if not r.get("dropped")]
    summary = summarise(kept, dropped)
    summary["dropped_reasons"] = reasons
    summary["run_seconds"] = round(run_seconds, 1)
    if fix_check:
        summary["fixes"] = check_fixes(kept, tmp, jobs, limit, preview)
    for r in records:
        r.pop("_output", None)
    doc = {"programs": n, "seed": seed, "dropped": dropped, "summary": summary, "records": records}
    return doc


def check_fixes(records, tmp, jobs, limit, preview=False):
    """Apply the safe fixes to each flagged program, run it, and count the outcomes."""
    todo = {}
    for r in records:
        if not r["jaxlint"]:
            continue
        fixed = safe_fix(r["source"], f"program_{r['id']:05d}.py", preview)
        if fixed == r["source"]:
            continue
        path = os.path.join(tmp, f"fixed_{r['id']:05d}.py")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(fixed)
        todo[r["id"]] = path
    raw = run_all(todo, jobs, limit, eager=set(todo)) if todo else {}
    counts = {"fixed_programs": len(todo), "repaired": 0, "same": 0, "changed": 0, "changed_ids": []}
    by_id = {r["id"]: r for r in records}
    for pid, res in raw.items():
        how = fix_outcome(by_id[pid], res)
        counts[how] += 1
        by_id[pid]["fix"] = how
        if how == "changed":
            counts["changed_ids"].append(pid)
    return counts


def relint(doc: dict, preview: bool = False) -> dict:
    """The same records linted again by this checkout's jaxlint (JAX's verdicts kept): how a
    change to the analysis moves the numbers, without running the programs again."""
    records = doc["records"]
    for r in records:
        if not r.get("dropped"):
            r["jaxlint"] = lint(r["source"], f"program_{r['id']:05d}.py", preview)
    kept = [r for r in records if not r.get("dropped")]
    summary = summarise(kept, doc["dropped"])
    old = doc.get("summary", {})
    for key in ("dropped_reasons", "run_seconds"):
        if key in old:
            summary[key] = old[key]
    doc["summary"] = summary
    return doc


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--programs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", dest="json_out", default=None)
    ap.add_argument("--limit", type=int, default=20, help="seconds per program run")
    ap.add_argument("--fix-check", action="store_true", help="apply safe fixes to flagged programs and run them")
    ap.add_argument("--no-parts", action="store_true", help="leave the per-part table out")
    ap.add_argument("--preview", action="store_true", help="also run the rules in preview (as jaxlint --preview)")
    ap.add_argument("--relint", metavar="JSON", help="lint the programs of an earlier run's JSON again (JAX's verdicts kept)")
    args = ap.parse_args(argv)
    if args.relint:
        with open(args.relint, encoding="utf-8") as fh:
            doc = relint(json.load(fh), args.preview)
        print(table(doc["summary"], parts=not args.no_parts))
        if args.json_out:
            with open(args.json_out, "w", encoding="utf-8") as fh:
                json.dump(doc, fh, indent=1)
        return 0

    def progress(done, total):
        if sys.stderr.isatty() and (done % 50 == 0 or done == total):
            print(f"\r{done}/{total}", end="" if done < total else "\n", file=sys.stderr, flush=True)

    doc = evaluate(args.programs, args.seed, args.jobs, args.limit, args.fix_check, progress=progress, preview=args.preview)
    print(table(doc["summary"], parts=not args.no_parts))
    fx = doc["summary"].get("fixes")
    if fx:
        print(
            f"safe fixes: {fx['fixed_programs']} programs fixed; {fx['repaired']} repaired, "
            f"{fx['same']} unchanged in behaviour, {fx['changed']} changed other than intended"
        )
    if args.json_out:
        with open(args.json_out, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
