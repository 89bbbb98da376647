"""Lint many files: the result cache, then a process pool for what the cache does not hold.

Each file is read once, in the main process; its bytes are hashed for the cache key and, on a
miss, handed to a worker (so a file that changes during the run is linted as it was hashed).
Results come back per file and are returned in the order of ``files``: the output does not
depend on ``jobs``, on how the files were chunked, or on which worker finished first.

A pool costs a fork per worker and pickling of every finding; for a handful of files (what
pre-commit and editors pass) that costs more than it saves, so small runs stay in-process.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import TYPE_CHECKING, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from jaxlint.config import Config
from jaxlint.engine.collection import start_up
from jaxlint.engine.cache import Cache, StatIndex, build_digest, content_digest, record_codes, recorded_codes
from jaxlint.findings import Finding
from jaxlint import rules as registry  # its names load on first use: the rules import LibCST

if TYPE_CHECKING:  # a run the cache answers imports none of the analysis
    from jaxlint.analysis.xmod.summaries import ModuleSummary

# Below either threshold the run is linted in this process.
POOL_MIN_FILES = 8
POOL_MIN_BYTES = 256 * 1024


def resolve_jobs(jobs: Optional[int]) -> int:
    """``--jobs`` as given, or one per CPU for None or a value below 1."""
    return default_jobs() if jobs is None or jobs < 1 else jobs


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


# -- worker side ----------------------------------------------------------------------------

_W: dict = {}


class EachResult:
    """Every file's own findings, in file order, the cross-module call records of each file
    (by displayed path), and the summaries of the modules linted in this run (by path; a file
    the cache answered for has none)."""

    def __init__(self, digests: Optional[Dict[str, str]] = None, trees: Optional[Dict[str, tuple]] = None, cacheable: bool = True):
        self.findings: List[Finding] = []
        self.calls: Dict[str, list] = {}
        self.summaries: Dict[str, ModuleSummary] = {}
        self.digests = {} if digests is None else digests  # path -> content digest, where known
        # path -> (bytes, parsed tree) of files linted in this process that a small run keeps
        self.trees = {} if trees is None else trees
        self.cacheable = cacheable  # every file's result may be kept (none was stopped by its time budget)


def _init_worker(config: Config, rule_codes: Tuple[str, ...], cache_dir: Optional[str], facts: bool = False) -> None:
    _pipeline()  # a worker that did not fork from a process that imported it starts up as one
    rules = [registry.RULES_BY_CODE[c] for c in rule_codes]
    _W["config"] = config
    _W["rules"] = rules
    _W["facts"] = facts
    _W["cache"] = Cache(cache_dir, config.key(), rule_codes, facts) if cache_dir else None


def _pipeline():
    """jaxlint.engine.pipeline, imported with the rules when a file is to be linted or the rules
    are asked for: the pipeline imports LibCST and the analysis, which a run the cache answers
    does without.  They are the process' start-up, imported with collection paused."""
    pipeline = sys.modules.get("jaxlint.engine.pipeline")
    if pipeline is None:
        with start_up():
            # imported on use: a run the cache answers does without LibCST and the analysis
            from jaxlint.engine import pipeline

            registry.RULES_BY_CODE  # noqa: B018 (the rules, and the analysis they stand on)
    return pipeline


def _rules_for(config: Config) -> list:
    _pipeline()
    return registry.rules_for(config)


def _lint_one(
    data: bytes,
    display: str,
    config: Config,
    rules,
    cache: Optional[Cache],
    key: Optional[str],
    facts: bool = False,
    digest: Optional[str] = None,
    keep_tree: bool = False,
):
    """(findings, cross-module call records, summary or None, whether the result may be kept,
    parsed tree or None) of one file; ``digest``: of ``data``, when known; ``keep_tree``: give
    the parsed tree too."""
    result = _pipeline().lint_source(data, display, config, rules, facts=facts, summary=True, keep_tree=keep_tree)
    if cache is not None and key is not None and result.cacheable:
        cache.put(key, result.findings, result.calls)
    summary = result.summary
    if summary is not None and cache is not None:
        # The summary depends on these bytes: the cache entries that use it are checked against
        # them (without a cache nothing is checked, and nothing is hashed).
        summary = summary._replace(digest=digest or content_digest(data))
    return result.findings, result.calls, summary, result.cacheable, result.tree


# Set in the parent just before a fork: workers read the files' bytes from their copy of it
# instead of receiving them through a pipe.
_FORKED_TODO: Optional[list] = None


def _work(chunk) -> List[Tuple[int, Tuple[List[Finding], list, Optional[ModuleSummary], bool]]]:
    config, rules, cache, facts = _W["config"], _W["rules"], _W["cache"], _W["facts"]
    if _FORKED_TODO is not None:
        chunk = [_FORKED_TODO[j] for j in chunk]
    # (trees stay here: a tree is not worth sending back)
    return [(i, _lint_one(data, display, config, rules, cache, key, facts)[:4]) for i, data, display, key in chunk]


# -- main side ------------------------------------------------------------------------------


CHUNKS_PER_WORKER = 8  # enough that the last chunks end together, few enough to cost little
CHUNK_MAX_FILES = 64


def _chunks(items: List[tuple], jobs: int) -> List[List[tuple]]:
    """Largest files first (the long tail ends together), in chunks of about the same number
    of bytes: a worker's time goes with the bytes it lints, not the files (chunks of 16 files,
    the 16 largest together, left one worker linting for half of a 12-worker run)."""
    items = sorted(items, key=lambda it: -len(it[1][1]))
    budget = max(1, sum(len(it[1][1]) for it in items) // (jobs * CHUNKS_PER_WORKER))
    chunks: List[List[tuple]] = []
    current: List[tuple] = []
    size = 0
    for it in items:
        current.append(it)
        size += len(it[1][1])
        if size >= budget or len(current) >= CHUNK_MAX_FILES:
            chunks.append(current)
            current, size = [], 0
    if current:
        chunks.append(current)
    return chunks


def pool_context():
    # imported on use (about 6 ms): only a run large enough for a pool of processes needs it
    import multiprocessing as mp

    # fork: workers start in milliseconds with jaxlint already imported, and inherit the hash
    # seed of this process.  Forking a process that runs other threads (JAX's, when jaxlint is
    # used as a library next to it) can deadlock the child: start fresh interpreters then.

    threaded = threading.active_count() > 1 or "jax" in sys.modules or "jaxlib" in sys.modules
    if sys.platform != "win32" and "fork" in mp.get_all_start_methods() and not threaded:
        return mp.get_context("fork")
    return mp.get_context("spawn")


def selected_codes(config: Config, cache_dir: Optional[str]) -> Tuple[str, ...]:
    """The codes of the rules ``config`` enables: recorded in the cache folder by this build, or
    worked out from the rules (and recorded)."""
    codes = recorded_codes(cache_dir, config.key()) if cache_dir else None
    if codes is None:
        codes = tuple(r.code for r in _rules_for(config))
        if cache_dir:
            record_codes(cache_dir, config.key(), codes)
    return codes


def lint_each(
    files: Sequence[str],
    config: Config,
    jobs: Optional[int] = None,
    cache_dir: Optional[str] = None,
    display: Optional[Callable[[str], str]] = None,
    stdin: Optional[Callable[[], List[Finding]]] = None,
    facts: bool = False,
    sources: Optional[Mapping[str, bytes]] = None,
    index: Optional[StatIndex] = None,
) -> EachResult:
    """Findings for ``files`` in file order (each file's own findings sorted).

    ``jobs``: worker processes (None: one per CPU).  ``cache_dir``: the result cache folder, or
    None for no cache.  ``display``: maps a path to the path findings report (default: as
    given).  ``stdin``: called for the path "-".  ``facts``: derive the findings' facts (for
    the dynamic mode).  ``sources``: contents to lint instead of what the files hold, by path.
    ``index``: the cache's stat index, which spares reading a file whose stat is unchanged.
    Each file's cross-module call records are cached along with its findings."""
    rule_codes = selected_codes(config, cache_dir)
    rules = None

    def enabled_rules():
        nonlocal rules
        if rules is None:
            rules = _rules_for(config)
        return rules

    jobs = resolve_jobs(jobs)
    show = display or (lambda p: p)
    cache = Cache(cache_dir, config.key(), rule_codes, facts) if cache_dir else None
    got = _Gathered(len(files))
    todo: List[Tuple[int, bytes, str, Optional[str]]] = []
    rest = got.answer_from_index(files, show, cache, index, sources, stdin)
    # A run left with a handful of files to lint (an edit, a pre-commit hook) keeps their trees
    # for the cross-module phase, which interprets mostly those modules again; a larger run
    # keeps none (its memory stays bounded by one module).
    got.keep = KEEP_TREES_BYTES if len(rest) <= KEEP_TREES_FILES else 0
    # One process: lint each miss as soon as it is read (memory stays at one file's worth).
    stream = jobs == 1 or len(files) < POOL_MIN_FILES
    for i, path, shown, st, indexed in rest:
        try:
            data = sources[path] if sources is not None and path in sources else _read(path)
        except OSError:
            got.results[i] = _pipeline().read_and_lint(path, shown, config, enabled_rules(), facts).findings  # reports the error
            continue
        key = None
        if cache is not None:
            digest = got.digests[path] = content_digest(data)
            if st is not None:
                index.record(path, st, digest)
            key = cache.key(digest, shown)
            # The index knew these bytes and the cache had no entry for them: not asked again.
            hit = cache.get_entry(key) if digest != indexed else None
            if hit is not None:
                got.results[i], got.calls[i] = hit
                continue
        if stream:
            got.lint(i, path, data, shown, config, enabled_rules(), cache, key, facts)
        else:
            todo.append((i, data, shown, key))

    if todo:
        total = sum(len(t[1]) for t in todo)
        if jobs > 1 and len(todo) >= POOL_MIN_FILES and total >= POOL_MIN_BYTES:
            _run_pool(todo, got, config, rule_codes, cache_dir if cache is not None else None, jobs, facts)
        else:
            for i, data, shown, key in todo:
                got.lint(i, files[i], data, shown, config, enabled_rules(), cache, key, facts)

    if cache is not None:
        cache.save_pack()
    return got.each_result(files, show)


# A run with at most this many files left to lint after the stat index keeps their parsed trees,
# up to this many bytes of source in all (a tree takes about 25 times its source).
KEEP_TREES_FILES = 16
KEEP_TREES_BYTES = 1024 * 1024


def _read(path: str) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


class _Gathered:
    """What linting each file of a batch gave, by the file's place in it."""

    def __init__(self, n: int):
        self.results: List[Optional[List[Finding]]] = [None] * n
        self.calls: List[list] = [[] for _ in range(n)]
        self.summaries: List[Optional[ModuleSummary]] = [None] * n
        self.digests: Dict[str, str] = {}  # path -> content digest, where known
        self.trees: Dict[str, tuple] = {}  # path -> (bytes, parsed tree), where kept
        self.keep = 0  # bytes of source whose trees may still be kept
        self.cacheable = True  # every file's result may be kept (none was stopped by its time budget)

    def answer_from_index(self, files, show, cache, index, sources, stdin) -> List[tuple]:
        """Answer what the stat index and the cache answer (a stat per file) and standard input;
        the others as (place, path, shown path, stat or None, digest the index knew or None)."""
        rest = []
        for i, path in enumerate(files):
            if path == "-":
                self.results[i] = stdin() if stdin is not None else []
                continue
            shown = show(path)
            st = digest = None
            if cache is not None and index is not None and not (sources is not None and path in sources):
                st, digest, hit = _indexed_entry(cache, index, path, shown)
                if hit is not None:
                    self.results[i], self.calls[i] = hit
                    self.digests[path] = digest
                    continue
            rest.append((i, path, shown, st, digest))
        return rest

    def lint(self, i, path, data, shown, config, rules, cache, key, facts) -> None:
        """Lint one file here, keeping its tree if its bytes fit in what ``keep`` has left."""
        kept = 0 < len(data) <= self.keep
        digest = self.digests.get(path)  # known where the cache is used
        self.results[i], self.calls[i], self.summaries[i], cacheable, tree = _lint_one(data, shown, config, rules, cache, key, facts, digest, kept)
        self.cacheable = self.cacheable and cacheable
        if tree is not None:
            self.trees[path] = (data, tree)
            self.keep -= len(data)

    def each_result(self, files: Sequence[str], show) -> EachResult:
        """The per-file results gathered in file order: findings, call records by shown path,
        summaries by path."""
        out = EachResult(digests=self.digests, trees=self.trees, cacheable=self.cacheable)
        for i, path in enumerate(files):
            if path != "-" and self.calls[i]:
                out.calls[show(path)] = self.calls[i]
            if self.summaries[i] is not None:
                out.summaries[path] = self.summaries[i]._replace(path=path)
            if self.results[i]:
                out.findings.extend(self.results[i])
        return out


def _indexed_entry(cache: Cache, index: StatIndex, path: str, shown: str):
    """(stat, digest, cached entry) of a file by the stat index: no digest when the index does
    not know the file unchanged, no entry on a cache miss."""
    st = index.stat(path)
    if st is None:
        return None, None, None
    digest = index.digest(path, st)
    hit = cache.get_entry(cache.key(digest, shown)) if digest is not None else None
    return st, digest, hit


def _run_pool(todo, got: _Gathered, config: Config, rule_codes, cache_dir, jobs: int, facts: bool = False) -> None:
    global _FORKED_TODO
    ctx = pool_context()
    forked = ctx.get_start_method() == "fork"
    chunks = _chunks(list(enumerate(todo)), jobs)
    if forked:
        tasks = [[j for j, _ in c] for c in chunks]
    else:
        tasks = [[t for _, t in c] for c in chunks]
    _FORKED_TODO = todo if forked else None
    try:
        with ctx.Pool(
            min(jobs, len(tasks)), initializer=_init_worker, initargs=(config, rule_codes, cache_dir, facts)
        ) as pool:
            for done in pool.imap_unordered(_work, tasks):
                for i, (findings, file_calls, summary, cacheable) in done:
                    got.results[i] = findings
                    got.calls[i] = file_calls
                    got.summaries[i] = summary
                    got.cacheable = got.cacheable and cacheable
    finally:
        _FORKED_TODO = None


def lint_configured(
    files: Sequence[str],
    config_for: Callable[[str], Config],
    jobs: Optional[int] = None,
    cache_dir: Optional[str] = None,
    display: Optional[Callable[[str], str]] = None,
    stdin: Optional[Callable[[Config, list], List[Finding]]] = None,
    facts: bool = False,
    sources: Optional[Mapping[str, bytes]] = None,
    index: Optional[StatIndex] = None,
) -> EachResult:
    """:func:`lint_each` where each file has its own configuration (``config_for(path)``):
    files that share one are linted together, so a run with one configuration is one batch.
    ``index``: the cache's stat index, when the caller has read it."""
    groups: Dict[Config, List[str]] = {}
    for path in files:
        groups.setdefault(config_for(path), []).append(path)
    out = EachResult()
    if index is None and cache_dir:
        index = StatIndex(cache_dir)
    if index is not None:
        build_digest(index)  # jaxlint's own files are known by their stat too (before any key is made)
    for config, members in groups.items():
        each = lint_each(
            members,
            config,
            jobs=jobs,
            cache_dir=cache_dir,
            display=display,
            stdin=(lambda c=config: stdin(c, _rules_for(c))) if stdin is not None else None,
            facts=facts,
            sources=sources,
            index=index,
        )
        out.findings.extend(each.findings)
        out.calls.update(each.calls)
        out.summaries.update(each.summaries)
        out.digests.update(each.digests)
        out.trees.update(each.trees)
        out.cacheable = out.cacheable and each.cacheable
    if index is not None:
        index.save()
    return out
