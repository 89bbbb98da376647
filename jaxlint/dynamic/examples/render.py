"""A source expression rendered as text the dynamic worker may evaluate: literals, ``jnp.*`` /
``np.*`` / ``math.*`` calls, constructor calls of the module's classes, and names followed to
the assignment a read sees.

Separate from ``arguments`` because rendering one expression is its own recursive concern; the
call sites, the parameters' defaults and the findings' details all render through it.
"""

from __future__ import annotations

from typing import Callable, Dict, Optional

import libcst as cst

from jaxlint.analysis.syntax.scopes import Scope
from jaxlint.analysis.model.names import resolve

# Calls an example may make: pure array constructors and math.  File and memory-map I/O is out.
SAFE_ROOTS = ("jax.numpy.", "numpy.", "jax.random.", "math.", "jax.nn.")
UNSAFE_CALLS = frozenset(
    {"save", "savez", "savez_compressed", "savetxt", "load", "loadtxt", "fromfile", "genfromtxt", "memmap", "tofile", "fromregex", "DataSource"}
)
SAFE_METHODS = frozenset({"reshape", "astype", "T", "sum", "mean"})
MAX_DEPTH = 6


def nearest_binding(owner: Scope, name: str, before: Optional[int]):
    """The assignment of ``name`` that a read at statement ``before`` of ``owner`` sees: the last
    one earlier in the scope; without an order, the only one."""
    binds = owner.bindings.get(name, ())
    if before is not None:
        earlier = [b for b in binds if b.order is not None and b.order < before]
        if earlier and all(b.order is not None for b in binds):
            return max(earlier, key=lambda b: b.order)
        return None
    return owner.only_binding(name)


def render(
    expr,
    scope: Scope,
    before: Optional[int] = None,
    subst: Optional[Dict[str, str]] = None,
    depth: int = 0,
    fallback: Optional[Callable[[str, Scope], Optional[str]]] = None,
) -> Optional[str]:
    """Source for a literal or a simple expression the worker may evaluate; None otherwise.

    ``before``: the order of the statement that reads ``expr`` in ``scope`` (names then take
    the value of their last assignment before it).  ``subst``: names replaced by a source
    text (a loop variable by one of its values).  The result may name JAX, NumPy, ``math``
    and the module's own classes and globals; nothing else.  ``fallback(name, scope)`` may
    give the source of a name read in ``scope`` that has no such value."""
    if depth > MAX_DEPTH:
        return None

    def sub(e):
        return render(e, scope, before, subst, depth + 1, fallback)

    if isinstance(expr, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)):
        return expr.value
    if isinstance(expr, cst.ConcatenatedString):
        try:
            v = expr.evaluated_value
        except Exception:  # noqa: BLE001
            return None
        return repr(v) if isinstance(v, (str, bytes)) else None
    if isinstance(expr, cst.Name):
        return _render_name(expr, scope, before, subst, depth, fallback)
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, (cst.Minus, cst.Plus, cst.BitInvert)):
        inner = sub(expr.expression)
        op = {cst.Minus: "-", cst.Plus: "+", cst.BitInvert: "~"}[type(expr.operator)]
        return f"({op}{inner})" if inner is not None else None
    if isinstance(expr, cst.BinaryOperation):
        left, right = sub(expr.left), sub(expr.right)
        if left is None or right is None:
            return None
        op = cst.Module([]).code_for_node(expr.operator).strip()
        return f"({left} {op} {right})"
    if isinstance(expr, (cst.Tuple, cst.List, cst.Set)):
        return _render_sequence(expr, sub)
    if isinstance(expr, cst.Dict):
        return _render_dict(expr, sub)
    if isinstance(expr, cst.Subscript):
        return _render_subscript(expr, sub)
    if isinstance(expr, cst.Attribute):
        return _render_attribute(expr, scope, sub)
    if isinstance(expr, cst.Call):
        return _render_call(expr, scope, sub)
    return None


def _render_name(expr: cst.Name, scope: Scope, before, subst, depth: int, fallback) -> Optional[str]:
    """A name: its substitute, its last assigned value, the JAX or NumPy object it imports,
    or a class, function or global the worker reads from the imported module."""
    if subst and expr.value in subst:
        return subst[expr.value]
    if expr.value in ("True", "False", "None"):
        return expr.value
    owner = scope.lookup_scope(expr.value)
    if owner is None:
        return None
    if owner.kind != "class":
        b = nearest_binding(owner, expr.value, before if owner is scope else None)
        if b is not None and b.kind == "assign" and b.value is not None:
            # a parameter in that value is still what the callers pass (the fallback)
            r = render(b.value, owner, b.order if owner is scope else None, None, depth + 1, fallback if owner is scope else None)
            if r is not None:
                return r
    q = resolve(expr, scope)
    if q is not None and q.startswith(SAFE_ROOTS):
        return q
    if owner.parent is None and (expr.value in owner.classes or expr.value in owner.defs or _bound_by_assignment(owner, expr.value)):
        # A class, function or global of the module: the worker reads it from the imported
        # module (a name bound only under ``if __name__ == "__main__":`` is not there, and
        # that example fails to build).
        return expr.value
    return fallback(expr.value, scope) if fallback is not None else None


def _render_sequence(expr, sub) -> Optional[str]:
    parts = []
    for el in expr.elements:
        if isinstance(el, cst.StarredElement):
            return None
        r = sub(el.value)
        if r is None:
            return None
        parts.append(r)
    if isinstance(expr, cst.Tuple):
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    if isinstance(expr, cst.Set):
        return "{" + ", ".join(parts) + "}" if parts else None
    return "[" + ", ".join(parts) + "]"


def _render_dict(expr: cst.Dict, sub) -> Optional[str]:
    parts = []
    for el in expr.elements:
        if not isinstance(el, cst.DictElement):
            return None
        k, v = sub(el.key), sub(el.value)
        if k is None or v is None:
            return None
        parts.append(f"{k}: {v}")
    return "{" + ", ".join(parts) + "}"


def _render_subscript(expr: cst.Subscript, sub) -> Optional[str]:
    base = sub(expr.value)
    if base is None:
        return None
    parts = []
    for el in expr.slice:
        s = el.slice
        if isinstance(s, cst.Index):
            r = sub(s.value)
            if r is None:
                return None
            parts.append(r)
        else:
            bounds = []
            for b in (s.lower, s.upper, s.step):
                r = sub(b) if b is not None else ""
                if r is None:
                    return None
                bounds.append(r)
            parts.append(":".join(bounds).rstrip(":") or ":")
    return f"{base}[{', '.join(parts)}]"


def _render_attribute(expr: cst.Attribute, scope: Scope, sub) -> Optional[str]:
    """A JAX or NumPy object by its qualified name, or an array's shape-like attribute."""
    q = resolve(expr, scope)
    if q is not None:
        return q if q.startswith(SAFE_ROOTS) and q.rsplit(".", 1)[-1] not in UNSAFE_CALLS else None
    if expr.attr.value in ("T", "shape", "ndim", "dtype", "size"):
        base = sub(expr.value)
        return f"{base}.{expr.attr.value}" if base is not None else None
    return None


def _render_call(expr: cst.Call, scope: Scope, sub) -> Optional[str]:
    """A call of a safe JAX, NumPy or ``math`` function, of a safe array method, or of a
    constructor of the module's own class, with arguments that render."""
    func = expr.func
    q = resolve(func, scope)
    if q is not None:
        if not q.startswith(SAFE_ROOTS) or q.rsplit(".", 1)[-1] in UNSAFE_CALLS:
            return None
        head = q
    elif isinstance(func, cst.Attribute) and func.attr.value in SAFE_METHODS:
        base = sub(func.value)
        if base is None:
            return None
        head = f"{base}.{func.attr.value}"
    elif isinstance(func, cst.Name) and module_class(func.value, scope) is not None:
        # A constructor of the module's own class (a pytree, a config object): the worker
        # runs it, as the code under test would.
        head = func.value
    else:
        return None
    args = []
    for a in expr.args:
        if a.star:
            return None
        r = sub(a.value)
        if r is None:
            return None
        args.append(f"{a.keyword.value}={r}" if a.keyword is not None else r)
    return f"{head}({', '.join(args)})"


def _bound_by_assignment(owner: Scope, name: str) -> bool:
    return any(b.kind in ("assign", "aug", "for", "with") for b in owner.bindings.get(name, ()))


def module_class(name: str, scope: Scope):
    owner = scope.lookup_scope(name)
    if owner is None or owner.parent is not None:
        return None
    return owner.classes.get(name)
