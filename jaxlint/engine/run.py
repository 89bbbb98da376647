"""The one pipeline for many files: discovery, the runner (processes), the result cache and the
cross-module phase.  The command line, the fixture tests and library users call
:func:`lint_files`; the flake8 plugin and the language server, which see one buffer at a time,
call :func:`jaxlint.engine.pipeline.lint_source`."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Callable, List, Mapping, Optional, Sequence, Union

import hashlib
import json

from jaxlint.config import Config
from jaxlint.engine import runner
from jaxlint.engine.cache import Cache, finding_from_json, finding_to_json
from jaxlint.engine.discovery import discover
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
        findings = _cross_module(pairs, each, findings, config_for, cache_dir, facts, runner.resolve_jobs(jobs), sources)
    findings.sort(key=Finding.sort_key)
    out.findings = findings
    return out


def _cross_module(pairs, each: runner.EachResult, findings: List[Finding], config_for: ConfigFor, cache_dir, facts, jobs, sources):
    """The cross-module phase's findings (``findings`` with the phase's added, and the unused
    ``noqa`` comments it used withdrawn).  A run whose every file, path and setting is one the
    cache saw gets the phase's result back without running it: the phase imports LibCST and
    the analysis, which a run the cache answers then does without."""
    memo = None
    if cache_dir and sources is None and all(p in each.digests for p, _ in pairs):
        blob = json.dumps(
            [facts, sorted((p, shown, each.digests[p], config_for(p).key()) for p, shown in pairs)], separators=(",", ":")
        )
        memo = Cache(cache_dir, "cross-module run", (), facts, pack=None)
        key = memo.key(hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest(), "<run>")
        hit = memo.get_json(key)
        if hit is not None:
            try:
                return [finding_from_json(d) for d in hit["findings"]]
            except (KeyError, TypeError, ValueError):
                pass  # a bad entry: run the phase and write it again
    # imported on use: the phase imports LibCST and the analysis (above)
    from jaxlint.engine.cross_module import cross_module_phase

    out = cross_module_phase(
        pairs, each.calls, findings, config_for, cache_dir, facts, each.summaries, jobs=jobs, sources=sources, digests=each.digests,
        trees=each.trees,
    )
    if memo is not None:
        memo.put_json(key, {"findings": [finding_to_json(f) for f in out]})
    return out
