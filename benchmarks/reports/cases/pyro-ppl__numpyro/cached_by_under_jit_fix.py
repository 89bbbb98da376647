# source: https://github.com/pyro-ppl/numpyro/pull/2165
# category: C
# expect: ok
# via: factory-closure, helper, lax-fori, jit-decorator
# sink: global-write
"""`cached_by` now skips its module-level cache when called under a JAX transformation (the trace
state is not clean), as the pull request does, so closures built inside a jitted MCMC run are not
stored."""
from collections import OrderedDict

import jax
import jax.numpy as jnp
from jax import jit, lax


def _is_under_jax_transform():
    from jax._src.core import trace_state_clean

    return not trace_state_clean()


def cached_by(outer_fn, *keys):
    outer_fn._cache = getattr(outer_fn, "_cache", OrderedDict())

    def _wrapped(fn):
        # Skip caching when inside a JAX tracing context to avoid tracer leaks.
        if _is_under_jax_transform():
            return fn
        fn_cache = outer_fn._cache
        hashkeys = (*keys, fn.__name__)
        if hashkeys in fn_cache:
            return fn_cache[hashkeys]
        fn_cache[hashkeys] = fn
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
