# source: https://jugheadjones10.github.io/kim-young-jin/ml/leaked_batch_tracer.html
# category: C
# expect: ok
# via: vmap, factory-closure, optax, flax-linen, pytree-class
# sink: leaked-tracer
"""The learning-rate sweep returns only arrays out of `jax.vmap` (the trained parameters and the
losses), so the schedule that closes over the batched learning rate stays inside the trace."""
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax
from flax.training.train_state import TrainState


class ActorCritic(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.tanh(nn.Dense(8)(x)))


def make_train(num_updates):
    network = ActorCritic()

    def train(lr):
        def linear_schedule(count):
            frac = 1.0 - count / num_updates
            return lr * frac

        params = network.init(jax.random.PRNGKey(0), jnp.zeros((4,)))
        tx = optax.chain(optax.clip_by_global_norm(0.5), optax.adam(learning_rate=linear_schedule))
        train_state = TrainState.create(apply_fn=network.apply, params=params, tx=tx)

        def _update_step(train_state, obs):
            def loss_fn(params):
                return jnp.mean(train_state.apply_fn(params, obs) ** 2)

            loss, grads = jax.value_and_grad(loss_fn)(train_state.params)
            return train_state.apply_gradients(grads=grads), loss

        obs = jnp.ones((num_updates, 3, 4))
        train_state, losses = jax.lax.scan(_update_step, train_state, obs)
        return {"params": train_state.params, "metrics": losses}

    return train


if __name__ == "__main__":
    lrs = jnp.array([1e-3, 5e-3, 1e-2])
    out = jax.vmap(make_train(5))(lrs)
    print("final losses per lr:", out["metrics"][:, -1])
