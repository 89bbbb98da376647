# source: https://github.com/mia-jinns/jinns/commit/00507edda7f319d56dbcbafe17eb3c88bf1a1f03
# category: B
# expect: raises
# via: equinox, static-argnums, partial-jit, pytree-class
# sink: static-unhashable
"""jinns' Params module kept the equation parameters as a plain dict; with recent Equinox a
Module hashes its fields, so a Params passed through `static_argnames` cannot be hashed and the
jitted function fails before tracing."""
from functools import partial
from typing import Generic, TypeVar

import equinox as eqx
import jax
from jaxtyping import PyTree

T = TypeVar("T")


class Params(eqx.Module, Generic[T]):
    """The parameters of a PINN problem: network parameters and equation parameters."""

    nn_params: PyTree[T] = eqx.field(kw_only=True, default=None)
    eq_params: dict[str, T] = eqx.field(kw_only=True, default=None)


def test_success():
    params = Params(nn_params=(0, 0), eq_params={"a": 1, "b": 1})

    @partial(jax.jit, static_argnames=["params"])
    def f(a, params):
        return jax.tree.map(lambda t: t * a, params)

    return f(10, params)  # <-- bug


if __name__ == "__main__":
    out = test_success()
    print([int(x) for x in out.nn_params], {k: int(v) for k, v in out.eq_params.items()})
