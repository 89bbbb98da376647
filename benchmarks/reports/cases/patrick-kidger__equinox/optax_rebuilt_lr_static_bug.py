# source: https://github.com/patrick-kidger/equinox/blob/9336d820b2ef66b360fc6cb3611b3da5cefbb14d/tests/test_closure_to_pytree.py#L10
# category: R
# expect: recompiles
# via: equinox, optax, jit-decorator, host-loop
# sink: fresh-callable
"""Equinox's closure_to_pytree test: an Optax optimiser is a tuple of plain closures, so passing
one into eqx.filter_jit makes it static data compared by identity.  Rebuilding the optimiser
with a new learning rate (even a JAX-array one) therefore compiles the step again; converting
it with eqxi.closure_to_pytree turns the closed-over learning rate into a traced leaf."""
import equinox as eqx
import equinox.internal as eqxi
import jax.numpy as jnp
import optax


@eqx.filter_jit
def make_step(params, opt_state, optim, x):
    grads = {"foo": 2 * (params["foo"] - x)}
    updates, opt_state = optim.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state


if __name__ == "__main__":
    params = {"foo": jnp.ones((), jnp.float32)}
    opt_state = optax.adam(1e-3).init(params)
    for epoch in range(3):
        lr = jnp.array(1e-3 / (epoch + 1), jnp.float32)
        optim = optax.adam(lr)
        params, opt_state = make_step(params, opt_state, optim, jnp.array(3.0))  # <-- bug
        print(epoch, params["foo"])
