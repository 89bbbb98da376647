"""Lint the generated programs, compare jaxlint's verdict with JAX's, and summarise.

A failing program is *found* when jaxlint reports a finding of its category's family on one of
the program's failing lines (``truth.py`` defines them: for ``raises`` the lines of the program
in the traceback, for ``recompiles`` the call chain of the call that traced again and the lines
that made the compiled callable, for ``stale`` the sink's read or effect line).  The families:

- A (traced value used as a Python value): JAX1xx;
- B (static arguments): JAX2xx;
- C (frozen state and side effects): JAX3xx, JAX5xx;
- R (recompilation): JAX2xx, JAX4xx.

It is found *exactly* when such a finding is on the deepest failing line (the line JAX raised
at; for the others the last line of the chain), reported as a second, stricter number.

A clean (``ok``) program must get no finding at all; the API migrations (JAX6xx) are not
counted, since they are about the JAX version, not the program's behaviour.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Dict, List

FAMILIES = {"A": ("JAX1",), "B": ("JAX2",), "C": ("JAX3", "JAX5"), "R": ("JAX2", "JAX4")}
IGNORED_ON_CLEAN = ("JAX6",)


def lint(text: str, path: str, preview: bool = False) -> List[dict]:
    """The default rules' findings; with ``preview``, the rules in preview too."""
    from jaxlint import lint_source
    from jaxlint.config import Config

    return [
        {"code": f.code, "line": f.line, "column": f.column}
        for f in lint_source(text, path, Config(preview=preview)).findings
    ]


def verdict(record: dict) -> dict:
    """found / exact / flagged for one labelled, linted record."""
    jax = record["jax"]
    findings = record["jaxlint"]
    if jax["outcome"] == "ok":
        flagged = [f for f in findings if not f["code"].startswith(IGNORED_ON_CLEAN)]
        return {"clean": True, "flagged": bool(flagged)}
    fam = FAMILIES[record["category"]]
    lines = set(jax.get("lines") or [jax.get("line")])
    found = any(f["code"].startswith(fam) and f["line"] in lines for f in findings)
    exact = any(f["code"].startswith(fam) and f["line"] == jax.get("line") for f in findings)
    return {"clean": False, "found": found, "exact": exact}


def summarise(records: List[dict], dropped: int) -> dict:
    per_cat: Dict[str, Dict[str, int]] = {c: defaultdict(int) for c in "ABCR"}
    clean = flagged = logging = 0
    parts: Dict[str, Dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in records:
        v = verdict(r)
        r["verdict"] = v
        keys = r["parts"]
        if v["clean"]:
            clean += 1
            flagged += v["flagged"]
            logging += bool(r["jax"].get("logging"))
            per_cat[r["category"]]["clean"] += 1
            per_cat[r["category"]]["flagged"] += v["flagged"]
            for p in keys:
                parts[p]["clean"] += 1
                parts[p]["flagged"] += v["flagged"]
        else:
            c = per_cat[r["category"]]
            c["failing"] += 1
            c["found"] += v["found"]
            c["exact"] += v["exact"]
            for p in keys:
                parts[p]["failing"] += 1
                parts[p]["found"] += v["found"]
    failing = sum(c["failing"] for c in per_cat.values())
    return {
        "categories": {k: dict(v) for k, v in per_cat.items()},
        "clean": clean,
        "flagged": flagged,
        "logging": logging,
        "failing": failing,
        "dropped": dropped,
        "parts": {k: dict(v) for k, v in parts.items()},
    }


def _pct(a: int, b: int) -> str:
    return f"{100.0 * a / b:5.1f}%" if b else "    -"


def part_rows(summary: dict) -> List[tuple]:
    """(part, failing, found, recall, clean, flagged) sorted worst first: most missed plus
    wrongly flagged programs per program of that part."""
    rows = []
    for part, c in summary["parts"].items():
        failing, found = c.get("failing", 0), c.get("found", 0)
        cl, fl = c.get("clean", 0), c.get("flagged", 0)
        bad = (failing - found) + fl
        rows.append((bad / max(1, failing + cl), part, failing, found, cl, fl))
    rows.sort(key=lambda r: (-r[0], r[1]))
    return rows


def table(summary: dict, parts: bool = True) -> str:
    out = ["category  failing  found  recall  exact   clean  flagged"]
    for cat in "ABCR":
        c = summary["categories"].get(cat, {})
        f, n = c.get("failing", 0), c.get("found", 0)
        out.append(
            f"{cat:8}  {f:7}  {n:5}  {_pct(n, f)}  {_pct(c.get('exact', 0), f)}  {c.get('clean', 0):5}  {c.get('flagged', 0):7}"
        )
    tf = summary["failing"]
    tn = sum(c.get("found", 0) for c in summary["categories"].values())
    out.append(f"{'all':8}  {tf:7}  {tn:5}  {_pct(tn, tf)}")
    out.append(
        f"false flags on clean programs: {summary['flagged']} of {summary['clean']} ({_pct(summary['flagged'], summary['clean']).strip()})"
    )
    if summary.get("logging"):
        out.append(f"of them, trace-time logging (print of Python values while tracing): {summary['logging']}")
    out.append(f"dropped: {summary['dropped']}")
    if parts:
        out.append("")
        out.append("part                              failing  found  recall   clean  flagged")
        for _, part, failing, found, cl, fl in part_rows(summary):
            out.append(f"{part:32}  {failing:7}  {found:5}  {_pct(found, failing)}  {cl:6}  {fl:7}")
    return "\n".join(out)


def safe_fix(text: str, path: str, preview: bool = False) -> str:
    """The program with jaxlint's safe fixes applied (as ``jaxlint --fix``, or ``--fix --preview``)."""
    from jaxlint.engine.fixing import fix_text
    from jaxlint.config import Config
    from jaxlint.rules import rules_for

    cfg = Config(preview=preview)
    return fix_text(text, path, cfg, rules_for(cfg), unsafe=False).source


def fix_outcome(record: dict, fixed_res: dict) -> str:
    """How the fixed program behaves compared with the original: 'repaired' (a failing program
    now runs as the eager program does), 'same' (no change in behaviour), or 'changed' (a
    behaviour change other than the intended one: a new error, or different output on an ok
    path)."""
    jax = record["jax"]
    err = fixed_res.get("error")
    if jax["outcome"] == "raises":
        if err is None:
            return "repaired"
        return "same" if err == jax["error"] else "changed"
    if err is not None:
        return "changed"
    if jax["outcome"] == "stale":
        if fixed_res.get("output") == fixed_res.get("eager_output"):
            return "repaired"
        return "same"
    if fixed_res.get("output") == record.get("_output"):
        return "same"
    return "changed"
