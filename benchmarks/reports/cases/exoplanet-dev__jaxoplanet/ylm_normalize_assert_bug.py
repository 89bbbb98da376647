# source: https://github.com/exoplanet-dev/jaxoplanet/issues/234
# category: A
# expect: raises
# via: jit-call, equinox, class-attribute, method, dict-of-arrays
# sink: python-if
"""Ylm.normalize asserted that the (0, 0) coefficient was non-zero; building a Ylm map from a
dense coefficient array inside a jitted light-curve function (as when sampling with numpyro)
made that coefficient a tracer, and the assert could not turn it into a Python bool."""
import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


class Ylm(eqx.Module):
    data: dict
    deg: int = eqx.field(static=True)

    def __init__(self, data=None):
        if data is None:
            data = {(0, 0): 1.0}
        self.data = dict(data)
        self.deg = max(ell for ell, _ in data.keys())

    @staticmethod
    def index(l, m):
        return l * (l + 1) + m

    def normalize(self) -> "Ylm":
        assert self.data[(0, 0)] != 0.0, ValueError(  # <-- bug
            "The (0, 0) coefficient must be non-zero to normalize"
        )
        data = {k: v / self.data[(0, 0)] for k, v in self.data.items()}
        return Ylm(data=data)

    def todense(self):
        out = jnp.zeros((self.deg + 1) ** 2)
        for (l, m), v in self.data.items():
            out = out.at[Ylm.index(l, m)].set(v)
        return out

    @classmethod
    def from_dense(cls, y, normalize=True) -> "Ylm":
        data = {}
        for i, ylm in enumerate(y):
            l = int(np.floor(np.sqrt(i)))
            m = i - l * (l + 1)
            data[(l, m)] = ylm
        ylm = cls(data)
        return ylm.normalize() if normalize else ylm


def compute_light_curve(params, times):
    y = Ylm.from_dense(jnp.array([1.0, 0, params["y10"], 0.0]))
    phase = 2 * jnp.pi * times / params["period"]
    dense = y.todense()
    return params["amplitude"] * (dense[0] + dense[2] * jnp.cos(phase))


if __name__ == "__main__":
    params = {"y10": 0.3, "period": 1.5, "amplitude": 2.0}
    times = jnp.linspace(0.0, 3.0, 8)
    print(jax.jit(compute_light_curve)(params, times))
