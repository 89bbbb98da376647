"""The one pipeline for many files: discovery, the runner (processes), the result cache and the
cross-module phase.  The command line, the fixture tests and library users call
:func:`lint_files`; the flake8 plugin and the language server, which see one buffer at a time,
call :func:`jaxlint.engine.pipeline.lint_source`."""

from __future__ import annotations

import functools
from typing import Callable, List, Mapping, Optional, Sequence, Union

import json

from jaxlint.config import Config
from jaxlint.engine import runner
from jaxlint.engine.cache import Cache, StatIndex, build_digest, finding_from_json, finding_to_json, sha256
from jaxlint.engine.discovery import discover
from jaxlint.findings import Finding
from jaxlint.paths import relpath


class RunResult:
    """What a run found.  (Plain classes, not dataclasses, for the records every run makes: a
    dataclass compiles its methods when its module is imported, which a one-file run pays for.)"""

    def __init__(self) -> None:
        self.findings: List[Finding] = []  # sorted
        self.files: List[str] = []  # the files linted ("-" for standard input)
        self.missing: List[str] = []  # paths that do not exist or are not files
        self.warnings: List[str] = []  # e.g. a path that holds no Python file
        self.errors: List[str] = []  # e.g. a folder that cannot be read


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
    memo = _RunMemo(cache_dir, out.files, display, config_for, facts) if cache_dir and sources is None and "-" not in out.files else None
    if memo is not None and memo.findings is not None:
        # What the index learnt on the way (a file read again because its stat was too close
        # to the index's writing, jaxlint's own files at a new place) is kept, or every later
        # run would read those files again.
        memo.index.save()
        out.findings = memo.findings
        return out
    each = runner.lint_configured(
        out.files, config_for, jobs=jobs, cache_dir=cache_dir, display=display, stdin=stdin, facts=facts, sources=sources,
        index=memo.index if memo is not None else None,
    )
    findings = each.findings
    if memo is not None and memo.lookup(each.digests):
        out.findings = memo.findings
        return out
    if each.calls:
        # Helpers imported from other modules of this run, called with traced arguments.
        # imported on use: the phase imports LibCST and the analysis, which a run the cache answers does without
        from jaxlint.engine.cross_module import cross_module_phase

        pairs = [(p, display(p)) for p in out.files if p != "-"]
        findings = cross_module_phase(
            pairs, each.calls, findings, config_for, cache_dir, facts, each.summaries, jobs=runner.resolve_jobs(jobs), sources=sources,
            digests=each.digests, trees=each.trees,
        )
    findings.sort(key=Finding.sort_key)
    if memo is not None and each.cacheable:
        memo.store(findings)
    out.findings = findings
    return out


class _RunMemo:
    """The findings of a whole run, by everything they depend on: each file's path, shown path,
    content digest and settings, in order, and whether findings carry facts (jaxlint's build is
    in every key).  A run over files the stat index knows unchanged is answered by one entry,
    before anything else: no file read, no per-file entry, and neither LibCST nor the analysis
    imported.  Otherwise it is looked up once the per-file pass knows every digest (a file
    touched but not changed), and stored after the run."""

    def __init__(self, cache_dir: str, files: Sequence[str], display: Callable[[str], str], config_for: ConfigFor, facts: bool):
        self.files, self.display, self.config_for, self.facts = files, display, config_for, facts
        self.index = StatIndex(cache_dir)
        build_digest(self.index)  # jaxlint's own files are known by their stat too (before any key is made)
        self.cache = Cache(cache_dir, "run", (), facts, pack=None)
        self.findings: Optional[List[Finding]] = None
        self.key: Optional[str] = None
        digests = {}
        self.index.preload(files)
        for path in files:
            st = self.index.stat(path)
            digest = self.index.digest(path, st) if st is not None else None
            if digest is None:
                return  # read by the per-file pass
            digests[path] = digest
        self.lookup(digests)

    def lookup(self, digests: Mapping[str, str]) -> bool:
        """Whether the entry of these digests answers the run (in ``findings``); a key already
        looked up is not asked again."""
        if not all(p in digests for p in self.files):
            self.key = None
            return False
        blob = json.dumps(
            [self.facts, [(p, self.display(p), digests[p], self.config_for(p).key()) for p in self.files]], separators=(",", ":")
        )
        key = self.cache.key(sha256(blob.encode("utf-8", "surrogatepass")).hexdigest(), "<run>")
        if key == self.key:
            return False
        self.key = key
        hit = self.cache.get_json(key)
        if hit is not None:
            try:
                self.findings = [finding_from_json(d) for d in hit["findings"]]
                return True
            except (KeyError, TypeError, ValueError):
                pass  # a bad entry: the run is made again and the entry written again
        return False

    def store(self, findings: List[Finding]) -> None:
        if self.key is not None:
            self.cache.put_json(self.key, {"findings": [finding_to_json(f) for f in findings]})
