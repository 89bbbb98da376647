"""Result cache: a file whose content, configuration and jaxlint are unchanged is not re-linted.

One entry per (file content, display path, configuration, rule set, jaxlint build) in
``<cache dir>/<2 hex>/<62 hex>.json``.  The key mixes in:

* the SHA-256 of the file's bytes and the path findings are reported under (per-file ignores
  and the ``path`` of every finding depend on it);
* ``Config.key()`` and the codes of the selected rules;
* the jaxlint version and a digest of jaxlint's own source files (a development checkout that
  changes the analysis without bumping the version must not reuse stale results; a file whose
  stat the stat index holds is not read again), and the LibCST version (the parser decides what
  a syntax error is);
* an optional list of dependency digests.  Today a file's findings depend on that file alone
  and the list is empty; an analysis that reads summaries of other modules passes their digests
  here, so that editing a module invalidates the files that depend on it.

Writes go to a temporary file in the same folder followed by ``os.replace``, which is atomic:
two jaxlint processes sharing a cache never see a half-written entry, and the last writer wins
with an entry that is equally valid.  An entry that cannot be read, does not parse or does not
carry the full key it was stored under is treated as a miss and rewritten.  Every failure to
write is ignored: the cache makes runs faster, never different, and never makes them fail.
"""

from __future__ import annotations

import importlib.util
import json
import os
import threading
import time
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple

from jaxlint.atomic import replace_through_temporary
from jaxlint.versions import __version__
from jaxlint.findings import Finding, FindingFacts

FORMAT = 6  # 2: entries carry the cross-module call records; 3: findings carry their facts; 4: and related locations; 5: the facts the dynamic mode plans from; 6: and the entry point in another file
DEFAULT_DIR = ".jaxlint_cache"

_FINDING_FIELDS = (
    "path",
    "line",
    "column",
    "end_line",
    "end_column",
    "code",
    "name",
    "message",
    "fix",
    "suggestion",
    "autofix",
    "dynamic",
    "context",
    "related",
)

_BUILD: Optional[str] = None

# Parts of jaxlint that never change what the engine finds in a file: editing them keeps the
# cache.  Everything else in the package (engine, analysis, rules, config...) is in the digest.
_NOT_IN_BUILD = frozenset(
    {
        "dynamic",
        "formats",
        "review",
        "__main__.py",
        "cli.py",
        "flake8_plugin.py",
        "server.py",
        "engine/cache.py",
        "engine/runner.py",
        "engine/discovery.py",
    }
)


def build_digest(index: Optional["StatIndex"] = None) -> str:
    """jaxlint version + digest of its source files + LibCST version (computed once).
    ``index``: the cache's stat index, which knows the digest of each source file whose stat is
    unchanged: a run then stats jaxlint's files instead of reading every one of them (on a
    network filesystem each read is several system calls of a tenth of a millisecond)."""
    global _BUILD
    if _BUILD is None:
        h = sha256()
        h.update(f"jaxlint {__version__}\0".encode())
        h.update(b"libcst " + _libcst_version_digest(index).encode() + b"\0")
        h.update(sources_digest(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), index).encode())
        _BUILD = h.hexdigest()
    return _BUILD


def sources_digest(root: str, index: Optional["StatIndex"] = None) -> str:
    """The digest of the build's source files under ``root`` (the jaxlint package): their paths
    and contents, each content known by ``index`` or read."""
    h = sha256()
    for rel, full, st in _build_sources(root):
        digest = _file_digest(full, st, index)
        if digest is not None:
            h.update(rel.encode() + b"\0")
            h.update(bytes.fromhex(digest))
    return h.hexdigest()


def _build_sources(root: str, prefix: str = "") -> Iterator[Tuple[str, str, Optional[os.stat_result]]]:
    """(path relative to the package, full path, stat) of each source file in the build, a
    folder's files before its subfolders, each in name order."""
    try:
        with os.scandir(root) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        return
    folders = []
    for entry in entries:
        rel = prefix + entry.name
        if rel in _NOT_IN_BUILD:
            continue
        if entry.is_dir():
            if entry.name != "__pycache__" and not entry.is_symlink():  # as os.walk: not followed
                folders.append(entry)
        elif entry.name.endswith(".py"):
            try:
                st = entry.stat()
            except OSError:
                st = None
            yield rel, entry.path, st
    for entry in folders:
        yield from _build_sources(entry.path, prefix + entry.name + "/")


def _file_digest(path: str, st: Optional[os.stat_result], index: Optional["StatIndex"]) -> Optional[str]:
    """The content digest of a file: the index's when it knows the file unchanged, else read
    (and recorded in the index); None when it cannot be read."""
    indexed = index is not None and st is not None
    digest = index.digest(path, st) if indexed else None
    if digest is None:
        try:
            with open(path, "rb") as fh:
                digest = content_digest(fh.read())
        except OSError:
            return None
        if indexed:
            index.record(path, st, digest)
    return digest


def _libcst_version_digest(index: Optional["StatIndex"]) -> str:
    path = _libcst_version_file()
    digest = None
    if index is not None and path is not None:
        try:
            digest = _file_digest(path, os.stat(path), index)
        except OSError:
            pass
    return digest or content_digest(libcst_version_source())


def _libcst_version_file() -> Optional[str]:
    """The installed LibCST's ``_version.py``, found without importing LibCST (a run the cache
    answers does without it) or reading the distribution's metadata (importing
    ``importlib.metadata`` alone costs about 20 ms)."""
    try:
        spec = importlib.util.find_spec("libcst")
        return os.path.join(spec.submodule_search_locations[0], "_version.py")
    except Exception:  # pragma: no cover - libcst is a hard dependency
        return None


def libcst_version_source() -> bytes:
    """The text of the installed LibCST's ``_version.py``."""
    path = _libcst_version_file()
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except (OSError, TypeError):  # pragma: no cover - libcst is a hard dependency
        return b""


def sha256(data: bytes = b""):
    """A SHA-256 hash object."""
    import hashlib  # imported on use: it loads OpenSSL, and a run without a cache hashes nothing

    return hashlib.sha256(data)


def content_digest(data: bytes) -> str:
    return sha256(data).hexdigest()


def settings_digest(config_key: str, rule_codes: Iterable[str], facts: bool = False) -> str:
    """Everything about the run (not the file) that changes results (``facts``: whether the
    findings carry the dynamic mode's facts)."""
    h = sha256()
    h.update(build_digest().encode() + b"\0")
    if facts:
        h.update(b"facts\0")
    h.update(config_key.encode("utf-8", "surrogatepass") + b"\0")
    h.update(",".join(sorted(rule_codes)).encode() + b"\0")
    return h.hexdigest()


def entry_key(settings: str, content: str, path: str, deps: Sequence[str] = ()) -> str:
    """The full key of one file's entry.  ``deps``: digests of what the findings depend on
    besides the file itself (order-insensitive); empty while the analysis is per-module."""
    h = sha256()
    h.update(settings.encode() + b"\0")
    h.update(content.encode() + b"\0")
    h.update(path.encode("utf-8", "surrogatepass") + b"\0")
    for d in sorted(deps):
        h.update(b"dep:" + d.encode() + b"\0")
    return h.hexdigest()


def finding_to_json(f: Finding) -> dict:
    d = {k: getattr(f, k) for k in _FINDING_FIELDS}
    d["facts"] = f.facts._asdict() if f.facts is not None else None
    return d


def finding_from_json(d: dict) -> Finding:
    facts = d.get("facts")
    return Finding(**{k: d[k] for k in _FINDING_FIELDS}, facts=FindingFacts(**facts) if facts else None)


class Cache:
    """A folder of entries.  ``get`` returns None on any miss; ``put`` never raises."""

    def __init__(
        self, directory: str, config_key: str, rule_codes: Iterable[str], facts: bool = False, pack: Optional[str] = "pack"
    ):
        self.directory = directory
        self.settings = settings_digest(config_key, rule_codes, facts)
        # The pack's name: caches of the same settings keep theirs apart; None for none (a cache
        # read for one entry a run).
        self.pack_name = pack
        self._ready = False
        self._folders: set = set()  # entry folders known to exist: one mkdir per folder and run
        # The pack: one file holding the entries the last run with these settings used, read
        # at the first lookup, so a run over an unchanged tree opens one file, not one per
        # module.  The entry files stay the store; the pack is a copy of some of them.
        self._pack: Optional[dict] = None
        self._used: dict = {}  # key -> raw entry, for the next pack
        self._pack_stale = False

    def key(self, content: str, path: str, deps: Sequence[str] = ()) -> str:
        return entry_key(self.settings, content, path, deps)

    def _file(self, key: str) -> str:
        return os.path.join(self.directory, key[:2], key[2:] + ".json")

    def get(self, key: str) -> Optional[List[Finding]]:
        entry = self.get_entry(key)
        return entry[0] if entry is not None else None

    def get_entry(self, key: str) -> Optional[Tuple[List[Finding], list]]:
        """(findings, cross-module call records) or None."""
        entry = self._raw(key)
        try:
            findings = [finding_from_json(d) for d in entry["findings"]]
            calls = entry.get("calls", [])
            if not isinstance(calls, list):
                raise ValueError("calls must be a list")
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            return None  # a miss, or corrupt or truncated: the caller rewrites it
        self._used[key] = entry
        return findings, calls

    def _raw(self, key: str) -> Optional[dict]:
        """The entry stored under ``key``, from the pack or else its file, or None."""
        if self._pack is None:
            self._pack = self._read_pack()
        entry = self._pack.get(key)
        if entry is None:
            self._pack_stale = True
            entry = _load(self._file(key))
        if not isinstance(entry, dict) or entry.get("format") != FORMAT or entry.get("key") != key:
            return None
        return entry

    PACK_KEEP = 4  # a pack keeps entries of earlier runs up to this many times the last run's

    def _pack_file(self) -> str:
        return os.path.join(self.directory, f"{self.pack_name}-{self.settings[:32]}.json")

    def _read_pack(self) -> dict:
        pack = _load(self._pack_file()) if self.pack_name is not None else None
        if isinstance(pack, dict) and pack.get("format") == FORMAT and isinstance(pack.get("entries"), dict):
            return pack["entries"]
        return {}

    def save_pack(self) -> None:
        """Write the pack if this run used an entry it lacks: the entries used, then those of
        earlier runs up to PACK_KEEP times as many (a run over a few files does not empty it).
        Never raises."""
        if self.pack_name is None or not self._pack_stale or not self._used or not self._prepare():
            return
        entries = dict(self._used)
        room = self.PACK_KEEP * len(self._used) + 1000
        for k, v in (self._pack or {}).items():
            if len(entries) >= room:
                break
            entries.setdefault(k, v)
        try:
            raw = json.dumps({"format": FORMAT, "entries": entries}, ensure_ascii=False, separators=(",", ":"))
            _atomic_write(self._pack_file(), raw.encode("utf-8", "surrogatepass"))
            self._pack_stale = False
        except (OSError, TypeError, ValueError):
            pass

    def get_json(self, key: str) -> Optional[dict]:
        """A free-form entry (the cross-module phase's), or None on any miss."""
        entry = self._raw(key)
        data = entry.get("data") if entry is not None else None
        if not isinstance(data, dict):
            return None
        self._used[key] = entry
        return data

    def put_json(self, key: str, data: dict) -> None:
        self._store({"format": FORMAT, "key": key, "data": data})

    def _store(self, entry: dict) -> None:
        """Write an entry to its file, and keep it for the next pack."""
        if not self._prepare():
            return
        try:
            data = json.dumps(entry, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
        except (TypeError, ValueError):
            return
        self._write(entry["key"], data)
        self._used[entry["key"]] = entry
        self._pack_stale = True

    def _write(self, key: str, data: bytes) -> None:
        folder = os.path.join(self.directory, key[:2])
        try:
            if folder not in self._folders:
                os.makedirs(folder, exist_ok=True)
                self._folders.add(folder)
            _atomic_write(os.path.join(folder, key[2:] + ".json"), data)
        except OSError:
            self._folders.discard(folder)  # removed under us: created again by the next write

    def _prepare(self) -> bool:
        if not self._ready:
            try:
                os.makedirs(self.directory, exist_ok=True)
                ignore = os.path.join(self.directory, ".gitignore")
                if not os.path.exists(ignore):
                    _atomic_write(ignore, b"# Created by jaxlint; safe to delete.\n*\n")
                self._ready = True
            except OSError:
                return False
        return True

    def put(self, key: str, findings: List[Finding], calls: Sequence[dict] = ()) -> None:
        self._store({"format": FORMAT, "key": key, "findings": [finding_to_json(f) for f in findings], "calls": list(calls)})


def _codes_file(directory: str) -> str:
    return os.path.join(directory, f"codes-{build_digest()[:32]}.json")


def recorded_codes(directory: str, config_key: str) -> Optional[Tuple[str, ...]]:
    """The codes of the rules a configuration enables, as this jaxlint build recorded them in
    the cache folder (``record_codes``), or None.  A run the cache answers then need not import
    the rules (and LibCST with them) to know which entries are its own."""
    table = _load(_codes_file(directory))
    got = table.get(config_key) if isinstance(table, dict) else None
    return tuple(got) if isinstance(got, list) and all(isinstance(c, str) for c in got) else None


def record_codes(directory: str, config_key: str, codes: Sequence[str]) -> None:
    """Never raises."""
    path = _codes_file(directory)
    table = _load(path)
    if not isinstance(table, dict):
        table = {}
    try:
        if table.get(config_key) == list(codes):
            return
        table[config_key] = list(codes)
        os.makedirs(directory, exist_ok=True)
        _atomic_write(path, json.dumps(table, separators=(",", ":")).encode("utf-8", "surrogatepass"))
    except (OSError, TypeError, ValueError):
        pass


class StatIndex:
    """What each file held when a run last read it: absolute path -> (size, mtime in ns, inode,
    content digest), in one file of the cache folder.  A later run takes a file whose stat is
    unchanged for unchanged and finds its entry by the recorded digest without reading it, so
    an unchanged tree costs a stat per file and one read of this index (git's index does the
    same).  A file whose mtime falls within the last ``RACY_NS`` before the index was written
    could still change within the same clock tick unseen: it is read again (git's "racily
    clean" entries).  Entries of files no longer linted stay; the folder is safe to delete."""

    NAME = "stat-index.json"
    RACY_NS = 2_000_000_000  # filesystems with coarse timestamps tick in seconds

    def __init__(self, directory: str):
        self.path = os.path.join(directory, self.NAME)
        # os.path.abspath asks the system for the working folder on every call: ask once.
        self._cwd = os.getcwd()
        self.files: dict = {}
        self.written_ns = 0
        self.changed = False
        self._stats: dict = {}  # path -> its stat in this run (None: it could not be made)
        raw = _load(self.path)
        try:
            if isinstance(raw, dict) and raw.get("format") == FORMAT and isinstance(raw.get("files"), dict):
                self.files = raw["files"]
                self.written_ns = int(raw.get("written_ns", 0))
        except (ValueError, TypeError):
            pass  # no index, or a bad one: every file is read once and the index rewritten

    def stat(self, path: str) -> Optional[os.stat_result]:
        """``os.stat(path)`` made once per run: the run's memo and its per-file pass both ask."""
        if path not in self._stats:
            try:
                self._stats[path] = os.stat(path)
            except OSError:
                self._stats[path] = None
        return self._stats[path]

    # A stat on a network filesystem (NFS, 9p) is a round trip of a tenth of a millisecond spent
    # waiting, not computing: when the first stats of a run take that long, the others are made
    # by several threads at once, as git's preloaded index does (on a local disk a stat takes
    # microseconds and threads would only add their cost).
    PROBE = 32
    SLOW_STAT_S = 30e-6
    THREADS = 8

    def preload(self, paths: Sequence[str]) -> None:
        """Make the stats of ``paths`` that this run will ask for, several at a time where
        each one waits on the filesystem."""
        todo = [p for p in paths if p not in self._stats]
        t0 = time.perf_counter()
        for path in todo[: self.PROBE]:
            self.stat(path)
        rest = todo[self.PROBE :]
        if len(rest) < self.THREADS or (time.perf_counter() - t0) < self.SLOW_STAT_S * self.PROBE:
            return
        workers = [threading.Thread(target=lambda part: [self.stat(p) for p in part], args=(rest[i :: self.THREADS],)) for i in range(self.THREADS)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()

    def digest(self, path: str, st: os.stat_result) -> Optional[str]:
        """The recorded digest of ``path`` when its stat is the one recorded with it."""
        got = self.files.get(self._absolute(path))
        if not isinstance(got, list) or len(got) != 4:
            return None
        if got[:3] != [st.st_size, st.st_mtime_ns, st.st_ino]:
            return None
        if st.st_mtime_ns >= self.written_ns - self.RACY_NS:
            self.changed = True  # read it again now, and write the index again: then it is settled
            return None
        return got[3] if isinstance(got[3], str) else None

    def record(self, path: str, st: os.stat_result, digest: str) -> None:
        entry = [st.st_size, st.st_mtime_ns, st.st_ino, digest]
        key = self._absolute(path)
        if self.files.get(key) != entry:
            self.files[key] = entry
            self.changed = True

    def _absolute(self, path: str) -> str:
        return os.path.normpath(os.path.join(self._cwd, path))

    def save(self) -> None:
        """Write the index if a file was recorded; never raises."""
        if not self.changed:
            return
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            data = json.dumps({"format": FORMAT, "written_ns": time.time_ns(), "files": self.files}, separators=(",", ":"))
            _atomic_write(self.path, data.encode("utf-8", "surrogatepass"))
            self.changed = False
        except (OSError, TypeError, ValueError):
            pass


def _load(path: str):
    """The JSON value a cache file holds, or None when it cannot be read or does not parse."""
    try:
        with open(path, "rb") as fh:
            return json.loads(fh.read())
    except (OSError, ValueError, RecursionError):
        return None


def _atomic_write(path: str, data: bytes) -> None:
    # Not flushed to disk: a cache entry lost in a crash is only computed again.
    replace_through_temporary(path, data, ".tmp-", ".part", sync=False)


def default_directory(root: Optional[str]) -> str:
    """``.jaxlint_cache`` next to the configuring pyproject.toml, else in the working folder."""
    return os.path.join(root or os.getcwd(), DEFAULT_DIR)
