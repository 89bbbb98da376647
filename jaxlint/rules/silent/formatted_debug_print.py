"""JAX502: a traced value formatted into ``jax.debug.print``'s format string at trace time."""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.analysis.traced.values import TEXT, TRACED
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, wrong_result

DEBUG_APIS = {"jax.debug.print": "jax.debug.print", "jax.debug.callback": "jax.debug.callback"}


class FormattedDebugPrint(Rule):
    """
    What it does
        Flags ``jax.debug.print`` (or an argument of ``jax.debug.callback``) whose format
        string is already formatted from a traced value: an f-string, ``"...".format(x)`` or
        ``"..." % x`` inside a traced function.

    Why is this bad?
        The string is built while JAX traces, so it shows the tracer
        (``JitTracer(float32[3])``), not the numbers, and it is the same on every call.
        Adding ``x=x`` to such a call makes JAX raise ``ValueError: Unused keyword arguments``,
        because the f-string left no ``{x}`` placeholder for it.

    Example
        @jax.jit
        def f(x):
            jax.debug.print(f"x = {x}")
            return x * 2

    Use instead
        @jax.jit
        def f(x):
            jax.debug.print("x = {x}", x=x)
            return x * 2

    References
        https://docs.jax.dev/en/latest/debugging/print_breakpoint.html
    """

    code = "JAX502"
    name = "formatted-debug-print"
    message = "`{api}` gets a string formatted from traced `{var}` in {where}: it shows the tracer, not the value"
    fix = "{advice}"
    prevents = wrong_result(
        "debug output that shows a tracer; ValueError: Unused keyword arguments when x=x is added",
        ErrorPattern("ValueError", "Unused keyword arguments"),
        observe="formatted-tracer",
    )
    fix_safety = "safe"  # offered only when the placeholders print the same text
    bad = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def f(x):
            jax.debug.print(f"x = {x}")  # error: JAX502
            jax.debug.print("sum = {}".format(x.sum()))  # error: JAX502
            jax.debug.print("x = %s" % x)  # error: JAX502
            return x * 2

        f(jnp.arange(3.0))
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def f(x):
            jax.debug.print("x = {x}", x=x)
            jax.debug.print(f"shape {x.shape}: {{}}", x)
            return x * 2

        def eager(x):
            jax.debug.print(f"x = {x}")

        f(jnp.arange(3.0))
        eager(jnp.arange(3.0))
        """
    ]

    def on_call(self, ctx, node, q, argvals):
        api = DEBUG_APIS.get(q)
        if api is None:
            return
        if api == "jax.debug.print":
            candidates = [(a, v) for a, v in argvals[:1] if a.keyword is None and not a.star]
            candidates += [(a, v) for a, v in argvals if a.keyword is not None and a.keyword.value == "fmt"]
        else:
            candidates = [(a, v) for a, v in argvals[1:] if a.keyword is None and not a.star]
        for a, v in candidates:
            var = _formatted_traced(a.value, v, ctx.frame)
            if var is not None:
                if api == "jax.debug.print":
                    advice = f'pass the value and let JAX format it: jax.debug.print("... {{{var}}}", {var}={var})'
                else:
                    advice = f"pass `{var}` itself to the callback and format it there, where it is concrete"
                fields = {"api": api, "var": var, "advice": advice}
                suggestion = _placeholder_call(node) if api == "jax.debug.print" else None
                if suggestion is not None:
                    fields["suggestion"] = suggestion
                ctx.report(self, node, **fields)
                return


def _formatted_traced(expr, val, frame) -> Optional[str]:
    """The traced name formatted into the string ``expr`` (whose value is ``val``), or None."""
    if isinstance(expr, (cst.FormattedString, cst.Call)) and val.flags & TEXT:
        return val.name or _code(expr)
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Modulo):
        if isinstance(expr.left, (cst.SimpleString, cst.ConcatenatedString)):
            right = expr.right
            items = [el.value for el in right.elements] if isinstance(right, cst.Tuple) else [right]
            for item in items:
                if isinstance(item, cst.Name):
                    v = frame.lookup(item.value)
                    if v is not None and v.kind == TRACED:
                        return item.value
    return None


def _placeholder_call(node: cst.Call) -> Optional[str]:
    """``jax.debug.print(f"x = {x}")`` -> ``jax.debug.print("x = {x}", x=x)`` when every
    replacement field is a plain name without conversion or format spec."""
    if len(node.args) != 1 or not isinstance(node.args[0].value, cst.FormattedString):
        return None
    fs = node.args[0].value
    if "b" in fs.prefix.lower() or "r" in fs.prefix.lower():
        return None
    text, names = [], []
    for part in fs.parts:
        if isinstance(part, cst.FormattedStringText):
            text.append(part.value)
            continue
        e = part.expression
        if not isinstance(e, cst.Name) or part.conversion or part.format_spec or part.equal:
            return None
        text.append("{" + e.value + "}")
        if e.value not in names:
            names.append(e.value)
    quote = fs.start[len(fs.prefix) :]
    literal = quote + "".join(text) + fs.end
    func = _code(node.func)
    return f"{func}({', '.join([literal] + [f'{n}={n}' for n in names])})"


def _code(node) -> str:
    return cst.Module([]).code_for_node(node)
