# source: https://github.com/google-deepmind/optax/issues/412
# category: A
# expect: ok
# via: optax, jit-call
# sink: python-if
"""The workaround given in the issue: `min_dim_size_to_factor` is named in `static_args` of
`inject_hyperparams`, so it stays a Python int and adafactor's `init` and `update` can be jitted."""
import jax
import jax.numpy as jnp
import optax


def make_optimizer():
    return optax.inject_hyperparams(optax.adafactor, static_args=("min_dim_size_to_factor",))(learning_rate=0.1)


if __name__ == "__main__":
    params = {"w": jnp.zeros((200, 300)), "b": jnp.zeros((300,))}
    tx = make_optimizer()
    opt_state = jax.jit(tx.init)(params)
    grads = jax.tree.map(jnp.ones_like, params)
    updates, opt_state = jax.jit(tx.update)(grads, opt_state, params)
    print(optax.apply_updates(params, updates)["w"].mean())
