# source: https://github.com/google/init2winit/commit/e2e6bf162b682b002bbec674c10db9248d905ce3
# category: R
# expect: ok
# via: method, partial-jit, jit-call, optax, host-loop
# sink: fresh-callable
"""The trainer's per-step `update` method wraps the module-level `update` in a new
`functools.partial` and jits it on every step; each partial is a new callable, so jit traces
and compiles the step again each time. The fix builds the jitted partial once and keeps it on
the trainer."""
import functools

import jax
import jax.numpy as jnp
import optax


def update(optimizer_state, params, batch_stats, metrics_state, batch, step, lr, rng,
           running_train_cost, training_cost, grad_clip, optimizer_update_fn, metrics_update_fn):
    rng = jax.random.fold_in(rng, step)
    cost, grad = jax.value_and_grad(training_cost)(params, batch, rng)
    if grad_clip:
        grad = optax.clip_by_global_norm(grad_clip).update(grad, None)[0]
    updates, new_optimizer_state = optimizer_update_fn(grad, optimizer_state, params=params, lr=lr)
    new_params = optax.apply_updates(params, updates)
    new_metrics_state = metrics_update_fn(metrics_state, cost)
    return new_optimizer_state, new_params, batch_stats, new_metrics_state, running_train_cost + cost


class Model:
    def training_cost(self, params, batch, rng):
        x, y = batch
        return jnp.mean((x @ params["w"] - y) ** 2)


class Trainer:
    def __init__(self):
        self._update_jitted = None
        self._optimizer = optax.sgd(0.1)
        self._optimizer_update_fn = lambda g, s, params, lr: self._optimizer.update(g, s, params)
        self._metrics_update_fn = lambda m, cost: m + cost

    def update(self, model, hps, optimizer_state, params, batch_stats, metrics_state, batch,
               global_step, rng, running_train_cost):
        if not self._update_jitted:
            update_fn = functools.partial(
                update,
                training_cost=model.training_cost,
                grad_clip=hps.get('grad_clip'),
                optimizer_update_fn=self._optimizer_update_fn,
                metrics_update_fn=self._metrics_update_fn,
            )
            self._update_jitted = jax.jit(update_fn, donate_argnums=(0, 1, 2))
        lr = jnp.float32(0.1)
        return self._update_jitted(optimizer_state, params, batch_stats, metrics_state, batch,
                             global_step, lr, rng, running_train_cost)


if __name__ == "__main__":
    model, trainer, hps = Model(), Trainer(), {"grad_clip": 1.0}
    params = {"w": jnp.zeros((3, 1))}
    optimizer_state = trainer._optimizer.init(params)
    batch_stats, metrics_state, cost = {}, jnp.float32(0.0), jnp.float32(0.0)
    x = jax.random.normal(jax.random.PRNGKey(0), (8, 3))
    batch = (x, x @ jnp.ones((3, 1)))
    for step in range(4):
        optimizer_state, params, batch_stats, metrics_state, cost = trainer.update(
            model, hps, optimizer_state, params, batch_stats, metrics_state, batch,
            step, jax.random.PRNGKey(1), cost)
    print(params["w"].ravel(), cost)
