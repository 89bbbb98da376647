"""One module: read -> gate -> parse -> analyse -> rules -> suppressions -> findings.

Every face (CLI, flake8 plugin, pre-commit, formats, dynamic mode) gets its findings from here,
through jaxlint.engine.run for many files.  Nothing here imports or executes the code being
linted.
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass, field
from typing import List, Optional

import libcst as cst

from jaxlint.config import Config
from jaxlint.engine.call_records import call_recorder
from jaxlint.engine.collection import one_collection_per_module
from jaxlint.engine.module_analysis import ModuleAnalysis
from jaxlint import selectors
from jaxlint.engine.noqa import apply_directives
from jaxlint.syntax_errors import describe as describe_syntax_error
from jaxlint.engine.reporting import Reports, materialise, rule_handlers
from jaxlint.engine.source import bracket_nesting_error, decode_source, mentions_jax, parse_module, read_regular_file
from jaxlint.findings import Finding
from jaxlint.rules import RULES_BY_CODE, rules_for


@dataclass
class ModuleResult:
    """What linting one module gives: its findings (sorted), and the calls its traced code makes
    with traced arguments into imported functions (records for the cross-module phase)."""

    findings: List[Finding] = field(default_factory=list)
    calls: List[dict] = field(default_factory=list)


def lint_source(
    source,
    path: str = "<string>",
    config: Optional[Config] = None,
    rules=None,
    noqa: bool = True,
    facts: bool = True,
) -> ModuleResult:
    """Lint one module given as text or bytes.  Never raises for bad input.

    ``noqa=False`` leaves ``# noqa`` comments to the caller (flake8 applies its own).
    ``facts=False`` leaves out the findings' structured facts, which only the dynamic mode
    reads (the command line, the flake8 plugin and the language server do not pay for them)."""
    with one_collection_per_module():
        return _lint_source(source, path, config, rules, noqa, facts)


def _lint_source(source, path: str, config: Optional[Config], rules, noqa: bool, facts: bool = True) -> ModuleResult:
    config = config or Config()
    if rules is None:
        rules = rules_for(config)
    enabled = {r.code for r in rules}
    if isinstance(source, bytes):
        try:
            text = decode_source(source)
        except (UnicodeDecodeError, SyntaxError, LookupError) as e:
            return ModuleResult(_meta(path, "JAX001", f"cannot decode file: {e}", 1, 1, enabled))
    else:
        text = source
    if "\x00" in text:  # before the gate: such a file is not Python, whatever it mentions
        return ModuleResult(_meta(path, "JAX001", "file contains a NUL byte", 1, 1, enabled))
    if not mentions_jax(text, config.extra_jit_decorators):
        return ModuleResult()
    too_deep = bracket_nesting_error(text)
    if too_deep is not None:
        return ModuleResult(_meta(path, "JAX001", too_deep[0], too_deep[1], too_deep[2], enabled))
    try:
        module = parse_module(text)
    except cst.ParserSyntaxError as e:
        return ModuleResult(_meta(path, "JAX001", *describe_syntax_error(text, e), enabled))
    except RecursionError:
        return ModuleResult(_meta(path, "JAX001", "file is too deeply nested to parse", 1, 1, enabled))
    except Exception as e:  # noqa: BLE001 - the parser may fail in other ways on odd input
        return ModuleResult(_meta(path, "JAX001", f"cannot parse file: {type(e).__name__}: {e}", 1, 1, enabled))
    try:
        try:
            findings, calls = _analyse(module, text, path, config, rules, facts)
        except RecursionError:
            # Deeply nested code (the parser accepts far more than the default recursion limit
            # lets the analysis walk): analyse again on a thread with room for it.
            findings, calls = _run_deep(_analyse, module, text, path, config, rules, facts)
    except RecursionError:
        return ModuleResult(_meta(path, "JAX002", "RecursionError: file too deeply nested for the analysis", 1, 1, enabled))
    except Exception as e:  # noqa: BLE001 - one file's bug must never stop a run
        return ModuleResult(_meta(path, "JAX002", f"{type(e).__name__}: {e}", 1, 1, enabled))
    ignored = config.ignored_for(path)
    if ignored:
        findings = [f for f in findings if not selectors.any_matches(f.code, ignored)]
    return ModuleResult(apply_directives(findings, text, path, enabled, noqa), calls)


def _analyse(module: cst.Module, text: str, path: str, config: Config, rules, facts: bool = True):
    """(findings before suppressions, call records) of a parsed module; ``facts``: derive the
    findings' facts for the dynamic mode."""
    instances, handlers = rule_handlers(rules)
    reports = Reports()
    calls: List[dict] = []
    analysis = ModuleAnalysis(module, text, config, handlers, reports, call_recorder(path, calls))
    if analysis.finder.applications:
        analysis.analyzer.run()
    for r in instances:
        check = getattr(r, "check_module", None)
        if check is not None:
            check(analysis)
    if not reports.pending:
        return [], calls
    return materialise(module, path, reports.pending, analysis.positions, analysis if facts else None), calls


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


def read_and_lint(path: str, display: str, config: Config, rules=None, facts: bool = True) -> ModuleResult:
    """Read a file and lint it; unreadable files give a JAX001 finding."""
    try:
        data = read_regular_file(path)
    except OSError as e:
        enabled = {r.code for r in (rules or rules_for(config))}
        return ModuleResult(_meta(display, "JAX001", f"cannot read file: {e.strerror or e}", 1, 1, enabled))
    return lint_source(data, display, config, rules, facts=facts)
