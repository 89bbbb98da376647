# source: https://github.com/pyro-ppl/numpyro/pull/821
# category: A
# expect: ok
# via: helper, jit-call, class-attribute
# sink: python-if
"""The comparison is made with NumPy, `np.all(np.less(concentration, 0))`, as in the pull request:
on the concrete concentration it gives a concrete bool even inside the jitted function."""
import jax
import jax.numpy as jnp
import numpy as np


def not_jax_tracer(x):
    return not isinstance(x, jax.core.Tracer)


class GeneralizedPareto:
    def __init__(self, loc, scale, concentration):
        self.loc, self.scale, self.concentration = jnp.asarray(loc), jnp.asarray(scale), jnp.asarray(concentration)

    def forward(self, x):
        return self.loc + self.scale * jnp.expm1(self.concentration * jax.nn.softplus(x)) / self.concentration


def _get_codomain(bijector):
    if bijector.__class__.__name__ == "GeneralizedPareto":
        loc, scale, concentration = bijector.loc, bijector.scale, bijector.concentration
        if not_jax_tracer(concentration) and np.all(np.less(concentration, 0)):
            return ("interval", loc, loc + scale / jnp.abs(concentration))
        return ("greater_than", loc)
    return ("real",)


bijector = GeneralizedPareto(loc=1.0, scale=2.0, concentration=jnp.array([0.5, 0.25]))


@jax.jit
def transform_and_clip(x):
    codomain = _get_codomain(bijector)
    y = bijector.forward(x)
    return jnp.maximum(y, codomain[1])


if __name__ == "__main__":
    print(transform_and_clip(jnp.array([0.1, -0.3])))
