# source: https://github.com/world-modelz/dreamax/issues/14
# category: C
# expect: ok
# via: method, static-argnums, partial-jit, haiku, optax, host-loop
# sink: attribute-write
"""Dreamer's jitted `update` takes the learning state (parameters and optimizer state) as
arguments and returns the new state, and the training loop assigns it back to the agent outside
the trace, so copying `train_agent.params` to the CPU sees concrete arrays."""
import functools

import haiku as hk
import jax
import jax.numpy as jnp
import optax


class Dreamer:
    def __init__(self, model: hk.Transformed, seed: int = 0):
        self.model = model
        self.rng_seq = hk.PRNGSequence(seed)
        self.params = {}
        self.opt_state = {}
        self.params['model'] = self.model.init(next(self.rng_seq), jnp.zeros((1, 4)))
        self.model_optimizer = optax.chain(optax.clip_by_global_norm(100.0), optax.scale_by_adam(),
                                           optax.scale(-1e-3))
        self.opt_state['model'] = self.model_optimizer.init(self.params['model'])

    @property
    def learning_state(self):
        return self.params['model'], self.opt_state['model']

    @learning_state.setter
    def learning_state(self, state):
        self.params['model'], self.opt_state['model'] = state

    def grad_step(self, grads, optimizer, params, opt_state):
        updates, new_opt_state = optimizer.update(grads, opt_state)
        return optax.apply_updates(params, updates), new_opt_state

    @functools.partial(jax.jit, static_argnums=0)
    def update(self, batch, model_state, key):
        key, subkey = jax.random.split(key)
        model_state, model_report = self.update_model(batch, model_state, subkey)
        return model_state, model_report

    def update_model(self, batch, state, key):
        params, opt_state = state

        def loss(params):
            pred = self.model.apply(params, key, batch['obs'])
            loss_ = jnp.mean((pred - batch['reward']) ** 2)
            return loss_, {'world_model/loss': loss_}

        grads, metrics = jax.grad(loss, has_aux=True)(params)
        metrics['world_model/grads'] = optax.global_norm(grads)
        new_state = self.grad_step(grads, self.model_optimizer, params, opt_state)
        return new_state, metrics


if __name__ == "__main__":
    model = hk.transform(lambda x: hk.Linear(1)(x))
    train_agent = Dreamer(model)
    batch = {'obs': jnp.ones((8, 4)), 'reward': jnp.ones((8, 1))}
    for _ in range(2):
        train_agent.learning_state, reports = train_agent.update(
            batch, train_agent.learning_state, next(train_agent.rng_seq))
        print({k: round(float(v), 3) for k, v in sorted(reports.items())})
    master_params = jax.tree_util.tree_map(
        lambda x: jax.device_put(x, device=jax.devices('cpu')[0]), train_agent.params)
    print(jax.tree_util.tree_map(jnp.shape, master_params))
