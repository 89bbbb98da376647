# source: https://github.com/google-deepmind/optax/pull/1693
# category: R
# expect: recompiles
# via: partial-jit, static-argnums, optax, host-loop
# sink: fresh-callable
"""A `GradientTransformation` passed to `jax.jit` as a static argument hashes by the identity of
its `init`/`update` closures, so every call of `optax.adam(1e-3)` gives a new static value and
the jitted step compiles again even though the configuration is the same.  The fix memoizes the
optimizer factory so identical arguments return the identical transformation."""
from functools import partial

import jax
import jax.numpy as jnp
import optax

adam = optax.adam


@partial(jax.jit, static_argnames=("optimizer",))
def train_step(optimizer, params, opt_state, x):
    grads = jax.grad(lambda p: jnp.sum((p["w"] * x) ** 2))(params)
    updates, opt_state = optimizer.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state


def run_epoch(params, learning_rate=1e-3, steps=2):
    optimizer = adam(learning_rate)
    opt_state = optimizer.init(params)
    x = jnp.linspace(0.0, 1.0, 4)
    for _ in range(steps):
        params, opt_state = train_step(optimizer, params, opt_state, x)  # <-- bug
    return params


if __name__ == "__main__":
    params = {"w": jnp.ones(4)}
    for epoch in range(3):
        params = run_epoch(params)
        print(epoch, params["w"])
