# source: https://github.com/jax-ml/jax/pull/5980
# category: C
# expect: ok
# via: jit-call, method, host-loop
# sink: attribute-write
"""The state notebook's Counter: count() bumps self.n and returns it; jitting the bound method runs
the increment only while tracing, so every compiled call returns the same number."""
import jax
import jax.numpy as jnp


class CounterV2:
    def count(self, n):
        n = n + 1
        return n, n

    def reset(self):
        return jnp.int32(0)


if __name__ == "__main__":
    counter = CounterV2()
    state = counter.reset()
    fast_count = jax.jit(counter.count)
    for _ in range(3):
        value, state = fast_count(state)
        print(value)
