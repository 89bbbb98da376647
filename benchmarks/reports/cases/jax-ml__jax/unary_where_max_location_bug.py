# source: https://github.com/jax-ml/jax/issues/4585
# category: A
# expect: raises
# via: jit-call, vmap, helper
# sink: shape-from-value
"""To find the location of the (unique) maximum of a grid inside a jitted function, the reporter
used the one-argument `jnp.where(a == jnp.max(a))`; its output size depends on the data, so
tracing it failed."""
import jax
import jax.numpy as jnp
from jax import jit


def max_location(a):
    idx = jnp.where(a == jnp.max(a))  # <-- bug
    return jnp.stack([i[0] for i in idx])


def log_likelihood_grid(center, xs, ys):
    X, Y = jnp.meshgrid(xs, ys, indexing="ij")
    return -((X - center[0]) ** 2 + (Y - center[1]) ** 2)


def locate_peak(center, xs, ys):
    grid = log_likelihood_grid(center, xs, ys)
    i, j = max_location(grid)
    return jnp.array([xs[i], ys[j]])


if __name__ == "__main__":
    xs = jnp.linspace(-1.0, 1.0, 21)
    ys = jnp.linspace(-1.0, 1.0, 31)
    centers = jnp.array([[0.1, -0.2], [0.5, 0.5], [-0.7, 0.3]])
    print(jit(jax.vmap(locate_peak, in_axes=(0, None, None)))(centers, xs, ys))
