# source: https://github.com/patrick-kidger/equinox/blob/9336d820b2ef66b360fc6cb3611b3da5cefbb14d/tests/test_jit.py#L82
# category: R
# expect: ok
# via: equinox, jit-call, host-loop
# sink: changing-static
"""Equinox's trace-counting test: a Python bool passed to an eqx.filter_jit function is a static
argument, so g(x, True) and g(x, False) are two compilations; a flag that changes on every step
of a loop compiles g again each time it flips, where a JAX bool array would not."""
import equinox as eqx
import jax.numpy as jnp


def g(x, y):
    return jnp.where(y, x + 1, x - 1)


g = eqx.filter_jit(g)


if __name__ == "__main__":
    x = jnp.zeros(2)
    for step in range(4):
        flag = jnp.array(step % 2 == 0)
        x = g(x, flag)
        print(step, x)
