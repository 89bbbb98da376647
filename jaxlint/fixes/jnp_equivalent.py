"""``np.<f>(tracer)`` -> ``jnp.<f>(tracer)`` where ``jax.numpy`` computes the same (JAX107).

Only the functions listed here, called with positional arguments and the keywords listed:
``jnp.<f>`` differs from NumPy elsewhere (``out=``, in-place, type promotion of Python
scalars in a few corners, ``np.where(cond)`` with one argument returning a data-dependent
size).  The call raises ``TracerArrayConversionError`` as written, so no traced code that ran
changes.

The host path does change (``jnp.exp`` of a NumPy array gives a JAX array: another dtype by
default, immutable), so the fix is safe only where the call cannot run on the host: in the body
of a function that a tracing decorator wraps (every caller gets the traced version).  In a
helper that a jitted function calls, or a function jitted by a call (``g = jax.jit(f)``), the
plain function may also be called from host code, here or from another module: the fix is
unsafe there.
"""

from __future__ import annotations

from typing import Optional

import libcst as cst

from jaxlint.analysis.jax.jax_api import ELEMENTWISE_FUNCS
from jaxlint.fixes.declare import SAFE, UNSAFE, Fix, replace
from jaxlint.fixes.names import jnp_reference

_ARRAYS = (
    "asarray array dot matmul outer inner vdot kron tensordot einsum concatenate stack hstack vstack "
    "column_stack atleast_1d atleast_2d atleast_3d clip diff cross tril triu flip fliplr flipud roll "
    "ravel expand_dims tile broadcast_to zeros_like ones_like full_like sort argsort cumsum cumprod "
    "nan_to_num interp convolve isclose allclose array_equal linalg.norm linalg.inv linalg.det "
    "linalg.solve linalg.eigh linalg.cholesky linalg.qr linalg.svd linalg.slogdet linalg.pinv "
    "fft.fft fft.ifft fft.rfft fft.irfft fft.fft2 fft.ifft2 fft.fftn fft.ifftn"
).split()
SAME_IN_JNP = ELEMENTWISE_FUNCS | frozenset(_ARRAYS)

# Keywords that mean the same in both.
_KEYWORDS = frozenset({"axis", "keepdims", "axes", "k", "a_min", "a_max", "ord", "precision"})


def only_traced(frame) -> bool:
    """The code of ``frame`` runs only under its transform: its function is the one a tracing
    decorator wraps.  Unknown (a helper, a function transformed by a call): False."""
    entry = frame.entry
    return frame.func is entry.func and isinstance(entry.site, cst.Decorator)


def jnp_fix(node: cst.Call, short: str, scope, frame=None) -> Optional[Fix]:
    """``frame``: the analysis frame of the call (its function and how it is traced)."""
    if short not in SAME_IN_JNP or not isinstance(node.func, cst.Attribute):
        return None
    if any(a.star or (a.keyword is not None and a.keyword.value not in _KEYWORDS) for a in node.args):
        return None
    if short == "where" and len(node.args) != 3:
        return None
    ref = jnp_reference(scope)
    if ref is None:
        return None
    new_func = cst.parse_expression(f"{ref[0]}.{short}")
    safety = SAFE if frame is not None and only_traced(frame) else UNSAFE
    return replace(node.func, new_func, f"Replace with `{ref[0]}.{short}`", safety, ref[1])
