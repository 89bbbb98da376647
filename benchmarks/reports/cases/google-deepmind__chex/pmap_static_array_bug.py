# source: https://github.com/google-deepmind/chex/blob/b39fc0e8b50f6983b460829684c72d40bab5b706/chex/_src/variants_test.py#L823
# category: B
# expect: raises
# via: wrapper, pmap, static-argnums
# sink: static-array
"""Chex's pmap variant test passed an array (`jnp.zeros(n_copies) + 10`) as the argument marked
static (`static_argnums=0`, forwarded to pmap's `static_broadcasted_argnums`); JAX requires static
arguments to be hashable and rejects the array."""
import functools

import jax
import jax.numpy as jnp


def with_pmap(fn=None, *, n_devices=None, static_argnums=(), axis_name="i"):
    if fn is None:
        return functools.partial(with_pmap, n_devices=n_devices, static_argnums=static_argnums, axis_name=axis_name)
    if isinstance(static_argnums, int):
        static_argnums = (static_argnums,)
    pmapped = jax.pmap(fn, axis_name=axis_name, static_broadcasted_argnums=static_argnums)

    def wrapper(*args):
        args = [a if i in static_argnums else jnp.broadcast_to(a, (n_devices,) + jnp.shape(a)) for i, a in enumerate(args)]
        return pmapped(*args)

    return wrapper


def test_pmap_static_argnums_zero(n_devices):
    n_copies = 5

    varg_0 = jnp.zeros(n_copies) + 10
    varg_1 = jnp.zeros(n_copies) + 20

    @with_pmap(n_devices=n_devices, static_argnums=0)
    def fn_static(arg_0, arg_1):
        res = arg_1 - arg_0
        return jax.lax.psum(res, axis_name="i")

    actual = fn_static(varg_0, varg_1)  # <-- bug
    assert actual.shape == (n_devices, n_copies)
    return jnp.sum(actual)


if __name__ == "__main__":
    print(test_pmap_static_argnums_zero(jax.device_count()))
