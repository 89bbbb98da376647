# source: https://github.com/google-deepmind/dm-haiku/issues/319
# category: A
# expect: ok
# via: haiku, jit-call, helper
# sink: python-if
"""dropout as haiku commit 7ff4c8f left it: the Python checks of the rate run only when the rate
is concrete (a ConcretizationTypeError skips them), so a traced rate works under jit."""
import haiku as hk
import jax
import jax.numpy as jnp


def dropout(rng, rate, x):
    try:
        if rate < 0 or rate >= 1:
            raise ValueError("rate must be in [0, 1).")
        if rate == 0.0:
            return x
    except jax.errors.ConcretizationTypeError:
        pass
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
