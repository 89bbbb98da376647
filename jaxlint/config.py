"""Settings from ``[tool.jaxlint]`` in pyproject.toml and the command line."""

from __future__ import annotations

import fnmatch
import os
import sys
from dataclasses import dataclass, replace
from typing import List, Optional, Sequence, Tuple

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


class ConfigError(Exception):
    """A configuration problem: reported as one line, exit code 2."""


@dataclass(frozen=True)
class Config:
    select: Tuple[str, ...] = ()
    ignore: Tuple[str, ...] = ()
    per_file_ignores: Tuple[Tuple[str, Tuple[str, ...]], ...] = ()
    exclude: Tuple[str, ...] = ()
    extra_jit_decorators: Tuple[str, ...] = ()
    root: Optional[str] = None  # folder of the pyproject.toml that configured us
    # The JAX the code must run on (None: the newest JAX jaxlint knows), and the oldest JAX it
    # must still support (None: no lower bound), as (major, minor, patch).
    target_jax: Optional[Tuple[int, int, int]] = None
    min_jax: Optional[Tuple[int, int, int]] = None

    def key(self) -> str:
        """A stable description of everything that changes results (for caches)."""
        return repr(
            (self.select, self.ignore, self.per_file_ignores, self.extra_jit_decorators, self.target_jax, self.min_jax)
        )

    def ignored_for(self, relpath: str) -> Tuple[str, ...]:
        out: List[str] = []
        p = relpath.replace(os.sep, "/")
        for pattern, codes in self.per_file_ignores:
            if fnmatch.fnmatch(p, pattern) or fnmatch.fnmatch(os.path.basename(p), pattern):
                out.extend(codes)
        return tuple(out)

    def is_excluded(self, relpath: str) -> bool:
        p = relpath.replace(os.sep, "/").lstrip("./") if relpath not in (".", "./") else relpath
        parts = p.split("/")
        for pattern in self.exclude:
            pat = pattern.rstrip("/")
            if fnmatch.fnmatch(p, pat) or any(fnmatch.fnmatch(part, pat) for part in parts):
                return True
            if p.startswith(pat + "/"):
                return True
        return False


KNOWN_KEYS = {
    "select",
    "ignore",
    "extend-select",
    "extend-ignore",
    "per-file-ignores",
    "exclude",
    "extend-exclude",
    "extra-jit-decorators",
    "target-jax",
    "min-jax",
}


def _jax_version(value, key: str) -> Optional[Tuple[int, int, int]]:
    from jaxlint.analysis.jax_api_migrations import parse_version

    v = parse_version(value) if isinstance(value, str) else None
    if v is None:
        raise ConfigError(f'[tool.jaxlint] {key} must be a JAX version string such as "0.6" or "0.4.30" (got {value!r})')
    return v


def _codes(value, key: str) -> Tuple[str, ...]:
    if isinstance(value, str):
        value = [v for v in value.replace(",", " ").split() if v]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"[tool.jaxlint] {key} must be a list of strings")
    return tuple(v.strip().upper() for v in value)


def parse_table(table: dict, root: Optional[str] = None) -> Config:
    norm = {}
    for k, v in table.items():
        k2 = k.replace("_", "-")
        if k2 not in KNOWN_KEYS:
            raise ConfigError(f"[tool.jaxlint] unknown setting '{k}' (known: {', '.join(sorted(KNOWN_KEYS))})")
        norm[k2] = v
    select = _codes(norm.get("select", []), "select") + _codes(norm.get("extend-select", []), "extend-select")
    ignore = _codes(norm.get("ignore", []), "ignore") + _codes(norm.get("extend-ignore", []), "extend-ignore")
    pfi = norm.get("per-file-ignores", {})
    if not isinstance(pfi, dict):
        raise ConfigError("[tool.jaxlint] per-file-ignores must be a table of glob = [codes]")
    per_file = tuple((str(k), _codes(v, f"per-file-ignores.{k}")) for k, v in pfi.items())
    exclude = norm.get("exclude", []) + norm.get("extend-exclude", [])
    if not isinstance(exclude, list) or not all(isinstance(v, str) for v in exclude):
        raise ConfigError("[tool.jaxlint] exclude must be a list of glob patterns")
    extra = norm.get("extra-jit-decorators", [])
    if not isinstance(extra, list) or not all(isinstance(v, str) for v in extra):
        raise ConfigError("[tool.jaxlint] extra-jit-decorators must be a list of dotted names")
    target = _jax_version(norm["target-jax"], "target-jax") if "target-jax" in norm else None
    minimum = _jax_version(norm["min-jax"], "min-jax") if "min-jax" in norm else None
    if target is not None and minimum is not None and minimum > target:
        raise ConfigError(
            f"[tool.jaxlint] min-jax ({norm['min-jax']}) must not be newer than target-jax ({norm['target-jax']})"
        )
    return Config(select, ignore, per_file, tuple(exclude), tuple(extra), root, target, minimum)


def find_pyproject(start: str) -> Optional[str]:
    d = os.path.abspath(start)
    if os.path.isfile(d):
        d = os.path.dirname(d)
    while True:
        cand = os.path.join(d, "pyproject.toml")
        if os.path.isfile(cand):
            return cand
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def load_config(paths: Sequence[str] = (), explicit: Optional[str] = None) -> Config:
    """Config from ``explicit`` or the first pyproject.toml above the first path (or cwd)."""
    if explicit is not None:
        pyproject = explicit
        if not os.path.isfile(pyproject):
            raise ConfigError(f"config file not found: {explicit}")
    else:
        start = paths[0] if paths else os.getcwd()
        if not os.path.exists(start):
            start = os.getcwd()
        pyproject = find_pyproject(start)
    if pyproject is None:
        return Config()
    try:
        with open(pyproject, "rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"cannot read {pyproject}: {e}") from None
    table = data.get("tool", {}).get("jaxlint")
    if table is None:
        return Config(root=os.path.dirname(os.path.abspath(pyproject)))
    if not isinstance(table, dict):
        raise ConfigError(f"{pyproject}: [tool.jaxlint] must be a table")
    return parse_table(table, os.path.dirname(os.path.abspath(pyproject)))


def with_overrides(cfg: Config, **kw) -> Config:
    return replace(cfg, **{k: v for k, v in kw.items() if v is not None})
