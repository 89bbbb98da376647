# source: https://github.com/data-apis/array-api-extra/pull/114
# category: B
# expect: raises
# via: jit-call, static-argnums, helper
# sink: static-unhashable
"""array-api-extra's generic `pad` is jitted with `static_argnames="pad_width"` so the padded
shape is known while tracing; the test then pads with a list of `(before, after)` tuples, and
jit refuses the list as a static argument because it cannot be hashed."""
from types import ModuleType

import jax
import jax.numpy as jnp


def pad(x, pad_width, *, constant_values=0, xp: ModuleType = jnp):
    x_ndim = x.ndim
    if isinstance(pad_width, int):
        pad_width = [(pad_width, pad_width)] * x_ndim
    if isinstance(pad_width, tuple):
        pad_width = [pad_width] * x_ndim

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
    padded = jpad(a, [(1, 0), (0, 2)])  # <-- bug
    print(padded.shape)
    print(padded)
