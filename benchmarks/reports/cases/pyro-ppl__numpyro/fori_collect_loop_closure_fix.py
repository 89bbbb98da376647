# source: https://github.com/pyro-ppl/numpyro/pull/2171
# category: R
# expect: ok
# via: jit-call, factory-closure, lax-fori, helper, host-loop
# sink: fresh-callable
"""Without a progress bar, NumPyro's `fori_collect` defined a local `loop_fn` closure around
`fori_loop` and jitted it on every call, so collecting twice with the same body function and the
same shapes (running MCMC again with a new key) traced and compiled the whole loop again.  The
pull request jits a module-level loop function with the body function as a static argument
(here the cached body is the compiled one, so that static argument is the same object each call)."""
from collections import OrderedDict
import jax
import jax.numpy as jnp
from jax import jit, lax


def maybe_jit(fn, *args, **kwargs):
    return jit(fn, *args, **kwargs)


def cached_by(outer_fn, *keys):
    outer_fn._cache = getattr(outer_fn, "_cache", OrderedDict())

    def _wrapped(fn):
        hashkeys = (*keys, fn.__name__)
        if hashkeys not in outer_fn._cache:
            outer_fn._cache[hashkeys] = fn
        return outer_fn._cache[hashkeys]

    return _wrapped


def _fori_collect_loop(_body_fn, upper, init_val, collection, start_idx):
    return lax.fori_loop(0, upper, lambda i, vals: _body_fn(i, *vals), (init_val, collection, start_idx))


def fori_collect(lower, upper, body_fun, init_val, progbar=True):
    collection_size = upper - lower

    @cached_by(fori_collect, body_fun)
    @maybe_jit
    def _body_fn(i, val, collection, start_idx):
        val = body_fun(val)
        idx = i - start_idx
        collection = lax.cond(idx >= 0, lambda c: c.at[idx].set(val), lambda c: c, collection)
        return val, collection, start_idx

    collection = jnp.zeros((collection_size,) + jnp.shape(init_val), jnp.result_type(init_val))

    if not progbar:
        last_val, collection, _ = maybe_jit(_fori_collect_loop, static_argnums=(0, 1))(
            _body_fn, upper, init_val, collection, lower
        )
    return collection


if __name__ == "__main__":
    def f(x):
        return x + 1

    result1 = fori_collect(0, 10, f, jnp.array([0.0]), progbar=False)
    result2 = fori_collect(0, 10, f, jnp.array([5.0]), progbar=False)
    print(result1.ravel(), result2.ravel())
