"""JAX107 numpy-on-tracer."""

from __future__ import annotations

from jaxlint import fixes
from jaxlint.analysis.jax.jax_api import NUMPY_SAFE
import libcst as cst

from jaxlint.analysis.traced.values import NPARR, OPAQUE, REF, STATIC, TRACED
from jaxlint.analysis.traced.value_checks import plain_traced, value_label
from jaxlint.rules.base import Rule
from jaxlint.rules.prevents import ErrorPattern, raises


class NumpyOnTracer(Rule):
    """
    What it does
        Flags a NumPy function (``np.exp``, ``np.asarray``, ``np.where``, ...) called on a traced
        value, and a NumPy array indexed with one (``np.arange(n)[i]``).

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
    prevents = raises(ErrorPattern("TracerArrayConversionError"), under_grad=True, tracer_type_error=True)
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
                fix = fixes.jnp_equivalent.jnp_fix(node, short, ctx.frame.scope, ctx.frame)
                ctx.report(self, node, func="np." + short, short=short, var=value_label(v, a.value), autofix=fix)
                return

    def on_subscript(self, ctx, node, base, idx):
        # ``ndarray.__getitem__`` converts an array index to a NumPy array (a traced slice
        # bound is another error: the slice needs a Python int).
        if base.kind != STATIC or not base.flags & NPARR:
            return
        for el, v in zip(node.slice, idx):
            if isinstance(el.slice, cst.Index) and plain_traced(v):
                ctx.report(self, node, func="ndarray.__getitem__", short="asarray(...)[...]", var=value_label(v, el.slice.value))
                return
