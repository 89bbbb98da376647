# source: https://github.com/suvash/jaxember-21
# category: C
# expect: ok
# via: method, jit-call, host-loop
# sink: attribute-write
"""CounterWithState keeps the count outside the object: count takes the current n and returns the
new value together with the new state, so the jitted count advances on every call."""
import jax


class CounterWithState:
    def count(self, n):
        return n + 1, n + 1

    def reset(self):
        return 0


if __name__ == "__main__":
    counter = CounterWithState()
    state = counter.reset()
    jit_count = jax.jit(counter.count)
    for _ in range(5):
        value, state = jit_count(state)
        print(value)
