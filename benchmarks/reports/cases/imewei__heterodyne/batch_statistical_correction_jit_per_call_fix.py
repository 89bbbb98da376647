# source: https://github.com/imewei/heterodyne/commit/5efbefd244fd30281602de4f8b4d718874500719
# category: R
# expect: ok
# via: helper, factory-closure, jit-call, vmap, partial-jit, static-argnums, host-loop
# sink: fresh-callable
"""`apply_diagonal_correction_batch` takes its `jax.jit(jax.vmap(...))` statistical correction
from an `lru_cache`d factory keyed on the width, so every batch of two-time correlation
matrices of the same shape reuses the compiled function.
(The correlation data is synthetic.)"""
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=(1, 2))
def _apply_statistical_correction_jax(c2, width, estimator="mean"):
    n = c2.shape[0]
    col_idx = jnp.arange(n, dtype=jnp.int32)
    dist = jnp.abs(col_idx[None, :] - col_idx[:, None])
    band_mask = dist < width
    window_mask = (dist >= width) & (dist < width + 3)
    c2_masked = jnp.where(window_mask, c2, jnp.nan)
    row_stats = jnp.nanmean(c2_masked, axis=1)
    replacement = jnp.broadcast_to(row_stats[:, None], (n, n))
    return jnp.where(band_mask, replacement, c2)


@functools.lru_cache(maxsize=8)
def _get_batch_statistical_fn(width):
    def _correct_one(c2):
        return _apply_statistical_correction_jax(c2, width)

    return jax.jit(jax.vmap(_correct_one))


def apply_diagonal_correction_batch(c2_batch, width=1, method="statistical"):
    if c2_batch.ndim != 3:
        raise ValueError(f"c2_batch must be 3-D, got {c2_batch.ndim}-D")
    if method == "statistical":
        return _get_batch_statistical_fn(width)(c2_batch)
    raise ValueError(f"unknown method {method!r}")


if __name__ == "__main__":
    t = jnp.arange(16.0)
    base = jnp.exp(-jnp.abs(t[:, None] - t[None, :]) / 5.0)
    for q_bin in range(3):
        noise = 0.05 * jax.random.normal(jax.random.PRNGKey(q_bin), (4, 16, 16))
        c2_batch = 1.0 + (0.3 + 0.1 * q_bin) * base + noise
        corrected = apply_diagonal_correction_batch(c2_batch, width=2)
        print(q_bin, round(float(jnp.mean(jnp.diagonal(corrected, axis1=1, axis2=2))), 5))
