# source: https://github.com/google-deepmind/dm-haiku/commit/7a33edf240a51f570c1e4827b6d5256191728ee3
# category: A
# expect: ok
# via: haiku, helper, lax-fori, jit-call
# sink: python-if
"""hk.fori_loop as the commit left it: the early return is tried only when the bounds are concrete
(a ConcretizationTypeError is caught), so jax.lax.fori_loop gets the traced bounds."""
import haiku as hk
import jax
import jax.numpy as jnp


def fori_loop(lower, upper, body_fun, init_val):
    if hk.running_init():
        init_val = body_fun(lower, init_val)
        lower += 1
        try:
            if upper - lower == 0:
                return init_val
        except jax.errors.ConcretizationTypeError:
            pass  # traced bounds: leave them to jax.lax.fori_loop
    return jax.lax.fori_loop(lower, upper, body_fun, init_val)


def f(lower, upper):
    m = hk.Linear(1)
    return fori_loop(lower, upper, lambda i, x: m(x + i), jnp.zeros((1, 1)))


if __name__ == "__main__":
    t = hk.transform(f)
    params = jax.jit(t.init)(jax.random.PRNGKey(0), 0, 3)
    print(jax.jit(t.apply)(params, None, 0, 3))
