# source: https://github.com/google-deepmind/dm-haiku/issues/319
# category: A
# expect: raises
# via: haiku, jit-call, helper
# sink: python-if
"""hk.dropout validated its rate with Python comparisons (`rate < 0 or rate >= 1`, `rate == 0.0`);
jitting dropout with the rate as an argument makes it a tracer and the check fails.  The fix
(haiku commit 7ff4c8f) skips the check when the rate is not concrete."""
import haiku as hk
import jax
import jax.numpy as jnp


def dropout(rng, rate, x):
    if rate < 0 or rate >= 1:  # <-- bug
        raise ValueError("rate must be in [0, 1).")
    if rate == 0.0:
        return x
    keep_rate = 1.0 - rate
    keep = jax.random.bernoulli(rng, keep_rate, shape=x.shape)
    return keep * x / keep_rate


def forward(x):
    return jax.jit(dropout)(hk.next_rng_key(), 0.25, x)


if __name__ == "__main__":
    f = hk.transform(forward)
    x = jnp.ones([3, 3])
    params = f.init(jax.random.PRNGKey(0), x)
    print(f.apply(params, jax.random.PRNGKey(1), x))
