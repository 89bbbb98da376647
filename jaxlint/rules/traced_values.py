"""JAX1xx: a traced value used where Python needs a concrete one.

Under ``jax.jit`` (and every other abstract trace) arguments are tracers: they have a shape and
a dtype but no value.  Python control flow, ``int()``/``float()``, NumPy and shape arguments need
a value, so JAX raises at trace time.  References: JAX docs, "Control flow and logical operators
with JIT" and "Errors" (TracerBoolConversionError, ConcretizationTypeError,
TracerIntegerConversionError, TracerArrayConversionError, NonConcreteBooleanIndexError).
"""

from __future__ import annotations

import libcst as cst

from jaxlint.analysis.jax_api import NUMPY_SAFE
from jaxlint.analysis.values import ARRAY, BOOL, DICT, OPAQUE, PYSEQ, RAW, REF, TRACED
from jaxlint.fixes.jnp_equivalent import jnp_fix
from jaxlint.fixes.logical_ops import boolop_fix, min_max_fix, not_fix
from jaxlint.fixes.static_param import parameter_fix
from jaxlint.fixes.where_select import next_statement, where_fix_if, where_fix_ifexp
from jaxlint.rules.base import Rule


def _plain_traced(v) -> bool:
    """A traced value whose truthiness JAX would have to compute: not a Python container, and
    not a parameter that the function also treats as a container (it may be a tuple or None)."""
    if v.kind != TRACED or v.flags & (PYSEQ | DICT | OPAQUE | REF):
        return False
    return not (v.flags & RAW and not v.flags & ARRAY)


def _surely(v) -> bool:
    """Surely holds a tracer: not a field or container that may be static metadata."""
    if v.items is not None:
        return any(_surely(i) for i in v.items)
    if v.kind != TRACED or v.flags & (OPAQUE | REF):
        return False
    return not (v.flags & RAW and not v.flags & ARRAY)


def _is_at_indexer(e) -> bool:
    """``x.at[i]``: its .min()/.max() are updates, not reductions over an axis."""
    return isinstance(e, cst.Subscript) and isinstance(e.value, cst.Attribute) and e.value.attr.value == "at"


def _label(v, node):
    return v.name if v.name else node


_TEST_WORDS = {
    "if": "`if`",
    "elif": "`elif`",
    "ifexp": "`... if ... else ...`",
    "comprehension": "comprehension `if` filter",
}


class TracedIf(Rule):
    """
    What it does
        Flags a Python ``if``/``elif``, conditional expression or comprehension filter whose
        condition is a traced value inside a jitted (or otherwise traced) function.

    Why is this bad?
        A tracer has no truth value: JAX raises ``TracerBoolConversionError`` as soon as the
        function is traced.  Python branches are decided once, at trace time.

    Example
        @jax.jit
        def relu(x):
            if x > 0:
                return x
            return 0.0 * x

    Use instead
        ``jnp.where(x > 0, x, 0.0 * x)`` when both branches are cheap and safe to compute;
        ``lax.cond(x > 0, f_true, f_false, x)`` when a branch is costly or unsafe on the other
        input (only one branch runs); or make the value static with ``static_argnames`` if it
        is really configuration.

    References
        https://jax.readthedocs.io/en/latest/errors.html#jax.errors.TracerBoolConversionError
    """

    code = "JAX101"
    name = "traced-if"
    message = "Python {kind} on traced value `{var}` in {where}"
    fix = (
        "use jnp.where(cond, a, b) if both branches are cheap and safe, lax.cond(cond, true_fn, "
        "false_fn, operand) if a branch is costly or unsafe, or static_argnames if `{var}` is configuration"
    )
    prevents = "TracerBoolConversionError"
    fix_safety = "unsafe"
    bad = [
        """
        import jax

        @jax.jit
        def relu_broken(x):
            if x > 0:  # error: JAX101
                return x
            return 0.0 * x

        @jax.jit
        def clip_sign(x):
            return x if x.sum() > 0 else -x  # error: JAX101
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp
        from jax import lax

        @jax.jit
        def relu_where(x):
            return jnp.where(x > 0, x, 0.0 * x)

        @jax.jit
        def relu_cond(x):
            return lax.cond(x > 0, lambda v: v, lambda v: 0.0 * v, x)

        @jax.jit
        def shape_check(x):
            if x.ndim == 2:
                return x.sum(axis=1)
            return x

        def grad_ok(x):
            if x > 0:
                return x ** 2
            return -x

        g = jax.grad(grad_ok)
        """
    ]

    def on_test(self, ctx, kind, test, v, stmt):
        if kind in ("if", "elif", "ifexp", "comprehension") and _plain_traced(v):
            fix = None
            if kind == "ifexp":
                fix = where_fix_ifexp(stmt, ctx.frame.scope)
            elif kind == "if":
                fix = where_fix_if(stmt, next_statement(ctx.func.node, stmt), ctx.frame.scope)
            if fix is None and kind in ("if", "elif"):
                fix = parameter_fix(ctx, test, v)
            ctx.report(self, test, kind=_TEST_WORDS[kind], var=_label(v, test), autofix=fix)


class TracedWhile(Rule):
    """
    What it does
        Flags a Python ``while`` loop whose condition is traced.

    Why is this bad?
        The loop condition must be a Python bool at trace time; with a tracer JAX raises
        ``TracerBoolConversionError``.  A convergence loop (``while err > tol``) is the classic case.

    Example
        @jax.jit
        def newton(x):
            while jnp.abs(x * x - 2.0) > 1e-6:
                x = x - (x * x - 2.0) / (2.0 * x)
            return x

    Use instead
        ``lax.while_loop(cond_fun, body_fun, init)``, or ``lax.fori_loop`` / a Python loop over a
        static trip count.

    References
        https://jax.readthedocs.io/en/latest/_autosummary/jax.lax.while_loop.html
    """

    code = "JAX102"
    name = "traced-while"
    message = "Python `while` condition depends on traced value `{var}` in {where}"
    fix = "use lax.while_loop(cond_fun, body_fun, init), or loop over a static count"
    prevents = "TracerBoolConversionError"
    fix_safety = "unsafe"
    bad = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def halve_until_small(x):
            while jnp.abs(x) > 1.0:  # error: JAX102
                x = x / 2
            return x
        """
    ]
    good = [
        """
        import jax
        from jax import lax

        @jax.jit
        def halve_until_small(x):
            return lax.while_loop(lambda v: abs(v) > 1.0, lambda v: v / 2, x)
        """
    ]

    def on_test(self, ctx, kind, test, v, stmt):
        if kind == "while" and _plain_traced(v):
            ctx.report(self, test, var=_label(v, test), autofix=parameter_fix(ctx, test, v))


class TracedRangeOrIndex(Rule):
    """
    What it does
        Flags ``range()`` with a traced bound, and a Python list, tuple or shape indexed with a
        traced integer.

    Why is this bad?
        Both need a concrete Python ``int``: JAX raises ``TracerIntegerConversionError``.  A
        loop count that comes from an argument is configuration, not data.

    Example
        @jax.jit
        def power(x, n):
            for _ in range(n):
                x = x * x
            return x

    Use instead
        Make the count static (``@partial(jax.jit, static_argnames=["n"])``) or use
        ``lax.fori_loop(0, n, body, x)``; index an array (``jnp.asarray(table)[i]``) rather than
        a Python list.

    References
        https://jax.readthedocs.io/en/latest/errors.html#jax.errors.TracerIntegerConversionError
    """

    code = "JAX103"
    name = "traced-range-or-index"
    message = "{what} with traced value `{var}` in {where}"
    fix = "make `{var}` static with static_argnames, or use lax.fori_loop / lax.scan; index arrays, not Python sequences, with traced integers"
    prevents = "TracerIntegerConversionError"
    fix_safety = "unsafe"
    bad = [
        """
        import jax

        @jax.jit
        def power_iter(x, n):
            for _ in range(n):  # error: JAX103
                x = x * x
            return x

        @jax.jit
        def pick(i):
            table = [1.0, 2.0, 3.0]
            return table[i]  # error: JAX103
        """
    ]
    good = [
        """
        from functools import partial
        import jax

        @partial(jax.jit, static_argnames=["n"])
        def power_iter(x, n):
            for _ in range(n):
                x = x * x
            return x

        @jax.jit
        def rows(x):
            for i in range(x.shape[0]):
                x = x.at[i].set(x[i] * 2)
            return x
        """
    ]

    def on_call(self, ctx, node, q, argvals):
        if q == "builtins.range":
            for a, v in argvals:
                if _plain_traced(v):
                    ctx.report(self, node, what="`range()`", var=_label(v, node), autofix=parameter_fix(ctx, a.value, v))
                    return

    def on_subscript(self, ctx, node, base, idx):
        if base.kind == TRACED or not base.flags & PYSEQ or len(idx) != 1:
            return
        el = node.slice[0]
        if isinstance(el.slice, cst.Index) and _plain_traced(idx[0]) and not idx[0].flags & BOOL:
            ctx.report(self, node, what="Python sequence indexed", var=_label(idx[0], el.slice.value))


class TracedConcretization(Rule):
    """
    What it does
        Flags ``int()``, ``float()``, ``bool()``, ``complex()``, ``.item()``, ``.tolist()``,
        ``operator.index()``, ``math.*`` functions and f-string format specs (``f"{x:.3f}"``)
        applied to a traced value.

    Why is this bad?
        Each needs the concrete value, which does not exist while tracing: JAX raises
        ``ConcretizationTypeError`` (or ``TracerIntegerConversionError``).

    Example
        @jax.jit
        def scale(x):
            return x * math.sqrt(float(x.sum()))

    Use instead
        Stay in arrays: ``jnp.sqrt(x.sum())``, ``x.astype(jnp.int32)``; or move the conversion
        out of the jitted function.

    References
        https://jax.readthedocs.io/en/latest/errors.html#jax.errors.ConcretizationTypeError
    """

    code = "JAX104"
    name = "traced-concretization"
    message = "`{func}` needs a concrete value but `{var}` is traced in {where}"
    fix = "keep the value as an array (jnp.sqrt, x.astype(...)), or convert it outside the traced function"
    prevents = "ConcretizationTypeError"
    bad = [
        """
        import math
        import jax

        @jax.jit
        def norm_scale(x):
            n = float(x.sum())  # error: JAX104
            return x / math.sqrt(n) + x.max().item()  # error: JAX104
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def norm_scale(x):
            n = x.sum().astype(jnp.float32)
            return x / jnp.sqrt(n) + int(x.shape[0])
        """
    ]

    _BUILTINS = {"builtins.int": "int()", "builtins.float": "float()", "builtins.bool": "bool()", "builtins.complex": "complex()"}

    def on_call(self, ctx, node, q, argvals):
        label = self._BUILTINS.get(q)
        if label is None:
            if q.startswith("math.") or q == "operator.index":
                label = q + "()"
            else:
                return
        for a, v in argvals:
            if _plain_traced(v):
                ctx.report(self, node, func=label, var=_label(v, a.value))
                return

    def on_format_spec(self, ctx, part, v):
        # f"{x:.3f}" formats a concrete number; a tracer refuses the format spec (TypeError).
        if _plain_traced(v):
            spec = "".join(p.value for p in part.format_spec if isinstance(p, cst.FormattedStringText))
            label = v.name or "x"
            ctx.report(self, part, func=f"format({label}, {spec!r})", var=_label(v, part.expression))

    def on_method(self, ctx, node, base, meth, argvals):
        if meth in ("item", "tolist") and _plain_traced(base):
            ctx.report(self, node, func=f".{meth}()", var=_label(base, node.func.value))


class TracedAssert(Rule):
    """
    What it does
        Flags ``assert`` on a traced value.

    Why is this bad?
        ``assert`` converts its test to a Python bool: ``TracerBoolConversionError`` at trace
        time.  Asserting on shapes and dtypes is fine; asserting on values is not.

    Example
        @jax.jit
        def safe_log(x):
            assert (x > 0).all()
            return jnp.log(x)

    Use instead
        ``jax.experimental.checkify.check(...)`` or ``equinox.error_if(x, x <= 0, "...")``; keep
        ``assert`` for static facts such as ``x.ndim == 1``.

    References
        https://jax.readthedocs.io/en/latest/debugging/checkify_guide.html
    """

    code = "JAX105"
    name = "traced-assert"
    message = "`assert` on traced value `{var}` in {where}"
    fix = "use jax.experimental.checkify.check or equinox.error_if for runtime checks; assert only on static facts such as shapes"
    prevents = "TracerBoolConversionError"
    bad = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def safe_log(x):
            assert (x > 0).all()  # error: JAX105
            return jnp.log(x)
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def safe_log(x):
            assert x.ndim == 1, "expects a vector"
            return jnp.log(x)
        """
    ]

    def on_test(self, ctx, kind, test, v, stmt):
        if kind == "assert" and _plain_traced(v):
            ctx.report(self, stmt, var=_label(v, test))


class TracedBoolOp(Rule):
    """
    What it does
        Flags ``and``/``or``/``not``, ``min()``/``max()`` and ``in`` applied to traced values
        outside an ``if``/``while`` condition (those are reported as JAX101/JAX102).

    Why is this bad?
        Each converts a tracer to a Python bool: ``TracerBoolConversionError``.

    Example
        @jax.jit
        def clamp(x):
            return min(x, 1.0)

    Use instead
        ``jnp.minimum``/``jnp.maximum``, ``jnp.logical_and``/``logical_or``/``logical_not``
        (or ``&``, ``|``, ``~`` on boolean arrays), ``jnp.isin(x, values)``.

    References
        https://jax.readthedocs.io/en/latest/errors.html#jax.errors.TracerBoolConversionError
    """

    code = "JAX106"
    name = "traced-bool-op"
    message = "{op} converts traced value `{var}` to a Python bool in {where}"
    fix = "use jnp.logical_and / jnp.logical_or / jnp.logical_not, jnp.minimum / jnp.maximum, jnp.isin, or (a < x) & (x < b) for a chained comparison"
    prevents = "TracerBoolConversionError"
    fix_safety = "unsafe"
    bad = [
        """
        import jax

        @jax.jit
        def clamp(x, y):
            lo = min(x, 1.0)  # error: JAX106
            both = (x > 0) and (y > 0)  # error: JAX106
            return lo, both
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def clamp(x, y):
            lo = jnp.minimum(x, 1.0)
            both = jnp.logical_and(x > 0, y > 0)
            return lo, both, abs(x), round(y)
        """
    ]

    def on_boolop(self, ctx, node, a, b, in_test):
        if not in_test and _plain_traced(a):
            op = "`and`" if isinstance(node.operator, cst.And) else "`or`"
            ctx.report(self, node, op=op, var=_label(a, node.left), autofix=boolop_fix(node, ctx.frame.scope))

    def on_chained_compare(self, ctx, node, first, in_test):
        if not in_test and _plain_traced(first):
            ctx.report(self, node, op="a chained comparison", var=_label(first, node.left))

    def on_not_(self, ctx, node, v, in_test):
        if not in_test and _plain_traced(v):
            ctx.report(self, node, op="`not`", var=_label(v, node.expression), autofix=not_fix(node, ctx.frame.scope))

    def on_call(self, ctx, node, q, argvals):
        if q in ("builtins.min", "builtins.max"):
            for a, v in argvals:
                if a.keyword is None and (_plain_traced(v) or (v.kind == TRACED and v.flags & PYSEQ and len(argvals) == 1)):
                    fix = min_max_fix(node, q[9:], ctx.frame.scope)
                    ctx.report(self, node, op=f"`{q[9:]}()`", var=_label(v, a.value), autofix=fix)
                    return

    def on_compare_in(self, ctx, node, left, right, comparison, in_test):
        if in_test:
            return
        if _plain_traced(left) and right.flags & PYSEQ or _plain_traced(right) and not left.flags & (PYSEQ | DICT):
            v = left if _plain_traced(left) else right
            ctx.report(self, node, op="`in`", var=_label(v, node.left))


class NumpyOnTracer(Rule):
    """
    What it does
        Flags a NumPy function (``np.exp``, ``np.asarray``, ``np.where``, ...) called on a traced
        value.

    Why is this bad?
        NumPy converts its inputs to ``numpy.ndarray``, which needs concrete data:
        ``TracerArrayConversionError``.  (Functions that only dispatch to the array's own
        method, such as ``np.sum(x)`` or ``np.shape(x)``, work and are not flagged.)

    Example
        @jax.jit
        def softplus(x):
            return np.log1p(np.exp(x))

    Use instead
        The ``jax.numpy`` equivalent: ``jnp.log1p(jnp.exp(x))``.

    References
        https://jax.readthedocs.io/en/latest/errors.html#jax.errors.TracerArrayConversionError
    """

    code = "JAX107"
    name = "numpy-on-tracer"
    message = "NumPy function `{func}` called on traced value `{var}` in {where}"
    fix = "use the jax.numpy equivalent (jnp.{short})"
    prevents = "TracerArrayConversionError"
    fix_safety = "safe"
    bad = [
        """
        import jax
        import numpy as np

        @jax.jit
        def softplus(x):
            return np.log1p(np.exp(x))  # error: JAX107
        """
    ]
    good = [
        """
        import jax
        import jax.numpy as jnp
        import numpy as np

        @jax.jit
        def softplus(x):
            scale = np.sqrt(np.prod(x.shape))
            return jnp.log1p(jnp.exp(x)) / scale + np.sum(x)
        """
    ]

    def on_call(self, ctx, node, q, argvals):
        if not q.startswith("numpy.") or q.startswith(("numpy.random.", "numpy.testing.")):
            return
        short = q[6:]
        if short in NUMPY_SAFE or "." in short and short.split(".")[0] not in ("linalg", "fft"):
            return
        for a, v in argvals:
            if v.kind == TRACED and not v.flags & (OPAQUE | REF):
                fix = jnp_fix(node, short, ctx.frame.scope)
                ctx.report(self, node, func="np." + short, short=short, var=_label(v, a.value), autofix=fix)
                return


# Where shape-like arguments go: (positions, keywords).
_SHAPE_ARGS = {
    "jax.numpy.zeros": ((0,), ("shape",)),
    "jax.numpy.ones": ((0,), ("shape",)),
    "jax.numpy.empty": ((0,), ("shape",)),
    "jax.numpy.full": ((0,), ("shape",)),
    "jax.numpy.arange": ((0, 1, 2), ("start", "stop", "step")),
    "jax.numpy.linspace": ((2,), ("num",)),
    "jax.numpy.logspace": ((2,), ("num",)),
    "jax.numpy.geomspace": ((2,), ("num",)),
    "jax.numpy.eye": ((0, 1), ("N", "M")),
    "jax.numpy.identity": ((0,), ("n",)),
    "jax.numpy.tri": ((0, 1), ("N", "M")),
    "jax.numpy.reshape": ((1,), ("shape", "newshape")),
    "jax.numpy.broadcast_to": ((1,), ("shape",)),
    "jax.numpy.tile": ((1,), ("reps",)),
    "jax.numpy.resize": ((1,), ("new_shape",)),
    "jax.numpy.zeros_like": ((), ("shape",)),
    "jax.numpy.ones_like": ((), ("shape",)),
    "jax.numpy.empty_like": ((), ("shape",)),
    "jax.numpy.full_like": ((), ("shape",)),
    "jax.random.normal": ((1,), ("shape",)),
    "jax.random.uniform": ((1,), ("shape",)),
    "jax.random.randint": ((1,), ("shape",)),
    "jax.random.exponential": ((1,), ("shape",)),
    "jax.random.gumbel": ((1,), ("shape",)),
    "jax.random.laplace": ((1,), ("shape",)),
    "jax.random.logistic": ((1,), ("shape",)),
    "jax.random.cauchy": ((1,), ("shape",)),
    "jax.random.rademacher": ((1,), ("shape",)),
    "jax.random.bernoulli": ((2,), ("shape",)),
    "jax.random.choice": ((2,), ("shape",)),
    "jax.random.gamma": ((2,), ("shape",)),
    "jax.random.poisson": ((2,), ("shape",)),
    "jax.random.dirichlet": ((2,), ("shape",)),
    "jax.random.truncated_normal": ((3,), ("shape",)),
    "jax.random.beta": ((3,), ("shape",)),
    "jax.random.multivariate_normal": ((3,), ("shape",)),
    "jax.lax.dynamic_slice": ((2,), ("slice_sizes",)),
    "jax.lax.broadcast": ((1,), ("sizes",)),
    "jax.lax.iota": ((1,), ("size",)),
    "jax.lax.full": ((0,), ("shape",)),
}

# Arguments that must be static Python values (axes, counts, sizes): (positions, keywords).
_STATIC_ARGS = {
    "jax.numpy.expand_dims": ((1,), ("axis",)),
    "jax.numpy.squeeze": ((1,), ("axis",)),
    "jax.numpy.moveaxis": ((1, 2), ("source", "destination")),
    "jax.numpy.swapaxes": ((1, 2), ("axis1", "axis2")),
    "jax.numpy.transpose": ((1,), ("axes",)),
    "jax.numpy.concatenate": ((1,), ("axis",)),
    "jax.numpy.stack": ((1,), ("axis",)),
    "jax.numpy.split": ((1, 2), ("indices_or_sections", "axis")),
    "jax.numpy.array_split": ((1, 2), ("indices_or_sections", "axis")),
    "jax.numpy.pad": ((1,), ("pad_width",)),
    "jax.numpy.histogram": ((1,), ("bins",)),
    "jax.numpy.triu": ((1,), ("k",)),
    "jax.numpy.tril": ((1,), ("k",)),
    "jax.nn.one_hot": ((1,), ("num_classes",)),
    "jax.lax.top_k": ((1,), ("k",)),
}
for _f in ("sum", "mean", "max", "min", "prod", "std", "var", "any", "all", "argmax", "argmin", "cumsum", "cumprod", "median", "nansum", "nanmean", "nanmax", "nanmin", "count_nonzero", "flip", "sort", "argsort"):
    _STATIC_ARGS["jax.numpy." + _f] = ((1,), ("axis",))
_REDUCING_METHODS = frozenset(
    {"sum", "mean", "max", "min", "prod", "std", "var", "any", "all", "argmax", "argmin", "cumsum", "cumprod", "squeeze"}
)

_NEEDS_SIZE = frozenset(
    {
        "jax.numpy.nonzero",
        "jax.numpy.argwhere",
        "jax.numpy.flatnonzero",
        "jax.numpy.unique",
        "jax.numpy.unique_values",
        "jax.numpy.unique_counts",
        "jax.numpy.unique_inverse",
        "jax.numpy.unique_all",
    }
)


class TracedShape(Rule):
    """
    What it does
        Flags array shapes and sizes that depend on traced values: ``jnp.zeros(n)``,
        ``x.reshape(n, -1)``, ``jax.random.normal(key, (n,))`` with traced ``n``; slices with a
        traced bound (``x[:n]``); boolean masks (``x[x > 0]``); ``jnp.nonzero``/``argwhere``/
        ``unique``/one-argument ``jnp.where`` without ``size=``.

    Why is this bad?
        XLA compiles for fixed shapes.  A shape that depends on data cannot be known at trace
        time: ``TypeError``/``ConcretizationTypeError``, ``IndexError`` for slices,
        ``NonConcreteBooleanIndexError`` for masks.

    Example
        @jax.jit
        def positives(x):
            return x[x > 0]

    Use instead
        Keep shapes static: ``jnp.where(x > 0, x, 0)`` instead of a mask, ``size=`` (with
        ``fill_value=``) on ``nonzero``/``where``/``unique``, ``lax.dynamic_slice`` for a traced
        offset with a static length, ``static_argnames`` for a size parameter.

    References
        https://jax.readthedocs.io/en/latest/errors.html#jax.errors.NonConcreteBooleanIndexError
    """

    code = "JAX108"
    name = "traced-shape"
    message = "{what} depends on traced value `{var}` in {where}"
    fix = "shapes must be static: make `{var}` static, use jnp.where(mask, x, 0) instead of x[mask], pass size= to nonzero/where/unique, or lax.dynamic_slice for traced offsets"
    prevents = "ConcretizationTypeError / NonConcreteBooleanIndexError / IndexError (non-static shape)"
    bad = [
        """
        import jax
        import jax.numpy as jnp

        @jax.jit
        def pad_to(x, n):
            z = jnp.zeros(n)  # error: JAX108
            return z, x[x > 0], x[:n]  # error: JAX108
        """
    ]
    good = [
        """
        from functools import partial
        import jax
        import jax.numpy as jnp

        @partial(jax.jit, static_argnames=["n"])
        def pad_to(x, n):
            z = jnp.zeros((n, x.shape[0]))
            return z, jnp.where(x > 0, x, 0), x[:n], jnp.nonzero(x, size=3)
        """
    ]

    def on_call(self, ctx, node, q, argvals):
        spec = _SHAPE_ARGS.get(q)
        if spec is not None:
            positions, keywords = spec
            pos = [(a, v) for a, v in argvals if a.keyword is None and not a.star]
            for i in positions:
                if i < len(pos) and _surely(pos[i][1]):
                    a, v = pos[i]
                    ctx.report(self, a.value, what="Array shape", var=_label(v, a.value))
                    return
            for a, v in argvals:
                if a.keyword is not None and a.keyword.value in keywords and _surely(v):
                    ctx.report(self, a.value, what="Array shape", var=_label(v, a.value))
                    return
            return
        spec = _STATIC_ARGS.get(q)
        if spec is None and q.startswith(("jax.numpy.", "jax.lax.", "jax.nn.", "jax.scipy.")):
            spec = ((), ("axis", "axes"))
        if spec is not None:
            positions, keywords = spec
            pos = [(a, v) for a, v in argvals if a.keyword is None and not a.star]
            hits = [pos[i] for i in positions if i < len(pos)]
            hits += [(a, v) for a, v in argvals if a.keyword is not None and a.keyword.value in keywords]
            for a, v in hits:
                if _surely(v):
                    ctx.report(self, a.value, what="A static argument (axis, size or count)", var=_label(v, a.value))
                    return
        if q == "jax.numpy.repeat" and not any(a.keyword is not None and a.keyword.value == "total_repeat_length" for a, _ in argvals):
            pos = [(a, v) for a, v in argvals if a.keyword is None and not a.star]
            rep = pos[1] if len(pos) > 1 else next(((a, v) for a, v in argvals if a.keyword is not None and a.keyword.value == "repeats"), None)
            if rep is not None and _surely(rep[1]):
                ctx.report(self, rep[0].value, what="The output size of `jnp.repeat()` without total_repeat_length=", var=_label(rep[1], rep[0].value))
                return
        if q == "jax.numpy.bincount" and argvals and _surely(argvals[0][1]):
            if not any(a.keyword is not None and a.keyword.value == "length" for a, _ in argvals) and len([a for a, _ in argvals if a.keyword is None]) < 3:
                ctx.report(self, node, what="The size of `jnp.bincount()` without length=", var=_label(argvals[0][1], argvals[0][0].value))
                return
        if q in _NEEDS_SIZE or q == "jax.numpy.where" and len([a for a, _ in argvals if a.keyword is None]) == 1:
            if any(a.keyword is not None and a.keyword.value == "size" for a, _ in argvals):
                return
            if argvals and _surely(argvals[0][1]):
                short = q.rsplit(".", 1)[-1]
                ctx.report(self, node, what=f"The size of `jnp.{short}()` without size=", var=_label(argvals[0][1], argvals[0][0].value))

    def on_method(self, ctx, node, base, meth, argvals):
        if base.kind != TRACED or base.flags & (OPAQUE | PYSEQ | DICT):
            return
        if meth in ("reshape", "broadcast_to"):
            for a, v in argvals:
                if a.keyword is None and _surely(v):
                    ctx.report(self, a.value, what="Array shape", var=_label(v, a.value))
                    return
        elif (meth in _REDUCING_METHODS or meth in ("swapaxes", "transpose")) and not _is_at_indexer(node.func.value):
            for a, v in argvals:
                if (a.keyword is None or a.keyword.value in ("axis", "axes", "axis1", "axis2")) and _surely(v) and not a.star:
                    ctx.report(self, a.value, what="A static argument (axis)", var=_label(v, a.value))
                    return
        elif meth == "nonzero":
            if not any(a.keyword is not None and a.keyword.value == "size" for a, _ in argvals):
                ctx.report(self, node, what="The size of `.nonzero()` without size=", var=_label(base, node.func.value))

    def on_subscript(self, ctx, node, base, idx):
        if base.flags & DICT or base.flags & OPAQUE:
            return
        if base.kind != TRACED and not (base.kind == 0 and base.flags & PYSEQ):
            return
        for el, v in zip(node.slice, idx):
            if isinstance(el.slice, cst.Slice) and _surely(v):
                ctx.report(self, node, what="Slice bound", var=_label(v, el.slice))
                return
            if isinstance(el.slice, cst.Index) and v.kind == TRACED and v.flags & BOOL and base.kind == TRACED:
                ctx.report(self, node, what="Boolean mask index (result size)", var=_label(v, el.slice.value))
                return
