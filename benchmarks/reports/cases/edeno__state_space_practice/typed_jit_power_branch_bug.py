# source: https://github.com/edeno/state_space_practice/blob/main/src/state_space_practice/tests/test_utils.py#L74
# category: A
# expect: raises
# via: wrapper, jit-call
# sink: python-if
"""The project's typed_jit wrapper forwards to jax.jit; its test guards that a function branching in
Python on an integer `power` cannot be traced when `power` is not declared static: the conditional
expression on the traced power raises a tracer boolean conversion error."""
from typing import Callable, TypeVar

import jax
import jax.numpy as jnp

F = TypeVar("F", bound=Callable)


def typed_jit(fun: F, **jit_kwargs) -> F:
    """jax.jit that keeps the wrapped function's signature for type checkers."""
    return jax.jit(fun, **jit_kwargs)  # type: ignore[return-value]


def f(x: jax.Array, power: int) -> jax.Array:
    return x**power if power > 0 else jnp.ones_like(x)  # <-- bug


if __name__ == "__main__":
    x = jnp.array([2.0, 3.0])
    print(typed_jit(f)(x, 2))
