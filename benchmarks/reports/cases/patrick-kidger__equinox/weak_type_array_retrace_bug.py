# source: https://github.com/patrick-kidger/equinox/issues/817
# category: R
# expect: recompiles
# via: jit-call, wrapper, equinox
# sink: weak-type
"""A user jits a function wrapped in `eqx.debug.assert_max_traces` and calls it on two scalars of
equal value and shape, one made by `jnp.ones(())` and one by `jnp.array(1.0)`; the second is
weakly typed, so jit traces the function a second time although shape and dtype agree."""
import equinox as eqx
import jax
import jax.numpy as jnp


def f(y):
    return y + jnp.ones(())


if __name__ == "__main__":
    y_strong = jnp.ones(())
    y_weak = jnp.array(1.0)
    assert jnp.allclose(y_strong, y_weak)

    f_jit = jax.jit(eqx.debug.assert_max_traces(f, max_traces=None))
    print(f_jit(y_strong))
    print(f_jit(y_weak))  # <-- bug
