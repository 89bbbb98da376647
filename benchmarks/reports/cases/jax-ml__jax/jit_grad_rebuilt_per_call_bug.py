# source: https://github.com/jax-ml/jax/issues/2095
# category: R
# expect: recompiles
# via: jit-call, grad, host-loop
# sink: fresh-callable
"""Timing `jit(grad(f))(x)` in a loop builds a new `grad(f)` function on every call, and `jit`
caches on the function object, so each call traces and compiles again (`grad(jit(f))` does not,
as `jit(f)` is cached).  Building `jgf = jit(grad(f))` once and calling it in the loop compiles
once."""
import jax.numpy as jnp
from jax import grad, jit

x = jnp.ones([50, 50])
f = lambda x: jnp.mean(jnp.dot(x, x.T))


def timeit_jit_grad(n=3):
    for _ in range(n):
        out = jit(grad(f))(x).block_until_ready()  # <-- bug
    return out


if __name__ == "__main__":
    print(timeit_jit_grad().sum())
