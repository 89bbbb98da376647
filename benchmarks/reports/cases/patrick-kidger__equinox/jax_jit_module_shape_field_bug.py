# source: https://github.com/patrick-kidger/equinox/issues/236
# category: A
# expect: raises
# via: equinox, partial-jit, static-argnums, pytree-class
# sink: shape-from-value
"""An Equinox Module carrying an integer shape was passed to a jax.jit function (with the callable
argument in static_argnames).  Plain jax.jit traces every leaf of the Module, including the
ints of its shape, so building an array of that shape fails ("Shapes must be 1D sequences of
concrete values"); eqx.filter_jit keeps the non-array leaves (and the callable) static."""
import functools
import typing

import equinox
import jax
import jax.numpy as jnp


class Grid(equinox.Module):
    shape: tuple
    scale: jax.Array

    def field(self):
        return self.scale * jnp.ones(self.shape)  # <-- bug


@functools.partial(jax.jit, static_argnames=["myfunction"])
def jit_function(mymodule: equinox.Module, myarray: jnp.ndarray, myfunction: typing.Callable) -> jnp.ndarray:
    return myfunction(mymodule.field() + myarray)


if __name__ == "__main__":
    grid = Grid((2, 3, 4), jnp.array(0.5))
    out = jit_function(grid, jnp.ones((2, 3, 4)), jnp.tanh)
    print(out.shape, out.sum())
