# source: https://github.com/jax-md/jax-md/commit/9b03d7ed1992df4e57109558c3f36f65ff118866
# category: A
# expect: raises
# via: jit-call, method, dataclass, pytree-class, vmap
# sink: shape-from-value
"""RigidBodyShape summed per-point values into shapes with `jnp.repeat(jnp.arange(n), point_count)`;
when the shape is passed into a jitted function its `point_count` field is traced, and repeat
needs concrete counts to size its output."""
from typing import Optional

import jax
import jax.numpy as jnp
from flax import struct
from jax import ops, vmap


@struct.dataclass
class RigidBody:
    center: jax.Array
    orientation: jax.Array


@struct.dataclass
class RigidBodyShape:
    points: jax.Array        # (total_points, spatial_dim)
    masses: jax.Array        # (total_points,)
    point_count: jax.Array   # (number_of_body_types,)
    point_offset: jax.Array  # (number_of_body_types,)
    point_species: Optional[jax.Array] = None
    point_radius: float = 0.5

    def sum_over_shapes(self, x):
        shape_count = len(self.point_count)
        shape_idx = jnp.repeat(jnp.arange(shape_count), self.point_count)  # <-- bug
        return ops.segment_sum(x, shape_idx, shape_count)

    def moment_of_inertia(self):
        I_disk = 1 / 2 * self.point_radius ** 2

        @vmap
        def per_particle(point, mass):
            return mass * ((point[0] ** 2 + point[1] ** 2) + I_disk)

        return self.sum_over_shapes(per_particle(self.points, self.masses))

    def mass(self, species=None):
        return RigidBody(self.sum_over_shapes(self.masses)[species], self.moment_of_inertia()[species])


if __name__ == "__main__":
    square = jnp.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
    dimer = jnp.array([[-0.5, 0.0], [0.5, 0.0]])
    shape = RigidBodyShape(
        points=jnp.concatenate([square, dimer]),
        masses=jnp.ones(6),
        point_count=jnp.array([4, 2]),
        point_offset=jnp.array([0, 4]),
    )
    species = jnp.array([0, 1, 1, 0])

    @jax.jit
    def kinetic_energy(shape, velocity, angular_velocity):
        m = shape.mass(species)
        return 0.5 * jnp.sum(m.center * velocity ** 2) + 0.5 * jnp.sum(m.orientation * angular_velocity ** 2)

    print(kinetic_energy(shape, jnp.ones(4), jnp.arange(4.0)))
