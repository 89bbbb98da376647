# source: https://github.com/brentyi/egoallo/issues/17
# category: A
# expect: ok
# via: pytree-class, dataclass, vmap, partial-jit, helper
# sink: shape-from-value
"""max_iters is declared a static field of the params dataclass, so it stays a Python int under
jit and sizes the solver's cost-history buffer."""
import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.tree_util.register_dataclass,
         data_fields=["prior_quat_weight", "skate_weight", "lambda_initial"],
         meta_fields=["hand_quats", "max_iters"])
@dataclasses.dataclass(frozen=True)
class JaxGuidanceParams:
    prior_quat_weight: float = 1.0
    skate_weight: float = 30.0
    lambda_initial: float = 0.1
    max_iters: int = 20
    hand_quats: bool = False


def _solve_lm(residual_fn, x0, lambda_initial, max_iters):
    history = jnp.zeros((max_iters,))

    def body(i, carry):
        x, hist = carry
        r = residual_fn(x)
        J = jax.jacfwd(residual_fn)(x)
        step = jnp.linalg.solve(J.T @ J + lambda_initial * jnp.eye(x.shape[0]), J.T @ r)
        return x - step, hist.at[i].set(jnp.sum(r ** 2))

    return jax.lax.fori_loop(0, max_iters, body, (x0, history))


def _optimize(body_quats, contacts, guidance_params):
    def residual(x):
        prior = guidance_params.prior_quat_weight * (x - body_quats)
        skate = guidance_params.skate_weight * contacts * jnp.diff(x, prepend=x[:1])
        return jnp.concatenate([prior, skate])

    x, history = _solve_lm(residual, body_quats, guidance_params.lambda_initial,
                           guidance_params.max_iters)
    return x, {"cost": history}


@jax.jit
def _optimize_vmapped(body_quats, contacts, guidance_params):
    return jax.vmap(partial(_optimize, guidance_params=guidance_params))(body_quats, contacts)


if __name__ == "__main__":
    body_quats = jnp.linspace(0.0, 1.0, 24).reshape(2, 12)
    contacts = (jnp.arange(24).reshape(2, 12) % 3 == 0).astype(jnp.float32)
    quats, debug_info = _optimize_vmapped(body_quats, contacts, JaxGuidanceParams(max_iters=5))
    print(quats.shape, debug_info["cost"][:, -1])
