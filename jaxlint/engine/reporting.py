"""From rule reports to findings: the rule instances and their event handlers for one module,
the reports they make (one per node and code), and the findings those become once positions
are known."""

from __future__ import annotations

import functools
from typing import Dict, List, Optional

import libcst as cst

from jaxlint import fixes
from jaxlint.analysis.traced.events import EVENTS
from jaxlint.findings import Finding



class Pending:
    __slots__ = ("rule", "node", "frame", "fields")

    def __init__(self, rule, node, frame, fields):
        self.rule = rule
        self.node = node
        self.frame = frame
        self.fields = fields


def rule_handlers(rules):
    """(rule instances, {event: [bound on_<event> handlers]}) for the analysis rules: new
    instances for each module (a rule may keep a module's state), bound to the events their
    class handles."""
    listening, events = _handler_plan(tuple(rules))
    instances = [r() for r in listening]
    handlers: Dict[str, list] = {ev: [getattr(instances[i], "on_" + ev) for i in which] for ev, which in events}
    return instances, handlers


@functools.lru_cache(maxsize=16)
def _handler_plan(rules: tuple):
    """(the rules that listen, ((event, indices of the rules handling it), ...)): the same for
    every module of a run, so worked out once instead of asking each rule about each event."""
    listening = tuple(r for r in rules if _listens(r))
    events = []
    for ev in EVENTS:
        which = tuple(i for i, r in enumerate(listening) if hasattr(r, "on_" + ev))
        if which:
            events.append((ev, which))
    return listening, tuple(events)


def _listens(rule) -> bool:
    """False for the linter's own rules, which the pipeline and the ``noqa`` reading report
    themselves: they handle no event and check no module."""
    return hasattr(rule, "check_module") or any(hasattr(rule, "on_" + ev) for ev in EVENTS)


class Reports:
    """The reports of one module's rules, at most one per (node, code)."""

    def __init__(self) -> None:
        self.pending: List[Pending] = []
        self._seen: set = set()

    def __call__(self, rule, node, frame, fields) -> None:
        key = (id(node), rule.code)
        if key in self._seen:
            return
        self._seen.add(key)
        self.pending.append(Pending(rule, node, frame, fields))


def _short(code: str, limit: int = 60) -> str:
    code = " ".join(code.split())
    return code if len(code) <= limit else code[: limit - 3] + "..."


def materialise(module: cst.Module, path: str, pending: List[Pending], positions, analysis=None) -> List[Finding]:
    """``positions``: node -> range (ModuleAnalysis.positions: computed only for files with
    findings, the one costly metadata pass).  ``analysis``: the module's ModuleAnalysis, from
    which each finding gets its structured facts (jaxlint.engine.finding_facts)."""
    out = []
    deriver = None
    if analysis is not None:
        # imported on use: only the dynamic mode asks for the findings' facts (about 40 ms)
        from jaxlint.engine.finding_facts import FactsDeriver

        deriver = FactsDeriver(analysis)
    for p in pending:
        rng = positions.get(p.node)
        if rng is None:
            continue
        fields = {}
        related = _related(p, path, positions)
        for k, v in p.fields.items():
            if k == "related":
                continue
            if isinstance(v, cst.CSTNode):
                v = _short(module.code_for_node(v))
            fields[k] = v
        suggestion = fields.pop("suggestion", None)
        fix_safety = fields.pop("fix_safety", None)
        extra_context = fields.pop("context", None)
        autofix = fields.pop("autofix", None)
        facts = fields.pop("facts", None)
        if deriver is not None:
            try:
                facts = deriver.derive(p.node, p.frame, p.fields, facts)
            except Exception:  # noqa: BLE001 - facts are for the dynamic mode; the finding stands without them
                pass
        if p.frame is not None:
            fields.setdefault("where", p.frame.where)
        rule = p.rule
        message = rule.message.format(**fields)
        fix = rule.fix.format(**fields) if "{" in rule.fix else rule.fix
        context = _frame_context(p.frame, positions) if p.frame is not None else None
        # the finding's own tier (an API rename newer than min-jax is unsafe) wins over the rule's
        safety = fix_safety or rule.fix_safety
        sugg = None
        if suggestion:
            sugg = {"text": suggestion, **_span(rng)}
            if safety:
                sugg["safety"] = safety
        if extra_context:
            context = dict(context or {}, **extra_context)
        if autofix is not None:
            autofix = fixes.declare.materialise(autofix, module, positions)
        elif sugg is not None and safety:
            autofix = fixes.declare.from_suggestion(sugg, f"Replace with `{_short(suggestion)}`", safety)
        out.append(
            Finding(
                path=path,
                **_span(rng),
                code=rule.code,
                name=rule.name,
                message=message,
                fix=fix,
                suggestion=sugg,
                autofix=autofix,
                context=context,
                related=related,
                facts=facts,
            )
        )
    out.sort(key=Finding.sort_key)
    return out


def _related(p: Pending, path: str, positions) -> Optional[List[dict]]:
    """The finding's related locations (the other end of a path, a rebinding) that have a
    position, each with its note; None when there are none."""
    related = None
    for node, note in p.fields.get("related", ()):
        where = positions.get(node)
        if where is not None:
            related = related or []
            related.append({"path": path, **_span(where), "message": note})
    return related


def _span(rng) -> dict:
    """A node's range as a finding's fields: 1-based columns, end exclusive."""
    return {"line": rng.start.line, "column": rng.start.column + 1, "end_line": rng.end.line, "end_column": rng.end.column + 1}


def _frame_context(frame, positions) -> dict:
    """The traced function a finding is in, and the transform's entry point that traces it."""
    entry = frame.entry
    epos = positions.get(entry.func.node)
    return {
        "function": frame.func.name,
        "entry": entry.func.qualname,
        "entry_line": epos.start.line if epos is not None else None,
        "transform": entry.transform.label,
    }
