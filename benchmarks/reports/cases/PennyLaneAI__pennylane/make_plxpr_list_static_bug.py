# source: https://github.com/PennyLaneAI/pennylane/blob/49317a765be23e5a87f0452705f1d9d562289e6c/tests/capture/test_make_plxpr.py
# category: B
# expect: raises
# via: static-argnums, wrapper, other-module
# sink: static-unhashable
"""PennyLane's make_plxpr test: a circuit loops over the angles in its first argument, so that
argument is marked static for `make_plxpr` (which hands static_argnums to jax.make_jaxpr); the
angles are passed as a list, which cannot be hashed as a static argument."""
import jax
import jax.numpy as jnp


def make_plxpr(func, static_argnums=None, **kwargs):
    return jax.make_jaxpr(func, static_argnums=static_argnums, **kwargs)


def RX(theta, state):
    c, s = jnp.cos(theta / 2), jnp.sin(theta / 2)
    return jnp.array([[c, -1j * s], [-1j * s, c]]) @ state


def RY(theta, state):
    c, s = jnp.cos(theta / 2), jnp.sin(theta / 2)
    return jnp.array([[c, -s], [s, c]]) @ state


def f(x, y):
    state = jnp.array([1.0 + 0j, 0.0])
    for angle in x:
        state = RX(angle, state)
    state = RY(y, state)
    return jnp.real(2 * jnp.conj(state[0]) * state[1])


if __name__ == "__main__":
    plxpr_fn = make_plxpr(f, static_argnums=0)
    plxpr = plxpr_fn([0.1, 0.2, 0.3], 0.1967)  # <-- bug
    print(jax.core.eval_jaxpr(plxpr.jaxpr, plxpr.consts, 0.1967))
