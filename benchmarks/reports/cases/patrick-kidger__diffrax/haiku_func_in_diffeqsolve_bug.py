# source: https://github.com/patrick-kidger/diffrax/issues/108
# category: C
# expect: raises
# via: haiku, equinox, lax-scan, other-module
# sink: leaked-tracer
"""Following the neural-ODE example with a Haiku `Func` instead of an Equinox one, the reporter
calls `diffeqsolve` on `ODETerm(self.func)` inside a Haiku module; `diffeqsolve` is filter-jitted,
so the Linear layers create their parameters inside its trace and apply fails on them."""
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
            y = layer(y)  # <-- bug
        return y


class NeuralODE(hk.Module):
    def __call__(self, ts, y0):
        self.func = Func()
        return diffeqsolve(ODETerm(self.func), 0.0, 1.0, 0.1, y0)


def network(ts, y0):
    return NeuralODE()(ts, y0)


if __name__ == "__main__":
    model = hk.without_apply_rng(hk.transform(network))
    ts = jnp.linspace(0.0, 1.0, 11)
    y0 = jnp.ones(2)
    params = model.init(jax.random.PRNGKey(0), ts, y0)
    print(model.apply(params, ts, y0)[-1])  # <-- bug
