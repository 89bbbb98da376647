"""The one pipeline for many files: discovery, the runner (processes), the result cache and the
cross-module phase.  The command line, the fixture tests and library users call
:func:`lint_files`; the flake8 plugin, which sees one file at a time, calls
:func:`jaxlint.engine.pipeline.lint_source`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, List, Optional, Sequence

from jaxlint.config import Config
from jaxlint.engine import runner
from jaxlint.engine.cache import Cache
from jaxlint.engine.discovery import discover, relpath
from jaxlint.engine.project import cross_module_findings
from jaxlint.findings import Finding
from jaxlint.rules import rules_for


@dataclass
class RunResult:
    findings: List[Finding] = field(default_factory=list)  # sorted
    files: List[str] = field(default_factory=list)  # the files linted ("-" for standard input)
    missing: List[str] = field(default_factory=list)  # paths that do not exist or are not files


def lint_files(
    paths: Sequence[str],
    config: Optional[Config] = None,
    *,
    jobs: Optional[int] = None,
    cache_dir: Optional[str] = None,
    display: Callable[[str], str] = relpath,
    stdin: Optional[Callable[[], List[Finding]]] = None,
) -> RunResult:
    """Lint files and folders (recursively) as one run.

    ``jobs``: worker processes (None: one per CPU).  ``cache_dir``: the result cache folder,
    or None for no cache.  ``display``: the path a file's findings report (default: relative
    to the working folder).  ``stdin``: lints standard input, for the path "-"."""
    config = config or Config()
    rules = rules_for(config)
    files, missing = discover(paths, config)
    each = runner.lint_each(files, config, rules, jobs=jobs, cache_dir=cache_dir, display=display, stdin=stdin)
    findings = each.findings
    if each.calls:
        # Helpers imported from other modules of this run, called with traced arguments.
        pairs = [(p, display(p)) for p in files if p != "-"]
        cache = Cache(cache_dir, config.key(), tuple(r.code for r in rules)) if cache_dir else None
        findings.extend(cross_module_findings(pairs, each.calls, findings, config, rules, cache))
    findings.sort(key=Finding.sort_key)
    return RunResult(findings, files, missing)
