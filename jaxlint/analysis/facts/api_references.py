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

import sys
from typing import Dict, List, NamedTuple, Optional, Set, Tuple

import libcst as cst

from jaxlint.analysis.jax.jax_api_migrations import Migration, lookup, table as jax_release_table
from jaxlint.analysis.syntax.scoped_walk import ScopedVisitor
from jaxlint.analysis.syntax.fast_walk import FastVisitor
from jaxlint.analysis.syntax.module_index import ModuleIndex
from jaxlint.analysis.syntax.nodes import dotted_name
from jaxlint.analysis.syntax.scopes import Scope

_GUARD_EXCEPTIONS = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError", "Exception", "BaseException"})


class ApiReference(NamedTuple):
    node: cst.CSTNode  # what to underline: the dotted name as written
    written: str  # the name as written ("jnp.product")
    migration: Optional[Migration]
    # The replacement spelled with the module alias the file uses ("jnp.prod"), when the
    # reference is an attribute chain whose module prefix survives the rename; else None.
    replacement_text: Optional[str]
    is_import: bool
    # For an attribute path into a JAX submodule that nothing loads (JAX603): that submodule.
    unloaded: Optional[str] = None


def api_references(index: ModuleIndex, text: str, unloaded: bool = True) -> List[ApiReference]:
    """References to the migration table's names, and (JAX603, unless ``unloaded`` is False)
    attribute paths into JAX submodules that ``import jax`` does not load and that the module
    never imports.  Without the second, a module that names nothing of the table needs no
    walk."""
    migrations = any(_imports_old_name(s) for s in index.import_statements) or _chain_may_name_old_api(index)
    loads = _imports_only_jax_and_stdlib(index, text) if unloaded and "jax." in text else None
    if not migrations and loads is None:
        return []
    finder = _ReferenceFinder(index, migrations, loads)
    finder.run()
    return finder.found


def _chain_may_name_old_api(index: ModuleIndex) -> bool:
    """Whether a dotted name the module writes as an attribute may name an entry of the table,
    as the walk resolves it: ``L.rest`` where an import in any scope binds ``L`` to a JAX
    module ``Q``, and ``Q.rest`` (or the module it lies in) is in the table.  (An entry that
    ``Q`` itself lies in is named by that import, which ``_imports_old_name`` sees.)  The index
    records every dotted name written as an attribute, so a module that writes none needs no
    walk; the walk then tells which scope the name resolves in, and whether a guard makes it a
    deliberate shim."""
    bound: Dict[str, Set[str]] = {}
    scopes = [index.module_scope]
    scopes.extend(f.body_scope for f in index.functions if f.body_scope is not None)
    scopes.extend(c.body_scope for c in index.classes)
    for scope in scopes:
        for local, qualified in scope.imports.items():
            if qualified == "jax" or qualified.startswith("jax."):
                bound.setdefault(local, set()).add(qualified)
    if not bound:
        return False
    for written in index.dotted_attributes:
        base, _, rest = written.partition(".")
        for qualified in bound.get(base, ()):
            if lookup(f"{qualified}.{rest}") is not None:
                return True
    return False


def _imports_old_name(node) -> bool:
    """Whether an import statement names an entry of the table (as the walk reports it)."""
    if isinstance(node, cst.Import):
        return any(name is not None and lookup(name) is not None for name in (dotted_name(a.name) for a in node.names))
    if node.relative or isinstance(node.names, cst.ImportStar):
        return False
    mod = dotted_name(node.module) if node.module is not None else None
    if mod is None:
        return False
    if lookup(mod) is not None:
        return True
    return any(name is not None and lookup(f"{mod}.{name}") is not None for name in (dotted_name(a.name) for a in node.names))


def _imports_only_jax_and_stdlib(index: ModuleIndex, text: str) -> Optional[Set[str]]:
    """The modules this module's imports load (every dotted prefix), when it imports nothing but
    JAX and the standard library; None otherwise (another library may load any JAX submodule,
    and a relative import may run a package's ``__init__`` that does)."""
    stdlib = getattr(sys, "stdlib_module_names", None)
    if stdlib is None or _imports_by_call(index, text):
        return None
    modules: Set[str] = set()
    for statement in index.import_statements:
        loaded = _modules_named(statement)
        if loaded is None:
            return None
        modules |= loaded
    loads: Set[str] = set()
    for name in modules:
        top = name.split(".")[0]
        if top != "jax" and top not in stdlib and top != "__future__":
            return None
        parts = name.split(".")
        loads.update(".".join(parts[: n + 1]) for n in range(len(parts)))
    return loads


def _modules_named(node) -> Optional[Set[str]]:
    """The modules an import statement names; None when it may load one we cannot name."""
    if isinstance(node, cst.Import):
        modules: Set[str] = set()
        for alias in node.names:
            name = dotted_name(alias.name)
            if name is None:
                return None
            modules.add(name)
        return modules
    mod = dotted_name(node.module) if node.module is not None else None
    if node.relative or mod is None:
        return None
    modules = {mod}
    if mod == "jax" or mod.startswith("jax."):
        # ``from jax.experimental import checkify`` may load the submodule it names.
        if isinstance(node.names, cst.ImportStar):
            return None
        for alias in node.names:
            name = dotted_name(alias.name)
            if name is not None:
                modules.add(f"{mod}.{name}")
    return modules


_IMPORTING_CALLS = ("import_module", "__import__")


def _imports_by_call(index: ModuleIndex, text: str) -> bool:
    """Whether the module calls ``importlib.import_module`` or ``__import__``, which load
    something we cannot name.  A callee is spelled in the text: a module that never writes
    either name needs no walk."""
    if not any(name in text for name in _IMPORTING_CALLS):
        return False
    v = _ImportingCalls()
    v.walk(index.module_scope.node)
    return v.found


class _ImportingCalls(FastVisitor):
    def __init__(self):
        self.found = False

    def visit_Call(self, node: cst.Call) -> bool:
        name = dotted_name(node.func)
        if name is not None and name.rsplit(".", 1)[-1] in _IMPORTING_CALLS:
            self.found = True
        return not self.found


class _ReferenceFinder(ScopedVisitor):
    def __init__(self, index: ModuleIndex, migrations: bool = True, loads: Optional[Set[str]] = None):
        super().__init__(index)
        self.migrations = migrations
        self.loads = loads
        self.in_annotation = 0
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
        hit = lookup(f"{qualified}.{rest}") if self.migrations else None
        if hit is None:
            if self.loads is not None and qualified == "jax":
                self._unloaded(node, written)
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

    def visit_Annotation(self, node: cst.Annotation) -> bool:
        # An annotation may never be evaluated (``from __future__ import annotations``).
        self.in_annotation += 1
        return True

    def leave_Annotation(self, node: cst.Annotation) -> None:
        self.in_annotation -= 1

    def _unloaded(self, node: cst.Attribute, written: str) -> None:
        """``jax.experimental.checkify.checkify`` after ``import jax`` alone: the first submodule
        on the path that ``import jax`` does not load, that this module never imports, and that
        no lazily loading package above it could provide."""
        jax_release = jax_release_table()
        parts = written.split(".")
        for n in range(2, len(parts) + 1):
            mod = "jax." + ".".join(parts[1:n])
            if mod not in jax_release.modules:
                return  # an attribute (a function, a class): past the submodules
            if mod in jax_release.loaded_by_import_jax or mod in self.loads:
                continue
            if any(mod.startswith(p + ".") for p in jax_release.lazy_packages):
                return
            target: cst.CSTNode = node
            for _ in range(len(parts) - n):
                target = target.value  # type: ignore[attr-defined]
            if not self.guarded and not self.in_annotation:
                self.found.append(ApiReference(target, dotted_name(target) or written, None, None, False, mod))
            return

    def _resolve(self, name: str) -> Tuple[Optional[Scope], Optional[str]]:
        """(scope that owns ``name``, what it imports there if it is an import) as seen from
        the current scope."""
        owner = self.scope.lookup_scope(name)
        return (owner, owner.imports.get(name)) if owner is not None else (None, None)

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
