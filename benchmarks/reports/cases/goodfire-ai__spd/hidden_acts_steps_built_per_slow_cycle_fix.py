# source: https://github.com/goodfire-ai/spd/pull/967
# category: R
# expect: ok
# via: equinox, helper, factory-closure, jit-call, host-loop
# sink: fresh-callable
"""`_make_lm_eval_fn` builds the CI and stochastic hidden-acts steps once, each an
`eqx.filter_jit` object, and `compute_hidden_acts_metrics` takes the prebuilt steps, so every
slow evaluation cycle reuses the compiled masked-forward steps.
(The decomposed language model is reduced to a two-layer Equinox MLP with component masks.)"""
import equinox as eqx
import jax
import jax.numpy as jnp


class ComponentModel(eqx.Module):
    w1: jax.Array
    w2: jax.Array

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.w1 = jax.random.normal(k1, (8, 16)) * 0.3
        self.w2 = jax.random.normal(k2, (16, 8)) * 0.3

    def hidden(self, x, mask):
        return jax.nn.relu(x @ self.w1) * mask


def make_ci_hidden_acts_step():
    @eqx.filter_jit
    def step(model, batch, ci):
        return jnp.mean(model.hidden(batch, ci > 0.5) ** 2)

    return step


def make_stochastic_hidden_acts_step(n_mask_samples):
    @eqx.filter_jit
    def step(model, batch, ci, key):
        keys = jax.random.split(key, n_mask_samples)
        masks = jax.vmap(lambda k: jax.random.uniform(k, ci.shape) < ci)(keys)
        return jnp.mean(jax.vmap(lambda m: jnp.mean(model.hidden(batch, m) ** 2))(masks))

    return step


def compute_hidden_acts_metrics(model, batch, ci, key, ci_step, stochastic_step):
    ci_act = ci_step(model, batch, ci)
    stochastic_act = stochastic_step(model, batch, ci, key)
    return {"hidden_acts/ci": float(ci_act), "hidden_acts/stochastic": float(stochastic_act)}


def _make_lm_eval_fn(n_mask_samples):
    ci_step = make_ci_hidden_acts_step()
    stochastic_step = make_stochastic_hidden_acts_step(n_mask_samples)

    def eval_fn(model, batch, ci, key):
        return compute_hidden_acts_metrics(model, batch, ci, key, ci_step, stochastic_step)

    return eval_fn


@eqx.filter_jit
def train_step(model, batch, lr):
    loss, grads = eqx.filter_value_and_grad(lambda m: jnp.mean((m.hidden(batch, 1.0) @ m.w2 - batch) ** 2))(model)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, model, grads), loss


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    model = ComponentModel(key)
    ci = jax.random.uniform(jax.random.PRNGKey(1), (16,))
    slow_every = 3
    eval_fn = _make_lm_eval_fn(4)
    for step_idx in range(9):
        batch = jax.random.normal(jax.random.fold_in(key, step_idx), (4, 8))
        model, loss = train_step(model, batch, 0.05)
        if step_idx % slow_every == 0:
            metrics = eval_fn(model, batch, ci, jax.random.fold_in(key, 100 + step_idx))
            print(step_idx, round(float(loss), 4), {k: round(v, 4) for k, v in metrics.items()})
