"""Which import a rewrite to a dotted JAX name needs: ``jax.extend.core.Primitive`` after
``import jax`` alone fails with ``AttributeError``, because ``import jax`` does not load the
submodule ``jax.extend.core``.

Computed from the installed JAX without importing it: a prefix of the name is a module when its
file exists in the package, and ``import jax`` loads a submodule when the ``__init__.py`` of its
parent package (loaded itself) imports it at top level.  That undercounts what ``import jax``
loads (imports made deeper down are not followed), so an import may be added that was not
needed, never left out.  Without an installed JAX nothing is known: the caller must not call
the rewrite safe.
"""

from __future__ import annotations

import functools
import importlib.util
import os
from typing import FrozenSet, Optional, Tuple

import libcst as cst

from jaxlint.analysis.syntax.nodes import dotted_name

# What the lookup can answer: the module to import ("" when none is needed), or None (unknown).
Needed = Optional[str]


@functools.lru_cache(maxsize=None)
def _package_dir(top: str) -> Optional[str]:
    try:
        spec = importlib.util.find_spec(top)  # a top-level name: found, not imported
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return list(spec.submodule_search_locations)[0]


def _module_file(root: str, parts: Tuple[str, ...]) -> Optional[str]:
    base = os.path.join(root, *parts[1:])
    for candidate in (os.path.join(base, "__init__.py"), base + ".py"):
        if os.path.isfile(candidate):
            return candidate
    return None


@functools.lru_cache(maxsize=None)
def _imported_by(init_file: str, package: str) -> FrozenSet[str]:
    """Submodules of ``package`` that the top-level statements of ``init_file`` import."""
    try:
        with open(init_file, "rb") as fh:
            module = cst.parse_module(fh.read())
    except Exception:  # noqa: BLE001 - unreadable: it loads nothing we know of
        return frozenset()
    return _top_imports(module, package)


def _top_imports(module: cst.Module, package: Optional[str] = None) -> FrozenSet[str]:
    """The modules the top-level imports of ``module`` load: of the ``__init__.py`` of
    ``package``, or of a user's file (None), whose relative imports are not followed and whose
    ``from mod import name`` may name a submodule of any ``mod``."""
    found = set()
    for stmt in module.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.Import):
                for alias in small.names:
                    name = dotted_name(alias.name) or ""
                    found.update(_prefixes(name))
            elif not isinstance(small, cst.ImportFrom) or (small.relative and package is None):
                continue
            elif small.module is not None:
                if small.relative:
                    mod = package + "." + (dotted_name(small.module) or "") if len(small.relative) == 1 else ""
                else:
                    mod = dotted_name(small.module) or ""
                found.update(_prefixes(mod))
                if (package is None or mod == package) and not isinstance(small.names, cst.ImportStar):
                    # ``from jax import numpy as numpy``: a submodule, or a plain name (then unused)
                    found.update(f"{mod}.{dotted_name(a.name)}" for a in small.names)
            elif small.relative and len(small.relative) == 1:
                if not isinstance(small.names, cst.ImportStar):
                    found.update(f"{package}.{dotted_name(a.name)}" for a in small.names)
    return frozenset(found)


def _prefixes(name: str):
    parts = name.split(".")
    return [".".join(parts[:n]) for n in range(1, len(parts) + 1) if parts[0]]


def _loaded_by_top_import(module: str, root: str) -> bool:
    """``import <top>`` loads ``module`` (by the parent-``__init__`` chain)."""
    parts = module.split(".")
    for n in range(2, len(parts) + 1):
        parent = tuple(parts[: n - 1])
        init = _module_file(root, parent)
        if init is None or not init.endswith("__init__.py"):
            return False
        if ".".join(parts[:n]) not in _imported_by(init, ".".join(parent)):
            return False
    return True


def module_of(name: str) -> Tuple[Optional[str], Optional[str]]:
    """(package folder, the longest prefix of dotted ``name`` that is a module of its installed
    package); (None, None) when the package is not installed."""
    parts = tuple(name.split("."))
    root = _package_dir(parts[0])
    if root is None:
        return None, None
    for n in range(len(parts), 1, -1):
        if _module_file(root, parts[:n]) is not None:
            return root, ".".join(parts[:n])
    return root, parts[0]


def needed_import(name: str, module: cst.Module) -> Needed:
    """The module to ``import`` so that dotted ``name`` (``jax.extend.core.Primitive``) resolves
    in ``module``, "" when none is needed, None when that cannot be known."""
    root, mod = module_of(name)
    if root is None or mod is None:
        return None
    if "." not in mod or _loaded_by_top_import(mod, root) or mod in _top_imports(module):
        return ""
    return mod
