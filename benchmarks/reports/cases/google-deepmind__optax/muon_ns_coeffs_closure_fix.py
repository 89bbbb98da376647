# source: https://github.com/google-deepmind/optax/pull/1193
# category: C
# expect: ok
# via: optax, factory-closure, flax-linen, jit-call, namedtuple
# sink: leaked-tracer
"""`scale_by_muon` now converts its Newton-Schulz coefficients in `init` and keeps them in the
optimizer state, which `update` reads, so an optimizer built inside a jitted initialiser closes
over no array of that trace."""
from typing import NamedTuple

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class MuonState(NamedTuple):
    count: jax.Array
    mu: optax.Updates
    ns_coeffs: jax.Array


def orthogonalize_via_newton_schulz(x, ns_coeffs, ns_steps=5, eps=1e-8):
    x = x / (jnp.linalg.norm(x) + eps)
    for _ in range(ns_steps):
        a = x @ x.T
        x = ns_coeffs[0] * x + (ns_coeffs[1] * a + ns_coeffs[2] * a @ a) @ x
    return x


def scale_by_muon(ns_coeffs=(3.4445, -4.7750, 2.0315), ns_steps=5, beta=0.95, eps=1e-8):
    def init_fn(params):
        ns_coeffs_ = jnp.asarray(ns_coeffs)
        if ns_coeffs_.ndim > 2 or ns_coeffs_.shape[-1] != 3:
            raise ValueError(f"ns_coeffs must have shape (3,) or (n, 3), got {ns_coeffs_.shape}")
        return MuonState(count=jnp.zeros([], jnp.int32), mu=jax.tree.map(jnp.zeros_like, params), ns_coeffs=ns_coeffs_)

    def update_fn(updates, state, params=None):
        mu = jax.tree.map(lambda m, g: beta * m + (1 - beta) * g, state.mu, updates)
        updates = jax.tree.map(lambda x: orthogonalize_via_newton_schulz(x, state.ns_coeffs, ns_steps, eps), mu)
        return updates, MuonState(count=state.count + 1, mu=mu, ns_coeffs=state.ns_coeffs)

    return optax.GradientTransformation(init_fn, update_fn)


def create_train_state(key):
    params = {"w": jax.random.normal(key, (4, 4))}
    tx = optax.chain(scale_by_muon(), optax.scale(-0.02))
    return train_state.TrainState.create(apply_fn=None, params=params, tx=tx)


@jax.jit
def train_step(state, x):
    grads = jax.grad(lambda p: jnp.sum((x @ p["w"]) ** 2))(state.params)
    return state.apply_gradients(grads=grads)


if __name__ == "__main__":
    state = jax.jit(create_train_state)(jax.random.PRNGKey(0))
    state = train_step(state, jnp.ones((2, 4)))
    print(state.step, state.params["w"].sum())
