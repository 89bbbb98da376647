"""Findings whose traced entry point lives in another file of the run.

The cross-module phase reports a helper's line (``models.py``) reached with traced arguments
from a jitted function of another module (``train.py``).  The finding's facts name that entry
point and its file; here the entry's file is analysed (parsed, never run) to describe the entry
point as the worker reaches it -- in that module, with that module's example arguments -- and
the description goes into the finding's facts, with the file the worker imports it from.  The
worker then imports that module too (by its dotted name inside a package) and watches the
finding's own file for the line.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Callable, Dict, List, Optional, Sequence

import libcst as cst

from jaxlint.config import Config
from jaxlint.engine.finding_facts import FactsDeriver
from jaxlint.engine.module_analysis import ModuleAnalysis
from jaxlint.source_text import decode_source
from jaxlint.findings import Finding


def _entries(path: str, config: Config) -> Dict[str, dict]:
    """The transformed functions of the file at ``path``, by the label the analysis gives its
    frames (``jitted walk()``), each as the worker reaches it; {} when it cannot be read."""
    try:
        with open(path, "rb") as fh:
            text = decode_source(fh.read())
        analysis = ModuleAnalysis(cst.parse_module(text), text, config)
        if analysis.finder.applications:
            analysis.analyzer.run()
        deriver = FactsDeriver(analysis)
        out: Dict[str, dict] = {}
        for app in analysis.finder.applications:
            label = f"{app.transform.label} {app.func.name}()"
            if label in out:
                continue
            traced = deriver.entry(app)
            if traced is None:
                traced, _reason = deriver.factory(app)
            if traced is not None:
                out[label] = dict(traced, path=os.path.abspath(path))
        return out
    except Exception:  # noqa: BLE001 - a file the run could not analyse leaves the finding as it was
        return {}


def reach_remote_entries(
    findings: Sequence[Finding],
    real_paths: Dict[str, str],
    config_for: Optional[Callable[[str], Config]] = None,
) -> List[Finding]:
    """``findings`` with the facts of those whose traced entry point is in another file filled
    in from that file (``traced``, with the file to import), when the entry point is found
    there; the others as they are."""
    cache: Dict[str, Dict[str, dict]] = {}
    out: List[Finding] = []
    for f in findings:
        facts = f.facts
        remote = facts.remote_entry if facts is not None else None
        if remote is None or facts.traced is not None:
            out.append(f)
            continue
        path = _real(remote.get("path"), real_paths, f.path)
        traced = None
        if path is not None:
            if path not in cache:
                cache[path] = _entries(path, config_for(path) if config_for is not None else Config())
            traced = cache[path].get(remote.get("label"))
        if traced is None:
            label, where = remote.get("label"), remote.get("path")
            if path is None:
                why = f"its traced entry point, {label}, is in {where}, which was not found"
            else:
                why = f"its traced entry point, {label}, cannot be reached from {where} after import (nested function or lambda)"
            out.append(dataclasses.replace(f, facts=facts._replace(unreachable=why)))
            continue
        out.append(dataclasses.replace(f, facts=facts._replace(traced=traced, unreachable=None)))
    return out


def _real(display: Optional[str], real_paths: Dict[str, str], own: str) -> Optional[str]:
    """The file the run shows as ``display``: as the run mapped it, else where it is relative
    to the finding's own file (both shown relative to one folder)."""
    if not display:
        return None
    real = real_paths.get(display)
    if real is None and not os.path.isabs(display):
        mine = real_paths.get(own)
        if mine is not None and os.path.normpath(os.path.abspath(mine)).endswith(os.sep + os.path.normpath(own)):
            base = os.path.abspath(mine)[: -len(os.path.normpath(own))]
            real = os.path.join(base, display)
    if real is None:
        real = display
    return real if os.path.isfile(real) else None
