# source: https://github.com/google-deepmind/optax/pull/1108
# category: R
# expect: ok
# via: jit-decorator, optax, host-loop
# sink: weak-type
"""The reporter jitted an L-BFGS training step with optax's zoom linesearch and saw it compile
twice: the linesearch state that `init` returns holds weakly typed scalars (the step count and
the decrease and curvature errors), the state that `update` returns holds strong ones, so the
second call sees new input types.  The pull request builds the initial state with the types the
update produces (here the caller gives the state from `init` those strong types)."""
import jax
import jax.numpy as jnp
import optax

key = jax.random.PRNGKey(42)
x = jax.random.normal(key, (16, 2))
y = jnp.sum(x * 0.5, axis=-1)
optimizer = optax.lbfgs()


def loss_fn(params):
    y_pred = (params @ x.T).T
    return jnp.mean(optax.l2_loss(y_pred, y))


@jax.jit
def training_step(params, state):
    loss, grad = jax.value_and_grad(loss_fn)(params)
    updates, state = optimizer.update(grad, state, params, value=loss, grad=grad, value_fn=loss_fn)
    return optax.apply_updates(params, updates), state, loss


if __name__ == "__main__":
    params = jnp.zeros(2)
    state = optimizer.init(params)
    state = jax.tree.map(lambda s: jnp.asarray(s, dtype=jnp.asarray(s).dtype), state)
    for i in range(5):
        params, state, loss = training_step(params, state)
    print(params, loss)
