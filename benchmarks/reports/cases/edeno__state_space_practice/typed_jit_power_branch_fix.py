# source: https://github.com/edeno/state_space_practice/blob/main/src/state_space_practice/tests/test_utils.py#L74
# category: A
# expect: ok
# via: wrapper, jit-call
# sink: python-if
"""The project's typed_jit wrapper forwards static_argnames to jax.jit, so the Python branch on the
integer `power` runs on a concrete value at trace time."""
from typing import Callable, TypeVar

import jax
import jax.numpy as jnp

F = TypeVar("F", bound=Callable)


def typed_jit(fun: F, **jit_kwargs) -> F:
    """jax.jit that keeps the wrapped function's signature for type checkers."""
    return jax.jit(fun, **jit_kwargs)  # type: ignore[return-value]


def f(x: jax.Array, power: int) -> jax.Array:
    return x**power if power > 0 else jnp.ones_like(x)


if __name__ == "__main__":
    x = jnp.array([2.0, 3.0])
    static = typed_jit(f, static_argnames=("power",))
    print(static(x, power=2))
