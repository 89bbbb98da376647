# source: https://github.com/CMBSciPol/jax-healpy/blob/808d24dc6407c6e5a381b4f3ae2d5ece1bbd379e/tests/clustering/test_kmeans.py#L55
# category: R
# expect: ok
# via: jit-call, static-argnums, lax-fori, host-loop
# sink: changing-static
"""jax-healpy's `get_clusters` sizes its k-means centroids from `n_regions` unless a
`max_centroids` bound is given, so without the bound `n_regions` has to be static and a jitted
`get_clusters` is compiled again for every number of regions asked for; the library's test jits
a wrapper that passes `max_centroids=10` and `n_regions` as a traced value, and asserts a single
trace for 5 and then 10 regions.  (jax-healpy is not installed: `get_clusters` is reduced to a
plain k-means on the pixel coordinates of the mask.)"""
import jax
import jax.numpy as jnp


def get_clusters(mask, indices, n_regions, key, max_centroids=None, n_iter=20):
    npix = mask.shape[0]
    theta = jnp.arccos(1.0 - 2.0 * (indices + 0.5) / npix)
    phi = (indices * 2.399963) % (2 * jnp.pi)
    points = jnp.stack([jnp.sin(theta) * jnp.cos(phi), jnp.sin(theta) * jnp.sin(phi), jnp.cos(theta)], -1)
    n_centroids = n_regions if max_centroids is None else max_centroids
    centroids = points[jax.random.choice(key, points.shape[0], (n_centroids,), replace=False)]
    active = jnp.arange(n_centroids) < n_regions

    def body(_, centroids):
        dist = jnp.sum((points[:, None, :] - centroids[None, :, :]) ** 2, -1)
        labels = jnp.argmin(jnp.where(active[None, :], dist, jnp.inf), axis=1)
        onehot = jax.nn.one_hot(labels, n_centroids)
        sums = onehot.T @ points
        counts = jnp.sum(onehot, 0)[:, None]
        return jnp.where(counts > 0, sums / jnp.maximum(counts, 1.0), centroids)

    centroids = jax.lax.fori_loop(0, n_iter, body, centroids)
    dist = jnp.sum((points[:, None, :] - centroids[None, :, :]) ** 2, -1)
    labels = jnp.argmin(jnp.where(active[None, :], dist, jnp.inf), axis=1)
    return jnp.full(npix, -1.6375e30).at[indices].set(labels.astype(jnp.float32))


def test_kmeans_jit(mask):
    (indices,) = jnp.where(mask == 1)
    key = jax.random.key(0)

    @jax.jit
    def jit_clusters(mask, indices, n_regions):
        return get_clusters(mask, indices, n_regions, key, max_centroids=10)

    for n_regions in (5, 10):
        clustered = jit_clusters(mask, indices, n_regions)
        print(n_regions, jnp.unique(clustered[indices]).shape[0])


if __name__ == "__main__":
    npix = 12 * 8**2
    test_kmeans_jit(jnp.ones(npix).at[: npix // 4].set(0.0))
