# source: https://github.com/google-deepmind/chex/blob/f3639bf8ea5b43d28773497f8d8b601608bf5768/chex/_src/asserts_test.py#L192
# category: R
# expect: ok
# via: jit-decorator, factory-closure, wrapper
# sink: fresh-callable
"""The jitted `inner_fn` is defined once, outside `outer_fn`, as the test's message asks (a traced
function redefined at each call is the bug it detects); every call of `outer_fn` reuses one
compilation."""
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


@jax.jit
@assert_max_traces(3)
def inner_fn(y):
    return y.sum()


def outer_fn(x):
    return inner_fn(2 * x)


if __name__ == "__main__":
    print(outer_fn(jnp.ones(3)), outer_fn(2 * jnp.ones(3)), outer_fn(3 * jnp.ones(3)))
