# source: https://github.com/pyro-ppl/numpyro/pull/1985
# category: C
# expect: leaks
# via: factory-closure, jit-call, lax-fori, namedtuple, host-loop
# sink: global-write
"""With `potential_fn_gen`, the HMC kernel rebuilt the integrator from the (traced) model arguments
inside the jitted sample kernel and stored it in the enclosing factory with `nonlocal vv_update`;
the closure cell then kept functions closed over tracers of that trace (a tracer leak)."""
from collections import namedtuple

import jax
import jax.numpy as jnp
from jax import lax

IntegratorState = namedtuple("IntegratorState", ["z", "r", "potential_energy", "z_grad"])


def velocity_verlet(potential_fn, kinetic_fn):
    def init_fn(z, r):
        pe, z_grad = jax.value_and_grad(potential_fn)(z)
        return IntegratorState(z, r, pe, z_grad)

    def update_fn(step_size, inverse_mass_matrix, state):
        z, r, _, z_grad = state
        r = r - 0.5 * step_size * z_grad
        z = z + step_size * jax.grad(kinetic_fn, argnums=1)(inverse_mass_matrix, r)
        pe, z_grad = jax.value_and_grad(potential_fn)(z)
        r = r - 0.5 * step_size * z_grad
        return IntegratorState(z, r, pe, z_grad)

    return init_fn, update_fn


def euclidean_kinetic_energy(inverse_mass_matrix, r):
    return 0.5 * jnp.dot(inverse_mass_matrix * r, r)


def hmc(potential_fn=None, potential_fn_gen=None, kinetic_fn=euclidean_kinetic_energy, num_steps=5):
    vv_update = None

    def _hmc_next(step_size, inverse_mass_matrix, vv_state, model_args, model_kwargs):
        if potential_fn_gen:
            nonlocal vv_update
            pe_fn = potential_fn_gen(*model_args, **model_kwargs)
            _, vv_update = velocity_verlet(pe_fn, kinetic_fn)  # <-- bug

        return lax.fori_loop(0, num_steps, lambda i, val: vv_update(step_size, inverse_mass_matrix, val), vv_state)

    def sample_kernel(vv_state, model_args=(), model_kwargs=None):
        model_kwargs = {} if model_kwargs is None else model_kwargs
        return _hmc_next(0.05, jnp.ones(2), vv_state, model_args, model_kwargs)

    return sample_kernel


def potential_fn_gen(data):
    return lambda z: 0.5 * jnp.sum((z - data) ** 2)


if __name__ == "__main__":
    sample_kernel = jax.jit(hmc(potential_fn_gen=potential_fn_gen))
    data = jnp.array([1.0, -1.0])
    vv_init, _ = velocity_verlet(potential_fn_gen(data), euclidean_kinetic_energy)
    state = vv_init(jnp.zeros(2), jnp.array([0.3, 0.1]))
    for _ in range(3):
        state = sample_kernel(state, (data,))
    print(state.z, state.potential_energy)
