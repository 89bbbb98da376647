# source: https://github.com/patrick-kidger/equinox/blob/9336d820b2ef66b360fc6cb3611b3da5cefbb14d/tests/test_jit.py#L116
# category: R
# expect: recompiles
# via: equinox, method, jit-decorator, host-loop
# sink: changing-static
"""Equinox's test of filter_jit on Module methods: a Module whose `increment` field is a Python
int is static to filter_jit, so every instance with a different int compiles the method again;
with the field an array the instances share one compilation."""
import equinox as eqx
import jax
import jax.numpy as jnp


class M(eqx.Module):
    increment: int | jax.Array

    @eqx.filter_jit
    def method(self, x):
        return x + self.increment


def run(_m):
    y = jnp.array(1.0)
    return _m.method(y)  # <-- bug


if __name__ == "__main__":
    for i in range(1, 5):
        m = M(i)
        print(i, run(m))
