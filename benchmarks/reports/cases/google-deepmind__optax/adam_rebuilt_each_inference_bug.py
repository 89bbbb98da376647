# source: https://github.com/google-deepmind/optax/issues/197
# category: R
# expect: recompiles
# via: optax, static-argnums, jit-call, lax-scan, dataclass, host-loop
# sink: changing-static
"""The reporter ran a scanned inference loop with an optax optimizer passed as a static argument,
building `adam(0.05)` afresh on each outer iteration: every new optimizer holds new closures, so
the jitted `inference` was traced and compiled again on every call."""
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
    for _ in range(5):
        gt1 = adam(0.05)
        trajectory = jit(inference, static_argnums=0)(gt1)  # <-- bug
    print(trajectory[-1])
