# source: https://github.com/jax-ml/jax/issues/953
# category: B
# expect: raises
# via: jit-call, namedtuple
# sink: static-spec
"""An episode function takes an Optimizer NamedTuple of init/update/get functions and is jitted
whole; the functions are pytree leaves that are not arrays, so jit rejects them as invalid JAX types."""
from typing import Any, Callable, NamedTuple

import jax.numpy as jnp
from jax import grad, jit
from jax.example_libraries import optimizers


class Optimizer(NamedTuple):
    init: Callable[[Any], Any]
    update: Callable[[int, Any, Any], Any]
    get: Callable[[Any], Any]


def loss(params):
    return jnp.sum((params - 3.0) ** 2)


def ddpg_episode(optimizer: Optimizer, opt_state, num_steps):
    for i in range(3):
        params = optimizer.get(opt_state)
        opt_state = optimizer.update(i, grad(loss)(params), opt_state)
    return opt_state


if __name__ == "__main__":
    optimizer = Optimizer(*optimizers.adam(step_size=1e-1))
    opt_state = optimizer.init(jnp.zeros(2))
    opt_state = jit(ddpg_episode)(optimizer, opt_state, 3)  # <-- bug
    print(optimizer.get(opt_state))
