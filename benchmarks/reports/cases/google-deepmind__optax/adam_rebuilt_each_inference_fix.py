# source: https://github.com/google-deepmind/optax/issues/197
# category: R
# expect: ok
# via: optax, static-argnums, jit-call, lax-scan, dataclass, host-loop
# sink: changing-static
"""The optimizer is built once, outside the loop, and the same object is passed as the static
argument on every call, so the jitted `inference` is compiled once and reused."""
import dataclasses
from typing import Any

import jax
import jax.numpy as jnp
from jax import grad, jit
from jax.lax import scan
from optax import adam


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class State:
    parameters: jax.Array
    gt_state: Any


def loss(parameters):
    return jnp.square(parameters - 1.0)


def inference(gt):
    def do_one(state, _):
        gradient = grad(loss)(state.parameters)
        new_gradient, gt_state = gt.update(gradient, state.gt_state, state.parameters)
        parameters = state.parameters + new_gradient
        return State(parameters, gt_state), parameters

    p0 = jnp.zeros((), jnp.float32)
    state = State(p0, gt.init(p0))
    final_state, trajectory = scan(do_one, state, None, 100)
    return trajectory


if __name__ == "__main__":
    gt1 = adam(0.05)
    for _ in range(5):
        trajectory = jit(inference, static_argnums=0)(gt1)
    print(trajectory[-1])
