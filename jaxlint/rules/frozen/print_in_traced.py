"""JAX302 print-in-traced."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.analysis.tracing import T, TEXT
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import frozen


def _debug_print_fix(node: cst.Call) -> Optional[str]:
    """``print("a", x)`` -> ``jax.debug.print("a {}", x)`` when that is exactly equivalent."""
    fmt = []
    rest = []
    for a in node.args:
        if a.keyword is not None or a.star:
            return None
        v = a.value
        if isinstance(v, cst.SimpleString):
            try:
                s = v.evaluated_value
            except Exception:  # noqa: BLE001
                return None
            if not isinstance(s, str) or "{" in s or "}" in s or "\\" in s or '"' in s:
                return None
            fmt.append(s)
        else:
            fmt.append("{}")
            rest.append(cst.Module([]).code_for_node(v))
    return "jax.debug.print(" + ", ".join(['"' + " ".join(fmt) + '"'] + rest) + ")"


class PrintInTraced(Rule):
    """
    What it does
        Flags ``print()`` of a traced value inside a traced function.

    Why is this bad?
        ``print`` runs while JAX traces: it shows ``Traced<ShapedArray(...)>`` instead of
        numbers, and under ``jax.jit`` it runs only when the function is (re)compiled, not on
        every call.

    Example
        @jax.jit
        def f(x):
            print("x =", x)
            return x * 2

    Use instead
        ``jax.debug.print("x = {}", x)`` prints the runtime value on every call.

    References
        https://jax.readthedocs.io/en/latest/debugging/print_breakpoint.html
    """

    code = "JAX302"
    name = "print-in-traced"
    message = "`print()` of traced value `{var}` in {where} runs only while tracing and shows a tracer, not its value"
    fix = 'use jax.debug.print("... {{}}", {var}) to print the runtime value on every call'
    prevents = frozen("debug output that shows tracers and disappears after the first call")
    bad = [
        """
        import jax
        import jax.numpy as jnp

        def f(x):
            print("tracing with", x)  # error: JAX302
            return x * 2

        f_jit = jax.jit(f)
        f_jit(jnp.array([1.0, 2.0, 3.0]))
        """
    ]
    good = [
        """
        import jax

        @jax.jit
        def f(x):
            print("compiling f for shape", x.shape)
            jax.debug.print("x = {}", x)
            return x * 2
        """
    ]

    def on_call(self, ctx, node, q, argvals):
        if q != "builtins.print" or not ctx.frame.entry.transform.effects:
            return
        for a, v in argvals:
            if a.keyword is None and (v.k == T or v.f & TEXT):
                ctx.report(self, node, var=v.name or a.value, suggestion=_debug_print_fix(node))
                return
