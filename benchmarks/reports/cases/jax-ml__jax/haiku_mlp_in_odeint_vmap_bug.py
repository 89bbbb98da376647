# source: https://github.com/jax-ml/jax/issues/7142
# category: C
# expect: raises
# via: haiku, vmap, factory-closure
# sink: leaked-tracer
"""Inside an `hk.transform`ed function the reporter integrates a Haiku MLP with `odeint` and
batches it with `jax.vmap`; the MLP creates its parameters inside the ODE solver's trace, so
init returns escaped tracers as parameters and apply fails on them."""
import haiku as hk
import jax
import jax.numpy as jnp
from jax.experimental.ode import odeint


class ODEFunc(hk.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.mlp = hk.nets.MLP([8, 2])

    def __call__(self, y, t):
        return jnp.tanh(self.mlp(y))  # <-- bug


def forward(ys):
    odefunc = ODEFunc()
    ts = jnp.array([0.0, 1.0])

    def solve(y0):
        return odeint(odefunc, y0, ts)[-1]

    return jax.vmap(solve)(ys)


if __name__ == "__main__":
    model = hk.without_apply_rng(hk.transform(forward))
    ys = jnp.ones((4, 2))
    params = model.init(jax.random.PRNGKey(0), ys)
    print(model.apply(params, ys))  # <-- bug
