"""One module: read -> gate -> parse -> analyse -> rules -> suppressions -> findings.

Every face (CLI, flake8 plugin, pre-commit, formats, dynamic mode) gets its findings from here,
through jaxlint.engine.run for many files.  Nothing here imports or executes the code being
linted.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from typing import List, Optional, Union

import libcst as cst

from jaxlint.config import Config
from jaxlint.engine.cache import Cache, content_digest
from jaxlint.paths import SourcePath, shown_path
from jaxlint.engine.call_records import call_recorder
from jaxlint.engine.collection import one_collection_per_module
from jaxlint.engine.module_analysis import ModuleAnalysis
from jaxlint.analysis.xmod.summaries import ModuleSummary, summarise
from jaxlint import selection
from jaxlint.suppressions import apply_directives, meta_finding as rule_finding
from jaxlint.syntax_errors import describe as describe_syntax_error
from jaxlint.engine.reporting import Reports, materialise, rule_handlers
from jaxlint.engine.piecewise_parse import parse_module
from jaxlint.engine.source import bracket_nesting_error, expression_depth_error, mentions_jax, read_regular_file
from jaxlint.source_text import decode_source
from jaxlint.findings import Finding
from jaxlint.rules import RULES_BY_CODE, rules_for


class ModuleResult:
    """What linting one module gives: its findings (sorted), and the calls its traced code makes
    with traced arguments into imported functions (records for the cross-module phase)."""

    def __init__(
        self,
        findings: Optional[List[Finding]] = None,
        calls: Optional[List[dict]] = None,
        cacheable: bool = True,
        summary: Optional[ModuleSummary] = None,
        tree: Optional[cst.Module] = None,
    ):
        self.findings = [] if findings is None else findings
        self.calls = [] if calls is None else calls
        # False when the result depends on more than the text and settings (the file ran out of
        # its time budget on a busy machine): not to be cached.
        self.cacheable = cacheable
        # What the cross-module phase looks up in the module, made while its tree is at hand
        # (when asked for, and the module was analysed): the phase then need not parse it for that.
        self.summary = summary
        # The parsed module, when asked for and the text parsed: the phase interprets it again
        # without parsing it again.
        self.tree = tree


def lint_source(
    source,
    path: Union[str, SourcePath] = "<string>",
    config: Optional[Config] = None,
    rules=None,
    noqa: bool = True,
    facts: bool = True,
    summary: bool = False,
    keep_tree: bool = False,
) -> ModuleResult:
    """Lint one module given as text or bytes.  Never raises for bad input.

    ``path``: the path findings report, or a SourcePath when the file's real path (what the
    configuration's globs match) is another.  ``noqa=False`` leaves ``# noqa`` comments to the
    caller (flake8 applies its own).  ``facts=False`` leaves out the findings' structured facts,
    which only the dynamic mode reads (the command line, the flake8 plugin and the language
    server do not pay for them).  ``summary``: also give the module's summary for the
    cross-module phase (:mod:`jaxlint.analysis.xmod.summaries`); ``keep_tree``: and its parsed
    tree."""
    with one_collection_per_module():
        return _lint_source(source, path, config, rules, noqa, facts, summary, keep_tree)


def _lint_source(
    source, where, config: Optional[Config], rules, noqa: bool, facts: bool = True, summary: bool = False, keep_tree: bool = False
) -> ModuleResult:
    path = shown_path(where)
    config = config or Config()
    if rules is None:
        rules = rules_for(config)
    enabled = {r.code for r in rules}
    if isinstance(source, bytes):
        try:
            text = decode_source(source)
        except (UnicodeDecodeError, SyntaxError, LookupError) as e:
            return ModuleResult(meta_finding(path, "JAX001", f"cannot decode file: {e}", 1, 1, enabled))
    else:
        text = source
    if "\x00" in text:  # before the gate: such a file is not Python, whatever it mentions
        return ModuleResult(meta_finding(path, "JAX001", "file contains a NUL byte", 1, 1, enabled))
    if not mentions_jax(text, config.extra_jit_decorators):
        return ModuleResult()
    too_deep = bracket_nesting_error(text) or expression_depth_error(text)
    if too_deep is not None:
        return ModuleResult(meta_finding(path, "JAX001", too_deep[0], too_deep[1], too_deep[2], enabled))
    budget = file_budget(text)
    try:
        with budget:
            result = _parse_and_analyse(text, where, config, rules, noqa, enabled, facts, summary, keep_tree)
        if not budget.spent:
            return result
        # The alarm went off in code that turned it into another error (a ``finally`` that
        # raised): the report is the budget, not that error.
        raise OverBudget()
    except OverBudget:
        return ModuleResult(meta_finding(path, "JAX002", budget.spent_message(), 1, 1, enabled), cacheable=False)


def _parse_and_analyse(
    text: str, where, config: Config, rules, noqa: bool, enabled, facts: bool, summary: bool = False, keep_tree: bool = False
) -> ModuleResult:
    path = shown_path(where)
    try:
        module = parse_module(text)
    except cst.ParserSyntaxError as e:
        return ModuleResult(meta_finding(path, "JAX001", *describe_syntax_error(text, e), enabled))
    except RecursionError:
        return ModuleResult(meta_finding(path, "JAX001", "file is too deeply nested to parse", 1, 1, enabled))
    except Exception as e:  # noqa: BLE001 - the parser may fail in other ways on odd input
        return ModuleResult(meta_finding(path, "JAX001", f"cannot parse file: {type(e).__name__}: {e}", 1, 1, enabled))
    try:
        try:
            findings, calls, summarised = _analyse(module, text, path, config, rules, facts, summary)
        except RecursionError:
            # Deeply nested code (the parser accepts far more than the default recursion limit
            # lets the analysis walk): analyse again on a thread with room for it.
            findings, calls, summarised = _run_deep(_analyse, module, text, path, config, rules, facts, summary)
    except RecursionError:
        return ModuleResult(meta_finding(path, "JAX002", "RecursionError: file too deeply nested for the analysis", 1, 1, enabled))
    except Exception as e:  # noqa: BLE001 - one file's bug must never stop a run
        return ModuleResult(meta_finding(path, "JAX002", f"{type(e).__name__}: {e}", 1, 1, enabled))
    ignored = config.ignored_for(where)
    if ignored:
        findings = [f for f in findings if not selection.any_matches(f.code, ignored)]
    findings = apply_directives(findings, text, path, enabled, noqa, RULES_BY_CODE)
    return ModuleResult(findings, calls, summary=summarised, tree=module if keep_tree else None)


# A file's parse and analysis stop after a time budget and a memory budget: a pre-commit hook
# never hangs on one file, one file never takes the machine's memory, and the other files are
# still linted.  The pre-parse checks above keep ordinary pathological input far below both;
# these are the bounds for what they do not foresee.
#
# Time: linting time grows with the file, so the default grows with it too: 60 s, plus 1 s per
# 1,000 lines (a 100,000-line module takes about 40 s alone and over 60 s on a busy machine).
# Memory: what the process's resident memory grows by while it lints the file.  400 MB is over
# twice the most that a module of the 24-library tuning corpus takes (a 1,350-line dict literal
# of JAX's Pallas tables, about 150 MB); a generated module of megabytes goes over it (a
# 100,000-line module of small functions takes about 1 GB).  The environment variables set one number (seconds; megabytes) for every file;
# 0 turns a budget off.  Memory is read from /proc (Linux): elsewhere only time is bounded.
DEFAULT_FILE_TIME_BUDGET = 60.0
BUDGET_SECONDS_PER_LINE = 0.001
BUDGET_ENV = "JAXLINT_FILE_TIME_BUDGET"
DEFAULT_FILE_MEMORY_BUDGET_MB = 400.0
MEMORY_BUDGET_ENV = "JAXLINT_FILE_MEMORY_BUDGET"
BUDGET_CHECK_INTERVAL = 0.05  # seconds between two looks at the clock and the memory


class OverBudget(BaseException):
    """Raised in the linting thread when its file's budget is spent.  A BaseException, so that
    no ``except Exception`` inside the analysis swallows it."""


def _budget_setting(env: str, default: float) -> float:

    try:
        value = float(os.environ.get(env, default))
    except ValueError:
        return default
    return value if value > 0 else 0.0


def file_budget(text: str = "") -> "budget":
    """The time (seconds) and memory (megabytes of growth) a file may take; 0: no bound."""
    seconds = _budget_setting(BUDGET_ENV, DEFAULT_FILE_TIME_BUDGET + BUDGET_SECONDS_PER_LINE * text.count("\n"))
    return budget(seconds, _budget_setting(MEMORY_BUDGET_ENV, DEFAULT_FILE_MEMORY_BUDGET_MB))


_PAGE_SIZE: Optional[int] = None


def resident_bytes() -> Optional[int]:
    """The process's resident memory now (not its peak), or None where /proc cannot tell."""
    global _PAGE_SIZE
    try:
        with open("/proc/self/statm", "rb") as fh:
            pages = int(fh.read().split()[1])
        if _PAGE_SIZE is None:

            _PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
        return pages * _PAGE_SIZE
    except (OSError, ValueError, IndexError, AttributeError):
        return None


class budget:
    """``with budget(seconds, megabytes):`` raises OverBudget in the body once ``seconds`` have
    passed or the resident memory has grown by ``megabytes`` since it began (0: no bound).  A
    timer (SIGALRM) looks every BUDGET_CHECK_INTERVAL, only in the main thread of a process
    that has no alarm handler of its own; else no budget applies.  The look runs between Python
    bytecodes: a long native call finishes first.  ``spent``: "time" or "memory" once raised."""

    def __init__(self, seconds: float, megabytes: float = 0.0):
        self.seconds = seconds
        self.megabytes = megabytes
        self.armed = False
        self.spent: Optional[str] = None

    def __enter__(self):

        if (
            (self.seconds <= 0 and self.megabytes <= 0)
            or not hasattr(signal, "setitimer")
            or threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGALRM) not in (signal.SIG_DFL, None)
        ):
            return self
        self._clock = time.monotonic
        self._deadline = self._clock() + self.seconds if self.seconds > 0 else None
        base = resident_bytes() if self.megabytes > 0 else None
        self._memory_limit = base + self.megabytes * 1024 * 1024 if base is not None else None
        signal.signal(signal.SIGALRM, self._alarm)
        first = min(self.seconds, BUDGET_CHECK_INTERVAL) if self.seconds > 0 else BUDGET_CHECK_INTERVAL
        signal.setitimer(signal.ITIMER_REAL, first, BUDGET_CHECK_INTERVAL)
        self.armed = True
        return self

    def _alarm(self, signum, frame):
        if self.spent:
            return
        if self._deadline is not None and self._clock() >= self._deadline:
            self.spent = "time"
        elif self._memory_limit is not None and (resident_bytes() or 0) > self._memory_limit:
            self.spent = "memory"
        else:
            return
        raise OverBudget()

    def spent_message(self) -> str:
        if self.spent == "memory":
            return f"linting this file took more memory than its budget of {self.megabytes:g} MB ({MEMORY_BUDGET_ENV})"
        return f"linting this file took longer than its time budget of {self.seconds:g} s ({BUDGET_ENV})"

    def __exit__(self, *exc):
        if self.armed:

            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
        return False


def _analyse(module: cst.Module, text: str, path: str, config: Config, rules, facts: bool = True, summary: bool = False):
    """(findings before suppressions, call records, summary or None) of a parsed module;
    ``facts``: derive the findings' facts for the dynamic mode; ``summary``: summarise it."""
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
    findings = materialise(module, path, reports.pending, analysis.positions, analysis if facts else None) if reports.pending else []
    # The summary's path and digest are the caller's to fill: it knows the file and its bytes.
    summarised = summarise(analysis, path, None) if summary else None
    analysis.release()
    return findings, calls, summarised


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
            # A daemon: if the file's time budget stops the wait, the process does not wait
            # for the thread at exit.
            t = threading.Thread(target=target, name="jaxlint-deep", daemon=True)
            t.start()
        finally:
            threading.stack_size(old_stack)
        t.join()
    finally:
        sys.setrecursionlimit(old_limit)
    if "error" in box:
        raise box["error"]
    return box["value"]


def meta_finding(path, code, detail, line, col, enabled) -> List[Finding]:
    """The finding of a meta rule (JAX001, JAX002) at ``line``:``col`` of ``path``, when the
    run enables it."""
    if code not in enabled:
        return []
    line, col = max(1, int(line or 1)), max(1, int(col or 1))
    return [rule_finding(RULES_BY_CODE[code], path, line, col - 1, 1, detail=detail)]


def lint_cached(text: str, path: str, config: Config, rules, cache: Optional[Cache], noqa: bool = True) -> List[Finding]:
    """The findings of one buffer, from ``cache`` when it holds them for this text and path,
    else linted (without the dynamic mode's facts) and recorded there."""
    key = cache.key(content_digest(text.encode("utf-8", "surrogateescape")), path) if cache is not None else None
    findings = cache.get(key) if cache is not None else None
    if findings is None:
        result = lint_source(text, path, config, rules, noqa=noqa, facts=False)
        findings = result.findings
        if cache is not None and result.cacheable:
            cache.put(key, findings, result.calls)
    return findings


def read_and_lint(path: str, display: str, config: Config, rules=None, facts: bool = True) -> ModuleResult:
    """Read a file and lint it; unreadable files give a JAX001 finding."""
    try:
        data = read_regular_file(path)
    except OSError as e:
        enabled = {r.code for r in (rules or rules_for(config))}
        return ModuleResult(meta_finding(display, "JAX001", f"cannot read file: {e.strerror or e}", 1, 1, enabled))
    return lint_source(data, display, config, rules, facts=facts)
