# source: https://github.com/PyAutoLabs/PyAutoLens/issues/498
# category: A
# expect: raises
# via: jit-call, helper, method, class-attribute
# sink: bool-ops
"""With the subhalo redshift as a free parameter, the jitted likelihood builds a tracer whose
planes come from `sorted(galaxies, key=lambda galaxy: galaxy.redshift)`; one key is traced, so
the pairwise `<` of the sort needs a concrete bool."""
from typing import List

import jax
import jax.numpy as jnp
import numpy as np


class Galaxy:
    def __init__(self, redshift, einstein_radius=0.0):
        self.redshift = redshift
        self.einstein_radius = einstein_radius

    def deflections_yx_2d_from(self, grid):
        r = jnp.sqrt(jnp.sum(grid ** 2, axis=-1, keepdims=True)) + 1e-8
        return self.einstein_radius * grid / r


def plane_redshifts_from(galaxies: List[Galaxy]) -> List[float]:
    galaxies_ascending_redshift = sorted(galaxies, key=lambda galaxy: galaxy.redshift)  # <-- bug
    plane_redshifts = [float(galaxy.redshift) for galaxy in galaxies_ascending_redshift]
    return list(dict.fromkeys(plane_redshifts))


class Tracer:
    def __init__(self, galaxies):
        self.galaxies = galaxies
        self.plane_redshifts = plane_redshifts_from(galaxies)

    def traced_grid(self, grid):
        # one deflection per plane in front of the source plane
        for galaxy in self.galaxies[: len(self.plane_redshifts) - 1]:
            grid = grid - galaxy.deflections_yx_2d_from(grid)
        return grid


grid = jnp.stack(jnp.meshgrid(jnp.linspace(-1, 1, 8), jnp.linspace(-1, 1, 8)), axis=-1).reshape(-1, 2)
data = jnp.ones(grid.shape[0])


@jax.jit
def log_likelihood(parameters):
    lens = Galaxy(redshift=0.5, einstein_radius=parameters[0])
    subhalo = Galaxy(redshift=parameters[1], einstein_radius=0.05)
    source = Galaxy(redshift=1.0)
    tracer = Tracer(galaxies=[lens, subhalo, source])
    source_plane = tracer.traced_grid(grid)
    model = jnp.exp(-jnp.sum(source_plane ** 2, axis=-1))
    return -0.5 * jnp.sum((data - model) ** 2)


if __name__ == "__main__":
    print(log_likelihood(jnp.array([1.2, 0.55])))
