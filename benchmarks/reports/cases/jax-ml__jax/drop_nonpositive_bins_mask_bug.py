# source: https://github.com/jax-ml/jax/issues/2765
# category: A
# expect: raises
# via: jit-decorator, grad, helper
# sink: boolean-mask
"""In a workflow meant to be differentiable and jitted end to end, a helper dropped the
non-positive entries of an array with `thing = thing[thing > 0]`; under jit the mask was
traced and the result's length depended on the data."""
import jax
import jax.numpy as jnp


def keep_positive(thing):
    thing = thing[thing > 0]  # <-- bug
    return thing


def histogram_counts(params, data, edges):
    centers = 0.5 * (edges[1:] + edges[:-1])
    width = edges[1] - edges[0]
    weights = jax.nn.sigmoid((data[:, None] - params[0]) * params[1])
    kernel = jnp.exp(-0.5 * ((data[:, None] - centers[None, :]) / width) ** 2)
    return jnp.sum(weights * kernel, axis=0) - 0.5


@jax.jit
def loss(params, data, edges):
    counts = histogram_counts(params, data, edges)
    counts = keep_positive(counts)
    return -jnp.sum(jnp.log1p(counts))


if __name__ == "__main__":
    data = jax.random.normal(jax.random.PRNGKey(0), (200,))
    edges = jnp.linspace(-3.0, 3.0, 11)
    params = jnp.array([0.0, 2.0])
    for step in range(3):
        g = jax.grad(loss)(params, data, edges)
        params = params - 0.01 * g
        print(step, loss(params, data, edges))
