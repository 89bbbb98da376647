# source: https://github.com/data-apis/array-api-extra/pull/114
# category: B
# expect: ok
# via: jit-call, static-argnums, helper
# sink: static-unhashable
"""array-api-extra's generic `pad` jitted with `static_argnames="pad_width"`; the fixed test
passes the widths as a tuple of `(before, after)` tuples, which hashes, and `pad` accepts any
sequence of pairs."""
from types import ModuleType

import jax
import jax.numpy as jnp


def pad(x, pad_width, *, constant_values=0, xp: ModuleType = jnp):
    x_ndim = x.ndim
    if isinstance(pad_width, int):
        pad_width = [(pad_width, pad_width)] * x_ndim
    elif (
        isinstance(pad_width, tuple)
        and len(pad_width) == 2
        and all(isinstance(i, int) for i in pad_width)
    ):
        pad_width = [pad_width] * x_ndim
    else:
        pad_width = list(pad_width)

    slices = []
    newshape = []
    for ax, w_tpl in enumerate(pad_width):
        if len(w_tpl) != 2:
            raise ValueError(f"expect a 2-tuple (before, after), got {w_tpl}.")
        sh = x.shape[ax]
        if w_tpl[0] == 0 and w_tpl[1] == 0:
            sl = slice(None, None, None)
        else:
            start, stop = w_tpl
            stop = None if stop == 0 else -stop
            sl = slice(start, stop, None)
            sh += w_tpl[0] + w_tpl[1]
        newshape.append(sh)
        slices.append(sl)

    padded = xp.full(tuple(newshape), fill_value=constant_values, dtype=x.dtype)
    return padded.at[tuple(slices)].set(x)


if __name__ == "__main__":
    jpad = jax.jit(pad, static_argnames="pad_width")
    a = jnp.reshape(jnp.arange(12), (3, 4))
    padded = jpad(a, ((1, 0), (0, 2)))
    print(padded.shape)
    print(padded)
