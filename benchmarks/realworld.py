#!/usr/bin/env python3
"""jaxlint on real code: recall on reduced bug reports, precision on the world corpus.

    python benchmarks/realworld.py --reports --split dev
    benchmarks/world/make-world.sh /tmp/world            # once: the pinned libraries
    python benchmarks/realworld.py --world /tmp/world --split dev --json out.json

Reports (``benchmarks/reports/``, labelled by ``reports/label.py``): a bug file is *found* when
jaxlint reports a code of its category's family on a marked line (A: JAX1xx; B: JAX2xx; C: JAX3xx
or JAX5xx; R: JAX2xx or JAX4xx), as the differential test counts.  A marker names the statement that
starts on its line: a finding on a later line of that statement counts (a call spread over lines,
where JAX's traceback names the first line and jaxlint the argument).  A fix file is *flagged* when
jaxlint reports anything on it but an API migration (JAX6xx).

World (``benchmarks/world/``): every finding but the API migrations is looked up in
``world/verdicts.json`` (``{"<library>/<path>:<line>:<code>": ["true" | "intentional" | "false",
"reason"]}``).  A rule's precision is the share of its reviewed findings that are not false: a
true bug, or the pattern the rule describes written on purpose (a deliberate trace-time print).
Findings without a verdict are counted as unreviewed and left out of the precision.

``--split`` keeps the cases and libraries of one half (``split.py``): develop against ``dev``;
``test`` is scored once at the end of a round.
"""

from __future__ import annotations

import argparse
import ast
import collections
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from typing import Dict, Iterable, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from split import half  # noqa: E402

REPORTS = os.path.join(HERE, "reports")
VERDICTS = os.path.join(HERE, "world", "verdicts.json")
FAMILY = {"A": ("JAX1",), "B": ("JAX2",), "C": ("JAX3", "JAX5"), "R": ("JAX2", "JAX4")}
MIGRATION = "JAX6"
META = "JAX0"  # findings about jaxlint itself (a file it could not parse or analyse), not about the code
CATEGORIES = ("A", "B", "C", "R")


# The checkout whose jaxlint is measured (``--jaxlint``): another release's, to compare.
JAXLINT_ROOT = [ROOT]
# ``--dynamic``: the static findings are checked by tracing them (jaxlint --dynamic).
DYNAMIC = [False]
CHECK_STALE = [False]  # with --runtime: also the opt-in check of stale values


def lint(paths: List[str], cwd: str, preview: bool, jobs: int) -> List[dict]:
    """jaxlint's JSON findings for ``paths`` (relative to ``cwd``), with default settings."""
    env = dict(os.environ, PYTHONPATH=JAXLINT_ROOT[0] + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
        out = fh.name
    cmd = [sys.executable, "-m", "jaxlint", "--isolated", "--no-cache", "--exit-zero", "--format", "json",
           "--jobs", str(jobs), "-o", out] + (["--preview"] if preview else []) + (["--dynamic"] if DYNAMIC[0] else []) + paths
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env)
        if p.returncode != 0:
            raise SystemExit(f"jaxlint failed ({p.returncode}): {p.stderr.strip()[-2000:]}")
        with open(out) as fh:
            return json.load(fh)
    finally:
        os.unlink(out)


def observe(paths: List[str], cwd: str, preview: bool, jobs: int) -> List[dict]:
    """What ``jaxlint run`` observes running each of ``paths`` as a script (relative to
    ``cwd``), without the static analysis: the runtime mode's own findings."""
    from concurrent.futures import ThreadPoolExecutor

    env = dict(os.environ, PYTHONPATH=JAXLINT_ROOT[0] + os.pathsep + os.environ.get("PYTHONPATH", ""), JAX_PLATFORMS="cpu")

    def one(path: str) -> List[dict]:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
            out = fh.name
        cmd = [sys.executable, "-m", "jaxlint", "run", "--no-static", "--format", "json", "-o", out] + (["--check-stale"] if CHECK_STALE[0] else []) + [path]
        try:
            subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env, timeout=300)
            with open(out) as fh:
                return json.load(fh) if os.path.getsize(out) else []
        except (subprocess.TimeoutExpired, ValueError):
            return []
        finally:
            os.unlink(out)

    with ThreadPoolExecutor(max(1, jobs)) as pool:
        return [f for found in pool.map(one, paths) for f in found]


def finding_path(f: dict) -> str:
    return os.path.normpath(f.get("filename") or f.get("path"))


def finding_line(f: dict) -> int:
    loc = f.get("location") or {}
    return loc.get("row") or f.get("line")


def in_split(split: str, which: str) -> bool:
    return split == "all" or split == which


def load_manifest() -> dict:
    with open(os.path.join(REPORTS, "manifest.json")) as fh:
        return json.load(fh)


def marked_statement_lines(path: str, marked: Iterable[int]) -> set:
    """The lines of each simple statement that starts on a marked line of ``path`` (the marked
    line alone where none does, or the file does not parse)."""
    lines = set(marked)
    try:
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
    except (OSError, SyntaxError, ValueError):
        return lines
    compound = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try,
                ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Match)
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not isinstance(node, compound) and node.lineno in lines:
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def score_reports(split: str, preview: bool, jobs: int, manifest: Optional[dict] = None, findings_of=lint) -> dict:
    """Recall, negatives flagged and misses on the cases of ``manifest`` (default: the whole
    corpus's) in ``split``.  ``findings_of``: the static analysis (:func:`lint`), or a run of
    each file under ``jaxlint run`` (:func:`observe`)."""
    manifest = manifest or load_manifest()
    cases = [c for c in manifest["cases"] if in_split(split, c["split"])]
    files = sorted({c["bug"] for c in cases} | {c["fix"] for c in cases})
    by_file: Dict[str, List[dict]] = collections.defaultdict(list)
    for f in findings_of(files, REPORTS, preview, jobs) if files else []:
        by_file[finding_path(f)].append(f)

    found = collections.Counter()
    total = collections.Counter()
    flagged: List[dict] = []
    misses: List[dict] = []
    verdicts = collections.Counter()
    unverified: List[str] = []  # the findings that find a bug and that tracing left unverified
    for c in cases:
        cat = c["category"]
        total[cat] += 1
        marked = marked_statement_lines(os.path.join(REPORTS, c["bug"]), c["marked"])
        hits = [f for f in by_file.get(os.path.normpath(c["bug"]), ())
                if f["code"].startswith(FAMILY[cat]) and finding_line(f) in marked]
        if hits:
            found[cat] += 1
            for f in hits[:1]:  # the dynamic verdict on the finding that finds the bug
                status = (f.get("dynamic") or {}).get("status", "none")
                verdicts[status] += 1
                if status != "confirmed" and DYNAMIC[0]:
                    unverified.append(f"{c['case']}: {f['code']}:{finding_line(f)} {status}")
        else:
            misses.append(c)
        noise = [f for f in by_file.get(os.path.normpath(c["fix"]), ()) if not f["code"].startswith(MIGRATION)]
        if noise:
            flagged.append({"case": c["case"], "findings": [f"{f['code']}:{finding_line(f)}" for f in noise]})
    return {
        "cases": len(cases),
        "units": len({c["unit"] for c in cases}),
        "recall": {k: (found[k] / total[k] if total[k] else None) for k in CATEGORIES},
        "found": dict(found),
        "total": dict(total),
        "negatives": len(cases),
        "negatives_flagged": len(flagged),
        "flagged": flagged,
        # how many fix files each code flags: a count that names no case (the test half's too)
        "flagged_by_code": dict(sorted(collections.Counter(code for f in flagged for code in {x.split(":")[0] for x in f["findings"]}).items())),
        "misses_by_sink": group(misses, lambda c: [c.get("sink") or "?"]),
        "misses_by_via": group(misses, lambda c: c.get("via") or ["?"]),
        "dynamic": dict(verdicts) if DYNAMIC[0] else None,
        "dynamic_not_confirmed": unverified,
        "dropped": len(manifest.get("dropped", [])),
        "versions": manifest.get("versions", {}),
    }


def group(cases: Iterable[dict], keys) -> Dict[str, Dict[str, int]]:
    out: Dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for c in cases:
        for k in keys(c):
            out[k][c["category"]] += 1
    return {k: dict(v) for k, v in sorted(out.items(), key=lambda kv: -sum(kv[1].values()))}


def load_verdicts() -> Dict[str, list]:
    if not os.path.exists(VERDICTS):
        return {}
    with open(VERDICTS) as fh:
        return json.load(fh)


def libraries(corpus: str) -> List[str]:
    """The libraries unpacked in the world corpus (one folder each)."""
    return sorted(d for d in os.listdir(corpus) if not d.startswith(".") and os.path.isdir(os.path.join(corpus, d)))


def world_findings(corpus: str, split: str, preview: bool, jobs: int, cached: Optional[str]) -> List[dict]:
    if cached and os.path.exists(cached):
        with open(cached) as fh:
            findings = json.load(fh)
    else:
        # Only the split's libraries are linted, so a findings file written for one half holds
        # nothing of the other (each library is linted on its own terms; none imports another).
        findings = lint([d for d in libraries(corpus) if in_split(split, half(d))], corpus, preview, jobs)
        if cached:
            with open(cached, "w") as fh:
                json.dump(findings, fh)
    return [f for f in findings if in_split(split, half(finding_path(f).split(os.sep)[0]))]


def score_world(corpus: str, split: str, preview: bool, jobs: int, cached: Optional[str]) -> dict:
    verdicts = load_verdicts()
    libs = [d for d in libraries(corpus) if in_split(split, half(d))]
    rules: Dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    unreviewed: List[str] = []
    migrations = 0
    tool: List[str] = []  # JAX0xx: a file jaxlint could not parse, or stopped on (an error, a budget)
    for f in world_findings(corpus, split, preview, jobs, cached):
        if f["code"].startswith(MIGRATION):
            migrations += 1
            continue
        if f["code"].startswith(META):
            tool.append(f"{finding_path(f)}: {f['code']} {f.get('message', '')}")
            continue
        key = f"{finding_path(f)}:{finding_line(f)}:{f['code']}"
        v = verdicts.get(key)
        kind = v[0] if v else "unreviewed"
        rules[f["code"]][kind] += 1
        if not v:
            unreviewed.append(key)

    def precision(c: collections.Counter) -> Optional[float]:
        reviewed = c["true"] + c["intentional"] + c["false"]
        return (c["true"] + c["intentional"]) / reviewed if reviewed else None

    total = sum((c for c in rules.values()), collections.Counter())
    return {
        "libraries": len(libs),
        "findings": sum(total.values()),
        "migration_findings": migrations,
        "tool_findings": tool,
        "unreviewed": len(unreviewed),
        "non_migration_precision": precision(total),
        "precision_by_rule": {code: precision(c) for code, c in sorted(rules.items())},
        "verdicts_by_rule": {code: dict(c) for code, c in sorted(rules.items())},
        "unreviewed_keys": unreviewed,
    }


def pct(x: Optional[float]) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def print_reports(r: dict) -> None:
    print(f"Reports: {r['cases']} cases from {r['units']} sources ({r['dropped']} dropped while labelling)")
    for k in CATEGORIES:
        print(f"  {k}: {r['found'].get(k, 0)}/{r['total'].get(k, 0)} found ({pct(r['recall'][k])})")
    print(f"  negatives flagged: {r['negatives_flagged']}/{r['negatives']}" + (f" ({', '.join(f'{k} {v}' for k, v in r['flagged_by_code'].items())})" if r["flagged_by_code"] else ""))
    if r.get("dynamic") is not None:
        print("  dynamic verdicts on the findings that find a bug:", ", ".join(f"{k} {v}" for k, v in sorted(r["dynamic"].items())))
        for line in r.get("dynamic_not_confirmed", ()):
            print(f"    not confirmed: {line}")
    for f in r["flagged"]:
        print(f"    {f['case']}: {', '.join(f['findings'])}")
    print("  misses by sink:", ", ".join(f"{k} {sum(v.values())}" for k, v in r["misses_by_sink"].items()))
    print("  misses by way in:", ", ".join(f"{k} {sum(v.values())}" for k, v in r["misses_by_via"].items()))


def print_world(w: dict) -> None:
    print(f"World: {w['libraries']} libraries, {w['findings']} non-migration findings "
          f"({w['migration_findings']} migrations), {w['unreviewed']} unreviewed; "
          f"{len(w['tool_findings'])} files not analysed (JAX0xx: unparsable, internal error, budget)")
    print(f"  non-migration precision: {pct(w['non_migration_precision'])}")
    for code, c in w["verdicts_by_rule"].items():
        parts = ", ".join(f"{k} {n}" for k, n in sorted(c.items()))
        print(f"  {code}: {pct(w['precision_by_rule'][code])} ({parts})")


def _importable(case: dict) -> bool:
    """Every module the case's two files import is installed here."""
    import importlib.util

    for kind in ("bug", "fix"):
        with open(os.path.join(REPORTS, case[kind]), encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
            if any(importlib.util.find_spec(n.split(".")[0]) is None for n in names):
                return False
    return True


def write_ci_subset(per_category: int, jobs: int) -> dict:
    """Pick ``per_category`` development cases of each category (by a hash of the case's name, so
    the choice does not depend on what jaxlint finds), score them, and write ``ci-subset.json``
    with floors just under the measured figures, for ``tests/slow/test_realworld_reports.py``.  Scored
    with every rule, preview included, as that test scores it: the floors are the analysis's."""
    manifest = load_manifest()
    picked: List[str] = []
    for cat in CATEGORIES:
        # the test suite runs the picked files again: only cases whose imports it has installed
        dev = [c["case"] for c in manifest["cases"] if c["split"] == "dev" and c["category"] == cat and _importable(c)]
        dev.sort(key=lambda name: hashlib.sha256(name.encode()).hexdigest())
        picked += sorted(dev[:per_category])
    cases = [c for c in manifest["cases"] if c["case"] in set(picked)]
    scored = score_reports("dev", preview=True, jobs=jobs, manifest={**manifest, "cases": cases})
    subset = {
        "cases": picked,
        "recall_at_least": {k: max(0.0, round(v - 0.005, 3)) for k, v in scored["recall"].items() if v is not None},
        "negatives_flagged_at_most": scored["negatives_flagged"],
    }
    with open(os.path.join(REPORTS, "ci-subset.json"), "w") as fh:
        json.dump(subset, fh, indent=1)
        fh.write("\n")
    return subset


MEASURED = os.path.join(ROOT, "jaxlint", "rules", "measured.py")


def write_measured(world: dict, corpus: str) -> None:
    """Record the world test half's verdicts per rule in ``jaxlint/rules/measured.py``: the
    table that decides which rules are on by default."""
    with open(MEASURED) as fh:
        text = fh.read()
    rows = []
    for code, c in sorted(world["verdicts_by_rule"].items()):
        right = c.get("true", 0) + c.get("intentional", 0)
        reviewed = right + c.get("false", 0)
        rows.append(f'    "{code}": ({right}, {reviewed}),\n')
    text = re.sub(r"^CORPUS = .*$", lambda m: f"CORPUS = {corpus!r}", text, count=1, flags=re.M)
    with open(MEASURED, "w") as fh:
        fh.write(_with_table(text, "MEASURED", rows))


def _with_table(text: str, name: str, rows: List[str]) -> str:
    """``text`` with the dict literal assigned to ``name`` (``NAME: type = {...}``) replaced by
    one of ``rows``."""
    table = "{\n" + "".join(rows) + "}"
    return re.sub(rf"^({name}: .*? = )\{{(?:\}}|\n.*?^\}})", lambda m: m.group(1) + table, text, count=1, flags=re.M | re.S)


def write_flagged_negatives(reports: dict) -> None:
    """Record how many fixed files of the reports' test half each rule flags in
    ``jaxlint/rules/measured.py`` (a rule that flags one is not on by default)."""
    with open(MEASURED) as fh:
        text = fh.read()
    rows = [f'    "{code}": {n},\n' for code, n in sorted(reports["flagged_by_code"].items())]
    text = re.sub(r"^NEGATIVES = .*$", lambda m: f"NEGATIVES = {reports['negatives']}", text, count=1, flags=re.M)
    with open(MEASURED, "w") as fh:
        fh.write(_with_table(text, "FLAGGED_NEGATIVES", rows))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reports", action="store_true", help="score the reduced bug reports")
    ap.add_argument("--world", metavar="CORPUS", help="score the world corpus unpacked in CORPUS (world/make-world.sh)")
    ap.add_argument("--world-findings", metavar="FILE", help="reuse (or write) the world corpus's findings in FILE")
    ap.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    ap.add_argument("--preview", action="store_true", help="also run the rules in preview")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", metavar="OUT", help="write the figures as JSON")
    ap.add_argument("--write-ci-subset", type=int, metavar="N", help="pick N development cases per category for the test suite")
    ap.add_argument("--write-measured", action="store_true", help="with --split test: record each rule's precision on the world corpus, and the fixed files of the reports it flags, in jaxlint/rules/measured.py")
    ap.add_argument("--dynamic", action="store_true", help="with --reports: run jaxlint --dynamic and count the verdicts on the findings that find a bug")
    ap.add_argument("--runtime", action="store_true", help="with --reports: score what `jaxlint run` observes running each file")
    ap.add_argument("--check-stale", action="store_true", help="with --runtime: also run its opt-in check of stale values")
    ap.add_argument("--jaxlint", metavar="CHECKOUT", help="measure the jaxlint of this checkout (default: this one)")
    args = ap.parse_args(argv)
    if args.jaxlint:
        JAXLINT_ROOT[0] = os.path.abspath(args.jaxlint)
    DYNAMIC[0] = args.dynamic
    CHECK_STALE[0] = args.check_stale
    if args.write_ci_subset:
        print(json.dumps(write_ci_subset(args.write_ci_subset, args.jobs), indent=1))
        return 0
    if not args.reports and not args.world:
        ap.error("give --reports, --world CORPUS, or both")
    out: Dict[str, dict] = {"split": args.split, "preview": args.preview}
    if args.reports:
        out["reports"] = score_reports(args.split, args.preview, args.jobs, findings_of=observe if args.runtime else lint)
        out["runtime"] = args.runtime
        if args.split != "dev":
            # The test half stays blind: its flagged fix files are counted, never named.
            out["reports"]["flagged"] = []
            out["reports"]["dynamic_not_confirmed"] = []
        print_reports(out["reports"])
        if args.write_measured:
            if args.split != "test" or not args.preview:
                ap.error("--write-measured takes the test half's figures with every rule (--split test --preview)")
            write_flagged_negatives(out["reports"])
    if args.world:
        out["world"] = score_world(args.world, args.split, args.preview, args.jobs, args.world_findings)
        print_world(out["world"])
        if args.write_measured:
            if args.split != "test":
                ap.error("--write-measured takes the test half's figures (--split test)")
            write_measured(out["world"], f"the {out['world']['libraries']} libraries of the world corpus's test half")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1, sort_keys=True)
            fh.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
