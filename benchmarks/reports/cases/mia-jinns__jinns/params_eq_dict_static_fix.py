# source: https://github.com/mia-jinns/jinns/commit/00507edda7f319d56dbcbafe17eb3c88bf1a1f03
# category: B
# expect: ok
# via: equinox, static-argnums, partial-jit, pytree-class
# sink: static-unhashable
"""jinns' Params now converts an equation-parameter dict into a small Equinox Module at
construction, so the Params passed through `static_argnames` hashes by its values."""
from functools import partial
from typing import Generic, TypeVar

import equinox as eqx
import jax
from jaxtyping import PyTree

T = TypeVar("T")


def eq_params_dict_to_eqxModule(d: dict[str, T]) -> eqx.Module:
    EqParams = type(
        "EqParams",
        (eqx.Module,),
        {"__annotations__": {k: type(v) for k, v in d.items()}},
    )
    return EqParams(**d)


class Params(eqx.Module, Generic[T]):
    """The parameters of a PINN problem: network parameters and equation parameters."""

    nn_params: PyTree[T] = eqx.field(kw_only=True, default=None)
    eq_params: PyTree[T] = eqx.field(
        kw_only=True,
        default=None,
        converter=lambda x: eq_params_dict_to_eqxModule(x) if isinstance(x, dict) else x,
    )


def test_success():
    params = Params(nn_params=(0, 0), eq_params={"a": 1, "b": 1})

    @partial(jax.jit, static_argnames=["params"])
    def f(a, params):
        return jax.tree.map(lambda t: t * a, params)

    return f(10, params)


if __name__ == "__main__":
    out = test_success()
    print([int(x) for x in out.nn_params], int(out.eq_params.a), int(out.eq_params.b))
