# source: https://github.com/google-deepmind/dm-haiku/blob/f4d858a5cbb29140855d68f81f5fd625e078a5ae/haiku/_src/transform_test.py#L524
# category: C
# expect: ok
# via: haiku, jit-call
# sink: leaked-tracer
"""The key is drawn with `hk.next_rng_key()` at the level of the transform and passed to the
jitted function as an argument, so Haiku's key sequence never holds a traced key."""
import haiku as hk
import jax

first_half = jax.jit(lambda key: jax.random.split(key)[0])


def uses_keys_explicitly():
    k1 = first_half(hk.next_rng_key())
    k2 = hk.next_rng_key()
    return jax.random.uniform(k1) + jax.random.uniform(k2)


if __name__ == "__main__":
    f = hk.transform(uses_keys_explicitly)
    params = f.init(jax.random.PRNGKey(42))
    print(f.apply(params, jax.random.PRNGKey(42)))
