"""One module: read -> gate -> parse -> analyse -> rules -> suppressions -> findings.

One engine for every face (CLI, flake8 plugin, pre-commit, formats, dynamic mode).  Nothing
here imports or executes the code being linted.
"""

from __future__ import annotations

import sys
import threading
from functools import cached_property
from typing import Dict, Iterable, List, Optional

import libcst as cst

from jaxlint.analysis.call_sites import CallSites
from jaxlint.analysis.rebinding import Rebinding
from jaxlint.analysis.scopes import ModuleIndex
from jaxlint.analysis.static_arguments import StaticArgument, find_static_arguments
from jaxlint.analysis.tracing import EVENTS, Analyzer
from jaxlint.analysis.transforms import TransformFinder
from jaxlint.config import Config
from jaxlint.engine.noqa import apply_noqa
from jaxlint.engine.positions import node_positions
from jaxlint.engine.source import bracket_nesting_error, decode_source, mentions_jax, read_regular_file
from jaxlint.findings import Finding
from jaxlint.rules import RULES_BY_CODE, rules_for


class ModuleContext:
    """What module-level rule checks see: the module's facts, each computed on first use."""

    def __init__(self, module, index, finder, analyzer, reporter):
        self.module = module
        self.index = index
        self.finder = finder
        self.analyzer = analyzer
        self._reporter = reporter

    @cached_property
    def static_arguments(self) -> List[StaticArgument]:
        return find_static_arguments(self.index, self.finder, self.analyzer)

    @cached_property
    def rebinding(self) -> Rebinding:
        return Rebinding(self.index, self.finder)

    @cached_property
    def call_sites(self) -> CallSites:
        return CallSites(self.index)

    def report(self, rule, node, **fields) -> None:
        self._reporter(rule, node, None, fields)


class _Pending:
    __slots__ = ("rule", "node", "frame", "fields")

    def __init__(self, rule, node, frame, fields):
        self.rule = rule
        self.node = node
        self.frame = frame
        self.fields = fields


def _short(code: str, limit: int = 60) -> str:
    code = " ".join(code.split())
    return code if len(code) <= limit else code[: limit - 3] + "..."


def lint_source(
    source,
    path: str = "<string>",
    config: Optional[Config] = None,
    rules=None,
    noqa: bool = True,
    calls: Optional[list] = None,
) -> List[Finding]:
    """Lint one module given as text or bytes.  Never raises for bad input.

    ``noqa=False`` leaves ``# noqa`` comments to the caller (flake8 applies its own).
    ``calls``: when a list, the calls this module's traced code makes with traced arguments
    into imported functions are appended to it (plain dicts; see jaxlint.engine.project)."""
    config = config or Config()
    if rules is None:
        rules = rules_for(config)
    enabled = {r.code for r in rules}
    if isinstance(source, bytes):
        try:
            text = decode_source(source)
        except (UnicodeDecodeError, SyntaxError, LookupError) as e:
            return _meta(path, "JAX001", f"cannot decode file: {e}", 1, 1, enabled)
    else:
        text = source
    if "\x00" in text:  # before the gate: such a file is not Python, whatever it mentions
        return _meta(path, "JAX001", "file contains a NUL byte", 1, 1, enabled)
    if not mentions_jax(text, config.extra_jit_decorators):
        return []
    too_deep = bracket_nesting_error(text)
    if too_deep is not None:
        return _meta(path, "JAX001", too_deep[0], too_deep[1], too_deep[2], enabled)
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError as e:
        return _meta(path, "JAX001", f"syntax error: {e.message}", e.raw_line, e.raw_column + 1, enabled)
    except RecursionError:
        return _meta(path, "JAX001", "file is too deeply nested to parse", 1, 1, enabled)
    except Exception as e:  # noqa: BLE001 - the parser may fail in other ways on odd input
        return _meta(path, "JAX001", f"cannot parse file: {type(e).__name__}: {e}", 1, 1, enabled)
    ncalls = len(calls) if calls is not None else 0
    try:
        try:
            findings = _analyse(module, text, path, config, rules, calls)
        except RecursionError:
            # Deeply nested code (the parser accepts far more than the default recursion limit
            # lets the analysis walk): analyse again on a thread with room for it.
            if calls is not None:
                del calls[ncalls:]
            findings = _run_deep(_analyse, module, text, path, config, rules, calls)
    except RecursionError:
        return _meta(path, "JAX002", "RecursionError: file too deeply nested for the analysis", 1, 1, enabled)
    except Exception as e:  # noqa: BLE001 - one file's bug must never stop a run
        return _meta(path, "JAX002", f"{type(e).__name__}: {e}", 1, 1, enabled)
    ignored = config.ignored_for(path)
    if ignored:
        findings = [f for f in findings if not any(f.code.startswith(c) for c in ignored)]
    return apply_noqa(findings, text) if noqa else findings


DEEP_STACK_BYTES = 512 * 1024 * 1024
DEEP_RECURSION_LIMIT = 60_000


def _run_deep(fn, *args):
    """``fn(*args)`` on a thread with a large stack and a raised recursion limit (restored after)."""
    box: dict = {}

    def target():
        try:
            box["value"] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - re-raised in the caller's thread
            box["error"] = e

    old_limit = sys.getrecursionlimit()
    old_stack = threading.stack_size()
    sys.setrecursionlimit(max(old_limit, DEEP_RECURSION_LIMIT))
    try:
        threading.stack_size(DEEP_STACK_BYTES)
        try:
            t = threading.Thread(target=target, name="jaxlint-deep")
            t.start()
        finally:
            threading.stack_size(old_stack)
        t.join()
    finally:
        sys.setrecursionlimit(old_limit)
    if "error" in box:
        raise box["error"]
    return box["value"]


def _meta(path, code, detail, line, col, enabled) -> List[Finding]:
    if code not in enabled:
        return []
    rule = RULES_BY_CODE[code]
    return [
        Finding(
            path=path,
            line=max(1, int(line or 1)),
            column=max(1, int(col or 1)),
            end_line=max(1, int(line or 1)),
            end_column=max(1, int(col or 1)) + 1,
            code=code,
            name=rule.name,
            message=rule.message.format(detail=detail),
            fix=rule.fix,
        )
    ]


def rule_handlers(rules):
    """(rule instances, {event: [bound on_<event> handlers]}) for the analysis rules."""
    instances = [r() for r in rules if r.code not in ("JAX001", "JAX002")]
    handlers: Dict[str, list] = {}
    for ev in EVENTS:
        hs = [getattr(r, "on_" + ev) for r in instances if hasattr(r, "on_" + ev)]
        if hs:
            handlers[ev] = hs
    return instances, handlers


def _analyse(module: cst.Module, text: str, path: str, config: Config, rules, calls=None) -> List[Finding]:
    instances, handlers = rule_handlers(rules)
    pending: List[_Pending] = []
    seen = set()

    def report(rule, node, frame, fields):
        key = (id(node), rule.code)
        if key in seen:
            return
        seen.add(key)
        pending.append(_Pending(rule, node, frame, fields))

    index = ModuleIndex(module)
    finder = TransformFinder(index, frozenset(config.extra_jit_decorators))
    external = None
    if calls is not None:
        from jaxlint.engine.project import call_recorder

        external = call_recorder(path, calls)
    analyzer = Analyzer(index, finder, handlers, report, external)
    mctx = ModuleContext(module, index, finder, analyzer, report)
    analyzer.module_ctx = mctx
    if finder.applications:
        analyzer.run()
    for r in instances:
        check = getattr(r, "check_module", None)
        if check is not None:
            check(mctx)
    if not pending:
        return []
    return _materialise(module, path, pending)


def _materialise(module: cst.Module, path: str, pending: List[_Pending]) -> List[Finding]:
    # Positions are computed only for files with findings: the one costly metadata pass.
    # jaxlint.engine.positions: PositionProvider's ranges without its per-node objects.
    positions = node_positions(module)
    out = []
    for p in pending:
        rng = positions.get(p.node)
        if rng is None:
            continue
        fields = {}
        for k, v in p.fields.items():
            if isinstance(v, cst.CSTNode):
                v = _short(module.code_for_node(v))
            fields[k] = v
        suggestion = fields.pop("suggestion", None)
        if p.frame is not None:
            fields.setdefault("where", p.frame.where)
        rule = p.rule
        message = rule.message.format(**fields)
        fix = rule.fix.format(**fields) if "{" in rule.fix else rule.fix
        context = None
        if p.frame is not None:
            entry = p.frame.entry
            epos = positions.get(entry.func.node)
            context = {
                "function": p.frame.func.name,
                "entry": entry.func.qualname,
                "entry_line": epos.start.line if epos is not None else None,
                "transform": entry.transform.label,
            }
        sugg = None
        if suggestion:
            sugg = {
                "text": suggestion,
                "line": rng.start.line,
                "column": rng.start.column + 1,
                "end_line": rng.end.line,
                "end_column": rng.end.column + 1,
            }
        out.append(
            Finding(
                path=path,
                line=rng.start.line,
                column=rng.start.column + 1,
                end_line=rng.end.line,
                end_column=rng.end.column + 1,
                code=rule.code,
                name=rule.name,
                message=message,
                fix=fix,
                suggestion=sugg,
                context=context,
            )
        )
    out.sort(key=Finding.sort_key)
    return out


def read_and_lint(path: str, display: str, config: Config, rules=None, calls: Optional[list] = None) -> List[Finding]:
    """Read a file and lint it; unreadable files give a JAX001 finding."""
    try:
        data = read_regular_file(path)
    except OSError as e:
        enabled = {r.code for r in (rules or rules_for(config))}
        return _meta(display, "JAX001", f"cannot read file: {e.strerror or e}", 1, 1, enabled)
    return lint_source(data, display, config, rules, calls=calls)


def lint_paths(paths: Iterable[str], config: Optional[Config] = None) -> List[Finding]:
    """Lint files (not folders) and return all findings, sorted."""
    config = config or Config()
    rules = rules_for(config)
    out: List[Finding] = []
    for p in paths:
        out.extend(read_and_lint(p, p, config, rules))
    out.sort(key=Finding.sort_key)
    return out
