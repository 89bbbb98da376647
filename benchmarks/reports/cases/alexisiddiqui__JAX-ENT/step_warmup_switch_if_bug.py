# source: https://github.com/alexisiddiqui/JAX-ENT/commit/5d7a40ee8d29c224c62ad929cbceffbd6e269c57
# category: A
# expect: raises
# via: method, jit-call, optax, dataclass, grad, host-loop
# sink: python-if
"""The optimiser's static `_step` switched from the warm-up learning rate with
`if state.step == optimizer.initial_steps:`, reading the step counter of the state pytree;
once `_step` is jitted the counter is traced and the `if` needs a concrete bool."""
from dataclasses import dataclass, replace
from functools import partial

import jax
import jax.numpy as jnp
import optax


@jax.tree_util.register_dataclass
@dataclass
class OptimizationState:
    params: jax.Array
    opt_state: optax.OptState
    step: jax.Array


class LRSchedule:
    def __init__(self, value):
        self.value = value

    def update(self, value):
        self.value = value

    def __call__(self):
        return self.value


class OptaxOptimizer:
    def __init__(self, learning_rate=1e-2, initial_learning_rate=1e-3, initial_steps=2):
        self.learning_rate, self.initial_steps = learning_rate, initial_steps
        self.lr_schedule = LRSchedule(initial_learning_rate)
        self.optimizer = optax.adam(learning_rate)

    def initialise(self, params):
        return OptimizationState(params, self.optimizer.init(params), jnp.array(0))

    @staticmethod
    def _step(optimizer, state, loss_fn):
        # Switch to regular learning rate after initial steps
        if state.step == optimizer.initial_steps:  # <-- bug
            optimizer.lr_schedule.update(optimizer.learning_rate)
        loss_value, grads = jax.value_and_grad(loss_fn)(state.params)
        updates, new_opt_state = optimizer.optimizer.update(grads, state.opt_state, state.params)
        new_params = optax.apply_updates(state.params, updates)
        return replace(state, params=new_params, opt_state=new_opt_state, step=state.step + 1), loss_value


def _optimise(optimizer, params, loss_fn, n_steps=5):
    state = optimizer.initialise(params)
    step_fn = jax.jit(partial(OptaxOptimizer._step, optimizer, loss_fn=loss_fn))
    for step in range(n_steps):
        state, loss = step_fn(state)
    return state, loss


if __name__ == "__main__":
    target = jnp.array([0.2, 0.3, 0.5])
    loss_fn = lambda w: jnp.sum((jax.nn.softmax(w) - target) ** 2)
    state, loss = _optimise(OptaxOptimizer(), jnp.zeros(3), loss_fn)
    print(loss, state.step)
