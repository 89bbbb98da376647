# source: https://github.com/brentyi/jax_dataclasses/blob/6817a9de26d6ae875f5bf70f24a983cad5d8cb11/tests/test_jit_ignore_py37.py#L28
# category: B
# expect: ok
# via: wrapper, jit-decorator
# sink: static-spec
"""jax_dataclasses.jit marks as static the parameters annotated with jdc.Static[...]; annotating the
length `x` as Static[int] makes it a Python integer at trace time, so jnp.full gets a concrete shape."""
import inspect
import typing
from typing import Annotated, TypeVar

import jax
from jax import numpy as jnp

JDC_STATIC_MARKER = "__jax_dataclasses_static_field__"
T = TypeVar("T")
Static = Annotated[T, JDC_STATIC_MARKER]


def jit(fun):
    """jax.jit whose static arguments are the parameters annotated with Static[...]."""
    hints = typing.get_type_hints(fun, include_extras=True)
    static_argnames = [
        name
        for name in inspect.signature(fun).parameters
        if JDC_STATIC_MARKER in getattr(hints.get(name), "__metadata__", ())
    ]
    return jax.jit(fun, static_argnames=static_argnames)


@jit
def func(x: Static[int], y: int) -> jax.Array:
    return jnp.full(shape=(x,), fill_value=y)


if __name__ == "__main__":
    print(func(3, 4).shape)
