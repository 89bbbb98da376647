# source: https://github.com/patrick-kidger/equinox/issues/940
# category: R
# expect: recompiles
# via: equinox, optax, jit-decorator, host-loop
# sink: fresh-callable
"""The training `step` is an `eqx.filter_jit` function that takes the Optax optimiser as an
argument.  The optimiser's `init`/`update` are closures, static to `filter_jit` and compared by
identity, so a second `optax.adam(1e-3)` built with the same hyperparameters retraces `step`.
Building the optimiser once and reusing it keeps one trace."""
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class Simple(eqx.Module):
    layer: eqx.nn.Linear

    def __init__(self, key):
        self.layer = eqx.nn.Linear(10, 1, key=key)

    def __call__(self, x):
        return self.layer(x)


def loss_fn(model, x, y):
    y_pred = jax.vmap(model)(x)
    return jnp.mean((y - y_pred) ** 2)


loss_grad = eqx.filter_value_and_grad(loss_fn)


@eqx.filter_jit
def step(model, opt_state, x, y, optim):
    loss, grads = loss_grad(model, x, y)
    updates, opt_state = optim.update(grads, opt_state, model)
    return eqx.apply_updates(model, updates), opt_state, loss


def make_optimizer():
    return optax.adam(1e-3)


def train(model, x, y, steps=2):
    optim = make_optimizer()
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    for _ in range(steps):
        model, opt_state, loss = step(model, opt_state, x, y, optim)  # <-- bug
    return model, loss


if __name__ == "__main__":
    key1, key2 = jax.random.split(jax.random.PRNGKey(0))
    model = Simple(key1)
    x = jax.random.normal(key2, (8, 10))
    y = jnp.sum(x, axis=1, keepdims=True)
    model, loss1 = train(model, x, y)
    model, loss2 = train(model, x, y)
    print(float(loss1), float(loss2))
