# source: https://github.com/google/flax/issues/1496
# category: C
# expect: ok
# via: flax-linen, factory-closure
# sink: leaked-tracer
"""The dynamics' parameters are declared with `self.param` before `odeint` is called, and the
dynamics function only closes over the arrays, so nothing is created inside odeint's trace."""
import flax.linen as nn
import jax
import jax.numpy as jnp
from jax.experimental.ode import odeint


class ODEBlock(nn.Module):
    features: int = 2

    @nn.compact
    def __call__(self, y0):
        kernel = self.param("kernel", nn.initializers.lecun_normal(), (y0.shape[-1], self.features))
        bias = self.param("bias", nn.initializers.zeros, (self.features,))

        def f(y, t):
            return jnp.tanh(y @ kernel + bias)

        return odeint(f, y0, jnp.array([0.0, 1.0]))[-1]


if __name__ == "__main__":
    model = ODEBlock()
    y0 = jnp.ones(2)
    variables = model.init(jax.random.PRNGKey(0), y0)
    print(model.apply(variables, y0))
