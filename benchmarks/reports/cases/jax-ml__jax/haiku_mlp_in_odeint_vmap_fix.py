# source: https://github.com/jax-ml/jax/issues/7142
# category: C
# expect: ok
# via: haiku, vmap, factory-closure
# sink: leaked-tracer
"""The MLP is transformed on its own and `odeint` integrates the pure `apply` function with the
parameters passed in explicitly, so no Haiku state is touched inside the solver's trace."""
import haiku as hk
import jax
import jax.numpy as jnp
from jax.experimental.ode import odeint


class ODEFunc(hk.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.mlp = hk.nets.MLP([8, 2])

    def __call__(self, y, t):
        return jnp.tanh(self.mlp(y))


odefunc = hk.without_apply_rng(hk.transform(lambda y, t: ODEFunc()(y, t)))


def forward(params, ys):
    ts = jnp.array([0.0, 1.0])

    def solve(y0):
        return odeint(lambda y, t: odefunc.apply(params, y, t), y0, ts)[-1]

    return jax.vmap(solve)(ys)


if __name__ == "__main__":
    ys = jnp.ones((4, 2))
    params = odefunc.init(jax.random.PRNGKey(0), ys[0], 0.0)
    print(forward(params, ys))
