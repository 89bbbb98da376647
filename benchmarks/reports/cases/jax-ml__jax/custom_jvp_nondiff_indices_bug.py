# source: https://github.com/jax-ml/jax/issues/23065
# category: B
# expect: raises
# via: custom-vjp, jit-call
# sink: static-array
"""An index array is declared in custom_jvp's nondiff_argnums, which treats it like a static value;
under jit it is a tracer, the rule captures it, and taking the jacobian fails on the captured tracer."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.custom_jvp, nondiff_argnums=(1,))
def f(x, indices):
    return x[indices]


@f.defjvp
def f_jvp(indices, primals, tangents):
    (x,) = primals
    (x_dot,) = tangents
    return f(x, indices), x_dot[indices]


f_jit = jax.jit(f)

if __name__ == "__main__":
    x = jnp.arange(10.0)
    indices = jnp.array([1, 3, 5])
    print(jax.jacobian(f_jit)(x, indices))  # <-- bug
