"""The one pipeline for many files: discovery, the runner (processes), the result cache and the
cross-module phase.  The command line, the fixture tests and library users call
:func:`lint_files`; the flake8 plugin and the language server, which see one buffer at a time,
call :func:`jaxlint.engine.pipeline.lint_source`."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Callable, List, Mapping, Optional, Sequence, Union

from jaxlint.config import Config
from jaxlint.engine import runner
from jaxlint.engine.discovery import discover
from jaxlint.engine.project import cross_module_phase
from jaxlint.findings import Finding
from jaxlint.paths import relpath


@dataclass
class RunResult:
    findings: List[Finding] = field(default_factory=list)  # sorted
    files: List[str] = field(default_factory=list)  # the files linted ("-" for standard input)
    missing: List[str] = field(default_factory=list)  # paths that do not exist or are not files
    warnings: List[str] = field(default_factory=list)  # e.g. a path that holds no Python file
    errors: List[str] = field(default_factory=list)  # e.g. a folder that cannot be read


ConfigFor = Callable[[str], Config]


def lint_files(
    paths: Sequence[str],
    config: Union[Config, ConfigFor, None] = None,
    *,
    jobs: Optional[int] = None,
    cache_dir: Optional[str] = None,
    display: Callable[[str], str] = relpath,
    stdin: Optional[Callable[[Config, list], List[Finding]]] = None,
    respect_gitignore: bool = True,
    force_exclude: bool = False,
    files: Optional[Sequence[str]] = None,
    facts: bool = False,
    sources: Optional[Mapping[str, bytes]] = None,
) -> RunResult:
    """Lint files and folders (recursively) as one run.

    ``config``: one Config for every file, or a function giving each file's (the closest
    configuration file above it).  ``jobs``: worker processes (None: one per CPU).
    ``cache_dir``: the result cache folder, or None for no cache.  ``display``: the path a
    file's findings report.  ``stdin(config, rules)``: lints standard input, for the path "-".
    ``files``: already discovered files (``paths`` is then not walked again).  ``facts``:
    give each finding the structured facts the dynamic mode plans its checks from (computed
    only when asked: a plain lint does not pay for them).  ``sources``: contents to lint
    instead of what the files hold, by path (the fix rounds lint their text before it is
    written; the cross-module phase reads it too)."""
    if config is None:
        config = Config()
    config_for: ConfigFor = config if callable(config) else (lambda _p, c=config: c)
    # The runner and the cross-module phase both ask for each file's shown path: work it out once.
    display = functools.lru_cache(maxsize=None)(display)
    out = RunResult()
    if files is None:
        found = discover(paths, config_for, respect_gitignore, force_exclude)
        out.files, out.missing, out.warnings, out.errors = found.files, found.missing, found.warnings, found.errors
    else:
        out.files = list(files)
    each = runner.lint_configured(out.files, config_for, jobs=jobs, cache_dir=cache_dir, display=display, stdin=stdin, facts=facts, sources=sources)
    findings = each.findings
    if each.calls:
        # Helpers imported from other modules of this run, called with traced arguments.
        pairs = [(p, display(p)) for p in out.files if p != "-"]
        findings = cross_module_phase(
            pairs, each.calls, findings, config_for, cache_dir, facts, each.summaries, jobs=runner.resolve_jobs(jobs), sources=sources,
            digests=each.digests,
        )
    findings.sort(key=Finding.sort_key)
    out.findings = findings
    return out
