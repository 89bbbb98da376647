"""Where a module refers to an API of the migration table, resolved through its imports.

``import jax as jx; jx.tree_map`` and ``from jax import tree_map`` both refer to
``jax.tree_map``; a local function named ``tree_map`` does not.  An import of an old name is
reported at the import (that is where a removed name fails); the uses of the name it binds are
not reported again.  An attribute chain (``jnp.product``) is reported where it is written.

Code that guards the access is a deliberate compatibility shim and is left alone: a ``try``
whose handlers catch ImportError/AttributeError (its body and its handlers), and an ``if`` that
tests ``hasattr`` or a version.
"""

from __future__ import annotations

from typing import List, NamedTuple, Optional, Tuple

import libcst as cst

from jaxlint.analysis.jax_api_migrations import TAILS, Migration, lookup
from jaxlint.analysis.scoped_walk import ScopedVisitor
from jaxlint.analysis.scopes import FastVisitor, ModuleIndex, Scope, dotted_name

_GUARD_EXCEPTIONS = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError", "Exception", "BaseException"})


class ApiReference(NamedTuple):
    node: cst.CSTNode  # what to underline: the dotted name as written
    written: str  # the name as written ("jnp.product")
    migration: Migration
    # The replacement spelled with the module alias the file uses ("jnp.prod"), when the
    # reference is an attribute chain whose module prefix survives the rename; else None.
    replacement_text: Optional[str]
    is_import: bool


def api_references(index: ModuleIndex, text: str) -> List[ApiReference]:
    if not any(tail in text for tail in TAILS):
        return []
    finder = _ReferenceFinder(index)
    finder.run()
    return finder.found


class _ReferenceFinder(ScopedVisitor):
    def __init__(self, index: ModuleIndex):
        super().__init__(index)
        self.found: List[ApiReference] = []
        self.guarded = 0
        # (scope id, local name) bound by an import already reported; and, for ``import a.b.c``
        # without ``as``, the dotted prefixes reported.
        self.reported_bindings: set = set()
        self.reported_prefixes: set = set()
        # How the module spells ``jax`` itself, for a replacement outside the aliased module.
        self.jax_alias = next((k for k, v in index.module_scope.imports.items() if v == "jax"), None)

    # -- guards -----------------------------------------------------------------------------
    def visit_Try(self, node: cst.Try) -> bool:
        # ``try: new except ImportError: old`` (or the other way round): both are the shim.
        shim = any(_catches_missing_name(h) for h in node.handlers)
        self.guarded += shim
        self.walk(node.body)
        for h in node.handlers:
            self.walk(h.body)
        self.guarded -= shim
        if node.orelse is not None:
            self.walk(node.orelse)
        if node.finalbody is not None:
            self.walk(node.finalbody)
        return False

    def visit_If(self, node: cst.If) -> bool:
        if _tests_availability(node.test):
            # Both branches: the usual shim is ``if hasattr(jax, "tree"): new else: old``.
            self.guarded += 1
            self.walk(node.body)
            if node.orelse is not None:
                self.walk(node.orelse)
            self.guarded -= 1
            return False
        return True

    def visit_IfExp(self, node: cst.IfExp) -> bool:
        if _tests_availability(node.test):
            return False
        return True

    # -- references -------------------------------------------------------------------------
    def visit_Import(self, node: cst.Import) -> bool:
        for alias in node.names:
            full = dotted_name(alias.name)
            if full is None:
                continue
            hit = lookup(full)
            if hit is None:
                continue
            local = alias.asname.name.value if alias.asname is not None and isinstance(alias.asname.name, cst.Name) else None
            if local is not None:
                self.reported_bindings.add((id(self.scope), local))
            else:
                self.reported_prefixes.add(full)
            self._add(alias.name, full, hit[0], None, True)
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        if node.relative or isinstance(node.names, cst.ImportStar):
            return False
        mod = dotted_name(node.module) if node.module is not None else None
        if mod is None:
            return False
        hit = lookup(mod)
        if hit is not None:
            self._add(node.module, mod, hit[0], None, True)
            for alias in node.names:
                self.reported_bindings.add((id(self.scope), _local(alias)))
            return False
        for alias in node.names:
            name = dotted_name(alias.name)
            if name is None:
                continue
            hit = lookup(f"{mod}.{name}")
            if hit is None:
                continue
            self.reported_bindings.add((id(self.scope), _local(alias)))
            self._add(alias.name, f"{mod}.{name}", hit[0], None, True)
        return False

    def visit_AssignTarget(self, node: cst.AssignTarget) -> bool:
        # ``jax.tree_map = jax.tree.map`` patches the old name back in: not a use of it.
        return not isinstance(node.target, cst.Attribute)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        written = dotted_name(node)
        if written is None:
            return True
        base, _, rest = written.partition(".")
        owner, qualified = self._resolve(base)
        if qualified is None or not (qualified == "jax" or qualified.startswith("jax.")):
            return False
        if (id(owner), base) in self.reported_bindings:
            return False
        if any(written == p or written.startswith(p + ".") for p in self.reported_prefixes):
            return False
        hit = lookup(f"{qualified}.{rest}")
        if hit is None:
            return False
        migration, prefix = hit
        # The node spelling the matched prefix: drop one attribute per extra component.
        extra = len(f"{qualified}.{rest}".split(".")) - len(prefix.split("."))
        target: cst.CSTNode = node
        for _ in range(extra):
            target = target.value  # type: ignore[attr-defined]
        shown = dotted_name(target) or written
        self._add(target, shown, migration, _respelled(shown, prefix, migration, self.jax_alias), False)
        return False

    def _resolve(self, name: str) -> Tuple[Optional[Scope], Optional[str]]:
        """(scope that imports ``name``, what it imports) as seen from the current scope."""
        s: Optional[Scope] = self.scope
        first = True
        while s is not None:
            if s.kind != "class" or first:
                q = s.imports.get(name)
                if q is not None:
                    return s, q
                if name in s.bindings or name in s.defs or name in s.classes:
                    return s, None
            first = False
            s = s.parent
        return None, None

    def _add(self, node, written: str, migration: Migration, replacement: Optional[str], is_import: bool) -> None:
        if self.guarded:
            return
        self.found.append(ApiReference(node, written, migration, replacement, is_import))


def _local(alias: cst.ImportAlias) -> str:
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    return dotted_name(alias.name) or ""


def _respelled(written: str, matched: str, m: Migration, jax_alias: Optional[str]) -> Optional[str]:
    """``jnp.product`` for ``jax.numpy.product`` -> ``jnp.prod``: the alias is kept when the old
    and new names share the module it stands for; otherwise the new name spelled from the
    module's own ``import jax`` (None when it has none)."""
    if m.new is None:
        return None
    written_parts = written.split(".")
    matched_parts = matched.split(".")
    # The alias stands for the leading components of ``matched`` that ``written`` does not spell.
    alias_covers = matched_parts[: len(matched_parts) - len(written_parts) + 1]
    new_parts = m.new.split(".")
    if new_parts[: len(alias_covers)] == alias_covers:
        return ".".join([written_parts[0]] + new_parts[len(alias_covers) :])
    if jax_alias is None or new_parts[0] != "jax":
        return None
    return ".".join([jax_alias] + new_parts[1:])


def _catches_missing_name(handler: cst.ExceptHandler) -> bool:
    t = handler.type
    if t is None:
        return True
    names = [e.value for e in t.elements] if isinstance(t, cst.Tuple) else [t]
    for n in names:
        d = dotted_name(n)
        if d is not None and d.rsplit(".", 1)[-1] in _GUARD_EXCEPTIONS:
            return True
    return False


class _AvailabilityTest(FastVisitor):
    def __init__(self):
        self.found = False

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name) and node.func.value in ("hasattr", "getattr"):
            self.found = True

    def visit_Name(self, node: cst.Name) -> None:
        if "version" in node.value.lower():
            self.found = True

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if "version" in node.attr.value.lower():
            self.found = True


def _tests_availability(test: cst.BaseExpression) -> bool:
    """``hasattr(jax, "tree")``, ``jax.__version__ >= ...``, ``JAX_VERSION < (0, 4, 25)``."""
    v = _AvailabilityTest()
    v.walk(test)
    return v.found
