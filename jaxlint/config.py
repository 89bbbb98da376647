"""Settings: ``[tool.jaxlint]`` in pyproject.toml, or a ``jaxlint.toml`` / ``.jaxlint.toml``, and
the command line.

Configuration is hierarchical, as in ruff: each file is linted with the closest configuration
file above it (a ``pyproject.toml`` counts only when it has a ``[tool.jaxlint]`` table; in one
folder ``.jaxlint.toml`` wins over ``jaxlint.toml``, which wins over ``pyproject.toml``).  Globs
(``exclude``, ``extend-exclude``, ``per-file-ignores``) are relative to the folder of the file
that defines them, so neither the working folder nor the order of the paths changes a result.
``--config FILE`` makes one file serve every path, ``--isolated`` ignores them all, and the
command-line selection is applied on top of whichever file applies.  A file's ``extend = "PATH"``
(relative to that file) is read first and the file's own settings override it, as ruff's
``extend``; each file's globs stay relative to its own folder.

Rule selectors are checked against the rule table the caller passes in (``rules``: the rules
stand above the settings).
"""

from __future__ import annotations

import fnmatch
import functools
import os
import re
import sys
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Dict, Iterable, List, NamedTuple, Optional, Sequence, Set, Tuple

from jaxlint import selection, selectors
from jaxlint.selectors import RuleTable
from jaxlint.paths import real_path, relpath
from jaxlint.versions import parse_version

class ConfigError(Exception):
    """A configuration problem: reported as one line, exit code 2."""


# ruff's default list of tool and environment folders, matched by name anywhere in the tree
# (plus jaxlint's own cache).  A folder named build/ or env/ is often a real package: not here.
DEFAULT_EXCLUDE: Tuple[str, ...] = (
    ".bzr",
    ".direnv",
    ".eggs",
    ".git",
    ".git-rewrite",
    ".hg",
    ".ipynb_checkpoints",
    ".jaxlint_cache",
    ".mypy_cache",
    ".nox",
    ".pants.d",
    ".pyenv",
    ".pytest_cache",
    ".pytype",
    ".ruff_cache",
    ".svn",
    ".tox",
    ".venv",
    ".vscode",
    "__pypackages__",
    "_build",
    "buck-out",
    "dist",
    "node_modules",
    "site-packages",
    "venv",
)

# In one folder, the first of these that configures jaxlint wins.
CONFIG_FILES = (".jaxlint.toml", "jaxlint.toml", "pyproject.toml")


class ListedFolder(str):
    """The path of a folder whose entries a walk has listed, with the configuration files among
    them: its settings are then found without asking the filesystem whether it is a folder and
    which of CONFIG_FILES it holds (four ``stat`` calls per folder, which on a network
    filesystem cost more than a cached file's lint).  Anything else takes it for its path."""

    config_files: Tuple[str, ...] = ()

    def __new__(cls, path: str, names: Iterable[str]) -> "ListedFolder":
        folder = super().__new__(cls, path)
        present = set(names)
        folder.config_files = tuple(n for n in CONFIG_FILES if n in present)
        return folder


def _posix(path: str) -> str:
    return path.replace(os.sep, "/")


def _match(rel: str, pattern: str) -> bool:
    """A glob against a path relative to the configuration folder: the whole path, a leading
    folder (``third_party`` or ``third_party/``), or, for a pattern without a slash, any one
    component (``*_pb2.py``, ``generated``)."""
    return _any_match((pattern,))(rel)


@functools.lru_cache(maxsize=32)
def _exclusion_tests(patterns: Tuple[str, ...]):
    """(test of a relative path, test of an absolute path or None): each the answer of
    ``any(_match(path, p) ...)`` over the patterns, relative and anchored (absolute, from an
    extended file in another folder) apart, made once per pattern list: discovery asks it of
    every file and folder, and most patterns are plain names, a set lookup per path component."""
    anchored = tuple(p for p in patterns if os.path.isabs(p))
    relative = tuple(p for p in patterns if not os.path.isabs(p))
    return _any_match(relative), (_any_match(anchored) if anchored else None)


@functools.lru_cache(maxsize=256)
def _any_match(patterns: Tuple[str, ...]) -> Callable[[str], bool]:
    # Most patterns are plain names (".git", "venv"): a set lookup per path component, no glob.
    names: Set[str] = set()  # plain names without a slash: any one component
    prefixes: List[str] = []  # plain paths with a slash: the whole path or a leading folder
    globs: List[str] = []
    for pattern in patterns:
        pat = pattern.rstrip("/")
        if pat.startswith("./"):
            pat = pat[2:]
        if "*" in pat or "?" in pat or "[" in pat:
            globs.append(pat)
        elif "/" in pat:
            prefixes.append(pat)
        else:
            names.add(pat)

    def glob(rel: str, pat: str) -> bool:
        if fnmatch.fnmatchcase(rel, pat) or rel.startswith(pat + "/"):
            return True
        return "/" not in pat and any(fnmatch.fnmatchcase(part, pat) for part in rel.split("/"))

    def test(rel: str) -> bool:
        if names and not names.isdisjoint(rel.split("/")):
            return True
        if any(rel == p or rel.startswith(p + "/") for p in prefixes):
            return True
        return any(glob(rel, g) for g in globs)

    return test


# The settings that change a file's findings (the exclusions decide which files are linted).
_KEYED = ("select", "ignore", "per_file_ignores", "extra_jit_decorators", "root", "preview", "target_jax", "min_jax", "min_python", "layers")


@dataclass(frozen=True)
class Config:
    """The settings that apply to a file: from its configuration file and the command line."""

    select: Tuple[str, ...] = ()
    ignore: Tuple[str, ...] = ()
    per_file_ignores: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
    exclude: Tuple[str, ...] = DEFAULT_EXCLUDE
    extra_jit_decorators: Tuple[str, ...] = ()
    root: Optional[str] = None  # folder of the configuration file: globs are relative to it
    extend_exclude: Tuple[str, ...] = ()
    source: Optional[str] = field(default=None, compare=False)  # the file it was read from
    preview: bool = False  # run the rules whose status is "preview" too
    # The JAX the code must run on (None: the newest JAX jaxlint knows), and the oldest JAX it
    # must still support (None: no lower bound), as (major, minor, patch).
    target_jax: Optional[Tuple[int, int, int]] = None
    min_jax: Optional[Tuple[int, int, int]] = None
    # The oldest Python the code must run on: the lower bound of ``requires-python`` in the
    # ``[project]`` table of the pyproject.toml that configures jaxlint (None: not declared).
    min_python: Optional[Tuple[int, ...]] = None
    # Selections without a ``select`` of their own, applied in order on top of select/ignore
    # (the command line's, as ruff does): (enable, disable) selectors each.
    layers: Tuple[Tuple[Tuple[str, ...], Tuple[str, ...]], ...] = ()

    def key(self) -> str:
        """A stable description of everything that changes a file's findings (for caches)."""
        got = self.__dict__.get("_key")
        if got is None:  # made once: a run asks it of every file
            got = repr(tuple(getattr(self, name) for name in _KEYED))
            object.__setattr__(self, "_key", got)
        return got

    def relative(self, path) -> str:
        """``path`` (a str or a SourcePath: its real path) relative to the configuration folder
        (as given when there is none)."""
        path = real_path(path)
        if self.root is None or path in ("-", "<stdin>", "<string>"):
            p = _posix(path)
            return p[2:] if p.startswith("./") else p
        try:
            return _posix(os.path.relpath(os.path.abspath(path), self.root))
        except ValueError:  # another drive on Windows
            return _posix(path)

    def _absolute(self, path) -> str:
        return _posix(os.path.abspath(real_path(path)))

    def _matches(self, rel: str, path, pattern: str) -> bool:
        """A pattern of an extended file in another folder was made absolute (``anchored``)."""
        return _match(self._absolute(path), pattern) if os.path.isabs(pattern) else _match(rel, pattern)

    def ignored_for(self, path: str) -> Tuple[str, ...]:
        rel = self.relative(path)
        out: List[str] = []
        for pattern, codes in self.per_file_ignores:
            if self._matches(rel, path, pattern):
                out.extend(codes)
        return tuple(out)

    def is_excluded(self, path: str) -> bool:
        """Whether ``exclude`` or ``extend-exclude`` match ``path`` (a file or a folder)."""
        rel = self.relative(path)
        if rel in (".", ""):
            return False
        relative, anchored = _exclusion_tests(self.exclude + self.extend_exclude)
        return relative(rel) or (anchored is not None and anchored(self._absolute(path)))

    def describe(self) -> str:
        """The settings as ``--show-settings`` prints them (the command adds the rules they enable)."""
        rows = [
            ("configuration file", self.source or "(none: defaults)"),
            ("root", self.root or "(working folder)"),
            ("select", ", ".join(self.select) or "(default rules)"),
            ("ignore", ", ".join(self.ignore) or "(none)"),
            ("exclude", ", ".join(self.exclude) or "(none)"),
            ("extend-exclude", ", ".join(self.extend_exclude) or "(none)"),
            ("extra-jit-decorators", ", ".join(self.extra_jit_decorators) or "(none)"),
        ]
        for enable, disable in self.layers:
            rows.append(("then select", ", ".join(enable) or "(none)"))
            rows.append(("then ignore", ", ".join(disable) or "(none)"))
        lines = [f"{k:22s} {v}" for k, v in rows]
        lines.append("per-file-ignores" + ("" if self.per_file_ignores else "       (none)"))
        for pattern, codes in self.per_file_ignores:
            lines.append(f"  {pattern!r:20s} {', '.join(codes)}")
        return "\n".join(lines) + "\n"


KNOWN_KEYS = (
    "extend",
    "select",
    "ignore",
    "extend-select",
    "extend-ignore",
    "per-file-ignores",
    "exclude",
    "extend-exclude",
    "extra-jit-decorators",
    "preview",
    "target-jax",
    "min-jax",
)

DOTTED_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


def _jax_version(value, where: str) -> Tuple[int, int, int]:
    v = parse_version(value) if isinstance(value, str) else None
    if v is None:
        raise ConfigError(f'{where} must be a JAX version string such as "0.6" or "0.4.30", not {value!r}')
    return v


def _python_floor(doc: Any) -> Optional[Tuple[int, ...]]:
    """The lowest Python ``[project] requires-python`` admits (">=3.10,<4" -> (3, 10)); None
    when it is missing or names no lower bound."""
    spec = doc.get("project", {}).get("requires-python") if isinstance(doc.get("project"), dict) else None
    if not isinstance(spec, str):
        return None
    floors = [parse_version(m.group(1)) for m in re.finditer(r"(?:>=|~=|==|>)\s*(\d+(?:\.\d+)*)", spec)]
    floors = [v for v in floors if v is not None]
    return max(floors) if floors else None


def _type_name(value: Any) -> str:
    return {str: "a string", int: "a number", float: "a number", bool: "a boolean", dict: "a table", list: "a list"}.get(
        type(value), type(value).__name__
    )


def _strings(value: Any, where: str, what: str = "a list of strings") -> List[str]:
    if not isinstance(value, list):
        raise ConfigError(f"{where} must be {what}, not {_type_name(value)}")
    for v in value:
        if not isinstance(v, str):
            raise ConfigError(f"{where} must be {what}, but holds {_type_name(v)}")
    return list(value)


def _selectors(value: Any, where: str, rules: RuleTable) -> Tuple[str, ...]:
    try:
        return selectors.validate(_strings(value, where, "a list of rule codes"), where, rules)
    except selectors.SelectorError as e:
        raise ConfigError(str(e)) from None


def _globs(value: Any, where: str) -> Tuple[str, ...]:
    out = _strings(value, where, "a list of glob patterns")
    for g in out:
        if not g.strip():
            raise ConfigError(f"{where} holds an empty pattern")
    return tuple(out)


def parse_table(
    table: Any, root: Optional[str] = None, source: Optional[str] = None, base: Optional[Config] = None, *, rules: RuleTable
) -> Config:
    """A Config from the jaxlint table of ``source`` (its folder is ``root``), on top of ``base``
    (the file its ``extend`` names, already read) when there is one; its selectors name codes
    of ``rules``."""
    label = f"{source}: " if source else ""
    if source is not None and os.path.basename(source) == "pyproject.toml":
        label += "[tool.jaxlint] "
    if not isinstance(table, dict):
        raise ConfigError(f"{label}must be a table, not {_type_name(table)}")
    norm: Dict[str, Any] = {}
    for k, v in table.items():
        k2 = k.replace("_", "-")
        if k2 not in KNOWN_KEYS:
            import difflib  # imported on use: only a mistaken setting needs it

            close = difflib.get_close_matches(k2, KNOWN_KEYS, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else f" (known: {', '.join(KNOWN_KEYS)})"
            raise ConfigError(f"{label}unknown setting '{k}'{hint}")
        if k2 in norm:
            raise ConfigError(f"{label}'{k}' is set twice")
        norm[k2] = v

    def where(key: str) -> str:
        return f"{label}{key}"

    if "extend" in norm and not isinstance(norm["extend"], str):
        raise ConfigError(f"{where('extend')} must be the path of a configuration file, not {_type_name(norm['extend'])}")
    select = _selectors(norm.get("select", []), where("select"), rules)
    extend_select = _selectors(norm.get("extend-select", []), where("extend-select"), rules)
    ignore = _selectors(norm.get("ignore", []), where("ignore"), rules) + _selectors(
        norm.get("extend-ignore", []), where("extend-ignore"), rules
    )
    own: Dict[str, Any] = {}  # the fields this file sets; the others are its base's (or the defaults)
    pfi = norm.get("per-file-ignores", {})
    if not isinstance(pfi, dict):
        raise ConfigError(f"{where('per-file-ignores')} must be a table of glob = [codes], not {_type_name(pfi)}")
    if "per-file-ignores" in norm:
        own["per_file_ignores"] = tuple((str(k), _selectors(v, where(f"per-file-ignores.{k!r}"), rules)) for k, v in pfi.items())
    if "exclude" in norm:
        own["exclude"] = _globs(norm["exclude"], where("exclude"))
    extend_exclude = _globs(norm.get("extend-exclude", []), where("extend-exclude"))
    extra = _strings(norm.get("extra-jit-decorators", []), where("extra-jit-decorators"), "a list of dotted names")
    for name in extra:
        if not DOTTED_NAME.match(name):
            raise ConfigError(f"{where('extra-jit-decorators')}: '{name}' is not a dotted name such as mylib.jit")
    if "extra-jit-decorators" in norm:
        own["extra_jit_decorators"] = tuple(extra)
    if not isinstance(norm.get("preview", False), bool):
        raise ConfigError(f"{where('preview')} must be true or false, not {_type_name(norm['preview'])}")
    if "preview" in norm:
        own["preview"] = norm["preview"]
    if "target-jax" in norm:
        own["target_jax"] = _jax_version(norm["target-jax"], where("target-jax"))
    if "min-jax" in norm:
        own["min_jax"] = _jax_version(norm["min-jax"], where("min-jax"))
    # As ruff's ``extend``: the base's settings first, this file's where it sets them; the
    # selection is layered (this file's ``select`` replaces the base's, its extend-select and
    # ignores apply after the base's) and extend-exclude adds to the base's.
    start = _anchored(base, root) if base is not None else Config()
    if base is None or "select" in norm:
        start = replace(start, select=selection.extend(select, extend_select), ignore=ignore, layers=())
    else:
        start = with_selection(start, None, extend_select, ignore)
    # (``min_python`` is never the base's: read_config_file reads it from the file's own pyproject.toml)
    cfg = replace(start, root=root, source=source, extend_exclude=start.extend_exclude + extend_exclude, min_python=None, **own)
    if cfg.target_jax is not None and cfg.min_jax is not None and cfg.min_jax > cfg.target_jax:
        # either may come from an extended base: name the versions, not this file's text
        raise ConfigError(
            f"{where('min-jax')} ({'.'.join(map(str, cfg.min_jax))}) must not be newer than target-jax ({'.'.join(map(str, cfg.target_jax))})"
        )
    return cfg


def _anchored(cfg: Config, root: Optional[str]) -> Config:
    """``cfg``'s globs for use by a configuration in ``root``: a pattern with a ``/`` is relative
    to ``cfg``'s own folder, so it is made absolute (a pattern without one matches any path
    component wherever it is read)."""
    if cfg.root is None or cfg.root == root:
        return cfg

    def anchor(pattern: str) -> str:
        pat = pattern.rstrip("/")
        if "/" not in pat or os.path.isabs(pat):
            return pattern
        return _posix(os.path.join(cfg.root, pat[2:] if pat.startswith("./") else pat))

    return replace(
        cfg,
        exclude=tuple(anchor(p) for p in cfg.exclude),
        extend_exclude=tuple(anchor(p) for p in cfg.extend_exclude),
        per_file_ignores=tuple((anchor(p), codes) for p, codes in cfg.per_file_ignores),
    )


def read_config_file(path: str, _chain: Tuple[str, ...] = (), *, rules: RuleTable) -> Optional[Config]:
    """The Config a file defines; None for a pyproject.toml without a ``[tool.jaxlint]`` table.
    ``_chain``: the files whose ``extend`` led here, to refuse a cycle."""
    shown = relpath(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except IsADirectoryError:
        raise ConfigError(f"{shown}: is a folder, not a configuration file") from None
    except OSError as e:
        raise ConfigError(f"cannot read {shown}: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(f"{shown}: not valid UTF-8 (byte {e.start}); TOML files must be UTF-8") from None
    if sys.version_info >= (3, 11):
        import tomllib  # imported on use (it compiles regular expressions): most runs read no TOML
    else:  # pragma: no cover
        import tomli as tomllib  # as tomllib, before Python 3.11
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{shown}: invalid TOML: {e}") from None
    root = os.path.dirname(os.path.abspath(path))
    if os.path.basename(path) == "pyproject.toml":
        tool = doc.get("tool")
        if tool is None:
            return None
        if not isinstance(tool, dict):
            raise ConfigError(f"{shown}: 'tool' must be a table, not {_type_name(tool)}")
        table = tool.get("jaxlint")
        if table is None:
            return None
        if not isinstance(table, dict):
            raise ConfigError(f"{shown}: [tool.jaxlint] must be a table, not {_type_name(table)}")
    else:
        # jaxlint.toml holds the settings at the top level; a [tool.jaxlint] table there is
        # accepted too, so a pyproject section can be moved as it is.
        tool = doc.get("tool")
        table = tool["jaxlint"] if isinstance(tool, dict) and isinstance(tool.get("jaxlint"), dict) and len(doc) == 1 else doc
    base = None
    if isinstance(table, dict) and isinstance(table.get("extend"), str):
        base = _read_extended(path, table["extend"], _chain, rules)
    cfg = parse_table(table, root, shown, base, rules=rules)
    floor = _python_floor(doc) if os.path.basename(path) == "pyproject.toml" else None
    return replace(cfg, min_python=floor) if floor is not None else cfg


def _read_extended(path: str, target: str, chain: Tuple[str, ...], rules: RuleTable) -> Config:
    """The Config of the file that ``path``'s ``extend`` names (relative to ``path``'s folder)."""
    here = os.path.realpath(path)
    chain = chain + (here,)
    full = os.path.join(os.path.dirname(os.path.abspath(path)), os.path.expanduser(target))
    label = f"{relpath(path)}: extend"
    if not os.path.isfile(full):
        raise ConfigError(f"{label}: configuration file not found: {target}")
    if os.path.realpath(full) in chain:
        cycle = [relpath(p) for p in chain[chain.index(os.path.realpath(full)) :]] + [relpath(full)]
        raise ConfigError(f"{label}: a cycle of extended files: {' -> '.join(cycle)}")
    base = read_config_file(full, chain, rules=rules)
    # A pyproject.toml without a [tool.jaxlint] table: its folder, the default settings.
    return base if base is not None else Config(root=os.path.dirname(os.path.abspath(full)), source=relpath(full))


class Overrides(NamedTuple):
    """What the command line says about selection; applied on top of every file's settings."""

    select: Optional[Tuple[str, ...]] = None
    ignore: Optional[Tuple[str, ...]] = None
    extend_select: Tuple[str, ...] = ()
    extend_ignore: Tuple[str, ...] = ()
    extend_exclude: Tuple[str, ...] = ()
    preview: Optional[bool] = None  # --preview

    def apply(self, cfg: Config) -> Config:
        if self.extend_exclude:
            cfg = replace(cfg, extend_exclude=cfg.extend_exclude + self.extend_exclude)
        if self.preview is not None:
            cfg = replace(cfg, preview=self.preview)
        return with_selection(cfg, self.select, self.extend_select, (self.ignore or ()) + self.extend_ignore)


def with_selection(
    cfg: Config, select: Optional[Tuple[str, ...]], extend_select: Tuple[str, ...], ignore: Tuple[str, ...]
) -> Config:
    """``cfg`` with a later selection on top, as ruff layers the command line over the file: a
    ``select`` replaces the whole selection (the file's ignores included); without one, the
    extra selectors and the ignores apply after the file's, so ``--ignore ALL`` wins over the
    file's ``select = ["JAX101"]``, and ``--extend-select JAX101`` over its ``ignore``."""
    if select is not None:
        return replace(cfg, select=selection.extend(select, extend_select), ignore=tuple(ignore), layers=())
    if not extend_select and not ignore:
        return cfg
    return replace(cfg, layers=cfg.layers + ((tuple(extend_select), tuple(ignore)),))


class Resolver:
    """Which configuration applies to each path (memoised per folder); the files' selectors
    name codes of ``rules``."""

    def __init__(
        self, explicit: Optional[str] = None, isolated: bool = False, overrides: Overrides = Overrides(), *, rules: RuleTable
    ):
        self.overrides = overrides
        self.rules = rules
        self.isolated = isolated
        self._by_folder: Dict[str, Config] = {}
        self._by_path: Dict[str, Config] = {}  # discovery, the runner and the faces ask of each file
        self._fixed: Optional[Config] = None
        if isolated:
            self._fixed = overrides.apply(Config())
        elif explicit is not None:
            if not os.path.exists(explicit):
                raise ConfigError(f"configuration file not found: {explicit}")
            cfg = read_config_file(explicit, rules=rules)
            if cfg is None:  # a pyproject.toml without our table: its folder, default settings
                cfg = Config(root=os.path.dirname(os.path.abspath(explicit)), source=relpath(explicit))
            self._fixed = overrides.apply(cfg)

    def for_path(self, path: str) -> Config:
        """The settings for a file or folder (``-`` and missing paths: from the working folder)."""
        if self._fixed is not None:
            return self._fixed
        got = self._by_path.get(path)
        if got is None:
            if path == "-":
                got = self._folder(os.getcwd())
            elif isinstance(path, ListedFolder):
                got = self._folder(os.path.abspath(path), path.config_files)
            else:
                full = os.path.abspath(path)
                got = self._folder(full if os.path.isdir(full) else os.path.dirname(full))
            self._by_path[path] = got
        return got

    def note_files(self, paths) -> None:
        """Paths discovery found to be files: their settings are their folder's, without asking
        the filesystem again (``for_path`` stats a path to tell a file from a folder)."""
        if self._fixed is not None:
            return
        by_dirname: Dict[str, Config] = {}  # a folder's files share it (and abspath asks for the working folder)
        for path in paths:
            if path != "-" and path not in self._by_path:
                dirname = os.path.dirname(path)
                got = by_dirname.get(dirname)
                if got is None:
                    got = by_dirname[dirname] = self._folder(os.path.dirname(os.path.abspath(path)))
                self._by_path[path] = got

    def _folder(self, folder: str, listed: Optional[Sequence[str]] = None) -> Config:
        """``listed``: the configuration files the folder holds, when a walk has listed it."""
        got = self._by_folder.get(folder)
        if got is not None:
            return got
        cfg = None
        for name in CONFIG_FILES if listed is None else listed:
            cand = os.path.join(folder, name)
            if os.path.isfile(cand):
                cfg = read_config_file(cand, rules=self.rules)
                if cfg is not None:
                    break
        if cfg is not None:
            got = self.overrides.apply(cfg)
        else:
            parent = os.path.dirname(folder)
            got = self._folder(parent) if parent != folder else self.overrides.apply(Config())
        self._by_folder[folder] = got
        return got


def load_config(paths: Sequence[str] = (), explicit: Optional[str] = None, *, rules: RuleTable) -> Config:
    """The settings for the first path (or the working folder)."""
    resolver = Resolver(explicit, rules=rules)
    start = paths[0] if paths else os.getcwd()
    if not os.path.exists(start):
        start = os.getcwd()
    return resolver.for_path(start)

