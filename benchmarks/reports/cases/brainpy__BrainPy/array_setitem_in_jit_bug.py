# source: https://github.com/brainpy/BrainPy/blob/a13eef5aa83f1e75ebf0305ccabfb2fc4cb822c6/brainpy/math/ndarray_test.py#L63
# category: C
# expect: raises
# via: method, jit-call, class-attribute
# sink: attribute-write
"""BrainPy's test of tracer errors: a method jitted with plain jax.jit writes into the object's
mutable Array (`self.a[:] = ...`); the first call stores a tracer inside the Array, and the next
call, traced again for a new input shape, reads it and fails with an escaped tracer.  The working
form hands the state in and out of the jitted function and writes it back outside."""
import jax
import jax.numpy as jnp


class Array:
    def __init__(self, value):
        self.value = jnp.asarray(value)

    def __setitem__(self, index, value):
        self.value = self.value.at[index].set(value)


class TestTracerError:
    def __init__(self):
        self.a = Array(jnp.zeros((10, 2)))
        self.f = jax.jit(self._f)

    def _f(self, b):
        self.a[:] = jnp.zeros_like(self.a.value)  # <-- bug
        return b + 1.

    def test_tracing(self):
        print(self.f(1.))
        print(self.f(jnp.ones(10)))  # <-- bug


if __name__ == "__main__":
    TestTracerError().test_tracing()
