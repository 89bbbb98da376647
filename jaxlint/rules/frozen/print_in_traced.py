"""JAX302 print-in-traced."""

from __future__ import annotations


import libcst as cst

from jaxlint import fixes
from jaxlint.analysis.traced.values import TEXT, TRACED
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import frozen


def _debug_print_fix(ctx, node: cst.Call, argvals):
    """(suggestion text, Fix) for ``print(...)`` -> ``jax.debug.print(...)``, or (None, None)."""
    ref = fixes.names.module_reference(ctx.frame.scope, "jax", "jax")
    if ref is None:
        return None, None
    # Text made from a traced value (``"{}".format(x)``) must be translated, not passed on.
    text_args = {i for i, (_, v) in enumerate(argvals) if v.flags & TEXT}
    text = fixes.debug_print.debug_print_call(node, ref[0], text_args)
    if text is None:
        return None, None
    return text, fixes.declare.replace(node, text, f"Replace with `{ref[0]}.debug.print`", fixes.declare.SAFE, ref[1])


class PrintInTraced(Rule):
    """
    What it does
        Flags ``print()`` of a traced value inside a traced function, and a ``logging``
        call (``logging.info``, ``logging.warning``, ...) given one.

    Why is this bad?
        ``print`` and ``logging`` run while JAX traces: they show ``Traced<ShapedArray(...)>``
        instead of numbers, and under ``jax.jit`` they run only when the function is
        (re)compiled, not on every call.

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
    message = "`{call}()` of traced value `{var}` in {where} runs only while tracing and shows a tracer, not its value"
    fix = 'use jax.debug.print("... {{}}", {var}) to print the runtime value on every call'
    prevents = frozen("debug output that shows tracers and disappears after the first call")
    fix_safety = "safe"
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
        shown = "print" if q == "builtins.print" else q if q in LOGGING_CALLS else None
        if shown is None or not ctx.frame.entry.transform.effects:
            return
        for a, v in argvals:
            if a.keyword is None and (v.kind == TRACED or v.flags & TEXT):
                # ``jax.debug.print`` takes no logger's level nor %-format
                text, fix = _debug_print_fix(ctx, node, argvals) if shown == "print" else (None, None)
                ctx.report(self, node, call=shown, var=v.name or a.value, suggestion=text, autofix=fix)
                return


# The logging module's functions write their message once, when they run: at trace time.
LOGGING_CALLS = frozenset(f"logging.{level}" for level in ("debug", "info", "warning", "error", "critical", "exception", "log"))
