# source: https://github.com/google-deepmind/optax/issues/412
# category: A
# expect: raises
# via: optax, jit-call
# sink: python-if
"""`optax.inject_hyperparams(optax.adafactor)` turns every numeric argument of adafactor into a
traced hyperparameter, including `min_dim_size_to_factor`, which adafactor compares in Python to
decide how to factor each parameter; jitting the optimizer's `init` then fails."""
import jax
import jax.numpy as jnp
import optax


def make_optimizer():
    return optax.inject_hyperparams(optax.adafactor)(learning_rate=0.1)


if __name__ == "__main__":
    params = {"w": jnp.zeros((200, 300)), "b": jnp.zeros((300,))}
    tx = make_optimizer()
    opt_state = jax.jit(tx.init)(params)  # <-- bug
    grads = jax.tree.map(jnp.ones_like, params)
    updates, opt_state = jax.jit(tx.update)(grads, opt_state, params)
    print(optax.apply_updates(params, updates)["w"].mean())
