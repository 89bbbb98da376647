# source: https://github.com/NVIDIA/TransformerEngine/pull/785
# category: B
# expect: raises
# via: partial-jit, static-argnums, flax-linen, optax, host-loop
# sink: static-spec
"""The MNIST example decorated its two-argument `update_model(state, grads)` with
`partial(jax.jit, static_argnums=2)`, an index past its last parameter; newer JAX refuses the
spec when the decorator is applied, so the example fails before training starts."""
from functools import partial

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state

PARAMS_KEY = "params"


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(16)(x)
        x = nn.relu(x)
        return nn.Dense(4)(x)


@jax.jit
def apply_model(state, images, labels, var_collect):
    def loss_fn(var_collect):
        logits = state.apply_fn(var_collect, images)
        one_hot = jax.nn.one_hot(labels, 4)
        return jnp.mean(optax.softmax_cross_entropy(logits=logits, labels=one_hot))

    var_collect = {**var_collect, PARAMS_KEY: state.params}
    loss, grads = jax.value_and_grad(loss_fn)(var_collect)
    return grads, loss


@partial(jax.jit, static_argnums=2)  # <-- bug
def update_model(state, grads):
    state = state.apply_gradients(grads=grads[PARAMS_KEY])
    return state, grads


if __name__ == "__main__":
    rng = jax.random.PRNGKey(0)
    images = jax.random.normal(rng, (8, 12))
    labels = jnp.arange(8) % 4
    var_collect = Net().init(rng, images)
    state = train_state.TrainState.create(
        apply_fn=Net().apply, params=var_collect[PARAMS_KEY], tx=optax.sgd(0.1)
    )
    for step in range(3):
        grads, loss = apply_model(state, images, labels, var_collect)
        state, grads = update_model(state, grads)
        print(step, float(loss))
