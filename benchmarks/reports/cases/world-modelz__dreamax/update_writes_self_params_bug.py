# source: https://github.com/world-modelz/dreamax/issues/14
# category: C
# expect: raises
# via: method, static-argnums, partial-jit, haiku, optax, host-loop
# sink: attribute-write
"""Dreamer's `update` is jitted with `self` static, and `update_model` stores the new parameters
and optimizer state back into `self.params` / `self.opt_state` inside the trace.  The agent then
holds tracers, and copying `train_agent.params` to the CPU after training fails with an
UnexpectedTracerError."""
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

    def grad_step(self, grads, optimizer, params, opt_state):
        updates, new_opt_state = optimizer.update(grads, opt_state)
        return optax.apply_updates(params, updates), new_opt_state

    @functools.partial(jax.jit, static_argnums=0)
    def update(self, batch, key):
        key, subkey = jax.random.split(key)
        model_report = self.update_model(batch, subkey)
        return model_report

    def update_model(self, batch, key):
        def loss(params):
            pred = self.model.apply(params, key, batch['obs'])
            loss_ = jnp.mean((pred - batch['reward']) ** 2)
            return loss_, {'world_model/loss': loss_}

        grads, metrics = jax.grad(loss, has_aux=True)(self.params['model'])
        metrics['world_model/grads'] = optax.global_norm(grads)
        self.params['model'], self.opt_state['model'] = self.grad_step(  # <-- bug
            grads, self.model_optimizer, self.params['model'], self.opt_state['model'])
        return metrics


if __name__ == "__main__":
    model = hk.transform(lambda x: hk.Linear(1)(x))
    train_agent = Dreamer(model)
    batch = {'obs': jnp.ones((8, 4)), 'reward': jnp.ones((8, 1))}
    for _ in range(2):
        reports = train_agent.update(batch, next(train_agent.rng_seq))
        print({k: round(float(v), 3) for k, v in sorted(reports.items())})
    master_params = jax.tree_util.tree_map(  # <-- bug
        lambda x: jax.device_put(x, device=jax.devices('cpu')[0]), train_agent.params)
    print(jax.tree_util.tree_map(jnp.shape, master_params))
