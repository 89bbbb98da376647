# source: https://github.com/ermongroup/BCD-Nets/issues/1
# category: B
# expect: raises
# via: pmap, partial-jit, static-argnums, grad, optax
# sink: static-array
"""BCD-Nets' training step is pmapped with the observed data `Xs` (a NumPy array) listed in
`static_broadcasted_argnums`; JAX requires static arguments to be hashable, so the first call of
`parallel_gradient_step` in the training loop fails."""
from functools import partial

import jax
import jax.numpy as jnp
import jax.random as rnd
import numpy as onp
import optax
from jax import lax, pmap, value_and_grad

num_devices = jax.local_device_count()
opt_P = optax.adam(1e-3)
opt_L = optax.adam(1e-3)


def elbo(P_params, L_params, Xs, rng_key, tau):
    noise = rnd.normal(rng_key, P_params.shape) * 0.01
    W = jnp.tanh((P_params + noise) / tau) * L_params
    resid = Xs - Xs @ W
    return -jnp.mean(resid ** 2)


@partial(
    pmap,
    axis_name="i",
    in_axes=(0, 0, None, 0, 0, 0, None),
    static_broadcasted_argnums=(2),
)
def parallel_gradient_step(P_params, L_params, Xs, P_opt_state, L_opt_state, rng_key, tau):
    rng_key, rng_key_2 = rnd.split(rng_key, 2)
    grads = jax.grad(elbo, argnums=(0, 1))(P_params, L_params, Xs, rng_key, tau)
    elbo_grad_P, elbo_grad_L = jax.tree_util.tree_map(lambda x: -x / tau, grads)
    elbo_grad_P = lax.pmean(elbo_grad_P, axis_name="i")
    elbo_grad_L = lax.pmean(elbo_grad_L, axis_name="i")
    P_updates, P_opt_state = opt_P.update(elbo_grad_P, P_opt_state, P_params)
    P_params = optax.apply_updates(P_params, P_updates)
    L_updates, L_opt_state = opt_L.update(elbo_grad_L, L_opt_state, L_params)
    L_params = optax.apply_updates(L_params, L_updates)
    return P_params, L_params, P_opt_state, L_opt_state, rng_key_2


if __name__ == "__main__":
    dim = 4
    Xs = onp.random.RandomState(0).normal(size=(50, dim)).astype(onp.float32)
    rep = lambda x: jnp.broadcast_to(x, (num_devices,) + jnp.shape(x))
    P_params = rep(jnp.zeros((dim, dim)))
    L_params = rep(jnp.full((dim, dim), 0.1))
    P_opt_state = jax.tree_util.tree_map(rep, opt_P.init(P_params[0]))
    L_opt_state = jax.tree_util.tree_map(rep, opt_L.init(L_params[0]))
    rng_key = rnd.split(rnd.PRNGKey(0), num_devices)
    for i in range(3):
        P_params, L_params, P_opt_state, L_opt_state, rng_key = parallel_gradient_step(  # <-- bug
            P_params, L_params, Xs, P_opt_state, L_opt_state, rng_key, 1.0
        )
    print(jnp.round(L_params[0], 4))
