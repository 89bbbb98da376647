"""JAX302 print-in-traced."""

from __future__ import annotations


import libcst as cst

from jaxlint import fixes
from jaxlint.analysis.model.names import resolve
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
        Flags ``print()`` of a traced value inside a traced function, and a logging call
        given one (``logging.info``, ``absl.logging.warning``, ``log.info`` on a
        ``log = logging.getLogger(...)``).

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
        module, _, func = q.rpartition(".")
        if q == "builtins.print" or module in LOGGING_MODULES and func in LOG_LEVELS:
            self._shows(ctx, node, argvals, q == "builtins.print")

    def on_method(self, ctx, node, base, meth, argvals):
        # ``log.info(x)`` on a module's ``log = logging.getLogger(__name__)``
        if meth in LOG_LEVELS and base.outer is not None and _is_logger(*base.outer[:2]):
            self._shows(ctx, node, argvals, False)

    def _shows(self, ctx, node, argvals, fixable):
        if not ctx.frame.entry.transform.effects:
            return
        for a, v in argvals:
            if a.keyword is None and (v.kind == TRACED or v.flags & TEXT):
                # ``jax.debug.print`` takes no logger's level nor %-format
                text, fix = _debug_print_fix(ctx, node, argvals) if fixable else (None, None)
                ctx.report(self, node, call=cst.Module([]).code_for_node(node.func), var=v.name or a.value, suggestion=text, autofix=fix)
                return


# The logging functions and a logger's methods write their message once, when they run: at
# trace time.
LOGGING_MODULES = frozenset({"logging", "absl.logging"})
LOG_LEVELS = frozenset({"debug", "info", "warning", "error", "critical", "exception", "log"})


def _is_logger(owner, name: str) -> bool:
    """Is every value ``name`` is bound to in ``owner`` a logger (``logging.getLogger(...)``)?"""
    binds = owner.value_bindings(name)
    return bool(binds) and all(
        b.kind == "assign" and isinstance(b.value, cst.Call) and resolve(b.value.func, owner) == "logging.getLogger" for b in binds
    )
