# source: https://github.com/google-deepmind/dm-haiku/blob/f4d858a5cbb29140855d68f81f5fd625e078a5ae/haiku/_src/transform_test.py#L524
# category: C
# expect: raises
# via: haiku, jit-call
# sink: leaked-tracer
"""Inside an `hk.transform`ed function, `hk.next_rng_key` is wrapped in `jax.jit`; the jitted call
advances Haiku's internal key sequence with a traced key, so the next plain
`hk.next_rng_key()` reads an escaped tracer and JAX raises UnexpectedTracerError."""
import haiku as hk
import jax


def leaks_and_uses_tracer():
    k1 = jax.jit(hk.next_rng_key)()  # <-- bug
    k2 = hk.next_rng_key()
    return jax.random.uniform(k1) + jax.random.uniform(k2)


if __name__ == "__main__":
    f = hk.transform(leaks_and_uses_tracer)
    params = f.init(jax.random.PRNGKey(42))  # <-- bug
    print(f.apply(params, jax.random.PRNGKey(42)))
