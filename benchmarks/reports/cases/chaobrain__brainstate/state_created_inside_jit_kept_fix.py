# source: https://github.com/chaobrain/brainstate/pull/207
# category: C
# expect: ok
# via: jit-call, class-attribute, dict-of-arrays
# sink: leaked-tracer
"""A function creates a ShortTermState lazily on first call and keeps it in an outer dict; under
jit the state is built from a traced value, so the dict keeps a state whose value is a dead
tracer once the call returns. The regression tests contrast it with a temporary state that is
created and dropped inside the traced function."""
import jax
import jax.numpy as jnp


class ShortTermState:
    def __init__(self, value):
        self.value = value


holder = {}


def f(x):
    tmp = ShortTermState(x * 2.0)
    tmp.value = tmp.value + 1.0
    return tmp.value + x


if __name__ == "__main__":
    jf = jax.jit(f)
    out = jf(jnp.ones(3))
    print(out.shape, out)
