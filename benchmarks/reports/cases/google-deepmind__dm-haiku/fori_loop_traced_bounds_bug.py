# source: https://github.com/google-deepmind/dm-haiku/commit/7a33edf240a51f570c1e4827b6d5256191728ee3
# category: A
# expect: raises
# via: haiku, helper, lax-fori, jit-call
# sink: python-if
"""hk.fori_loop unrolled its first step during init and then returned early with
`if upper - lower == 0`; when the loop bounds are tracers (the transformed init is jitted with
them as arguments) that comparison fails, although jax.lax.fori_loop accepts traced bounds."""
import haiku as hk
import jax
import jax.numpy as jnp


def fori_loop(lower, upper, body_fun, init_val):
    if hk.running_init():
        init_val = body_fun(lower, init_val)
        lower += 1
        if upper - lower == 0:  # <-- bug
            return init_val
    return jax.lax.fori_loop(lower, upper, body_fun, init_val)


def f(lower, upper):
    m = hk.Linear(1)
    return fori_loop(lower, upper, lambda i, x: m(x + i), jnp.zeros((1, 1)))


if __name__ == "__main__":
    t = hk.transform(f)
    params = jax.jit(t.init)(jax.random.PRNGKey(0), 0, 3)
    print(jax.jit(t.apply)(params, None, 0, 3))
