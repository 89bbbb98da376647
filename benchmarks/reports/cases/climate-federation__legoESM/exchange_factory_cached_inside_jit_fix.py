# source: https://github.com/climate-federation/legoESM/issues/327
# category: C
# expect: ok
# via: factory-closure, helper, jit-decorator
# sink: global-write
"""`activate_spmd_halo_backend` builds the halo exchanges into the module-level `_cache` before any
trace starts, so the jitted step and the later jitted diagnostic both get a cache hit whose closure
holds concrete connectivity tables."""
import jax
import jax.numpy as jnp
import numpy as np

WEST, EAST, SOUTH, NORTH = 0, 1, 2, 3

# face -> (W, E, S, N) neighbour faces (a simplified cubed-sphere connectivity)
_NBR_FACES = np.array([
    [3, 1, 5, 4],
    [0, 2, 5, 4],
    [1, 3, 5, 4],
    [2, 0, 5, 4],
    [3, 1, 0, 2],
    [3, 1, 2, 0],
], dtype=np.int32)


def _make_exchange_allgather(mesh, ndim):
    """Build the exchange that fills every face's one-cell halo from its neighbours."""
    nbr_faces = jnp.asarray(_NBR_FACES)

    def _exchange(data):
        n = data.shape[1]
        pad = [(0, 0), (1, 1), (1, 1)] + [(0, 0)] * (ndim - 3)
        padded = jnp.pad(data, pad)
        padded = padded.at[:, 0, 1:-1].set(data[nbr_faces[:, WEST], -1, :])
        padded = padded.at[:, -1, 1:-1].set(data[nbr_faces[:, EAST], 0, :])
        padded = padded.at[:, 1:-1, 0].set(data[nbr_faces[:, SOUTH], :, -1])
        padded = padded.at[:, 1:-1, -1].set(data[nbr_faces[:, NORTH], :, 0])
        return padded

    return _exchange


_cache: dict[tuple, object] = {}
_active_mesh = None


def _get_exchange(mesh, ndim, use_ppermute):
    key = (id(mesh), ndim, use_ppermute)
    if key not in _cache:
        _cache[key] = _make_exchange_allgather(mesh, ndim)
    return _cache[key]


def activate_spmd_halo_backend(mesh, n):
    global _active_mesh
    _active_mesh = mesh
    # pre-warm the exchange cache outside any trace
    for ndim in (3, 4):
        _get_exchange(mesh, ndim, False)


def explicit_pad_halo(data, mesh, halo=1):
    return _get_exchange(mesh, 3, False)(data)


if __name__ == "__main__":
    mesh = jax.sharding.Mesh(np.array(jax.devices()[:1]), ("face",))
    n = 8
    activate_spmd_halo_backend(mesh, n=n)
    h = jax.random.normal(jax.random.PRNGKey(327), (6, n, n))

    @jax.jit
    def _step_cell_centre(h):
        hp = explicit_pad_halo(h, mesh)
        lap = hp[:, :-2, 1:-1] + hp[:, 2:, 1:-1] + hp[:, 1:-1, :-2] + hp[:, 1:-1, 2:] - 4 * h
        return h + 0.1 * lap

    @jax.jit
    def halo_energy(h):
        return jnp.sum(explicit_pad_halo(h, mesh) ** 2)

    for _ in range(3):
        h = _step_cell_centre(h)
    print("energy:", halo_energy(h))
