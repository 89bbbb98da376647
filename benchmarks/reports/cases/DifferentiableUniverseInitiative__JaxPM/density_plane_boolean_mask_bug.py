# source: https://github.com/DifferentiableUniverseInitiative/JaxPM/commit/88cff997367f85a5556fb6f60d727abd62f97601
# category: A
# expect: raises
# via: jit-decorator, helper
# sink: boolean-mask
"""density_plane kept only the particles inside a lens plane with `xy[mask]`, a boolean mask built
from the particle positions; inside the jitted lensing forward model the mask is traced and the
selection would have a data-dependent size."""
import jax
import jax.numpy as jnp
from jax import lax


def cic_paint_2d(mesh, positions):
    """Paints positions onto a 2d mesh."""
    positions = jnp.expand_dims(positions, 1)
    floor = jnp.floor(positions)
    connection = jnp.array([[0, 0], [1.0, 0], [0.0, 1], [1.0, 1]])
    neighboor_coords = floor + connection
    kernel = 1.0 - jnp.abs(positions - neighboor_coords)
    kernel = kernel[..., 0] * kernel[..., 1]
    neighboor_coords = jnp.mod(neighboor_coords.reshape([-1, 4, 2]).astype("int32"), jnp.array(mesh.shape))
    dnums = lax.ScatterDimensionNumbers(
        update_window_dims=(), inserted_window_dims=(0, 1), scatter_dims_to_operand_dims=(0, 1))
    return lax.scatter_add(mesh, neighboor_coords, kernel.reshape([-1, 4]), dnums)


def density_plane(positions, box_shape, center, width, plane_resolution):
    nx, ny, nz = box_shape
    xy = positions[..., :2]
    d = positions[..., 2]
    xy = jnp.mod(xy, nx)
    xy = xy / nx * plane_resolution
    # Selecting only particles that fall inside the volume of interest
    mask = (d > (center - width / 2)) & (d <= (center + width / 2))
    xy = xy[mask]  # <-- bug
    plane = cic_paint_2d(jnp.zeros([plane_resolution, plane_resolution]), xy)
    return plane / ((nx / plane_resolution) * (ny / plane_resolution) * width)


@jax.jit
def lensing_planes(positions):
    return jnp.stack([density_plane(positions, (32, 32, 32), c, 8.0, 16) for c in (4.0, 12.0, 20.0, 28.0)])


if __name__ == "__main__":
    positions = jax.random.uniform(jax.random.PRNGKey(0), (2048, 3)) * 32
    print(lensing_planes(positions).sum(axis=(1, 2)))
