# source: https://github.com/patrick-kidger/equinox/blob/9336d820b2ef66b360fc6cb3611b3da5cefbb14d/tests/test_jit.py#L94
# category: R
# expect: ok
# via: equinox, jit-call, dict-of-arrays, host-loop
# sink: changing-static
"""Equinox's trace-counting test for eqx.filter_jit: Python ints and bools nested in a dict
argument are static, so `h(True, {"a": 2, "b": 1}, ...)` compiles again whenever one of those
ints changes.  A schedule that bumps an int entry of the config dict each step recompiles every
step; holding the changing entry as a JAX array keeps one compilation."""
import equinox as eqx
import jax.numpy as jnp


def h(x, y, z, w):
    scale = y["a"] * 0.5 + y["b"]
    return jnp.where(z, x * scale, x) + w


h = eqx.filter_jit(h)


if __name__ == "__main__":
    x = jnp.ones(3)
    for step in range(4):
        config = {"a": jnp.array(step), "b": 1}
        x = h(x, config, True, 2)
        print(step, x)
