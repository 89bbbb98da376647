# source: https://github.com/JaxGaussianProcesses/GPJax/pull/504
# category: A
# expect: raises
# via: flax-nnx, class-attribute, jit-call
# sink: python-if
"""GPJax's PositiveReal parameter checked `if jnp.any(value < 0): raise ...` when constructed, so
building an RBF kernel inside a jitted function from a traced lengthscale failed on the check.
The PR turns the checks into checkify assertions and jits `checkify.checkify(compute_gram)`."""
import jax
import jax.numpy as jnp
from flax import nnx
from jax.experimental import checkify


class Parameter(nnx.Variable):
    def __init__(self, value, tag=None, **kwargs):
        super().__init__(value=jnp.asarray(value), tag=tag, **kwargs)


def _check_is_positive(value):
    if jnp.any(value < 0):  # <-- bug
        raise ValueError(f"Expected parameter value to be strictly positive. Got {value}.")


class PositiveReal(Parameter):
    def __init__(self, value, tag="positive", **kwargs):
        super().__init__(value=value, tag=tag, **kwargs)
        _check_is_positive(self.value)


class RBF(nnx.Module):
    def __init__(self, active_dims, lengthscale=1.0, variance=1.0):
        self.active_dims = active_dims
        self.lengthscale = PositiveReal(lengthscale)
        self.variance = PositiveReal(variance)

    def gram(self, x):
        x = x[:, self.active_dims] / self.lengthscale.value
        sq = jnp.sum((x[:, None, :] - x[None, :, :]) ** 2, axis=-1)
        return self.variance.value * jnp.exp(-0.5 * sq)


x = jnp.linspace(0, 1, 10)[:, None]


def compute_gram(lengthscale):
    k = RBF(active_dims=[0], lengthscale=lengthscale, variance=jnp.array(1.0))
    return k.gram(x)


if __name__ == "__main__":
    print(compute_gram(1.0).sum())
    jit_compute_gram = jax.jit(compute_gram)
    print(jit_compute_gram(1.0).sum())
