"""JAX501: a functional update (or another array-returning call) used as a statement."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.analysis.host.array_values import functional_update
from jaxlint.analysis.syntax.scoped_walk import ScopedVisitor
from jaxlint.analysis.syntax.nodes import dotted_name
from jaxlint.analysis.model.names import resolve
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import wrong_result

# Methods of an array that return a new array and leave the array alone.
RESULT_ONLY_METHODS = frozenset({"astype", "reshape"})


class DiscardedUpdate(Rule):
    """
    What it does
        Flags an expression statement whose value is a new array that is then thrown away:
        ``x.at[i].set(v)`` (and ``.add``, ``.multiply``, ``.divide``, ``.power``, ``.min``,
        ``.max``, ``.apply``, ``.get``), ``jnp.where(...)``, and ``x.astype(...)`` /
        ``x.reshape(...)`` on a value known to be a JAX array.  In and out of traced code.

    Why is this bad?
        JAX arrays are immutable.  ``x.at[i].set(v)`` does not change ``x``: it returns a new
        array, and written as a statement that array is lost.  The code runs without an error
        and computes with the old ``x``.

    Example
        def zero_first(x):
            x.at[0].set(0.0)
            return x

    Use instead
        def zero_first(x):
            x = x.at[0].set(0.0)
            return x

    References
        https://docs.jax.dev/en/latest/_autosummary/jax.numpy.ndarray.at.html
        https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#in-place-updates
    """

    code = "JAX501"
    name = "discarded-update"
    message = "the result of `{expr}` is discarded: JAX arrays are immutable, so `{var}` is unchanged"
    fix = "assign the result, e.g. `{var} = {expr}`"
    prevents = wrong_result("an update that silently does nothing", observe="unchanged")
    fix_safety = "unsafe"  # rebinding is the usual intent, not the only one
    bad = [
        """
        import jax
        import jax.numpy as jnp

        def zero_first(x):
            x.at[0].set(0.0)  # error: JAX501
            return x

        @jax.jit
        def clip(x):
            y = jnp.linspace(-1.0, 1.0, 4) * x
            jnp.where(y > 0, y, 0.0)  # error: JAX501
            y.astype(jnp.int32)  # error: JAX501
            return y
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        def zero_first(x):
            x = x.at[0].set(0.0)
            return x

        class Table:
            def __init__(self):
                self.shape = (4,)

            def reshape(self, *shape):
                self.shape = shape

        def relabel(table: Table, buf):
            table.reshape(2, 2)
            buf.reshape(2, 2)
            return jnp.where(jnp.ones(3) > 0)
        """
    ]

    def check_module(self, m):
        finder = _DiscardedResults(m.index, self, m)
        finder.run()


class _DiscardedResults(ScopedVisitor):
    def __init__(self, index, rule, m):
        super().__init__(index)
        self.rule = rule
        self.m = m
        # A class of the module with its own ``at`` may give ``.at[...]`` in-place meaning.
        self.own_at = any("at" in c.body_scope.defs or "at" in c.body_scope.bindings for c in index.classes)

    # A statement never sits inside an expression: below a simple statement only its own
    # expression statements matter, and the walk need not enter the expressions (most nodes).
    def visit_SimpleStatementLine(self, node) -> bool:
        for stmt in node.body:
            if isinstance(stmt, cst.Expr):
                self.visit_Expr(stmt)
        return False

    visit_SimpleStatementSuite = visit_SimpleStatementLine

    def visit_Expr(self, node: cst.Expr) -> bool:
        value = node.value
        if not isinstance(value, cst.Call):
            return False
        var = self._discarded(value)
        if var is not None:
            code = cst.Module([]).code_for_node(value)
            fields = {"expr": value, "var": var}
            if dotted_name(_receiver(value)) == var and "\n" not in code:
                fields["suggestion"] = f"{var} = {code}"
            self.m.report(self.rule, value, **fields)
        return False

    def _discarded(self, call: cst.Call) -> Optional[str]:
        """The name of the array left unchanged, when ``call``'s result is a new array."""
        if functional_update(call) is not None and not self.own_at:
            return _name_of(_receiver(call))
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value in RESULT_ONLY_METHODS:
            if self.m.host_values.is_array(func.value, self.scope):
                return _name_of(func.value)
            return None
        if resolve(func, self.scope) == "jax.numpy.where":
            args = [a.value for a in call.args if a.keyword is None and not a.star]
            for a in args[1:] + args[:1]:
                if dotted_name(a) is not None:
                    return dotted_name(a)
            return "the array"
        return None


def _receiver(call: cst.Call):
    """``x`` of ``x.at[i].set(v)`` / ``x.astype(t)``."""
    v = call.func.value if isinstance(call.func, cst.Attribute) else None
    if isinstance(v, cst.Subscript):
        v = v.value.value if isinstance(v.value, cst.Attribute) else None
    return v


def _name_of(expr) -> str:
    d = dotted_name(expr)
    if d is not None:
        return d
    code = cst.Module([]).code_for_node(expr) if expr is not None else "the array"
    return code if len(code) <= 40 else code[:37] + "..."
