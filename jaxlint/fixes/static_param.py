"""A parameter used as configuration (``if flag:``, ``range(n)``) -> added to the
``static_argnames`` of its ``jax.jit`` (JAX101/JAX102/JAX103, unsafe).

Only for ``jax.jit`` itself, applied as ``@jax.jit``, ``@partial(jax.jit, ...)`` or
``jax.jit(f, ...)``, with a literal static spec.  Unsafe: every call with a new value compiles
again, and a caller passing an array for the parameter now fails (static arguments must be
hashable); whether the value is configuration is the author's call.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.analysis.model.names import PARTIAL, resolve
from jaxlint.analysis.syntax.functions import return_values
from jaxlint.analysis.syntax.nodes import NOT_LITERAL, literal_value
from jaxlint.analysis.traced.annotations import is_array_annotation
from jaxlint.fixes.declare import UNSAFE, AddImport, Fix, Replace
from jaxlint.fixes.names import code, name_is_free

def _is_jit(expr, scope) -> bool:
    return resolve(expr, scope) == "jax.jit"


def _partial_name(scope):
    """(name, imports) for ``functools.partial`` from ``scope``."""
    top = scope.module()
    for local, full in sorted(top.imports.items()):
        if full in PARTIAL and scope.resolve_import(local) == full:
            return local, ()
    if name_is_free(scope, "partial"):
        return "partial", ("from functools import partial",)
    return None


def _with_name(args, name: str) -> Optional[str]:
    """The argument list with ``name`` added to its ``static_argnames`` (added if missing)."""
    parts = []
    found = False
    for a in args:
        if a.keyword is not None and a.keyword.value == "static_argnames":
            v = a.value
            if isinstance(v, (cst.List, cst.Tuple)):
                items = [code(el.value).strip() for el in v.elements] + [f'"{name}"']
                inner = ", ".join(items)
                text = f"[{inner}]" if isinstance(v, cst.List) else f"({inner},)" if len(items) == 1 else f"({inner})"
            elif isinstance(v, cst.SimpleString):
                text = f'({code(v).strip()}, "{name}")'
            else:
                return None
            parts.append(f"static_argnames={text}")
            found = True
        else:
            parts.append(code(a.with_changes(comma=cst.MaybeSentinel.DEFAULT)).strip())
    if not found:
        parts.append(f'static_argnames=("{name}",)')
    return ", ".join(parts)


def static_param_fix(app, name: str) -> Optional[Fix]:
    if app.statics.opaque or app.bound_pos or app.bound_self:
        return None
    title = f"Add `{name}` to static_argnames"
    site = app.site
    if isinstance(site, cst.Decorator):
        scope = app.func.scope
        expr = site.decorator
        if not isinstance(expr, cst.Call):
            if not _is_jit(expr, scope):
                return None
            ref = _partial_name(scope)
            if ref is None:
                return None
            text = f'{ref[0]}({code(expr).strip()}, static_argnames=("{name}",))'
            return Fix(title, (Replace(expr, text),) + tuple(AddImport(i) for i in ref[1]), UNSAFE)
        if not (resolve(expr.func, scope) in PARTIAL and expr.args and _is_jit(expr.args[0].value, scope)):
            return None
    elif isinstance(site, cst.Call):
        scope = app.site_scope
        expr = site
        if not _is_jit(expr.func, scope):
            return None
    else:
        return None
    if "#" in code(expr):
        return None  # a comment inside the call would be lost
    args = _with_name(expr.args, name)
    if args is None:
        return None
    return Fix(title, (Replace(expr, f"{code(expr.func).strip()}({args})"),), UNSAFE)


def configuration_name(expr) -> Optional[str]:
    """The parameter an expression tests as configuration: ``flag``, ``not flag``, ``n > 3``,
    ``mode == "a"``; None for anything else (``x > 0`` with ``x`` data looks the same, which
    is why the fix is unsafe and offered only when no value-selecting fix is)."""
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
        expr = expr.expression
    if isinstance(expr, cst.Name):
        return expr.value
    if isinstance(expr, cst.Comparison) and len(expr.comparisons) == 1:
        c = expr.comparisons[0]
        if isinstance(expr.left, cst.Name) and literal_value(c.comparator) is not NOT_LITERAL:
            return expr.left.value
        if isinstance(c.comparator, cst.Name) and literal_value(expr.left) is not NOT_LITERAL:
            return c.comparator.value
    return None


def parameter_fix(ctx, expr, v) -> Optional[Fix]:
    """The fix for a traced value tested as configuration in the jitted function itself."""
    name = configuration_name(expr)
    app = ctx.frame.entry
    f = ctx.func
    if name is None or v.name != name or app.func is not f or app.transform.label != "jitted":
        return None
    params = list(f.positional_params()) + list(f.params.kwonly_params)
    p = next((p for p in params if p.name.value == name), None)
    if p is None or is_array_annotation(p.annotation, f.scope) or name not in app.jit_positional() + [k.name.value for k in f.params.kwonly_params]:
        return None
    if name in _returned_names(f.node):
        return None  # a value the function returns is data, not configuration
    return static_param_fix(app, name)


def _returned_names(func_node) -> set:
    """Names read in the ``return`` values of a function (nested functions excluded)."""
    names: set = set()
    sub = [r for r in return_values(func_node) if r is not None]
    while sub:
        e = sub.pop()
        if isinstance(e, cst.Name):
            names.add(e.value)
        elif not isinstance(e, cst.Lambda):
            sub.extend(e.children)
    return names
