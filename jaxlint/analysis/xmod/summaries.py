"""What the cross-module phase looks up in a module without interpreting it, as plain data.

Following a record means finding the module that defines its target: through packages that
re-export names (``from .lax import scan``), classes re-exported the same way, and members
inherited from a base class imported from elsewhere.  Those hops need only the module's
names: the functions it defines (or binds to a jitted callable), what it imports, and for each
class the members along its MRO in the module, its one imported base and whether the class
model places it as a pytree.  A summary keeps exactly that, with no node of the tree, so the
modules a lookup passes through are parsed once per run and dropped at once: the phase holds
the trees of the modules it interprets, not of every module it reads on the way.
"""

from __future__ import annotations

from typing import Dict, FrozenSet, NamedTuple, Optional


class ClassSummary(NamedTuple):
    members: FrozenSet[str]  # functions of the class and of its bases in the module
    imported_base: Optional[str]  # ClassModel.imported_base
    pytree: bool  # ClassModel.pytree_kind is not None


class ModuleSummary(NamedTuple):
    path: str
    digest: Optional[str]  # of the contents read: the cache entries that used the summary depend on it
    functions: FrozenSet[str]  # what ``_Target.function`` finds in the module itself
    imports: Dict[str, str]  # name -> qualified name, as imported
    classes: Dict[str, ClassSummary]


def summarise(analysis, path: str, digest: Optional[str]) -> ModuleSummary:
    """The summary of a module from its ModuleAnalysis."""
    scope = analysis.index.module_scope
    aliased = {name for (sid, name) in analysis.finder.aliases if sid == id(scope)}
    model = analysis.analyzer.classes
    classes = {}
    for name, cls in scope.classes.items():
        members = frozenset(n for c in model.mro(cls) for n in c.body_scope.defs)
        classes[name] = ClassSummary(members, model.imported_base(cls), model.pytree_kind(cls) is not None)
    return ModuleSummary(path, digest, frozenset(scope.defs) | frozenset(aliased), dict(scope.imports), classes)


def summary_to_json(s: ModuleSummary) -> dict:
    classes = {name: [sorted(c.members), c.imported_base, c.pytree] for name, c in s.classes.items()}
    return {"functions": sorted(s.functions), "imports": s.imports, "classes": classes}


def summary_from_json(d: dict, path: str, digest: Optional[str]) -> ModuleSummary:
    """The summary stored by :func:`summary_to_json` (a malformed entry raises)."""
    classes = {str(name): ClassSummary(frozenset(members), base, bool(pytree)) for name, (members, base, pytree) in d["classes"].items()}
    imports = {str(k): str(v) for k, v in d["imports"].items()}
    return ModuleSummary(path, digest, frozenset(d["functions"]), imports, classes)
