# source: https://github.com/pyro-ppl/numpyro/pull/2165
# category: C
# expect: leaks
# via: factory-closure, helper, lax-fori, jit-decorator
# sink: global-write
"""numpyro caches helper closures in a module-level dict (`cached_by`, keyed by the user's
functions); running MCMC inside a jitted function cached closures built from traced values,
so tracers of that trace stayed in `fori_collect._cache` (issue #2000)."""
from collections import OrderedDict

import jax
import jax.numpy as jnp
from jax import jit, lax


def cached_by(outer_fn, *keys):
    outer_fn._cache = getattr(outer_fn, "_cache", OrderedDict())

    def _wrapped(fn):
        fn_cache = outer_fn._cache
        hashkeys = (*keys, fn.__name__)
        if hashkeys in fn_cache:
            return fn_cache[hashkeys]
        fn_cache[hashkeys] = fn  # <-- bug
        return fn

    return _wrapped


def fori_collect(upper, body_fun, init_val, thinning):
    @cached_by(fori_collect, body_fun)
    def _body_fn(i, vals):
        val, collection = vals
        val = body_fun(val)
        return val, collection.at[i].set(val * thinning)

    collection = jnp.zeros((upper,) + jnp.shape(init_val))
    return lax.fori_loop(0, upper, _body_fn, (init_val, collection))[1]


def sample_kernel(x):
    return 0.9 * x + 0.1


@jit
def get_samples(x0, scale):
    return fori_collect(10, sample_kernel, x0, scale)


if __name__ == "__main__":
    samples = get_samples(jnp.array(1.0), jnp.array(2.0))
    print(samples)
