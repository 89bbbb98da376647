# source: https://github.com/jax-ml/jax/pull/5980
# category: C
# expect: stale
# via: jit-call, method, host-loop
# sink: attribute-write
"""The state notebook's Counter: count() bumps self.n and returns it; jitting the bound method runs
the increment only while tracing, so every compiled call returns the same number."""
import jax


class Counter:
    def __init__(self):
        self.n = 0

    def count(self) -> int:
        self.n += 1  # <-- bug
        return self.n

    def reset(self):
        self.n = 0


if __name__ == "__main__":
    counter = Counter()
    fast_count = jax.jit(counter.count)
    for _ in range(3):
        print(fast_count())
