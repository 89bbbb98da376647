# source: https://github.com/phlippe/jax_trainer/pull/3
# category: R
# expect: ok
# via: method, factory-closure, jit-call, flax-linen, optax, dataclass, host-loop
# sink: changing-static
"""The trainer freezes the model's initial variables, so the train state starts with its batch
statistics in a `FrozenDict`, but `model.apply(..., mutable=...)` hands the updated statistics
back as a plain dict that the jitted `train_step` stores in the new state; the state's pytree
structure changes after the first step and `train_step` compiles a second time.  The fix
freezes `mutable_vars` inside the step ("Fixing double compilation")."""
from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.core import FrozenDict, freeze
from flax.training import train_state


class TrainState(train_state.TrainState):
    mutable_variables: Any = None
    rng: Any = None


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x, train=True):
        x = nn.Dense(16)(x)
        x = nn.BatchNorm(use_running_average=not train)(x)
        return nn.Dense(1)(nn.relu(x))


class Trainer:
    def __init__(self, exmp_input):
        self.model = MLP()
        variables = self.model.init({"params": jax.random.PRNGKey(0)}, exmp_input, train=True)
        if not isinstance(variables, FrozenDict):
            variables = freeze(variables)
        self.state = TrainState.create(
            apply_fn=self.model.apply, params=variables["params"], tx=optax.adam(1e-2),
            mutable_variables=variables.pop("params")[0], rng=jax.random.PRNGKey(1))
        self.train_step = jax.jit(self.create_training_function())

    def loss_function(self, params, state, batch):
        x, y = batch
        out, mutable_vars = state.apply_fn({"params": params, **state.mutable_variables}, x,
                                           train=True, mutable=["batch_stats"])
        return jnp.mean((out[:, 0] - y) ** 2), mutable_vars

    def create_training_function(self):
        def train_step(state, batch):
            next_rng, _ = jax.random.split(state.rng)
            (loss, mutable_vars), grads = jax.value_and_grad(
                lambda p: self.loss_function(p, state, batch), has_aux=True)(state.params)
            mutable_vars = freeze(mutable_vars)
            state = state.apply_gradients(grads=grads, mutable_variables=mutable_vars, rng=next_rng)
            return state, {"loss": loss}

        return train_step

    def train_epoch(self, batches):
        for batch in batches:
            self.state, metrics = self.train_step(self.state, batch)
            print(int(self.state.step), float(metrics["loss"]))


if __name__ == "__main__":
    xs = jax.random.normal(jax.random.PRNGKey(2), (4, 8, 3))
    batches = [(x, jnp.sum(x, axis=-1)) for x in xs]
    trainer = Trainer(batches[0][0])
    trainer.train_epoch(batches)
