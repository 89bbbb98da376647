"""What kind of value an expression of the module builds, read from its syntax and the import
table: a Python container (whether it is a JAX array, and what reaches a static parameter, are
host_values's questions)."""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.syntax.scopes import CONTAINER_CTORS, Scope
from jaxlint.analysis.model.names import resolve
from jaxlint.analysis.syntax.nodes import const_index, string_value


def is_container_value(expr, scope: Scope) -> bool:
    if isinstance(expr, (cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp, cst.SetComp)):
        return True
    if isinstance(expr, cst.Call):
        if isinstance(expr.func, cst.Name) and scope.lookup_scope(expr.func.value) is None:
            return expr.func.value in ("list", "dict", "set")
        q = resolve(expr.func, scope)
        return q in CONTAINER_CTORS
    return False


def all_container_bindings(owner: Scope, name: str) -> bool:
    binds = owner.value_bindings(name)
    return bool(binds) and all(b.value is not None and is_container_value(b.value, owner) for b in binds)


def container_element(owner: Scope, name: str, el: cst.SubscriptElement):
    """The container display ``name[el]`` holds when ``name`` is bound once, to a literal that
    shows it (``STATE = {"hist": []}`` and ``STATE["hist"]``, ``LOGS = [[], []]`` and
    ``LOGS[0]``): an element alias keeps its link to the outer object.  Else None."""
    binds = owner.value_bindings(name)
    if len(binds) != 1 or binds[0].value is None or not isinstance(el.slice, cst.Index):
        return None
    outer, key = binds[0].value, el.slice.value
    found = None
    if isinstance(outer, cst.Dict) and isinstance(key, cst.SimpleString):
        want = string_value(key)
        for item in outer.elements:
            if isinstance(item, cst.DictElement) and isinstance(item.key, cst.SimpleString) and string_value(item.key) == want:
                found = item.value
    elif isinstance(outer, (cst.List, cst.Tuple)):
        i = const_index(el)
        if i is not None and not any(isinstance(x, cst.StarredElement) for x in outer.elements) and -len(outer.elements) <= i < len(outer.elements):
            found = outer.elements[i].value
    return found if found is not None and is_container_value(found, owner) else None
