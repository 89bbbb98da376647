# source: https://github.com/patrick-kidger/diffrax/issues/108
# category: C
# expect: ok
# via: haiku, equinox, lax-scan, other-module
# sink: leaked-tracer
"""The Haiku `Func` is transformed on its own, and `diffeqsolve` integrates its pure `apply` with
the parameters passed through `args`, so nothing stateful runs inside the solver's trace."""
import equinox as eqx
import haiku as hk
import jax
import jax.numpy as jnp


class ODETerm(eqx.Module):  # reduced from diffrax
    vector_field: object

    def vf(self, t, y, args):
        return self.vector_field(t, y, args)


@eqx.filter_jit
def diffeqsolve(terms, t0, t1, dt0, y0, args=None):  # reduced from diffrax: fixed-step Euler
    n = int(round((t1 - t0) / dt0))

    def step(y, i):
        t = t0 + i * dt0
        y = y + dt0 * terms.vf(t, y, args)
        return y, y

    _, ys = jax.lax.scan(step, y0, jnp.arange(n))
    return ys


class Func(hk.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.layers = [hk.Linear(10), jax.nn.relu, hk.Linear(2)]

    def __call__(self, t, y, args):
        for layer in self.layers:
            y = layer(y)
        return y


func = hk.without_apply_rng(hk.transform(lambda t, y, args: Func()(t, y, args)))


def vector_field(t, y, params):
    return func.apply(params, t, y, None)


def network(params, ts, y0):
    return diffeqsolve(ODETerm(vector_field), 0.0, 1.0, 0.1, y0, args=params)


if __name__ == "__main__":
    ts = jnp.linspace(0.0, 1.0, 11)
    y0 = jnp.ones(2)
    params = func.init(jax.random.PRNGKey(0), 0.0, y0, None)
    print(network(params, ts, y0)[-1])
