# source: https://github.com/patrick-kidger/equinox/blob/9336d820b2ef66b360fc6cb3611b3da5cefbb14d/tests/test_module.py#L917
# category: B
# expect: raises
# via: equinox, pytree-class, jit-decorator, host-loop
# sink: static-metadata
"""Equinox's test builds Modules whose JAX array is a field marked `static=True` (Equinox only
warns); once such Modules go through `eqx.filter_jit`, the array sits in the pytree metadata and
the second Module's metadata cannot be compared with the cached one."""
import warnings

import equinox as eqx
import jax
import jax.numpy as jnp


class InvalidArr(eqx.Module):
    a: tuple
    b: jax.Array = eqx.field(static=True)


@eqx.filter_jit
def scaled_sum(module, x):
    return jnp.sum(module.b * x)


def test_no_jax_array_static():
    outs = []
    for scale in jnp.array([1.0, 2.0]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = InvalidArr((), jnp.ones(10))
        outs.append(scaled_sum(module, scale))  # <-- bug
    return outs


if __name__ == "__main__":
    print([float(o) for o in test_no_jax_array_static()])
