# source: https://github.com/suvash/jaxember-21
# category: C
# expect: stale
# via: method, jit-call, host-loop
# sink: attribute-write
"""Counter.count increments self.n and returns it; jitting the bound method runs the increment
only while tracing, so five calls of the compiled count all return 1."""
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
    counter.reset()
    jit_count = jax.jit(counter.count)
    for _ in range(5):
        print(jit_count())
