# source: https://github.com/google/init2winit/commit/367707343b118564f6a86b651d37bc79e8a3d9a1
# category: A
# expect: ok
# via: method, jit-call, static-argnums, optax, grad, lax-cond, host-loop
# sink: python-if
"""The optax training algorithm jits its parameter-update helper with only the cost and update
functions marked static; once a run sets `opt_hparams.grad_clip`, the helper's `if grad_clip:`
sees a traced float and fails with a tracer boolean conversion error. The fix adds
`grad_clip` to `static_argnames`."""
import jax
import jax.numpy as jnp
import optax

_GRAD_CLIP_EPS = 1e-6


def optax_update_params_helper(params, model_state, optimizer_state, optimizer_update_fn, batch,
                               lr, rng, grad_clip, training_cost_fn):
    def opt_cost(params):
        return training_cost_fn(params, batch=batch, batch_stats=model_state, dropout_rng=rng)

    cost_value, grad = jax.value_and_grad(opt_cost)(params)
    grad_norm = optax.global_norm(grad)
    if grad_clip:
        scaled_grad = jax.tree.map(lambda x: x / (grad_norm + _GRAD_CLIP_EPS) * grad_clip, grad)
        grad = jax.lax.cond(grad_norm > grad_clip, lambda _: scaled_grad, lambda _: grad, None)
    model_updates, new_optimizer_state = optimizer_update_fn(grad, optimizer_state, params=params)
    model_updates = jax.tree.map(lambda u: lr * u, model_updates)
    new_params = optax.apply_updates(params, model_updates)
    return new_optimizer_state, new_params, model_state, cost_value, grad_norm


def training_cost_fn(params, batch, batch_stats, dropout_rng):
    x, y = batch
    return jnp.mean((x @ params["w"] - y) ** 2)


class OptaxTrainingAlgorithm:
    def __init__(self, hps):
        self.hps = hps
        self._optimizer = optax.sgd(1.0)
        self._update_fn = self._optimizer.update
        self.training_cost_fn = training_cost_fn

    def update_params(self, params, model_state, optimizer_state, batch, global_step, rng):
        grad_clip = self.hps["opt_hparams"].get("grad_clip", None)
        lr = jnp.float32(0.1 / (1 + global_step))
        jitted_update_fn = jax.jit(
            optax_update_params_helper,
            static_argnames=(
                'training_cost_fn',
                'optimizer_update_fn',
                'grad_clip',
            ),
            donate_argnums=(0, 1, 2),
        )
        return jitted_update_fn(params, model_state, optimizer_state, self._update_fn, batch, lr,
                                rng, grad_clip, self.training_cost_fn)


if __name__ == "__main__":
    algo = OptaxTrainingAlgorithm({"opt_hparams": {"grad_clip": 1.0}})
    params = {"w": jnp.zeros((3, 1))}
    optimizer_state = algo._optimizer.init(params)
    x = jax.random.normal(jax.random.PRNGKey(0), (8, 3))
    batch, model_state = (x, x @ jnp.ones((3, 1))), {}
    for step in range(3):
        optimizer_state, params, model_state, cost, grad_norm = algo.update_params(
            params, model_state, optimizer_state, batch, step, jax.random.PRNGKey(step))
    print(params["w"].ravel(), cost)
