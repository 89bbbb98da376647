# source: https://github.com/google-deepmind/dm-haiku/blob/f4d858a5cbb29140855d68f81f5fd625e078a5ae/haiku/_src/base_test.py#L739
# category: C
# expect: raises
# via: haiku, lax-scan, host-loop
# sink: leaked-tracer
"""A function under `hk.transform_with_state` keeps a running total with `hk.get_state` /
`hk.set_state` inside the step of a plain `jax.lax.scan`; the stored total is a tracer of the
scan, which escapes into Haiku's state and JAX raises UnexpectedTracerError when it is read."""
import haiku as hk
import jax
import jax.numpy as jnp


def forward(xs):
    def step(carry, x):
        total = hk.get_state("total", [], init=jnp.zeros)
        hk.set_state("total", total + x)  # <-- bug
        return carry + x, total

    return jax.lax.scan(step, 0.0, xs)


if __name__ == "__main__":
    fwd = hk.transform_with_state(forward)
    xs = jnp.arange(3.0)
    params, state = fwd.init(None, xs)
    for _ in range(2):
        (c, ys), state = fwd.apply(params, state, None, xs)  # <-- bug
        print(c, ys)
    print(state)
