# source: https://github.com/jax-md/jax-md/commit/8bbe142d8e57f7106030a9adc29dee30cd69d783
# category: A
# expect: ok
# via: method, pytree-class, dataclass, vmap, jit-call
# sink: python-if
"""The diagonal check of the 3d moment of inertia moved into `get_moment_of_inertia_diagonal`, which
runs it in a `try` and skips it (with a log message) on `jax.errors.ConcretizationTypeError`, so
`mass()` can be traced with the shape as a jit argument."""
import dataclasses
import logging

import jax
import jax.numpy as jnp
from jax import vmap


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class RigidBody:
    center: jax.Array
    orientation: jax.Array


def get_moment_of_inertia_diagonal(I, eps=1e-5):
    """Raises a ValueError if the moment of inertia tensor is not diagonal."""
    I_diag = vmap(jnp.diag)(I)
    try:
        if jnp.any(jnp.abs(I - vmap(jnp.diag)(I_diag)) > eps):
            max_dev = jnp.max(jnp.abs(I - vmap(jnp.diag)(I_diag)))
            raise ValueError(f"Expected diagonal moment of inertia. Maximum deviation: {max_dev}. Tolerance: {eps}.")
    except jax.errors.ConcretizationTypeError:
        logging.info("Skipping moment of inertia diagonalization check inside of JIT.")
    return I_diag


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class RigidPointUnion:
    points: jax.Array
    masses: jax.Array

    def moment_of_inertia(self, point_radius=0.5):
        I_sphere = 2 * point_radius**2 / 5

        @vmap
        def per_particle(point, mass):
            Id = jnp.eye(3, dtype=point.dtype)
            diagonal = jnp.sum(point**2) * Id
            off_diagonal = point[:, None] * point[None, :]
            return mass * ((diagonal - off_diagonal) + Id * I_sphere)

        return jnp.sum(per_particle(self.points, self.masses), axis=0)[None]

    def mass(self):
        # In three-dimensions, we grab the diagonal of the moment of inertia
        # assuming (and checking) that it is properly diagonalized.
        I_diag = get_moment_of_inertia_diagonal(self.moment_of_inertia())
        return RigidBody(jnp.sum(self.masses)[None], I_diag)


def kinetic_energy(shape, momentum):
    m = shape.mass()
    return 0.5 * jnp.sum(momentum.center**2 / m.center[:, None]) + 0.5 * jnp.sum(momentum.orientation**2 / m.orientation)


if __name__ == "__main__":
    shape = RigidPointUnion(
        points=jnp.array([[1.0, 0, 0], [-1.0, 0, 0], [0, 1.0, 0], [0, -1.0, 0]]),
        masses=jnp.ones(4),
    )
    momentum = RigidBody(jnp.ones((1, 3)), jnp.ones((1, 3)))
    print(kinetic_energy(shape, momentum))
    print(jax.jit(kinetic_energy)(shape, momentum))
