# source: https://github.com/google-deepmind/chex/blob/f3639bf8ea5b43d28773497f8d8b601608bf5768/chex/_src/asserts_test.py#L192
# category: R
# expect: recompiles
# via: jit-decorator, factory-closure, wrapper
# sink: fresh-callable
"""Chex's test of `assert_max_traces` defines a jitted `inner_fn` inside `outer_fn`, so every call
of `outer_fn` makes a new function and jax.jit traces and compiles it again, with the same
argument shapes each time (the test expects the trace counter to trip on the fourth call)."""
import functools

import jax
import jax.numpy as jnp

_TRACE_COUNTER = {}


def assert_max_traces(fn=None, n=None):
    """Counts the traces of `fn` (keyed by its code), failing past `n`."""
    if fn is None or isinstance(fn, int):
        return functools.partial(assert_max_traces, n=fn if n is None else n)
    key = fn.__code__

    @functools.wraps(fn)
    def fn_wrapped(*args, **kwargs):
        _TRACE_COUNTER[key] = _TRACE_COUNTER.get(key, 0) + 1
        assert _TRACE_COUNTER[key] <= n, f"{fn.__name__} is traced > {n} times!"
        return fn(*args, **kwargs)

    return fn_wrapped


def outer_fn(x):
    @jax.jit
    @assert_max_traces(3)
    def inner_fn(y):
        return y.sum()

    return inner_fn(2 * x)  # <-- bug


if __name__ == "__main__":
    print(outer_fn(jnp.ones(3)), outer_fn(2 * jnp.ones(3)), outer_fn(3 * jnp.ones(3)))
