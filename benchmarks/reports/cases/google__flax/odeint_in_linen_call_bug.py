# source: https://github.com/google/flax/issues/1496
# category: C
# expect: raises
# via: flax-linen, factory-closure
# sink: leaked-tracer
"""The reporter calls `jax.experimental.ode.odeint` inside a Linen `Module.__call__` on a dynamics
function that applies a submodule; at init the submodule creates its parameters inside odeint's
trace, so they come back as escaped tracers and apply fails on them."""
import flax.linen as nn
import jax
import jax.numpy as jnp
from jax.experimental.ode import odeint


class ODEBlock(nn.Module):
    features: int = 2

    @nn.compact
    def __call__(self, y0):
        dynamics = nn.Dense(self.features)

        def f(y, t):
            return jnp.tanh(dynamics(y))  # <-- bug

        return odeint(f, y0, jnp.array([0.0, 1.0]))[-1]


if __name__ == "__main__":
    model = ODEBlock()
    y0 = jnp.ones(2)
    variables = model.init(jax.random.PRNGKey(0), y0)
    print(model.apply(variables, y0))  # <-- bug
