# source: https://github.com/google/flax/issues/4156
# category: B
# expect: raises
# via: flax-nnx, flax-linen, partial-jit, static-argnums
# sink: static-unhashable
"""Linen modules are hashable dataclasses, so they can be the static argument of a jitted apply
function; an nnx module wrapped with `nnx.bridge.ToLinen(..., kwargs={...})` keeps the plain
dict of constructor kwargs as a field, so hashing the wrapper fails and jit rejects it as a
non-hashable static argument."""
from functools import partial

import jax
import jax.numpy as jnp
from flax import nnx


@partial(jax.jit, static_argnums=0)
def apply_model(model, variables, x):
    return model.apply(variables, x)


if __name__ == "__main__":
    model = nnx.bridge.ToLinen(nnx.Linear, args=(32, 64), kwargs={"use_bias": True})
    x = jnp.ones((4, 32))
    variables = model.init(jax.random.key(0), x)
    y = apply_model(model, variables, x)  # <-- bug
    print(y.shape, float(jnp.sum(y)))
