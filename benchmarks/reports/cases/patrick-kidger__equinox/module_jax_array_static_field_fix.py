# source: https://github.com/patrick-kidger/equinox/blob/9336d820b2ef66b360fc6cb3611b3da5cefbb14d/tests/test_module.py#L917
# category: B
# expect: ok
# via: equinox, pytree-class, jit-decorator, host-loop
# sink: static-metadata
"""The valid Module of Equinox's test keeps its JAX array as an ordinary (dynamic) field, so Modules
built afresh go through `eqx.filter_jit` as traced leaves and reuse one compilation."""
import equinox as eqx
import jax
import jax.numpy as jnp


class Valid(eqx.Module):
    a: tuple
    b: jax.Array


@eqx.filter_jit
def scaled_sum(module, x):
    return jnp.sum(module.b * x)


def test_no_jax_array_static():
    outs = []
    for scale in jnp.array([1.0, 2.0]):
        module = Valid((), jnp.ones(10))
        outs.append(scaled_sum(module, scale))
    return outs


if __name__ == "__main__":
    print([float(o) for o in test_no_jax_array_static()])
