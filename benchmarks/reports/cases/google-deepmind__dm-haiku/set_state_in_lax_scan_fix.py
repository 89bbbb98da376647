# source: https://github.com/google-deepmind/dm-haiku/blob/f4d858a5cbb29140855d68f81f5fd625e078a5ae/haiku/_src/base_test.py#L739
# category: C
# expect: ok
# via: haiku, lax-scan, host-loop
# sink: leaked-tracer
"""The loop uses `hk.scan`, Haiku's state-aware scan, which threads the state through the
scan's carry so the running total comes back as a value rather than an escaped tracer."""
import haiku as hk
import jax.numpy as jnp


def forward(xs):
    def step(carry, x):
        total = hk.get_state("total", [], init=jnp.zeros)
        hk.set_state("total", total + x)
        return carry + x, total

    return hk.scan(step, 0.0, xs)


if __name__ == "__main__":
    fwd = hk.transform_with_state(forward)
    xs = jnp.arange(3.0)
    params, state = fwd.init(None, xs)
    for _ in range(2):
        (c, ys), state = fwd.apply(params, state, None, xs)
        print(c, ys)
    print(state)
